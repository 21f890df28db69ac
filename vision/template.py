"""A printable board and drilling template at true scale: SVG, PNG and a tiled PDF.

The drawing is built once as a list of primitives in millimetres
(``template_items``) and written by three small back ends:

* ``template_svg``: one sheet the size of the board (``width="530mm"``), every
  hole a ``<g class="hole" id="M12">`` group, every marker a
  ``<g class="marker" data-aruco-id="0">`` group;
* ``template_png``: the same drawn with OpenCV at ``px_per_mm`` (10 by default; the
  only part that needs the ``vision`` extra: SVG and PDF are standard library only);
* ``template_pdf``: a hand-written PDF (vector, no library), either one page the
  size of the board (``paper="none"``, for a print shop) or tiled over A4/Letter/A3
  pages with an overlap, each page labelled and its tile edge marked, for a home
  printer. Print at 100 % ("actual size"); the 100 mm scale bar checks it.

On the sheet: the board edge (cut line), every hole as a drilling circle with a
centre cross, its id (black) and LED/switch number (blue), a large number beside
every fifth main-track hole (as players and the referee name holes: "hole 20"), the four ArUco
markers (DICT_4X4_50, with their white quiet zone) and a title block.
"""
from __future__ import annotations

import math
import zlib
from dataclasses import dataclass, field

from .layout import Layout

BLACK = (0, 0, 0)
BLUE = (0.05, 0.25, 0.8)
GREY = (0.55, 0.55, 0.55)
RED = (0.8, 0.1, 0.1)
# a mid-tone disc round every hole: a black head and a white one both stand out against it
# (on bare paper a white head doesn't, in a dark hole a black one doesn't); the camera reads a
# peg's head where the disc is, seen from up to ``hole_disc_radius`` - head radius off the hole
HOLE_DISC = (0.5, 0.5, 0.5)
WHITE = (1, 1, 1)
PAPERS = {"a4": (210.0, 297.0), "letter": (215.9, 279.4), "a3": (297.0, 420.0)}


@dataclass
class Item:
    kind: str                     # circle | line | poly | rect | text
    args: tuple
    colour: tuple = BLACK
    width: float = 0.2            # stroke width in mm (0: filled)
    fill: tuple | None = None
    group: dict = field(default_factory=dict)   # SVG group attributes, e.g. {"id": "M12", "class": "hole"}


# The 4x4 inner bits of ArUco DICT_4X4_50, row by row, top-left bit first (1 = black):
# OpenCV's own dictionary, written out so that printing a board needs no OpenCV
# (tests/vision/test_vision_template.py checks it against cv2.aruco).
ARUCO_4X4_50 = (
    0x4acd, 0xf065, 0xccd2, 0x66b9, 0xab61, 0x8632, 0x61d1, 0x3b0d, 0x0125, 0x30a9,
    0x066e, 0xee58, 0xf148, 0xd5f0, 0xdb4e, 0xd9c1, 0xb99a, 0x99ff, 0x93a1, 0x8950,
    0x7974, 0x4fd4, 0x332a, 0x227d, 0x01b8, 0x6b8e, 0x531b, 0x5aab, 0xdedc, 0xcb90,
    0xbbea, 0xa84d, 0x6130, 0x0f34, 0xf751, 0xf6d6, 0xe78a, 0xfb00, 0xf209, 0xe3a5,
    0xe8e7, 0xd5d7, 0xcd73, 0xc74d, 0xdb17, 0xd114, 0xd2c0, 0xb49b, 0xafd1, 0xafec,
)


def marker_cells(marker_id: int):
    """The 6x6 cells (True = black) of an ArUco DICT_4X4_50 marker, border included."""
    if not 0 <= marker_id < len(ARUCO_4X4_50):
        raise ValueError(f"ArUco DICT_4X4_50 has markers 0-49, not {marker_id}")
    bits = ARUCO_4X4_50[marker_id]
    return [[r in (0, 5) or c in (0, 5) or bool(bits >> (15 - 4 * (r - 1) - (c - 1)) & 1)
             for c in range(6)] for r in range(6)]


def led_numbers(layout: Layout, led_map: dict | None = None, sensor_map: dict | None = None) -> dict:
    """hole -> label text: the LED index, and the switch input after a slash when it differs.

    Without maps, the order of ``hardware.config.default_hole_order`` (LED i = input i).
    """
    if led_map is None:
        from hardware.config import default_hole_order
        order = default_hole_order(layout.sides, layout.holes_per_side, start_holes=layout.start_holes,
                                   home_holes=layout.home_holes)
        led_map = {h: i for i, h in enumerate(order)}
    out = {}
    for hole in layout.holes:
        led = led_map.get(hole)
        sw = sensor_map.get(hole) if sensor_map is not None else led
        if led is None and sw is None:
            continue
        text = "-" if led is None else str(led)
        if sw != led:
            text += f"/{'-' if sw is None else sw}"
        out[hole] = text
    return out


def _player_number(hole: str) -> str | None:
    """"20" beside main-track hole M20, on every fifth hole: the phone's board and the
    referee's words ("hole 21") number the holes the same way."""
    if hole[:1] == "M" and hole[1:].isdigit() and int(hole[1:]) % 5 == 0:
        return hole[1:]
    return None


def _label_direction(layout: Layout, hole: str, cx: float, cy: float):
    """Unit vector to put a hole's labels along: across its row, pointing away from the centre."""
    x, y = layout.holes[hole]
    best, nearest = None, None
    for other, (ox, oy) in layout.holes.items():
        if other != hole:
            d = math.hypot(ox - x, oy - y)
            if best is None or d < best:
                best, nearest = d, (ox - x, oy - y)
    nx, ny = -nearest[1], nearest[0]
    n = math.hypot(nx, ny) or 1.0
    nx, ny = nx / n, ny / n
    # Neighbours as near in two directions (a Tock home lane one hole from the next side's
    # track, RG-B1; a corner): labels go where fewer holes crowd them, across the row.
    near = [(ox - x, oy - y) for other, (ox, oy) in layout.holes.items()
            if other != hole and math.hypot(ox - x, oy - y) < 1.05 * best]
    perps = [(-vy / best, vx / best) for vx, vy in near]
    if any(abs(px * ny - py * nx) > 0.1 for px, py in perps):
        def crowd(u):   # holes in the strips either side of the hole that the labels use
            return sum(1 for ox, oy in layout.holes.values()
                       if 0.1 < abs((ox - x) * u[0] + (oy - y) * u[1]) < 1.6 * layout.pitch
                       and abs((ox - x) * u[1] - (oy - y) * u[0]) < 0.6 * layout.pitch)
        nx, ny = min(perps, key=crowd)
    if nx * (x - cx) + ny * (y - cy) < 0:
        nx, ny = -nx, -ny
    return nx, ny


_GAMES = {"tock": "Tock", "carbles": "Carbles", "jackaroo": "Jackaroo"}   # RELATED-GAMES.md


def hole_disc_radius(layout: Layout) -> float:
    """Radius (mm) of the mid-tone disc printed round every hole: 0.42 pitch (10.5 mm at 25 mm),
    a gap of 0.16 pitch between neighbours' discs."""
    return max(layout.hole_diameter / 2 + 1.0, 0.42 * layout.pitch)


def template_items(layout: Layout, labels: dict | None = None, title: str | None = None) -> list[Item]:
    """The drawing, in mm, top-left origin (see the module doc)."""
    labels = led_numbers(layout) if labels is None else labels
    items: list[Item] = []
    items.append(Item("poly", (tuple(layout.outline),), GREY, 0.5, group={"id": "outline", "class": "outline"}))
    cx, cy = layout.width / 2, layout.height / 2
    r = layout.hole_diameter / 2
    disc = hole_disc_radius(layout)
    font = max(2.2, min(4.0, 0.14 * layout.pitch))
    for hole, (x, y) in layout.holes.items():
        g = {"id": hole, "class": "hole", "data-led": labels.get(hole, "")}
        items.append(Item("circle", (x, y, disc), HOLE_DISC, 0, HOLE_DISC, group=g))
        items.append(Item("circle", (x, y, r), BLACK, 0.25, group=g))
        c = 0.35 * r
        items.append(Item("line", (x - c, y, x + c, y), BLACK, 0.15, group=g))
        items.append(Item("line", (x, y - c, x, y + c), BLACK, 0.15, group=g))
        dx, dy = _label_direction(layout, hole, cx, cy)

        def off(text, size):   # clear of the hole, whichever way the text runs
            return disc + 0.8 + abs(dx) * 0.3 * size * len(text) + abs(dy) * 0.5 * size
        o = o_id = off(hole, font)
        items.append(Item("text", (x + dx * o, y + dy * o + 0.35 * font, hole, font), BLACK, group=g))
        if hole in labels:
            o = off(labels[hole], 0.9 * font)
            items.append(Item("text", (x - dx * o, y - dy * o + 0.35 * font, labels[hole], font * 0.9),
                              BLUE, group=g))
        number = _player_number(hole)
        if number:   # every fifth main-track hole: the number players find holes by ("hole 20")
            big = 1.5 * font
            o = o_id + abs(dx) * 0.35 * font * len(hole) + abs(dy) * 0.5 * font + 2.0
            o += abs(dx) * 0.35 * big * len(number) + abs(dy) * 0.5 * big
            items.append(Item("text", (x + dx * o, y + dy * o + 0.35 * big, number, big), BLACK,
                              group={"class": "hole-number", "data-hole": hole}))
    for m in layout.markers:
        g = {"id": f"marker-{m.id}", "class": "marker", "data-aruco-id": str(m.id)}
        q = m.quiet
        x0, y0 = m.x - m.size / 2, m.y - m.size / 2
        items.append(Item("rect", (x0 - q, y0 - q, m.size + 2 * q, m.size + 2 * q), GREY, 0.15, WHITE, group=g))
        cell = m.size / 6
        for rr, row in enumerate(marker_cells(m.id)):
            for cc, black in enumerate(row):
                if black:
                    items.append(Item("rect", (x0 + cc * cell, y0 + rr * cell, cell, cell), BLACK, 0, BLACK,
                                      group=g))
    # side names, just outside the track in the middle of each side
    h = layout.holes_per_side
    for k in range(layout.sides):
        x0, y0 = layout.holes[f"M{k * h}"]
        x1, y1 = layout.holes[f"M{((k + 1) * h) % layout.track_length}"]
        mx, my = (x0 + x1) / 2, (y0 + y1) / 2
        # clear of the hole numbers: slide along the side if one sits at its middle
        numbered = [i for i in range(h + 1) if (k * h + i) % 5 == 0]
        shift = max((0.0, 2.5, -2.5), key=lambda t: min((abs(h / 2 + t - i) for i in numbered), default=h))
        mx, my = mx + (x1 - x0) / h * shift, my + (y1 - y0) / h * shift
        vx, vy = mx - cx, my - cy
        n = math.hypot(vx, vy) or 1.0
        d = 0.55 * layout.pitch + 2.2 * font
        items.append(Item("text", (mx + vx / n * d, my + vy / n * d + 0.5 * font, f"side {k}", font * 1.4),
                          GREY, group={"class": "side-label"}))
    # title block and a 100 mm scale bar in the middle (cards go there in play)
    game = _GAMES.get(str(layout.params.get("preset", "")).split("_")[0].rstrip("3"), "Pegs and Jokers")
    title = title or (f"{game}: {layout.sides} sides x {layout.holes_per_side} holes, "
                      f"pitch {layout.pitch:g} mm, holes {layout.hole_diameter:g} mm")
    lines = [title, "Print at 100 % (actual size): the bar below must measure 100 mm.",
             "Black: hole id; large numbers every fifth hole, as players name them. Blue: LED / switch number. "
             "Grey discs: the camera reads every peg colour against them. "
             "Markers: ArUco 4x4_50, keep flat and unpainted."]
    big = max(3.0, min(6.0, layout.width / 90))
    for i, line in enumerate(lines):
        items.append(Item("text", (cx, cy - 3 * big + i * 1.7 * big, line, big * (1.0 if i == 0 else 0.7)),
                          BLACK, group={"class": "title"}))
    bar_y = cy + 3 * big
    items.append(Item("line", (cx - 50, bar_y, cx + 50, bar_y), BLACK, 0.5, group={"id": "scale", "class": "scale"}))
    for t in range(0, 101, 10):
        tick = 3 if t % 50 == 0 else 1.5
        items.append(Item("line", (cx - 50 + t, bar_y - tick, cx - 50 + t, bar_y), BLACK, 0.3,
                          group={"id": "scale", "class": "scale"}))
    items.append(Item("text", (cx, bar_y + 1.6 * big, "100 mm", big * 0.7), BLACK,
                      group={"id": "scale", "class": "scale"}))
    return items


# --------------------------------------------------------------------------- SVG

def _hex(c) -> str:
    return "#%02x%02x%02x" % tuple(int(round(255 * v)) for v in c)


def _esc(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")


def template_svg(layout: Layout, labels: dict | None = None, title: str | None = None) -> str:
    items = template_items(layout, labels, title)
    w, h = layout.width, layout.height
    out = ['<?xml version="1.0" encoding="UTF-8"?>',
           f'<svg xmlns="http://www.w3.org/2000/svg" width="{w:.2f}mm" height="{h:.2f}mm" '
           f'viewBox="0 0 {w:.2f} {h:.2f}" font-family="Helvetica, Arial, sans-serif">',
           f'<!-- {_esc(layout.describe())}; units are millimetres -->',
           '<rect x="0" y="0" width="100%" height="100%" fill="#ffffff"/>']
    open_group = None
    for it in items:
        key = tuple(sorted(it.group.items()))
        if key != open_group:
            if open_group is not None:
                out.append("</g>")
            attrs = "".join(f' {k}="{_esc(str(v))}"' for k, v in it.group.items())
            out.append(f"<g{attrs}>")
            open_group = key
        stroke = f'stroke="{_hex(it.colour)}" stroke-width="{it.width:g}"' if it.width else 'stroke="none"'
        fill = f'fill="{_hex(it.fill)}"' if it.fill is not None else 'fill="none"'
        if it.kind == "circle":
            x, y, r = it.args
            out.append(f'<circle cx="{x:.2f}" cy="{y:.2f}" r="{r:.2f}" {stroke} {fill}/>')
        elif it.kind == "line":
            x0, y0, x1, y1 = it.args
            out.append(f'<line x1="{x0:.2f}" y1="{y0:.2f}" x2="{x1:.2f}" y2="{y1:.2f}" {stroke}/>')
        elif it.kind == "poly":
            pts = " ".join(f"{x:.2f},{y:.2f}" for x, y in it.args[0])
            out.append(f'<polygon points="{pts}" {stroke} {fill}/>')
        elif it.kind == "rect":
            x, y, rw, rh = it.args
            out.append(f'<rect x="{x:.3f}" y="{y:.3f}" width="{rw:.3f}" height="{rh:.3f}" {stroke} {fill}/>')
        elif it.kind == "text":
            x, y, text, size = it.args
            out.append(f'<text x="{x:.2f}" y="{y:.2f}" font-size="{size:.2f}" text-anchor="middle" '
                       f'fill="{_hex(it.colour)}">{_esc(text)}</text>')
    if open_group is not None:
        out.append("</g>")
    out.append("</svg>")
    return "\n".join(out) + "\n"


# --------------------------------------------------------------------------- PNG (OpenCV)

MAX_PIXELS = 60_000_000


def png_scale(layout: Layout, px_per_mm: float = 10.0) -> float:
    """px_per_mm, reduced if the image would exceed MAX_PIXELS."""
    limit = math.sqrt(MAX_PIXELS / (layout.width * layout.height))
    return min(px_per_mm, limit)


def template_image(layout: Layout, px_per_mm: float = 10.0, labels: dict | None = None, title=None):
    """The template as a BGR uint8 image (see ``png_scale`` for the size limit)."""
    import cv2
    import numpy as np
    s = png_scale(layout, px_per_mm)
    W, H = int(math.ceil(layout.width * s)), int(math.ceil(layout.height * s))
    img = np.full((H, W, 3), 255, np.uint8)
    shift = 4
    f = 1 << shift

    def P(x, y):
        return int(round(x * s * f)), int(round(y * s * f))

    def col(c):
        return tuple(int(round(255 * v)) for v in reversed(c))
    for it in template_items(layout, labels, title):
        th = max(1, int(round(it.width * s)))
        if it.kind == "circle":
            x, y, r = it.args
            if it.fill is not None:
                cv2.circle(img, P(x, y), int(round(r * s * f)), col(it.fill), -1, cv2.LINE_AA, shift)
            if it.width:
                cv2.circle(img, P(x, y), int(round(r * s * f)), col(it.colour), th, cv2.LINE_AA, shift)
        elif it.kind == "line":
            x0, y0, x1, y1 = it.args
            cv2.line(img, P(x0, y0), P(x1, y1), col(it.colour), th, cv2.LINE_AA, shift)
        elif it.kind == "poly":
            pts = np.array([P(x, y) for x, y in it.args[0]], np.int32)
            cv2.polylines(img, [pts], True, col(it.colour), th, cv2.LINE_AA, shift)
        elif it.kind == "rect":
            x, y, rw, rh = it.args
            x0, y0 = int(round(x * s)), int(round(y * s))
            x1, y1 = int(round((x + rw) * s)), int(round((y + rh) * s))
            if it.fill is not None:
                img[y0:y1, x0:x1] = col(it.fill)
            if it.width:
                cv2.rectangle(img, (x0, y0), (x1, y1), col(it.colour), th)
        elif it.kind == "text":
            x, y, text, size = it.args
            scale = size * s / 22.0          # Hershey simplex: cap height ~ 22 px at scale 1
            thick = max(1, int(round(scale * 1.6)))
            (tw, _), _ = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, scale, thick)
            cv2.putText(img, text, (int(round(x * s - tw / 2)), int(round(y * s))), cv2.FONT_HERSHEY_SIMPLEX,
                        scale, col(it.colour), thick, cv2.LINE_AA)
    return img, s


def template_png(layout: Layout, px_per_mm: float = 10.0, labels: dict | None = None, title=None) -> bytes:
    """PNG bytes with the physical resolution recorded (pHYs), so printers keep the scale."""
    import cv2
    img, s = template_image(layout, px_per_mm, labels, title)
    ok, buf = cv2.imencode(".png", img)
    if not ok:
        raise RuntimeError("PNG encoding failed")
    return _with_phys(buf.tobytes(), s)


def _with_phys(png: bytes, px_per_mm: float) -> bytes:
    """Insert a pHYs chunk (pixels per metre) after IHDR."""
    import struct
    ppm = int(round(px_per_mm * 1000))
    data = struct.pack(">IIB", ppm, ppm, 1)
    chunk = struct.pack(">I", len(data)) + b"pHYs" + data + struct.pack(">I", zlib.crc32(b"pHYs" + data))
    ihdr_end = 8 + 4 + 4 + 13 + 4
    return png[:ihdr_end] + chunk + png[ihdr_end:]


# --------------------------------------------------------------------------- PDF (hand-written)

PT = 72 / 25.4                      # points per mm
_HELVETICA = {c: 556 for c in "0123456789"}
_HELVETICA.update({" ": 278, "-": 333, ".": 278, ",": 278, ":": 278, "/": 278, "(": 333, ")": 333,
                   "%": 889, "M": 833, "H": 722, "S": 667, "W": 944, "m": 833, "w": 722,
                   "i": 222, "l": 222, "j": 222, "t": 278, "f": 278, "r": 333, "I": 278})


def _text_width(text: str, size: float) -> float:
    return sum(_HELVETICA.get(c, 556 if c.isupper() else 500) for c in text) / 1000 * size


def _pdf_str(text: str) -> str:
    return "(" + text.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)") + ")"


def _content(items) -> str:
    """PDF drawing operators in mm, y down (the caller's matrix flips and scales)."""
    ops = []
    k = 0.5523
    for it in items:
        sc = "%.3f %.3f %.3f RG" % it.colour
        if it.kind == "circle":
            x, y, r = it.args
            c = k * r
            paint = ("%.3f %.3f %.3f rg" % it.fill, "f") if it.fill is not None and not it.width else (sc, "S")
            ops.append(f"{paint[0]} {it.width:.3f} w {x + r:.3f} {y:.3f} m "
                       f"{x + r:.3f} {y + c:.3f} {x + c:.3f} {y + r:.3f} {x:.3f} {y + r:.3f} c "
                       f"{x - c:.3f} {y + r:.3f} {x - r:.3f} {y + c:.3f} {x - r:.3f} {y:.3f} c "
                       f"{x - r:.3f} {y - c:.3f} {x - c:.3f} {y - r:.3f} {x:.3f} {y - r:.3f} c "
                       f"{x + c:.3f} {y - r:.3f} {x + r:.3f} {y - c:.3f} {x + r:.3f} {y:.3f} c {paint[1]}")
        elif it.kind == "line":
            x0, y0, x1, y1 = it.args
            ops.append(f"{sc} {it.width:.3f} w {x0:.3f} {y0:.3f} m {x1:.3f} {y1:.3f} l S")
        elif it.kind == "poly":
            pts = it.args[0]
            path = f"{pts[0][0]:.3f} {pts[0][1]:.3f} m " + " ".join(f"{x:.3f} {y:.3f} l" for x, y in pts[1:])
            ops.append(f"{sc} {it.width:.3f} w {path} h S")
        elif it.kind == "rect":
            x, y, w, h = it.args
            if it.fill is not None:
                ops.append("%.3f %.3f %.3f rg " % it.fill + f"{x:.3f} {y:.3f} {w:.3f} {h:.3f} re f")
            if it.width:
                ops.append(f"{sc} {it.width:.3f} w {x:.3f} {y:.3f} {w:.3f} {h:.3f} re S")
        elif it.kind == "text":
            x, y, text, size = it.args
            x0 = x - _text_width(text, size) / 2
            ops.append("%.3f %.3f %.3f rg " % it.colour +
                       f"BT /F1 {size:.3f} Tf 1 0 0 -1 {x0:.3f} {y:.3f} Tm {_pdf_str(text)} Tj ET")
    return "\n".join(ops)


def template_pdf(layout: Layout, paper: str = "a4", labels: dict | None = None, title=None,
                 overlap: float = 10.0, margin: float = 8.0) -> tuple[bytes, int]:
    """(PDF bytes, page count). ``paper``: a4, letter, a3 (tiled, portrait) or none (one page)."""
    items = template_items(layout, labels, title)
    board = _content(items)
    W, H = layout.width, layout.height
    if paper == "none":
        page_w, page_h, margin, overlap = W, H, 0.0, 0.0
    elif paper in PAPERS:
        page_w, page_h = PAPERS[paper]
    else:
        raise ValueError(f"unknown paper {paper!r}; choose {', '.join(PAPERS)} or none")
    area_w, area_h = page_w - 2 * margin, page_h - 2 * margin - (6 if paper != "none" else 0)
    step_w, step_h = area_w - overlap, area_h - overlap
    cols = max(1, math.ceil((W - overlap) / step_w)) if paper != "none" else 1
    rows = max(1, math.ceil((H - overlap) / step_h)) if paper != "none" else 1
    objects: list[bytes] = []

    def add(body: bytes) -> int:
        objects.append(body)
        return len(objects)
    catalog = add(b"")          # filled in at the end
    pages_obj = add(b"")
    font = add(b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>")
    form_data = zlib.compress(board.encode("latin-1"))
    form = add(b"<< /Type /XObject /Subtype /Form /BBox [%.3f %.3f %.3f %.3f] /Resources << /Font << /F1 %d 0 R >> >>"
               b" /Filter /FlateDecode /Length %d >>\nstream\n" % (-1, -1, W + 1, H + 1, font, len(form_data))
               + form_data + b"\nendstream")
    page_ids = []
    for r in range(rows):
        for c in range(cols):
            x0, y0 = c * step_w, r * step_h          # board mm at the page's printable top-left
            ops = [f"q {PT:.6f} 0 0 {-PT:.6f} 0 {page_h * PT:.4f} cm",      # mm, y down, from page top-left
                   f"{margin:.3f} {margin:.3f} {area_w:.3f} {area_h:.3f} re W n",
                   f"q 1 0 0 1 {margin - x0:.3f} {margin - y0:.3f} cm /B Do Q"]
            if paper != "none":
                # the next tiles start here: a thin dashed line at the overlap edges
                ops.append("[2 2] 0 d 0.6 0.6 0.6 RG 0.2 w")
                if c < cols - 1:
                    xe = margin + step_w
                    ops.append(f"{xe:.3f} {margin:.3f} m {xe:.3f} {margin + area_h:.3f} l S")
                if r < rows - 1:
                    ye = margin + step_h
                    ops.append(f"{margin:.3f} {ye:.3f} m {margin + area_w:.3f} {ye:.3f} l S")
                ops.append("[] 0 d")
            ops.append("Q")
            if paper != "none":
                label = (f"page {r * cols + c + 1}/{rows * cols}: row {r + 1}, column {c + 1}. "
                         f"Print at 100 %; overlap {overlap:g} mm up to the dashed lines.")
                ops.append(f"q {PT:.6f} 0 0 {-PT:.6f} 0 {page_h * PT:.4f} cm 0 0 0 rg BT /F1 3 Tf 1 0 0 -1 "
                           f"{margin:.3f} {page_h - margin + 4:.3f} Tm {_pdf_str(label)} Tj ET Q")
            stream = zlib.compress("\n".join(ops).encode("latin-1"))
            content = add(b"<< /Filter /FlateDecode /Length %d >>\nstream\n" % len(stream) + stream + b"\nendstream")
            page_ids.append(add(b"<< /Type /Page /Parent %d 0 R /MediaBox [0 0 %.3f %.3f] /Contents %d 0 R "
                                b"/Resources << /Font << /F1 %d 0 R >> /XObject << /B %d 0 R >> >> >>"
                                % (pages_obj, page_w * PT, page_h * PT, content, font, form)))
    objects[catalog - 1] = b"<< /Type /Catalog /Pages %d 0 R >>" % pages_obj
    objects[pages_obj - 1] = (b"<< /Type /Pages /Kids [" + b" ".join(b"%d 0 R" % p for p in page_ids)
                              + b"] /Count %d >>" % len(page_ids))
    out = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for i, body in enumerate(objects, 1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % i + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    for off in offsets:
        out += b"%010d 00000 n \n" % off
    out += b"trailer\n<< /Size %d /Root %d 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, catalog, xref)
    return bytes(out), len(page_ids)
