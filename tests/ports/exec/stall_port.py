#!/usr/bin/env python3
"""An exec: port (docs/port-protocol.md) for tests/runner_faults_test.cpp: it
answers cann.nd_to_nz and cann.calculate_matmul_weight_size_v2 on ascend910b
through the Python example port (examples/python_port), except that a request
with a tensor in a file (>= 1 MiB, in /dev/shm) is never answered when
argv[1] is "stall-on-file": the runner is then stopped, or its time runs out,
while those files exist. With "answer" it answers every request.
"""
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "..", "examples", "python_port"))
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "..", "python"))
import json  # noqa: E402

import cann_port  # noqa: E402

MODE = sys.argv[1] if len(sys.argv) > 1 else "answer"
example = cann_port.port()
out = sys.stdout.buffer
hello = {
    "protocol": "npuconf-port",
    "protocol_version": 1,
    "name": "stall-" + MODE,
    "version": "0",
    "claims": ["cann.nd_to_nz:ascend910b", "cann.calculate_matmul_weight_size_v2:ascend910b"],
}
out.write(json.dumps(hello).encode() + b"\n")
out.flush()
for line in sys.stdin.buffer:
    request = json.loads(line)
    files = [t for t in request["case"].get("inputs", {}).values() if t.get("encoding") == "file"]
    if files and MODE == "stall-on-file":
        time.sleep(3600)
    out.write(json.dumps(example.answer(request)).encode() + b"\n")
    out.flush()
