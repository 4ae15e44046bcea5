#!/usr/bin/env python3
"""A port written with npuconf_port and numpy, for tests/python/test_npuconf_port.py:
cann.nd_to_nz on ascend910b as pad -> reshape -> transpose (spec cann.md §2.5), for the
byte-granular dtypes only (the claim's dtype condition leaves INT4 out).

  --bug padding   fills the padding with 0x5A instead of 0 (padding_is_zero must fail)
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "python"))
import numpy as np  # noqa: E402

import npuconf_port  # noqa: E402

BUG = sys.argv[2] if sys.argv[1:2] == ["--bug"] else ""
DTYPES = ["FLOAT16", "BF16", "FLOAT", "INT32", "INT8", "UINT8", "FLOAT8_E4M3FN", "HIFLOAT8"]


def nd_to_nz(case):
    shape = case.params["shape"]
    nd = case.inputs["nd"]
    if len(shape) == 1:  # a 1-D [k] is one row
        nd = nd.reshape(1, shape[0])
    c0 = case.params.get("c0") or 32 // nd.itemsize
    *batch, n, k = nd.shape
    n1, c1 = -(-n // 16), -(-k // c0)
    pad = [(0, 0)] * len(batch) + [(0, n1 * 16 - n), (0, c1 * c0 - k)]
    padded = np.pad(nd, pad, constant_values=0x5A if BUG == "padding" else 0)
    blocks = padded.reshape(*batch, n1, 16, c1, c0)
    order = list(range(len(batch))) + [len(batch) + 2, len(batch), len(batch) + 1, len(batch) + 3]
    return npuconf_port.ACLNN_SUCCESS, {"nz": blocks.transpose(order)}  # [B..., C1, N1, 16, C0]


npuconf_port.serve(name="numpy-nz" + ("+bug:" + BUG if BUG else ""), version="1",
                   claims=["cann.nd_to_nz:ascend910b:dtype=" + "|".join(DTYPES)],
                   routines={"cann.nd_to_nz": nd_to_nz})
