#!/usr/bin/env python3
"""Writes the seeds of fuzz/corpus/ that npuconf itself makes: case JSON from
`npuconf case --json`, report.json files of small runs (a pass, a mutant's
failure, a shard, a waived failure), their results as the CBOR frames a worker
sends, and vector files cut to their smallest passing and refused case.

    fuzz/make_corpus.py build/npuconf

It also writes the seeds that need no npuconf (`fuzz/make_corpus.py --static`
writes only those): small .npy files numpy writes (python3-numpy; dtypes and
shapes of vectors' side files, Fortran order, a version 2.0 file, truncated
ones) and the built-in profiles/**.json as they are.

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


def static_seeds():
    import io

    import numpy as np

    def npy(array, version=None):
        out = io.BytesIO()
        np.lib.format.write_array(out, array, version=version, allow_pickle=False)
        return out.getvalue()

    arrays = {
        "f2-2x3": np.arange(6, dtype="<f2").reshape(2, 3),
        "f4-3": np.array([1.5, -2, 0], dtype="<f4"),
        "i1-4": np.array([-128, -1, 0, 127], dtype="|i1"),
        "u1-scalar": np.array(7, dtype="|u1"),
        "i2-2x0": np.zeros((2, 0), dtype="<i2"),
        "i4-1x2x2": np.arange(4, dtype="<i4").reshape(1, 2, 2),
        "i8-2": np.array([-(2**63), 2**63 - 1], dtype="<i8"),
        "u8-1": np.array([2**64 - 1], dtype="<u8"),
        "u2-bf16-bits-2": np.array([0x3F80, 0xFFFF], dtype="<u2"),
    }
    for name, array in arrays.items():
        put("npy", name, npy(array))
    put("npy", "fortran-order-2x2", npy(np.asfortranarray(np.arange(4, dtype="<f4").reshape(2, 2))))
    put("npy", "version-2.0", npy(np.arange(3, dtype="|u1"), version=(2, 0)))
    whole = npy(np.arange(6, dtype="<f2").reshape(2, 3))
    put("npy", "truncated-in-header", whole[:40])
    put("npy", "truncated-in-data", whole[:-3])

    for family in sorted(os.listdir(os.path.join(ROOT, "profiles"))):
        folder = os.path.join(ROOT, "profiles", family)
        for file in sorted(os.listdir(folder)):
            if file.endswith(".json"):
                with open(os.path.join(folder, file), "rb") as f:
                    put("profile", file[: -len(".json")], f.read())


def main():
    static_seeds()
    if sys.argv[1:] == ["--static"]:
        return
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
