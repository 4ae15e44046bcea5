#!/usr/bin/python3
"""Decodes a PNG (8-bit RGB or RGBA, non-interlaced: what Chromium's
--screenshot writes) with zlib and numpy, and prints as JSON how many pixels
have each colour given on the command line (#rrggbb, each channel within 6).

usage: png_colours.py shot.png '#d93025' '#f4c7c3' ...
"""
import json
import struct
import sys
import zlib

import numpy


def decode(path):
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise SystemExit(path + ": not a PNG")
    pos, idat, header = 8, b"", None
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    width, height, depth, colour_type, _, _, interlace = header
    if depth != 8 or colour_type not in (2, 6) or interlace != 0:
        raise SystemExit("unsupported PNG: depth %d colour type %d interlace %d" %
                         (depth, colour_type, interlace))
    channels = 3 if colour_type == 2 else 4
    stride = width * channels
    raw = numpy.frombuffer(zlib.decompress(idat), dtype=numpy.uint8)
    raw = raw.reshape(height, stride + 1)
    out = numpy.zeros((height, stride), dtype=numpy.uint8)
    previous = numpy.zeros(stride, dtype=numpy.int32)
    for y in range(height):
        kind, line = raw[y, 0], raw[y, 1:].astype(numpy.int32)
        if kind == 0:
            row = line
        elif kind == 2:
            row = (line + previous) & 0xFF
        elif kind == 1:  # Sub: a running sum per channel.
            row = numpy.cumsum(line.reshape(width, channels), axis=0).reshape(stride) & 0xFF
        else:  # Average and Paeth depend on the reconstructed left byte: one by one.
            row = bytearray(stride)
            cur, up = line.tolist(), previous.tolist()
            for x in range(stride):
                if x >= channels:
                    a, c = row[x - channels], up[x - channels]
                else:
                    a = c = 0
                b = up[x]
                if kind == 3:
                    row[x] = (cur[x] + ((a + b) >> 1)) & 0xFF
                    continue
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                predictor = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
                row[x] = (cur[x] + predictor) & 0xFF
            row = numpy.frombuffer(bytes(row), dtype=numpy.uint8).astype(numpy.int32)
        out[y] = row
        previous = row
    return out.reshape(height, width, channels)[:, :, :3]


def main():
    pixels = decode(sys.argv[1])
    counts = {}
    for colour in sys.argv[2:]:
        rgb = numpy.array([int(colour[i:i + 2], 16) for i in (1, 3, 5)])
        near = numpy.all(numpy.abs(pixels.astype(numpy.int32) - rgb) <= 6, axis=2)
        counts[colour] = int(near.sum())
    counts["width"], counts["height"] = int(pixels.shape[1]), int(pixels.shape[0])
    print(json.dumps(counts))


if __name__ == "__main__":
    main()
