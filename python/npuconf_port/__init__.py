"""Write an npuconf port in Python: routine functions and a claims list.

This module speaks the exec: protocol of npuconf (docs/port-protocol.md, version 1)
on stdin/stdout, so a port is only the routines it implements:

    import numpy as np
    import npuconf_port

    def nd_to_nz(case):
        n, k = case.params["shape"]
        ...
        return npuconf_port.ACLNN_SUCCESS, {"nz": nz}   # a numpy array: its shape is the dims

    npuconf_port.serve(name="my-port", version="1.0",
                       claims=["cann.nd_to_nz:ascend910b"],
                       routines={"cann.nd_to_nz": nd_to_nz})

and is run by `npuconf run --port 'exec:python3 my_port.py'`.

A routine function takes a Case and returns one of
  - a status (int): the routine's vendor status, no output written;
  - (status, outputs): outputs maps an output's name to what the port wrote into it;
  - (status, outputs, message);
  - an Answer.
An output's value is bytes-like (bytes, bytearray, memoryview, mmap, a numpy array) or
Output(data, dims=...) to report the storage shape; a numpy array reports its own shape as
dims unless the output's dtype packs several elements per byte (INT4). Raising BadCase
answers "bad_case", Unclaimed "unclaimed"; any other exception answers "bad_case" with the
exception in the message (the traceback goes to stderr), so the case fails naming it and the
port keeps running.

Inputs: case.inputs[name] is a numpy array of the tensor's dtype and shape when numpy can be
imported (BF16 and the 8-bit floats as their raw uint16 / uint8 bits, INT4 as its packed
bytes, 1-D), the raw bytes otherwise; case.input_bytes(name) is always the raw bytes. Big
tensors arrive as files, which are mapped, not read. case.alloc(name, nbytes) gives a
zero-filled writable buffer for an output (the runner's file itself for a big output, so
returning it sends nothing through the pipe).

Only the (routine, profile) pairs of `claims` are served; any other case is answered
"unclaimed" (the runner does not send them, but a port must not guess).
"""

import base64
import json
import mmap
import numbers
import os
import sys
import traceback

try:
    if os.environ.get("NPUCONF_PORT_NUMPY", "1") == "0":
        raise ImportError("numpy disabled by NPUCONF_PORT_NUMPY=0")
    import numpy
except ImportError:
    numpy = None

__all__ = [
    "ACLNN_SUCCESS",
    "ACLNN_ERR_PARAM_NULLPTR",
    "ACLNN_ERR_PARAM_INVALID",
    "ACLNN_ERR_RUNTIME_ERROR",
    "RKNN_SUCC",
    "RKNN_ERR_PARAM_INVALID",
    "Answer",
    "BadCase",
    "Case",
    "Output",
    "OutputSpec",
    "Port",
    "Unclaimed",
    "serve",
]

PROTOCOL = "npuconf-port"
PROTOCOL_VERSION = 1

# Vendor statuses a port answers most (spec cann.md §0.1, spec rknn.md).
ACLNN_SUCCESS = 0
ACLNN_ERR_PARAM_NULLPTR = 161001
ACLNN_ERR_PARAM_INVALID = 161002
ACLNN_ERR_RUNTIME_ERROR = 361001
RKNN_SUCC = 0
RKNN_ERR_PARAM_INVALID = -5

# Element types of include/npuconf/port.h: bits per element and the numpy type of the bytes.
DTYPE_BITS = {
    "FLOAT16": 16,
    "BF16": 16,
    "FLOAT": 32,
    "INT8": 8,
    "UINT8": 8,
    "INT32": 32,
    "FLOAT8_E4M3FN": 8,
    "HIFLOAT8": 8,
    "INT4": 4,
    "INT16": 16,
    "INT64": 64,
    "UINT64": 64,
}
_NUMPY_TYPES = {
    "FLOAT16": "float16",
    "BF16": "uint16",  # numpy has no bfloat16: the raw bits
    "FLOAT": "float32",
    "INT8": "int8",
    "UINT8": "uint8",
    "INT32": "int32",
    "FLOAT8_E4M3FN": "uint8",  # raw bits
    "HIFLOAT8": "uint8",  # raw bits
    "INT4": "uint8",  # packed: element 2i in the low nibble
    "INT16": "int16",
    "INT64": "int64",
    "UINT64": "uint64",
}


class BadCase(Exception):
    """Raise in a routine when the case is malformed for the port: answered "bad_case"."""


class Unclaimed(Exception):
    """Raise in a routine for a case it does not implement: answered "unclaimed"."""


class Output:
    """What the port wrote into one output: its bytes and, optionally, the storage dims."""

    __slots__ = ("data", "dims")

    def __init__(self, data, dims=None):
        self.data = data
        self.dims = None if dims is None else [int(d) for d in dims]


class Answer:
    """A routine's answer: vendor status, outputs written (name -> value) and a note."""

    __slots__ = ("status", "outputs", "message")

    def __init__(self, status, outputs=None, message=""):
        self.status = int(status)
        self.outputs = outputs or {}
        self.message = str(message)


class OutputSpec:
    """One output buffer of a request: name, dtype, capacity_bytes, null, initial, path."""

    __slots__ = ("name", "dtype", "capacity_bytes", "null", "initial", "path")

    def __init__(self, entry, initial):
        self.name = entry["name"]
        self.dtype = entry.get("dtype", "")
        self.capacity_bytes = int(entry.get("capacity_bytes", 0))
        self.null = bool(entry.get("null", False))
        self.initial = initial  # in-place routines: the content on entry (raw bytes), else None
        self.path = entry.get("path")


def _read_tensor(tensor):
    """A request's tensor as raw bytes: base64 in the line, or a file (mapped, read-only)."""
    if tensor.get("encoding", "base64") == "file":
        with open(tensor["path"], "rb") as f:
            if os.fstat(f.fileno()).st_size == 0:
                return b""
            return mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
    return base64.b64decode(tensor.get("data", ""))


def _as_array(raw, dtype, shape):
    """raw bytes as a numpy array of the dtype, shaped when the bytes are exactly the shape."""
    array = numpy.frombuffer(raw, dtype=_NUMPY_TYPES.get(dtype, "uint8"))
    count = 1
    for d in shape:
        count *= d
    if dtype != "INT4" and array.size == count and shape:
        array = array.reshape(shape)
    return array


class Case:
    """One request's case: routine, profile, params, inputs, outputs (docs/port-protocol.md).

    params maps each param to its JSON value: None (a null pointer), int, float, str, or a
    list of ints (shapes, in elements). inputs maps each input to a numpy array (numpy
    importable) or its raw bytes; input_bytes(name) is always the raw bytes. outputs is the
    list of OutputSpec, in the routine's order.
    """

    def __init__(self, case):
        self.json = case
        self.routine = case["routine"]
        self.profile = case["profile"]
        self.params = case.get("params", {})
        self._raw = {}
        self._tensors = {}
        for name, tensor in case.get("inputs", {}).items():
            self._raw[name] = _read_tensor(tensor)
            self._tensors[name] = tensor
        self.outputs = []
        for entry in case.get("outputs", []):
            initial = _read_tensor(entry["initial"]) if "initial" in entry else None
            self.outputs.append(OutputSpec(entry, initial))
        self._allocated = {}
        self.inputs = {name: self._input_value(name) for name in self._raw}

    def _input_value(self, name):
        raw = self._raw[name]
        if numpy is None:
            return raw
        tensor = self._tensors[name]
        return _as_array(raw, tensor.get("dtype", "UINT8"), tensor.get("shape", []))

    def input_bytes(self, name):
        """The raw bytes of an input (row-major, little-endian, INT4 packed)."""
        return self._raw[name]

    def input_dtype(self, name):
        return self._tensors[name].get("dtype")

    def input_shape(self, name):
        return list(self._tensors[name].get("shape", []))

    def output(self, name):
        """The OutputSpec named `name` (KeyError when the request has none)."""
        for spec in self.outputs:
            if spec.name == name:
                return spec
        raise KeyError("the case has no output %r" % name)

    def alloc(self, name, nbytes):
        """A zero-filled writable buffer of nbytes for output `name`: the runner's file,
        mapped, for a big output; a bytearray otherwise. Return it as the output's value."""
        spec = self.output(name)
        if not spec.path or nbytes == 0:
            buffer = bytearray(nbytes)
        else:
            with open(spec.path, "r+b") as f:
                f.truncate(nbytes)
                buffer = mmap.mmap(f.fileno(), nbytes)
        self._allocated[name] = buffer
        return buffer

    def _encode_output(self, name, value):
        dims = None
        if isinstance(value, Output):
            value, dims = value.data, value.dims
        spec = self.output(name)
        if dims is None and numpy is not None and isinstance(value, numpy.ndarray):
            if DTYPE_BITS.get(spec.dtype, 8) >= 8:
                dims = list(value.shape)
        entry = {"name": name}
        if dims is not None:
            entry["dims"] = dims
        data = _as_bytes(value)
        if spec.path:
            if value is self._allocated.get(name):
                if isinstance(value, mmap.mmap):
                    value.flush()  # written in place; a zero-byte one left the file empty
            else:
                with open(spec.path, "r+b") as f:
                    f.truncate(0)
                    f.write(data)
        else:
            entry["data"] = base64.b64encode(data).decode("ascii")
        return entry


def _as_bytes(value):
    """A bytes-like view of an output value, in row-major order."""
    if isinstance(value, mmap.mmap):
        return value
    if numpy is not None and isinstance(value, numpy.ndarray):
        return memoryview(numpy.ascontiguousarray(value).reshape(-1).view(numpy.uint8))
    view = memoryview(value)
    return view.cast("B") if view.nbytes else b""


def _claimed_pairs(claims):
    """(routine, profile) of every ROUTINE:PROFILE[:CONDITIONS] claim; '*' matches all."""
    pairs = []
    for claim in claims:
        if claim.startswith("choice:") or claim.startswith("honours:"):
            continue
        fields = claim.split(":")
        if len(fields) >= 2:
            pairs.append((fields[0], fields[1]))
    return pairs


def _normalise(result):
    if isinstance(result, Answer):
        return result
    if isinstance(result, tuple):
        return Answer(*result)
    if isinstance(result, numbers.Integral) and not isinstance(result, bool):
        return Answer(result)
    raise TypeError("a routine returns a status, (status, outputs[, message]) or an Answer, "
                    "not %r" % type(result).__name__)


class Port:
    """A port: its name, version, claims and a function per routine.

    claims: the strings of the handshake ("ROUTINE:PROFILE[:COND,...]", "choice:NAME=VALUE",
        "honours:ROUTINE:KEY");
    routines: routine id -> function(case). Port.answer(request) answers one request line
    (a dict); Port.serve() runs the protocol on stdin/stdout until EOF.
    """

    def __init__(self, name, claims, routines, version=""):
        if not name:
            raise ValueError("a port needs a non-empty name")
        self.name = str(name)
        self.version = str(version)
        self.claims = [str(c) for c in claims]
        self.routines = dict(routines)
        self._pairs = _claimed_pairs(self.claims)
        for routine, _ in self._pairs:
            if routine != "*" and routine not in self.routines:
                raise ValueError("claim on %r, but no function for that routine" % routine)

    def handshake(self):
        return {
            "protocol": PROTOCOL,
            "protocol_version": PROTOCOL_VERSION,
            "name": self.name,
            "version": self.version,
            "claims": self.claims,
        }

    def claims_case(self, routine, profile):
        return any(r in ("*", routine) and p in ("*", profile) for r, p in self._pairs)

    def answer(self, request):
        """The answer line (a dict, with the request's id) to one request."""
        reply = self._answer(request.get("case", {}))
        reply["id"] = request.get("id")
        return reply

    def _answer(self, case_json):
        routine, profile = case_json.get("routine"), case_json.get("profile")
        function = self.routines.get(routine)
        if function is None or not self.claims_case(routine, profile):
            return {"result": "unclaimed", "message": "%s on %s is not claimed" % (routine, profile)}
        try:
            case = Case(case_json)
            answer = _normalise(function(case))
            outputs = [case._encode_output(n, v) for n, v in answer.outputs.items()]
        except Unclaimed as e:
            return {"result": "unclaimed", "message": str(e)}
        except BadCase as e:
            return {"result": "bad_case", "message": str(e)}
        except Exception as e:  # a bug in the port: the case fails naming it, the port goes on
            traceback.print_exc(file=sys.stderr)
            return {"result": "bad_case", "message": "%s raised %s: %s" % (
                getattr(function, "__name__", routine), type(e).__name__, e)}
        return {"result": "answered", "status": answer.status, "message": answer.message,
                "outputs": outputs}

    def serve(self, stdin=None, stdout=None):
        """The handshake, then one answer per request line until EOF on stdin."""
        stdin = stdin or sys.stdin.buffer
        stdout = stdout or sys.stdout.buffer
        stdout.write(json.dumps(self.handshake()).encode() + b"\n")
        stdout.flush()
        for line in stdin:
            if not line.strip():
                continue
            try:
                request = json.loads(line)
            except ValueError as e:  # npuconf never sends this: stop rather than guess
                sys.stderr.write("npuconf_port: a request that is not JSON (%s)\n" % e)
                sys.exit(2)
            stdout.write(json.dumps(self.answer(request)).encode() + b"\n")
            stdout.flush()


def serve(name, claims, routines, version=""):
    """Port(name, claims, routines, version).serve(): the whole of a port's main."""
    Port(name, claims, routines, version).serve()
