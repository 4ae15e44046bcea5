#!/usr/bin/python3
"""Loads every .npy file under a directory with numpy and prints name, dtype,
shape; exits 1 if one does not load or the dump's case.json does not list its
inputs' shapes."""
import json
import pathlib
import sys

import numpy


def main():
    root = pathlib.Path(sys.argv[1])
    files = sorted(root.rglob("*.npy"))
    if not files:
        print("no .npy files under", root)
        return 1
    case = json.load(open(root / "case.json"))
    for f in files:
        array = numpy.load(f)
        print(f.relative_to(root), array.dtype, list(array.shape))
        if f.parent.name == "inputs":
            want = case["inputs"][f.stem]["shape"]
            if case["inputs"][f.stem]["dtype"] != "INT4" and list(array.shape) != want:
                print("shape differs from case.json:", want)
                return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
