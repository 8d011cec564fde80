"""The site's icons: two playing cards on the site's crimson, drawn at build time.

One drawing (:func:`shapes`: rounded rectangles, circles and a square, some
turned) gives both the SVG (favicon, manifest) and the PNGs a phone puts on
its home screen (192 and 512 pixels; a "maskable" 512 whose background fills
the square and whose cards stay inside the central circle a launcher may cut
out; Apple's 180-pixel touch icon). The PNGs are rasterized here, in pure
Python with exact horizontal coverage on sub-sampled rows (no imaging
library), and cached in ``build/icons/`` by a hash of this file.
"""

from __future__ import annotations

import hashlib
import math
import os
import shutil
import struct
import zlib
from dataclasses import dataclass
from pathlib import Path

#: Where the site serves them, relative to the site root.
DEST = "assets/icons"
SVG = "icon.svg"
TOUCH = "apple-touch-icon.png"
#: (file, size, purpose) of the manifest's PNGs.
MANIFEST_ICONS = (("icon-192.png", 192, "any"), ("icon-512.png", 512, "any"), ("maskable-512.png", 512, "maskable"))
CACHE = Path("build/icons")

CRIMSON = (0x9B, 0x1C, 0x31)
CRIMSON_DARK = (0x7A, 0x15, 0x26)
PAPER = (0xFF, 0xFF, 0xFF)
RED = (0xC6, 0x28, 0x28)
EDGE = (0xE8, 0xD9, 0xDC)

Point = tuple[float, float]


@dataclass(frozen=True)
class Shape:
    """A filled shape on the 512-unit canvas: a rounded rectangle (centre, size,
    corner radius, turn in degrees) or a circle (centre and radius only)."""

    kind: str  # "rect" | "circle"
    cx: float
    cy: float
    w: float
    h: float
    r: float
    turn: float
    color: tuple[int, int, int]

    def polygon(self) -> list[Point]:
        if self.kind == "circle":
            return [(self.cx + self.r * math.cos(2 * math.pi * k / 96), self.cy + self.r * math.sin(2 * math.pi * k / 96))
                    for k in range(96)]
        points: list[Point] = []
        hw, hh, r = self.w / 2, self.h / 2, min(self.r, self.w / 2, self.h / 2)
        corners = ((hw - r, hh - r, 0), (-hw + r, hh - r, 90), (-hw + r, -hh + r, 180), (hw - r, -hh + r, 270))
        for x, y, start in corners:
            steps = 12 if r > 0 else 1
            for k in range(steps + 1):
                a = math.radians(start + 90 * k / steps)
                points.append((x + r * math.cos(a), y + r * math.sin(a)))
        c, s = math.cos(math.radians(self.turn)), math.sin(math.radians(self.turn))
        return [(self.cx + x * c - y * s, self.cy + x * s + y * c) for x, y in points]

    def svg(self) -> str:
        fill = "#%02x%02x%02x" % self.color
        if self.kind == "circle":
            return f'<circle cx="{self.cx:g}" cy="{self.cy:g}" r="{self.r:g}" fill="{fill}"/>'
        turn = f' transform="rotate({self.turn:g} {self.cx:g} {self.cy:g})"' if self.turn else ""
        return (f'<rect x="{self.cx - self.w / 2:g}" y="{self.cy - self.h / 2:g}" width="{self.w:g}" height="{self.h:g}"'
                f' rx="{self.r:g}" fill="{fill}"{turn}/>')


def _turned(x: float, y: float, cx: float, cy: float, turn: float) -> Point:
    c, s = math.cos(math.radians(turn)), math.sin(math.radians(turn))
    return cx + (x - cx) * c - (y - cy) * s, cy + (x - cx) * s + (y - cy) * c


def shapes(*, full_bleed: bool) -> list[Shape]:
    """The drawing, back to front. ``full_bleed``: a square background (maskable,
    Apple), else a rounded one. The cards stay inside a circle of radius 205
    around the centre, the part every launcher's mask keeps."""
    out = [Shape("rect", 256, 256, 512, 512, 0 if full_bleed else 96, 0, CRIMSON)]
    # The card behind, face down: paper with a crimson back.
    bx, by, bt = 214, 262, -13
    out += [
        Shape("rect", bx, by, 176, 246, 20, bt, EDGE),
        Shape("rect", bx, by, 170, 240, 17, bt, PAPER),
        Shape("rect", bx, by, 138, 208, 10, bt, CRIMSON_DARK),
    ]
    # The card in front, face up: a heart.
    fx, fy, ft = 294, 250, 9
    out += [
        Shape("rect", fx, fy, 176, 246, 20, ft, EDGE),
        Shape("rect", fx, fy, 170, 240, 17, ft, PAPER),
    ]
    # The heart: a square turned 45° with a circle on each upper side, turned with the card.
    a = 68.0
    hx, hy = fx, fy + 14
    half = a / math.sqrt(2) / 2
    for dx in (-1, 1):
        x, y = _turned(hx + dx * half, hy - half, fx, fy, ft)
        out.append(Shape("circle", x, y, 0, 0, a / 2, 0, RED))
    x, y = _turned(hx, hy, fx, fy, ft)
    out.append(Shape("rect", x, y, a, a, 4, 45 + ft, RED))
    return out


def svg(*, full_bleed: bool = False) -> str:
    body = "".join(shape.svg() for shape in shapes(full_bleed=full_bleed))
    return f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 512 512">{body}</svg>\n'


# -- rasterizing ------------------------------------------------------------------------

SUBROWS = 5  # sample rows per pixel row


def _coverage(polygon: list[Point], size: int, scale: float) -> list[float]:
    """The fraction of each pixel the polygon covers (exact across each sample row)."""
    cover = [0.0] * (size * size)
    pts = [(x * scale, y * scale) for x, y in polygon]
    edges = [(pts[i], pts[(i + 1) % len(pts)]) for i in range(len(pts))]
    top = max(0, int(min(y for _, y in pts)))
    bottom = min(size, int(max(y for _, y in pts)) + 1)
    weight = 1.0 / SUBROWS
    for row in range(top, bottom):
        base = row * size
        for sub in range(SUBROWS):
            y = row + (sub + 0.5) / SUBROWS
            xs = sorted(x0 + (y - y0) * (x1 - x0) / (y1 - y0)
                        for (x0, y0), (x1, y1) in edges if (y0 <= y < y1) or (y1 <= y < y0))
            for k in range(0, len(xs) - 1, 2):
                a, b = max(0.0, xs[k]), min(float(size), xs[k + 1])
                if b <= a:
                    continue
                first, last = int(a), min(int(b), size - 1)
                if first == last:
                    cover[base + first] += (b - a) * weight
                    continue
                cover[base + first] += (first + 1 - a) * weight
                for px in range(first + 1, last):
                    cover[base + px] += weight
                cover[base + last] += (b - last) * weight
    return cover


def png(size: int, *, full_bleed: bool) -> bytes:
    """The drawing as an RGBA PNG of ``size`` pixels."""
    scale = size / 512
    rgb = [[0.0, 0.0, 0.0] for _ in range(size * size)]
    alpha = [0.0] * (size * size)
    for shape in shapes(full_bleed=full_bleed):
        cover = _coverage(shape.polygon(), size, scale)
        for i, c in enumerate(cover):
            if c <= 0:
                continue
            c = min(c, 1.0)
            px = rgb[i]
            for k in range(3):
                px[k] = px[k] * (1 - c) + shape.color[k] * c
            alpha[i] = alpha[i] * (1 - c) + c
    raw = bytearray()
    for row in range(size):
        raw.append(0)
        for i in range(row * size, (row + 1) * size):
            a = alpha[i]
            # Colours were blended over black: undo that for the stored (straight) alpha.
            raw += bytes(min(255, round(v / a)) if a > 0 else 0 for v in rgb[i])
            raw.append(round(a * 255))

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    header = struct.pack(">IIBBBBB", size, size, 8, 6, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(bytes(raw), 9)) + chunk(b"IEND", b"")


def files() -> dict[str, bytes]:
    """Every icon by file name."""
    out = {SVG: svg().encode("utf-8"), TOUCH: png(180, full_bleed=True)}
    for name, size, purpose in MANIFEST_ICONS:
        out[name] = png(size, full_bleed=purpose == "maskable")
    return out


def write_icons(site: Path, repo_root: Path) -> list[Path]:
    """Write the icons into ``site/assets/icons/`` (drawn once, then cached by this file's hash)."""
    key = hashlib.sha256(Path(__file__).read_bytes()).hexdigest()[:16]
    cache = repo_root / CACHE / key
    if not cache.is_dir():
        scratch = repo_root / CACHE / f".{key}-{os.getpid()}"
        scratch.mkdir(parents=True, exist_ok=True)
        for name, data in files().items():
            (scratch / name).write_bytes(data)
        try:
            os.replace(scratch, cache)
        except OSError:  # built meanwhile by another build
            shutil.rmtree(scratch, ignore_errors=True)
        for old in (repo_root / CACHE).iterdir():
            if old.name != key and not old.name.startswith("."):
                shutil.rmtree(old, ignore_errors=True)
    dest = site / DEST
    dest.mkdir(parents=True, exist_ok=True)
    written = []
    for name in [SVG, TOUCH, *(n for n, _, _ in MANIFEST_ICONS)]:
        shutil.copyfile(cache / name, dest / name)
        written.append(dest / name)
    return written
