"""Tests of the npuconf_port module (python/npuconf_port): what it says on the
exec: protocol (docs/port-protocol.md) for each kind of routine answer, and ports
written with it under `npuconf run` (NPUCONF_BINARY: the npuconf program).

Run: NPUCONF_BINARY=build/npuconf /usr/bin/python3 -m unittest tests/python/test_npuconf_port.py
"""
import base64
import json
import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.path.normpath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, os.path.join(SOURCE, "python"))

import numpy  # noqa: E402

import npuconf_port  # noqa: E402

PYTHON = "/usr/bin/python3"


def nd_case(shape, dtype="FLOAT16", data=b"", output_path=None, capacity=512):
    inputs = {"nd": {"dtype": dtype, "shape": shape, "bytes": len(data), "encoding": "base64",
                     "data": base64.b64encode(data).decode()}}
    output = {"name": "nz", "dtype": dtype, "capacity_bytes": capacity, "null": False}
    if output_path:
        output["path"] = output_path
    return {"routine": "cann.nd_to_nz", "profile": "ascend910b",
            "params": {"shape": shape, "dtype": dtype}, "inputs": inputs, "outputs": [output]}


def port_with(function, claims=("cann.nd_to_nz:ascend910b",)):
    return npuconf_port.Port("t", list(claims), {"cann.nd_to_nz": function})


class Answers(unittest.TestCase):
    def answer(self, function, case=None, **kw):
        return port_with(function, **kw).answer({"id": 7, "case": case or nd_case([2, 3])})

    def test_handshake_names_the_protocol_and_passes_the_claims_verbatim(self):
        claims = ["cann.nd_to_nz:ascend910b:dtype=INT8", "choice:cann.size.overflow=param_invalid"]
        hello = npuconf_port.Port("p", claims, {"cann.nd_to_nz": None}, "2.0").handshake()
        self.assertEqual(hello, {"protocol": "npuconf-port", "protocol_version": 1, "name": "p",
                                 "version": "2.0", "claims": claims})

    def test_a_claim_without_a_function_is_refused_when_the_port_is_made(self):
        with self.assertRaisesRegex(ValueError, "cann.nz_to_nd"):
            npuconf_port.Port("p", ["cann.nz_to_nd:*"], {})

    def test_routine_or_profile_outside_the_claims_is_unclaimed(self):
        case = nd_case([2, 3])
        case["profile"] = "ascend310p"
        reply = self.answer(lambda c: 0, case)
        self.assertEqual((reply["id"], reply["result"]), (7, "unclaimed"))
        wild = self.answer(lambda c: 0, case, claims=["cann.nd_to_nz:*"])
        self.assertEqual(wild["result"], "answered")

    def test_inputs_are_numpy_arrays_of_the_dtype_and_shape(self):
        seen = {}

        def routine(case):
            seen["nd"] = case.inputs["nd"]
            seen["raw"] = bytes(case.input_bytes("nd"))
            return 0

        data = numpy.arange(6, dtype=numpy.float16).tobytes()
        self.answer(routine, nd_case([2, 3], data=data))
        self.assertEqual(seen["nd"].dtype, numpy.float16)
        self.assertEqual(seen["nd"].shape, (2, 3))
        self.assertEqual(seen["nd"][1, 2], 5)
        self.assertEqual(seen["raw"], data)

    def test_int4_inputs_stay_packed_bytes(self):
        seen = {}

        def routine(case):
            seen["nd"] = case.inputs["nd"]
            return 0

        self.answer(routine, nd_case([1, 3], dtype="INT4", data=b"\x21\x03"))
        self.assertEqual((seen["nd"].dtype, seen["nd"].shape), (numpy.uint8, (2,)))

    def test_without_numpy_inputs_are_bytes(self):
        script = (
            "import sys; sys.path.insert(0, %r); import npuconf_port, json, base64\n"
            "case = npuconf_port.Case(json.loads(sys.argv[1]))\n"
            "print(type(case.inputs['nd']).__name__, npuconf_port.numpy)\n"
            % os.path.join(SOURCE, "python"))
        env = dict(os.environ, NPUCONF_PORT_NUMPY="0")
        out = subprocess.run([PYTHON, "-c", script, json.dumps(nd_case([1, 1], data=b"\0\0"))],
                             env=env, capture_output=True, text=True, check=True).stdout
        self.assertEqual(out.split(), ["bytes", "None"])

    def test_a_numpy_output_reports_its_shape_as_dims_and_its_bytes(self):
        nz = numpy.arange(4, dtype=numpy.float16).reshape(1, 1, 2, 2)
        reply = self.answer(lambda c: (0, {"nz": nz}, "note"))
        self.assertEqual(reply["result"], "answered")
        self.assertEqual((reply["status"], reply["message"]), (0, "note"))
        (out,) = reply["outputs"]
        self.assertEqual(out["dims"], [1, 1, 2, 2])
        self.assertEqual(base64.b64decode(out["data"]), nz.tobytes())

    def test_output_gives_dims_for_bytes_and_a_bare_status_writes_nothing(self):
        reply = self.answer(lambda c: (0, {"nz": npuconf_port.Output(b"\1\2", dims=[1, 2])}))
        self.assertEqual(reply["outputs"], [{"name": "nz", "dims": [1, 2], "data": "AQI="}])
        reply = self.answer(lambda c: npuconf_port.ACLNN_ERR_PARAM_INVALID)
        self.assertEqual((reply["status"], reply["outputs"]), (161002, []))
        reply = self.answer(lambda c: npuconf_port.Answer(161001, message="null"))
        self.assertEqual((reply["status"], reply["message"]), (161001, "null"))

    def test_a_big_output_goes_into_its_file_not_the_line(self):
        with tempfile.TemporaryDirectory() as tmp:
            for mode in ("alloc", "value"):
                path = os.path.join(tmp, mode)
                open(path, "wb").close()

                def routine(case):
                    if mode == "alloc":
                        buffer = case.alloc("nz", 4)
                        buffer[:] = b"abcd"
                        return 0, {"nz": buffer}
                    return 0, {"nz": b"abcd"}

                reply = self.answer(routine, nd_case([2, 3], output_path=path))
                self.assertEqual(reply["outputs"], [{"name": "nz"}], mode)
                with open(path, "rb") as f:
                    self.assertEqual(f.read(), b"abcd", mode)

    def test_bad_case_unclaimed_and_exceptions_are_answered_not_fatal(self):
        def raise_(error):
            def routine(case):
                raise error
            return routine

        reply = self.answer(raise_(npuconf_port.BadCase("no shape")))
        self.assertEqual((reply["result"], reply["message"]), ("bad_case", "no shape"))
        reply = self.answer(raise_(npuconf_port.Unclaimed("not this dtype")))
        self.assertEqual(reply["result"], "unclaimed")
        with open(os.devnull, "w") as null:
            stderr, sys.stderr = sys.stderr, null
            try:
                reply = self.answer(raise_(ZeroDivisionError("c0 is 0")))
                wrong = self.answer(lambda c: "fine")
            finally:
                sys.stderr = stderr
        self.assertEqual(reply["result"], "bad_case")
        self.assertIn("raised ZeroDivisionError: c0 is 0", reply["message"])
        self.assertEqual(wrong["result"], "bad_case")
        self.assertIn("a routine returns a status", wrong["message"])

    def test_serve_speaks_lines_until_eof(self):
        port = os.path.join(HERE, "numpy_nz_port.py")
        requests = "".join(json.dumps({"id": i, "case": nd_case([1, 1], data=b"\1\0")}) + "\n"
                           for i in (1, 2))
        run = subprocess.run([PYTHON, port], input=requests, capture_output=True, text=True,
                             timeout=60)
        self.assertEqual(run.returncode, 0, run.stderr)
        lines = [json.loads(line) for line in run.stdout.splitlines()]
        self.assertEqual(lines[0]["protocol"], "npuconf-port")
        self.assertEqual([line["id"] for line in lines[1:]], [1, 2])
        self.assertEqual(lines[1]["outputs"][0]["dims"], [1, 1, 16, 16])


@unittest.skipUnless(os.environ.get("NPUCONF_BINARY"), "needs NPUCONF_BINARY (the npuconf program)")
class UnderNpuconf(unittest.TestCase):
    def run_port(self, command, *options, env=None):
        with tempfile.TemporaryDirectory() as out:
            run = subprocess.run(
                [os.environ["NPUCONF_BINARY"], "run", "--port", "exec:" + command,
                 "--profile", "ascend910b", "--no-real-shapes", "--out", out, *options],
                capture_output=True, text=True, timeout=600, env=env)
            with open(os.path.join(out, "report.json")) as f:
                results = {r["property"]: r for r in json.load(f)["results"]}
        return run, results

    def test_a_numpy_port_passes_what_it_claims(self):
        run, results = self.run_port(PYTHON + " " + os.path.join(HERE, "numpy_nz_port.py"),
                                     "--routine", "cann.nd_to_nz")
        self.assertEqual(run.returncode, 0, run.stdout + run.stderr)
        for prop in ("matches_oracle", "padding_is_zero", "no_write_past_capacity"):
            self.assertEqual(results["cann.nd_to_nz." + prop]["result"], "pass", prop)

    def test_a_wrong_numpy_port_fails_with_a_reproducer(self):
        run, results = self.run_port(
            PYTHON + " " + os.path.join(HERE, "numpy_nz_port.py") + " --bug padding",
            "--routine", "cann.nd_to_nz")
        self.assertEqual(run.returncode, 1, run.stdout + run.stderr)
        failed = results["cann.nd_to_nz.padding_is_zero"]
        self.assertEqual(failed["result"], "fail")
        self.assertIn("padding must hold 0", failed["message"])
        self.assertIn("npuconf check --port", failed["reproduce"])

    def test_the_readme_python_port_passes(self):
        with open(os.path.join(SOURCE, "README.md")) as f:
            readme = f.read()
        start = readme.index("```python\n") + len("```python\n")
        snippet = readme[start:readme.index("```", start)]
        self.assertIn("npuconf_port.serve(", snippet)
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "my_port.py")
            with open(path, "w") as f:
                f.write(snippet)
            env = dict(os.environ, PYTHONPATH=os.path.join(SOURCE, "python"))
            run, results = self.run_port(PYTHON + " " + path, env=env)
        self.assertEqual(run.returncode, 0, run.stdout + run.stderr)
        v2 = {k: r["result"] for k, r in results.items() if ".calculate_matmul_weight_size_v2." in k}
        self.assertEqual(set(v2.values()), {"pass"}, v2)
        self.assertGreaterEqual(len(v2), 5)

    def test_the_example_port_passes_without_numpy(self):
        example = os.path.join(SOURCE, "examples", "python_port", "cann_port.py")
        run, results = self.run_port("env NPUCONF_PORT_NUMPY=0 " + PYTHON + " " + example,
                                     "--routine", "cann.*_to_*", "--cases", "20")
        self.assertEqual(run.returncode, 0, run.stdout + run.stderr)
        self.assertEqual(results["cann.nz_to_nd.matches_oracle"]["result"], "pass")


if __name__ == "__main__":
    unittest.main()
