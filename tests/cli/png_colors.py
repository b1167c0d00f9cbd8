#!/usr/bin/env python3
"""Counts the pixels of given colours in a PNG (8-bit RGB or RGBA, not interlaced: what Chromium
writes for a screenshot). Usage: png_colors.py FILE RRGGBB...; prints "WIDTHxHEIGHT" then one
"RRGGBB COUNT" line per colour. Exit 2 if the file is not such a PNG."""
import struct
import sys
import zlib


def decode(path):
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG")
    pos, idat, header = 8, b"", None
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    width, height, depth, colour, _, _, interlace = header
    if depth != 8 or colour not in (2, 6) or interlace != 0:
        raise ValueError("unsupported PNG layout")
    channels = 3 if colour == 2 else 4
    raw = zlib.decompress(idat)
    stride = width * channels
    rows, previous = [], bytearray(stride)
    for y in range(height):
        kind = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            left = line[i - channels] if i >= channels else 0
            up = previous[i]
            corner = previous[i - channels] if i >= channels else 0
            if kind == 1:
                line[i] = (line[i] + left) & 255
            elif kind == 2:
                line[i] = (line[i] + up) & 255
            elif kind == 3:
                line[i] = (line[i] + (left + up) // 2) & 255
            elif kind == 4:
                p = left + up - corner
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - corner)
                line[i] = (line[i] + (left if pa <= pb and pa <= pc else up if pb <= pc else corner)) & 255
        rows.append(bytes(line))
        previous = line
    return width, height, channels, rows


def main():
    try:
        width, height, channels, rows = decode(sys.argv[1])
    except (OSError, ValueError, TypeError, zlib.error) as e:
        print("png_colors: %s: %s" % (sys.argv[1], e))
        return 2
    wanted = {bytes.fromhex(c): 0 for c in sys.argv[2:]}
    for line in rows:
        for x in range(0, len(line), channels):
            rgb = line[x:x + 3]
            if rgb in wanted:
                wanted[rgb] += 1
    print("%dx%d" % (width, height))
    for colour, count in wanted.items():
        print("%s %d" % (colour.hex(), count))
    return 0


sys.exit(main())
