"""Draw the app icons (static/icon-192.png, static/icon-512.png): a red heart on a white card
on the app's blue. Pure Python (zlib), so it needs nothing installed.

Run:  .venv/bin/python tools/make_icons.py
"""

from __future__ import annotations

import struct
import zlib
from pathlib import Path

BLUE, WHITE, RED = (11, 79, 168), (255, 255, 255), (196, 0, 26)
STATIC = Path(__file__).resolve().parents[1] / "static"


def pixel(u: float, v: float) -> tuple[int, int, int]:
    """The colour at (u, v) in [0, 1)²; the motif stays inside the maskable safe zone."""
    # The card: a rounded rectangle in the middle 56 % x 70 %.
    dx, dy = max(abs(u - 0.5) - 0.22, 0), max(abs(v - 0.5) - 0.29, 0)
    if dx * dx + dy * dy > 0.06**2:
        return BLUE
    # The heart: (x² + y² − 1)³ − x² y³ ≤ 0, scaled into the card.
    x, y = (u - 0.5) / 0.17, (0.47 - v) / 0.17
    return RED if (x * x + y * y - 1) ** 3 - x * x * y**3 <= 0 else WHITE


def png(size: int) -> bytes:
    """A size × size RGB PNG of the icon, each pixel the average of 3 × 3 samples."""
    rows = bytearray()
    for j in range(size):
        rows.append(0)  # filter: none
        for i in range(size):
            samples = [
                pixel((i + (a + 0.5) / 3) / size, (j + (b + 0.5) / 3) / size) for a in range(3) for b in range(3)
            ]
            rows.extend(round(sum(c[k] for c in samples) / 9) for k in range(3))

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    header = struct.pack(">IIBBBBB", size, size, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(bytes(rows), 9))
        + chunk(b"IEND", b"")
    )


if __name__ == "__main__":
    for size in (192, 512):
        (STATIC / f"icon-{size}.png").write_bytes(png(size))
        print(f"static/icon-{size}.png")
