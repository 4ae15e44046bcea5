#!/usr/bin/env python3
"""An npuconf port in Python, standard library only (numpy is not needed).

Run it under the suite:

    npuconf run --port 'exec:/usr/bin/python3 examples/python_port/cann_port.py' \
        --profile ascend910b --routine 'cann.*'

The npuconf_port module (python/npuconf_port in a checkout, installed with npuconf)
speaks the protocol of docs/port-protocol.md; this file is only the routines and their
claims. It implements, from the CANN fact sheet (spec cann.md) alone:

  cann.calculate_matmul_weight_size      aclnnCalculateMatmulWeightSize   (§1.1-1.3, §1.5)
  cann.calculate_matmul_weight_size_v2   aclnnCalculateMatmulWeightSizeV2 (§1.1, §1.2, §1.4)
  cann.nd_to_nz, cann.nz_to_nd           the FRACTAL_NZ layout            (§2.5, INT4 §4.4)

on the profiles in PROFILES below. Every other routine or profile it answers
"unclaimed" and does not claim.

To show that the suite catches a wrong port, `--bug NAME` (or the environment
variable NPUCONF_PY_PORT_BUG=NAME) injects one fault:

  nz-c0      C0 is 16 for every dtype (1-byte dtypes need 32, §2.5)
  v2-k16     V2 aligns k to 16 for every dtype (INT8 and others need 32, §1.2)
"""

import os
import sys

# From a checkout the module is in python/ beside examples/; installed, it is on sys.path.
_CHECKOUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "python")
if os.path.isfile(os.path.join(_CHECKOUT, "npuconf_port", "__init__.py")):
    sys.path.insert(0, _CHECKOUT)
import npuconf_port  # noqa: E402
from npuconf_port import BadCase  # noqa: E402,F401

# spec cann.md §0.1
ACLNN_SUCCESS = npuconf_port.ACLNN_SUCCESS
ACLNN_ERR_PARAM_NULLPTR = npuconf_port.ACLNN_ERR_PARAM_NULLPTR
ACLNN_ERR_PARAM_INVALID = npuconf_port.ACLNN_ERR_PARAM_INVALID
ACLNN_ERR_RUNTIME_ERROR = npuconf_port.ACLNN_ERR_RUNTIME_ERROR

INT64_MAX = (1 << 63) - 1

# What this port knows of each SoC it claims (spec cann.md §0.2, §1.3, §1.4).
#   legacy_rank: the rank range of aclnnCalculateMatmulWeightSize (§1.3 step 3:
#                [2, 6] on ASCEND910B / ASCEND910_93, exactly 2 on any other SoC)
#   v2_supported: the SoC check of V2 (§1.4 step 1: 310P, 910B, 910_93, RegBase)
PROFILES = {
    "ascend910b": {"legacy_rank": (2, 6), "v2_supported": True},
    "ascend910_93": {"legacy_rank": (2, 6), "v2_supported": True},
    "ascend310p": {"legacy_rank": (2, 2), "v2_supported": True},
    "ascend950": {"legacy_rank": (2, 2), "v2_supported": True},
    "ascend910": {"legacy_rank": (2, 2), "v2_supported": False},
    "ascend310b": {"legacy_rank": (2, 2), "v2_supported": False},
}
# The FRACTAL_NZ layout with C0 = 32 bytes / element size (§2.5) is stated for
# A2/A3 including INT4 (C0 64, §5.7); other SoCs' C0 for INT4 and FLOAT differ
# or are not stated (§5.6, §5.7), so they are not claimed.
NZ_PROFILES = ("ascend910b", "ascend910_93")

# Bits per element of the dtypes this port lays out (include/npuconf/port.h names).
DTYPE_BITS = {
    "FLOAT16": 16,
    "BF16": 16,
    "FLOAT": 32,
    "INT32": 32,
    "INT8": 8,
    "UINT8": 8,
    "FLOAT8_E4M3FN": 8,
    "HIFLOAT8": 8,
    "INT4": 4,
}

H0 = 16  # §2.5: the second-to-last axis is split by 16
BLOCK_BYTES = 32  # §0.2: the hardware block; C0 = 32 bytes / element size (§2.5)

BUG = os.environ.get("NPUCONF_PY_PORT_BUG", "")


def ceil_div(x, y):
    return -(-x // y)


def ceil_align(x, a):
    """§0.3 CeilAlign for a > 0 (ceiling, also for negative x), saturating at INT64_MAX."""
    d = ceil_div(x, a)
    return INT64_MAX if d > INT64_MAX // a else d * a


# --- §1: the size routines -------------------------------------------------


def weight_size(shape, k_align):
    """§1.2: batch dims as they are, n to 16, k to k_align. None when the size
    does not fit int64 (read as 161002, choice cann.size.overflow)."""
    size = 1
    for d in shape[:-2]:
        size *= d
    size *= ceil_align(shape[-2], 16) * ceil_align(shape[-1], k_align)
    return size if -INT64_MAX - 1 <= size <= INT64_MAX else None


def size_answer(size):
    """The UINT64 output: the int64 result cast to uint64 (§1.2), little-endian."""
    data = (size & ((1 << 64) - 1)).to_bytes(8, "little")
    return {"weight_tensor_size": npuconf_port.Output(data, dims=[])}


def calculate_matmul_weight_size(case):
    shape = case.params.get("shape")
    if shape is None:
        return ACLNN_ERR_PARAM_NULLPTR, {}, "tensorShape is null"
    if case.outputs[0].null:
        return ACLNN_ERR_PARAM_NULLPTR, {}, "weightTensorSize is null"
    low, high = PROFILES[case.profile]["legacy_rank"]
    if not low <= len(shape) <= high:
        return ACLNN_ERR_PARAM_INVALID, {}, "rank %d outside [%d, %d]" % (len(shape), low, high)
    if any(d < 0 for d in shape):
        return ACLNN_ERR_PARAM_INVALID, {}, "negative dim"  # choice cann.size.negative_dims
    size = weight_size(shape, 16)  # always the FLOAT16 rule (§1.2)
    if size is None:
        return ACLNN_ERR_PARAM_INVALID, {}, "size overflows int64"
    return ACLNN_SUCCESS, size_answer(size), ""


def calculate_matmul_weight_size_v2(case):
    if not PROFILES[case.profile]["v2_supported"]:
        return ACLNN_ERR_RUNTIME_ERROR, {}, "SoC not supported"  # §1.4 step 1, before all else
    params = case.params
    shape = params.get("shape")
    if shape is None:
        return ACLNN_ERR_PARAM_NULLPTR, {}, "tensorShape is null"
    if case.outputs[0].null:
        return ACLNN_ERR_PARAM_NULLPTR, {}, "weightTensorSize is null"
    if not 2 <= len(shape) <= 6:
        return ACLNN_ERR_PARAM_INVALID, {}, "rank %d outside [2, 6]" % len(shape)
    if any(d == 0 for d in shape):
        return ACLNN_ERR_PARAM_INVALID, {}, "zero dim"
    if any(d < 0 for d in shape):
        return ACLNN_ERR_PARAM_INVALID, {}, "negative dim"  # choice cann.size.negative_dims
    # dataType is never validated (§1.4, §5.1): only FLOAT16/BF16 align k to 16.
    k_align = 16 if params.get("dtype") in ("FLOAT16", "BF16") or BUG == "v2-k16" else 32
    size = weight_size(shape, k_align)
    if size is None:
        return ACLNN_ERR_PARAM_INVALID, {}, "size overflows int64"
    return ACLNN_SUCCESS, size_answer(size), ""


# --- §2.5: FRACTAL_NZ --------------------------------------------------------

_LOW = bytes(b & 0x0F for b in range(256))
_HIGH = bytes(b >> 4 for b in range(256))
_SHIFT = bytes((b << 4) & 0xF0 for b in range(256))


def unpack_int4(data, count):
    """Packed INT4 (element 2i in the low nibble, §4.4) to one byte per element."""
    if not isinstance(data, (bytes, bytearray)):
        data = data[:]  # a mapped file: translate() wants bytes
    out = bytearray(2 * len(data))
    out[0::2] = data.translate(_LOW)
    out[1::2] = data.translate(_HIGH)
    del out[count:]
    return out


def pack_int4(elems):
    """One byte per element (values 0..15) back to packed INT4."""
    if len(elems) % 2:
        elems = elems + b"\0"
    low = int.from_bytes(elems[0::2], "little")
    high = int.from_bytes(bytes(elems[1::2]).translate(_SHIFT), "little")
    return (low | high).to_bytes(len(elems) // 2, "little")


def nz_geometry(case):
    """(batch, n, k, C0, element bytes, bits, NZ dims) of an ND shape [..., n, k]."""
    params = case.params
    shape = params["shape"]
    bits = DTYPE_BITS.get(params["dtype"])
    if bits is None:
        raise BadCase("dtype %r is not laid out by this port" % params["dtype"])
    c0 = params.get("c0")
    if c0 is None:
        c0 = BLOCK_BYTES * 8 // bits
        if BUG == "nz-c0":
            c0 = 16
    if len(shape) == 1:  # §2.5: a 1-D [k] is one row
        shape = [1, shape[0]]
    batch = 1
    for d in shape[:-2]:
        batch *= d
    n, k = shape[-2], shape[-1]
    c1, n1 = ceil_div(k, c0), ceil_div(n, H0)
    dims = list(shape[:-2]) + [c1, n1, H0, c0]
    return batch, n, k, c0, max(bits // 8, 1), bits, dims


def copy_unit(*sizes):
    """The widest unit (8, 4, 2 or 1 bytes) dividing every size: the copies below
    move whole units, so fewer and wider items."""
    for unit in (8, 4, 2):
        if all(size % unit == 0 for size in sizes):
            return unit
    return 1


def units(buffer, unit):
    view = memoryview(buffer)
    return view.cast({8: "Q", 4: "I", 2: "H", 1: "B"}[unit]) if unit > 1 else view


ROWS_PER_TILE = 4096  # rows copied per strided pass: their cache lines stay in L2


def block_copies(batch, n, row, block_row, c1, block):
    """(ND slice, NZ slice) pairs, sizes in copy units, that together move every
    ND element (b, r, c) to NZ b*c1*block + (c div C0)*block + r*C0 + c mod C0
    (§2.5). Each pair is one strided copy; there are few of them."""
    full = row // block_row  # blocks whole in k
    tail = row - full * block_row  # units of k in the last, partial block
    for b in range(batch):
        nd0, nz0 = b * n * row, b * c1 * block
        if n == 0 or row == 0:
            continue
        if n <= full:  # few rows, many blocks: one pass per row and unit column
            for r in range(n):
                for x in range(block_row):
                    yield (
                        slice(nd0 + r * row + x, nd0 + r * row + full * block_row, block_row),
                        slice(nz0 + r * block_row + x, nz0 + full * block, block),
                    )
        else:  # many rows: one pass per tile of rows, block and unit column
            for r0 in range(0, n, ROWS_PER_TILE):
                rows = min(ROWS_PER_TILE, n - r0)
                for j in range(full):
                    for x in range(block_row):
                        first = nd0 + r0 * row + j * block_row + x
                        yield (
                            slice(first, first + (rows - 1) * row + 1, row),
                            slice(
                                nz0 + j * block + r0 * block_row + x,
                                nz0 + j * block + (r0 + rows) * block_row,
                                block_row,
                            ),
                        )
        for x in range(tail):
            first = nd0 + full * block_row + x
            yield (
                slice(first, first + (n - 1) * row + 1, row),
                slice(nz0 + full * block + x, nz0 + full * block + n * block_row, block_row),
            )


def nd_to_nz(case):
    batch, n, k, c0, width, bits, dims = nz_geometry(case)
    nd = case.input_bytes("nd")
    if bits == 4:
        nd = unpack_int4(nd, batch * n * k)
    c1, n1 = dims[-4], dims[-3]
    row_bytes, block_row_bytes = k * width, c0 * width
    block_bytes = n1 * H0 * block_row_bytes
    size = batch * c1 * block_bytes
    # The padding holds 0: a new buffer is zero-filled.
    nz = bytearray(size) if bits == 4 else case.alloc("nz", size)
    unit = copy_unit(row_bytes, block_row_bytes, block_bytes)
    nd_u, nz_u = units(nd, unit), units(nz, unit)
    for a, z in block_copies(batch, n, row_bytes // unit, block_row_bytes // unit, c1,
                             block_bytes // unit):
        nz_u[z] = nd_u[a]
    if bits == 4:
        packed = pack_int4(nz)
        nz = case.alloc("nz", len(packed))
        nz[:] = packed
    return ACLNN_SUCCESS, {"nz": npuconf_port.Output(nz, dims)}


def nz_to_nd(case):
    batch, n, k, c0, width, bits, dims = nz_geometry(case)
    nz = case.input_bytes("nz")
    c1, n1 = dims[-4], dims[-3]
    if bits == 4:
        nz = unpack_int4(nz, batch * c1 * n1 * H0 * c0)
    row_bytes, block_row_bytes = k * width, c0 * width
    block_bytes = n1 * H0 * block_row_bytes
    size = batch * n * row_bytes
    nd = bytearray(size) if bits == 4 else case.alloc("nd", size)
    unit = copy_unit(row_bytes, block_row_bytes, block_bytes)
    nd_u, nz_u = units(nd, unit), units(nz, unit)
    for a, z in block_copies(batch, n, row_bytes // unit, block_row_bytes // unit, c1,
                             block_bytes // unit):
        nd_u[a] = nz_u[z]
    if bits == 4:
        packed = pack_int4(nd)
        nd = case.alloc("nd", len(packed))
        nd[:] = packed
    return ACLNN_SUCCESS, {"nd": npuconf_port.Output(nd, case.params["shape"])}


ROUTINES = {
    "cann.calculate_matmul_weight_size": calculate_matmul_weight_size,
    "cann.calculate_matmul_weight_size_v2": calculate_matmul_weight_size_v2,
    "cann.nd_to_nz": nd_to_nz,
    "cann.nz_to_nd": nz_to_nd,
}
CLAIMS = [
    *("cann.calculate_matmul_weight_size:" + p for p in PROFILES),
    *("cann.calculate_matmul_weight_size_v2:" + p for p in PROFILES),
    *("cann.nd_to_nz:" + p for p in NZ_PROFILES),
    *("cann.nz_to_nd:" + p for p in NZ_PROFILES),
    # nz_geometry takes a caller's c0 (the other readings of cann.nz.fp32_c0 and
    # cann.nz.int4_c0 are asked for that way): judged on those cases too.
    "honours:cann.nd_to_nz:c0",
    "honours:cann.nz_to_nd:c0",
    # Readings of what the size APIs leave undefined (§1.5, §5.9): negative dims
    # and sizes past int64 are rejected with 161002.
    "choice:cann.size.negative_dims=param_invalid",
    "choice:cann.size.overflow=param_invalid",
]


def port():
    name = "python-example" + ("+bug:" + BUG if BUG else "")
    return npuconf_port.Port(name, CLAIMS, ROUTINES, version="1.0")


def main():
    global BUG
    args = sys.argv[1:]
    if len(args) == 2 and args[0] == "--bug":
        BUG = args[1]
    elif args:
        sys.exit("usage: cann_port.py [--bug nz-c0|v2-k16]")
    port().serve()


if __name__ == "__main__":
    main()
