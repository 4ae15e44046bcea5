#!/usr/bin/env python3
"""An npuconf port in Python, standard library only.

Run it under the suite:

    npuconf run --port 'exec:/usr/bin/python3 examples/python_port/npuconf_port.py' \
        --profile ascend910b --routine 'cann.*'

It speaks the JSON-lines protocol of docs/port-protocol.md on stdin/stdout and
implements, from the CANN fact sheet (spec cann.md) alone:

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

import base64
import json
import mmap
import os
import sys

# spec cann.md §0.1
ACLNN_SUCCESS = 0
ACLNN_ERR_PARAM_NULLPTR = 161001
ACLNN_ERR_PARAM_INVALID = 161002
ACLNN_ERR_RUNTIME_ERROR = 361001

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


class BadCase(Exception):
    """The request is malformed for the protocol (answered "bad_case")."""


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
    return {"name": "weight_tensor_size", "dims": [], "data": data}


def calculate_matmul_weight_size(case, profile):
    shape = case["params"].get("shape")
    if shape is None:
        return ACLNN_ERR_PARAM_NULLPTR, [], "tensorShape is null"
    if case["outputs"][0]["null"]:
        return ACLNN_ERR_PARAM_NULLPTR, [], "weightTensorSize is null"
    low, high = PROFILES[profile]["legacy_rank"]
    if not low <= len(shape) <= high:
        return ACLNN_ERR_PARAM_INVALID, [], "rank %d outside [%d, %d]" % (len(shape), low, high)
    if any(d < 0 for d in shape):
        return ACLNN_ERR_PARAM_INVALID, [], "negative dim"  # choice cann.size.negative_dims
    size = weight_size(shape, 16)  # always the FLOAT16 rule (§1.2)
    if size is None:
        return ACLNN_ERR_PARAM_INVALID, [], "size overflows int64"
    return ACLNN_SUCCESS, [size_answer(size)], ""


def calculate_matmul_weight_size_v2(case, profile):
    if not PROFILES[profile]["v2_supported"]:
        return ACLNN_ERR_RUNTIME_ERROR, [], "SoC not supported"  # §1.4 step 1, before all else
    params = case["params"]
    shape = params.get("shape")
    if shape is None:
        return ACLNN_ERR_PARAM_NULLPTR, [], "tensorShape is null"
    if case["outputs"][0]["null"]:
        return ACLNN_ERR_PARAM_NULLPTR, [], "weightTensorSize is null"
    if not 2 <= len(shape) <= 6:
        return ACLNN_ERR_PARAM_INVALID, [], "rank %d outside [2, 6]" % len(shape)
    if any(d == 0 for d in shape):
        return ACLNN_ERR_PARAM_INVALID, [], "zero dim"
    if any(d < 0 for d in shape):
        return ACLNN_ERR_PARAM_INVALID, [], "negative dim"  # choice cann.size.negative_dims
    # dataType is never validated (§1.4, §5.1): only FLOAT16/BF16 align k to 16.
    k_align = 16 if params.get("dtype") in ("FLOAT16", "BF16") or BUG == "v2-k16" else 32
    size = weight_size(shape, k_align)
    if size is None:
        return ACLNN_ERR_PARAM_INVALID, [], "size overflows int64"
    return ACLNN_SUCCESS, [size_answer(size)], ""


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
    params = case["params"]
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


def nd_to_nz(case, inputs, alloc):
    batch, n, k, c0, width, bits, dims = nz_geometry(case)
    nd = inputs["nd"]
    if bits == 4:
        nd = unpack_int4(nd, batch * n * k)
    c1, n1 = dims[-4], dims[-3]
    row_bytes, block_row_bytes = k * width, c0 * width
    block_bytes = n1 * H0 * block_row_bytes
    size = batch * c1 * block_bytes
    # The padding holds 0: a new buffer is zero-filled.
    nz = bytearray(size) if bits == 4 else alloc("nz", size)
    unit = copy_unit(row_bytes, block_row_bytes, block_bytes)
    nd_u, nz_u = units(nd, unit), units(nz, unit)
    for a, z in block_copies(batch, n, row_bytes // unit, block_row_bytes // unit, c1,
                             block_bytes // unit):
        nz_u[z] = nd_u[a]
    if bits == 4:
        packed = pack_int4(nz)
        nz = alloc("nz", len(packed))
        nz[:] = packed
    return nz, dims


def nz_to_nd(case, inputs, alloc):
    batch, n, k, c0, width, bits, dims = nz_geometry(case)
    nz = inputs["nz"]
    c1, n1 = dims[-4], dims[-3]
    if bits == 4:
        nz = unpack_int4(nz, batch * c1 * n1 * H0 * c0)
    row_bytes, block_row_bytes = k * width, c0 * width
    block_bytes = n1 * H0 * block_row_bytes
    size = batch * n * row_bytes
    nd = bytearray(size) if bits == 4 else alloc("nd", size)
    unit = copy_unit(row_bytes, block_row_bytes, block_bytes)
    nd_u, nz_u = units(nd, unit), units(nz, unit)
    for a, z in block_copies(batch, n, row_bytes // unit, block_row_bytes // unit, c1,
                             block_bytes // unit):
        nd_u[a] = nz_u[z]
    if bits == 4:
        packed = pack_int4(nd)
        nd = alloc("nd", len(packed))
        nd[:] = packed
    return nd, list(case["params"]["shape"])


def read_tensor(tensor):
    """A request's tensor: base64 in the line, or (big ones) a file, mapped."""
    if tensor.get("encoding", "base64") == "file":
        with open(tensor["path"], "rb") as f:
            if os.fstat(f.fileno()).st_size == 0:
                return b""
            return mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
    return base64.b64decode(tensor["data"])


def output_allocator(case, in_file):
    """alloc(name, size): a zero-filled buffer for an output. A big output's
    buffer is the file the runner made for it, mapped; its name goes into
    `in_file` and its bytes are not sent in the line."""

    def alloc(name, size):
        spec = next(o for o in case["outputs"] if o["name"] == name)
        if not spec.get("path") or size == 0:
            return bytearray(size)
        with open(spec["path"], "r+b") as f:
            f.truncate(size)
            in_file.add(name)
            return mmap.mmap(f.fileno(), size)

    return alloc


def layout(fn, out_name):
    def answer(case, profile):
        inputs = {name: read_tensor(t) for name, t in case.get("inputs", {}).items()}
        in_file = set()
        data, dims = fn(case, inputs, output_allocator(case, in_file))
        output = {"name": out_name, "dims": dims}
        if out_name in in_file:
            data.flush()
        else:
            output["data"] = data
        return ACLNN_SUCCESS, [output], ""

    return answer


ROUTINES = {
    "cann.calculate_matmul_weight_size": (calculate_matmul_weight_size, tuple(PROFILES)),
    "cann.calculate_matmul_weight_size_v2": (calculate_matmul_weight_size_v2, tuple(PROFILES)),
    "cann.nd_to_nz": (layout(nd_to_nz, "nz"), NZ_PROFILES),
    "cann.nz_to_nd": (layout(nz_to_nd, "nd"), NZ_PROFILES),
}


def answer(request):
    case = request["case"]
    routine, profile = case["routine"], case["profile"]
    entry = ROUTINES.get(routine)
    if entry is None or profile not in entry[1]:
        return {"result": "unclaimed", "message": "%s on %s is not implemented" % (routine, profile)}
    try:
        status, outputs, message = entry[0](case, profile)
    except (BadCase, LookupError, TypeError, ValueError) as e:
        return {"result": "bad_case", "message": "%s: %r" % (type(e).__name__, e)}
    for o in outputs:
        if "data" in o:
            o["data"] = base64.b64encode(o["data"]).decode("ascii")
    return {"result": "answered", "status": status, "message": message, "outputs": outputs}


def main():
    global BUG
    args = sys.argv[1:]
    if len(args) == 2 and args[0] == "--bug":
        BUG = args[1]
    elif args:
        sys.exit("usage: npuconf_port.py [--bug nz-c0|v2-k16]")
    out = sys.stdout.buffer
    claims = ["%s:%s" % (r, p) for r, (_, profiles) in ROUTINES.items() for p in profiles]
    # Readings of what the size APIs leave undefined (§1.5, §5.9): negative dims
    # and sizes past int64 are rejected with 161002.
    claims += ["choice:cann.size.negative_dims=param_invalid", "choice:cann.size.overflow=param_invalid"]
    hello = {
        "protocol": "npuconf-port",
        "protocol_version": 1,
        "name": "python-example" + ("+bug:" + BUG if BUG else ""),
        "version": "1.0",
        "claims": claims,
    }
    out.write(json.dumps(hello).encode() + b"\n")
    out.flush()
    for line in sys.stdin.buffer:
        request = json.loads(line)
        reply = answer(request)
        reply["id"] = request["id"]
        out.write(json.dumps(reply).encode() + b"\n")
        out.flush()


if __name__ == "__main__":
    main()
