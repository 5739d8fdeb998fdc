#!/usr/bin/env python3
"""Draws Smashtag's home-screen icons (a white # on blue, full-bleed so they also serve as maskable icons) as PNGs
into Sources/SmashtagWeb/Public. Run once; the PNGs are committed."""
import pathlib
import struct
import zlib

OUT = pathlib.Path(__file__).resolve().parents[1] / "Sources" / "SmashtagWeb" / "Public"
BLUE, WHITE = (11, 98, 196), (255, 255, 255)


def pixel(x, y, size):
    """A # centred in the safe zone (the inner 60%): two vertical and two horizontal bars."""
    u, v = x / size, y / size
    bar = 0.06
    verticals = any(abs(u - c) < bar / 2 for c in (0.42, 0.58)) and 0.3 < v < 0.7
    horizontals = any(abs(v - c) < bar / 2 for c in (0.42, 0.58)) and 0.3 < u < 0.7
    return WHITE if verticals or horizontals else BLUE


def png(size):
    rows = b"".join(b"\x00" + bytes(c for x in range(size) for c in pixel(x, y, size)) for y in range(size))
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    header = struct.pack(">IIBBBBB", size, size, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows, 9)) + chunk(b"IEND", b"")


for size in (192, 512):
    (OUT / f"icon-{size}.png").write_bytes(png(size))
    print(f"icon-{size}.png")
