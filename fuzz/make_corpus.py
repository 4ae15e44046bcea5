#!/usr/bin/env python3
"""Writes the seeds of fuzz/corpus/ that npuconf itself makes: case JSON from
`npuconf case --json`, report.json files of small runs (a pass, a mutant's
failure, a shard, a waived failure), their results as the CBOR frames a worker
sends, and vector files cut to their smallest passing and refused case.

    fuzz/make_corpus.py build/npuconf

Hand-written seeds (handshake and answer lines, claims, waivers, case text)
live beside them in the corpus and are left alone; so are regression inputs.
"""
import json
import os
import struct
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def cbor(value):
    """The CBOR of a JSON value (RFC 8949, the subset nlohmann::json::to_cbor writes)."""

    def head(major, n):
        if n < 24:
            return bytes([major << 5 | n])
        for extra, fmt in ((24, ">B"), (25, ">H"), (26, ">I"), (27, ">Q")):
            if n < 1 << (8 * struct.calcsize(fmt)):
                return bytes([major << 5 | extra]) + struct.pack(fmt, n)
        raise ValueError(n)

    if value is None:
        return b"\xf6"
    if value is True or value is False:
        return b"\xf5" if value else b"\xf4"
    if isinstance(value, int):
        return head(0, value) if value >= 0 else head(1, -1 - value)
    if isinstance(value, float):
        return b"\xfb" + struct.pack(">d", value)
    if isinstance(value, str):
        data = value.encode()
        return head(3, len(data)) + data
    if isinstance(value, list):
        return head(4, len(value)) + b"".join(cbor(v) for v in value)
    return head(5, len(value)) + b"".join(cbor(k) + cbor(v) for k, v in value.items())


def put(target, name, data):
    path = os.path.join(HERE, "corpus", target, name)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(data if isinstance(data, bytes) else data.encode())


def run(npuconf, *args):
    return subprocess.run([npuconf, *args], capture_output=True, text=True)


def main():
    npuconf = os.path.abspath(sys.argv[1])
    cases = {
        "nd-to-nz": ["cann.nd_to_nz", "profile=ascend910b", "dtype=FLOAT16", "seed=7", "shape=[2,3]"],
        "size-v2": ["cann.calculate_matmul_weight_size_v2", "profile=ascend910b", "dtype=INT8",
                    "shape=[510,270]"],
        "matmul-create": ["rknn.matmul_create", "profile=rk3588", "M=1", "K=128", "N=16", "type=1"],
        "int4-pack": ["rknn.int4_pack", "profile=rk3588", "seed=3", "count=7"],
    }
    for name, words in cases.items():
        out = run(npuconf, "case", "--json", *words)
        if out.returncode != 0:
            sys.exit("npuconf case %s: %s" % (" ".join(words), out.stderr))
        doc = json.loads(out.stdout)
        put("case_json", name, json.dumps(doc["case"], sort_keys=True))

    small = ["--no-real-shapes", "--cases", "3", "--jobs", "1"]
    runs = {
        "pass": ["--profile", "ascend910b", "--routine", "cann.nd_to_nz"],
        "mutant-fail": ["--port", "mutant:nz-padding-unwritten", "--profile", "ascend910b",
                        "--property", "cann.nd_to_nz.padding_is_zero"],
        "shard": ["--profile", "rk3588", "--routine", "rknn.int4_*", "--shard", "1/2"],
    }
    with tempfile.TemporaryDirectory() as tmp:
        waivers = os.path.join(tmp, "waivers.json")
        with open(waivers, "w") as f:
            json.dump({"waivers": [
                {"property": "cann.nd_to_nz.padding_*", "profile": "ascend910b",
                 "reason": "fix lands with #123", "expires": "2999-12-31"},
                {"property": "cann.nz_to_nd.*", "profile": "*", "reason": "stale",
                 "expires": "2999-12-31"}]}, f)
        runs["waived"] = runs["mutant-fail"] + ["--waivers", waivers]
        for name, args in runs.items():
            out_dir = os.path.join(tmp, name)
            run(npuconf, "run", *small, *args, "--out", out_dir)
            with open(os.path.join(out_dir, "report.json")) as f:
                report = json.load(f)
            put("report_json", name, json.dumps(report, indent=1))
            for i, result in enumerate(report["results"][:2]):
                put("result_cbor", "%s-%d" % (name, i), cbor(result))

    corpus = os.path.join(ROOT, "vectors", "corpus")
    for file in sorted(os.listdir(corpus)):
        with open(os.path.join(corpus, file)) as f:
            doc = json.load(f)
        keep = []
        for passing in (True, False):
            group = [c for c in doc["cases"] if (c["expected"]["status"] == 0) == passing]
            if group:
                keep.append(min(group, key=lambda c: len(json.dumps(c))))
        doc["cases"] = keep
        put("vector_file", file[: -len(".json")], json.dumps(doc, indent=1, sort_keys=True) + "\n")


if __name__ == "__main__":
    main()
