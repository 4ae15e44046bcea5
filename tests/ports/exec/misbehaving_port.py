#!/usr/bin/env python3
"""An exec: port (docs/port-protocol.md) that fails in one chosen way, for
tests/exec_port_test.cpp. It claims cann.calculate_matmul_weight_size_v2 and
cann.nz_to_nd on ascend910b; it misbehaves on every V2 request and answers
cann.nz_to_nd through the Python example port (examples/python_port), so a run
shows the faults and, after them, the properties the port passes:

  garbage      prints a line that is not JSON (control bytes, invalid UTF-8)
  bad-utf8     answers in protocol, with a message that is not valid UTF-8
  wrong-id     answers with an id one more than the request's
  fixed-id     answers every request with id 999999
  exit         exits with status 3
  segv         kills itself with SIGSEGV
  hang         never answers
  overflow     answers every output with one byte more than its capacity
  overflow-all the same, on cann.nz_to_nd too (big outputs: in their files)
  short        answers SUCCESS with only the low 4 bytes (zeros) of the 8-byte size
  bad-hello    prints a handshake that is not JSON, then nothing more
"""
import json
import os
import signal
import sys
import time

MODE = sys.argv[1]
out = sys.stdout.buffer

if MODE == "bad-hello":
    out.write(b"npuconf-port v1 \xff\xfe hello\n")
    out.flush()
    time.sleep(60)
    sys.exit(0)

hello = {
    "protocol": "npuconf-port",
    "protocol_version": 1,
    "name": "misbehaving-" + MODE,
    "version": "0",
    "claims": ["cann.calculate_matmul_weight_size_v2:ascend910b", "cann.nz_to_nd:ascend910b"],
}
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "..", "examples", "python_port"))
import cann_port  # noqa: E402

example = cann_port.port()
out.write(json.dumps(hello).encode() + b"\n")
out.flush()
for line in sys.stdin.buffer:
    request = json.loads(line)
    if request["case"]["routine"] == "cann.nz_to_nd" and MODE != "overflow-all":
        reply = example.answer(request)
        out.write(json.dumps(reply).encode() + b"\n")
    elif MODE == "garbage":
        out.write(b"Segmentation \x01\x02\xff\xfe fault at 0xdeadbeef\n")
    elif MODE == "bad-utf8":
        out.write(b'{"id": %d, "result": "bad_case", "message": "caf\xe9 \xff"}\n' % request["id"])
    elif MODE == "wrong-id":
        reply = {"id": request["id"] + 1, "result": "answered", "status": 0}
        out.write(json.dumps(reply).encode() + b"\n")
    elif MODE == "fixed-id":
        reply = {"id": 999999, "result": "answered", "status": 0}
        out.write(json.dumps(reply).encode() + b"\n")
    elif MODE == "exit":
        sys.exit(3)
    elif MODE == "segv":
        os.kill(os.getpid(), signal.SIGSEGV)
    elif MODE == "hang":
        time.sleep(3600)
    elif MODE == "short":
        outputs = [{"name": "weight_tensor_size", "dims": [], "data": "AAAAAA=="}]
        reply = {"id": request["id"], "result": "answered", "status": 0, "outputs": outputs}
        out.write(json.dumps(reply).encode() + b"\n")
    elif MODE in ("overflow", "overflow-all"):
        import base64

        outputs = [
            {"name": o["name"], "data": base64.b64encode(bytes(o["capacity_bytes"] + 1)).decode()}
            for o in request["case"]["outputs"]
            if not o["null"] and not o.get("path")
        ]
        reply = {"id": request["id"], "result": "answered", "status": 0, "outputs": outputs}
        for o in request["case"]["outputs"]:
            if o.get("path"):
                with open(o["path"], "wb") as f:
                    f.write(bytes(o["capacity_bytes"] + 1))
        out.write(json.dumps(reply).encode() + b"\n")
    out.flush()
