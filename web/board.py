"""The board as SVG, drawn from `companion.board.geometry` (RULES G1-G5).

Every hole is a ``<circle class="hole">`` whose id names it, so pages (the
virtual board and the LED mirror of ``static/js/vboard.js`` too) can find it:

* ``M12``: main-track hole 12;
* ``H3-s2``: home hole 3 of side 2;
* ``S-s2-1`` ... ``S-s2-5``: the start holes of side 2.

The main track runs clockwise round a regular polygon, one side per board
side, hole ``k*h`` at corner ``k``. Each seat's home track leaves its in-spot
straight toward the centre; its start area is a row inside the track at its
come-out hole (Tock, Carbles, Jackaroo: one start hole at the side's end, RG-B1,
so the row sits before it). ``layout`` gives the coordinates; ``render_svg`` the markup.
Every fifth main-track hole has its number beside it, outside the track, as
on the printed board. Pegs are drawn by ``static/js/board.js`` on top of the holes.
"""
from __future__ import annotations

import math
from html import escape

from flask_babel import pgettext

from companion.board import HOME_SIZE

UNIT = 20.0  # distance between neighbouring holes


def layout(sides: int, holes_per_side: int, in_spot: int, come_out: int, occupied,
           pegs_per_side: int = 5, bottom_side: int = 0, home_size: int = HOME_SIZE) -> dict:
    """Hole centres and per-side label anchors; `bottom_side` is drawn at the bottom."""
    n, h, d = sides, holes_per_side, UNIT
    radius = h * d / (2 * math.sin(math.pi / n))
    base = math.pi / 2 - math.pi / n - 2 * math.pi * bottom_side / n
    corners = [(radius * math.cos(base + 2 * math.pi * k / n),
                radius * math.sin(base + 2 * math.pi * k / n)) for k in range(n)]
    holes, sides_info = {}, {}
    for k in range(n):
        (x0, y0), (x1, y1) = corners[k], corners[(k + 1) % n]
        ux, uy = (x1 - x0) / h, (y1 - y0) / h
        for i in range(h):
            holes[f"M{k * h + i}"] = (x0 + i * ux, y0 + i * uy)
        # inward unit normal (toward the centre)
        mx, my = (x0 + x1) / 2, (y0 + y1) / 2
        norm = math.hypot(mx, my)
        nx, ny = -mx / norm, -my / norm
        if k not in occupied:
            continue
        sx, sy = holes[f"M{k * h + in_spot}"]
        for j in range(1, home_size + 1):
            holes[f"H{j}-s{k}"] = (sx + j * d * nx, sy + j * d * ny)
        first = min(max(come_out - (pegs_per_side - 1) / 2, 1), h - pegs_per_side)
        if abs(first - in_spot) < 1.5 or first <= in_spot <= first + pegs_per_side - 1:
            first = in_spot + 1.5
            if first + pegs_per_side - 1 > h - 1:   # start hole at the side's end (RG-B1): before it
                first = in_spot - 1.5 - (pegs_per_side - 1)
        for j in range(pegs_per_side):
            px, py = x0 + (first + j) * ux, y0 + (first + j) * uy
            holes[f"S-s{k}-{j + 1}"] = (px + 1.7 * d * nx, py + 1.7 * d * ny)
        # the seat's letter at the end of its start row away from the lane, and past its
        # lane's inner end: start rows and home lanes are told apart without colour
        at = first - 1 if first > in_spot else first + pegs_per_side
        hx, hy = holes[f"H{home_size}-s{k}"]
        marks = {"start": (x0 + at * ux + 1.7 * d * nx, y0 + at * uy + 1.7 * d * ny),
                 "lane": (hx + 0.95 * d * nx, hy + 0.95 * d * ny)}
        # the label runs along its side, read from outside the board, never upside down
        angle = math.degrees(math.atan2(y0 - y1, x0 - x1))
        if angle > 90.5:
            angle -= 180
        elif angle <= -89.5:
            angle += 180
        # the name runs along its side beside its home lane, never across it (8-10 sides: the
        # lane sits near the middle): the longer stretch of the side on either side of the lane
        depth = 3.6 * d
        inset = depth * math.tan(math.pi / n) / d + 0.3   # the track's corners at that depth
        spans = [(inset, in_spot - 0.9), (in_spot + 0.9, h - inset)]
        lo, hi = max(spans, key=lambda sp: sp[1] - sp[0])
        mid = (lo + hi) / 2
        # centred on the side when it fits there (clear of the lane: 4-6 sides), else beside the lane
        centred = max(0.0, min(abs(in_spot - h / 2) - 0.9, h / 2 - inset)) * 2 * d
        sides_info[k] = {"x": x0 + mid * ux + depth * nx, "y": y0 + mid * uy + depth * ny, "angle": angle,
                         "room": max(hi - lo, 1.0) * d, "marks": marks, "centred_room": centred,
                         "centre": (mx + depth * nx, my + depth * ny)}
    xs = [p[0] for p in holes.values()]
    ys = [p[1] for p in holes.values()]
    pad = 1.2 * d
    box = (min(xs) - pad, min(ys) - pad, max(xs) - min(xs) + 2 * pad, max(ys) - min(ys) + 2 * pad)
    return {"holes": holes, "sides": sides_info, "box": box, "corners": corners,
            "in_spot": in_spot, "come_out": come_out, "h": h}


def render_svg(table, bottom_side: int = 0, element_id: str = "board") -> str:
    """The board of a table (web.tables.Table) as inline SVG markup."""
    g = table.game
    rules, geo = g.rules, table.geo
    occupied = list(g.seat_side)
    lay = layout(geo.sides, geo.holes_per_side, rules.in_spot_offset, rules.come_out_offset,
                 occupied, rules.pegs_per_side, bottom_side, geo.home_size)
    d = UNIT
    seat_of_side = {side: seat for seat, side in enumerate(g.seat_side)}
    x, y, w, hgt = lay["box"]
    font = max(14.0, w / 26)
    r_hole, r_small = 0.3 * d, 0.26 * d
    out = [f'<svg id="{element_id}" class="board" xmlns="http://www.w3.org/2000/svg" '
           f'viewBox="{x:.1f} {y:.1f} {w:.1f} {hgt:.1f}" role="img" '
           f'aria-label="The board: {geo.sides} sides, {geo.length} holes on the main track" '
           f'data-sides="{geo.sides}" data-length="{geo.length}" data-unit="{d}">']
    pts = " ".join(f"{cx:.1f},{cy:.1f}" for cx, cy in lay["corners"])
    out.append(f'<polygon class="track" points="{pts}"/>')
    out.append('<g class="holes">')
    h = lay["h"]
    for hid, (cx, cy) in lay["holes"].items():
        cls, extra, r = "hole", "", r_hole
        if hid.startswith("M"):
            n = int(hid[1:])
            k, i = divmod(n, h)
            if k in seat_of_side and i == lay["in_spot"]:
                cls += " in-spot" + (" come-out" if i == lay["come_out"] else "")
                extra = f' data-side="{k}"'
            elif k in seat_of_side and i == lay["come_out"]:
                cls += " come-out"
                extra = f' data-side="{k}"'
        elif hid.startswith("H"):
            cls += " home"
            extra = f' data-side="{hid.split("-s")[1]}"'
        else:
            cls += " start"
            r = r_small
            extra = f' data-side="{hid.split("-s")[1].split("-")[0]}"'
        out.append(f'<circle id="{hid}" class="{cls}" cx="{cx:.1f}" cy="{cy:.1f}" r="{r:.1f}"{extra}/>')
    out.append("</g>")
    # landmark rings and home lanes in the seat's colour, labels with the name and colour name
    out.append('<g class="marks">')
    for side, info in lay["sides"].items():
        seat = seat_of_side[side]
        col = table.public_seats_base[seat]["colour"]
        hx, hy = lay["holes"][f"M{side * h + lay['in_spot']}"]
        ex, ey = lay["holes"][f"H{geo.home_size}-s{side}"]
        out.append(f'<line class="lane" x1="{hx:.1f}" y1="{hy:.1f}" x2="{ex:.1f}" y2="{ey:.1f}" '
                   f'stroke="{col["hex"]}"/>')
        for landmark in ("in_spot", "come_out") if lay["in_spot"] != lay["come_out"] else ("come_out",):
            lx, ly = lay["holes"][f"M{side * h + lay[landmark]}"]
            out.append(f'<circle class="ring {landmark.replace("_", "-")}" cx="{lx:.1f}" cy="{ly:.1f}" '
                       f'r="{0.5 * d:.1f}" stroke="{col["hex"]}"/>')
        name = table.seats[seat].name
        label = table.public_seats_base[seat]["label"]
        for where, (mx_, my_) in info["marks"].items():
            out.append(f'<text class="lane-label {where}-label" x="{mx_:.1f}" y="{my_:.1f}" text-anchor="middle" '
                       f'dominant-baseline="central" font-size="{0.7 * d:.0f}" data-size="{0.7 * d:.0f}" '
                       f'aria-hidden="true">{escape(label)}</text>')
        words = f'{name} \u00B7 {pgettext("colour", col["name"])}'
        # as big as the board allows, but no longer than its stretch of the side (bold: ~0.62 em a letter)
        width = 0.62 * (len(words) + 2)   # in font sizes
        if font * width <= info["centred_room"]:
            size, (lx, ly) = font, info["centre"]
        else:
            size, (lx, ly) = max(9.0, min(font, info["room"] / width)), (info["x"], info["y"])
        out.append(f'<text class="side-label" x="{lx:.1f}" y="{ly:.1f}" '
                   f'text-anchor="middle" dominant-baseline="middle" font-size="{size:.0f}" data-size="{size:.0f}" '
                   f'transform="rotate({info["angle"]:.1f} {lx:.1f} {ly:.1f})" data-seat="{seat}">'
                   f'<tspan class="swatch" fill="{col["hex"]}">\u25CF</tspan> '
                   f'{escape(name)} \u00B7 {escape(pgettext("colour", col["name"]))}</text>')   # the reader's words
    out.append("</g>")
    # a number beside every fifth main-track hole, outside the track: holes are named so
    # in words ("hole 21") and on the printed board (vision/template.py)
    out.append('<g class="hole-numbers" aria-hidden="true">')
    for n in range(0, geo.length, 5):
        hx, hy = lay["holes"][f"M{n}"]
        dist = math.hypot(hx, hy) or 1.0
        tx, ty = hx + hx / dist * 0.75 * d, hy + hy / dist * 0.75 * d
        out.append(f'<text class="hole-num" x="{tx:.1f}" y="{ty:.1f}" text-anchor="middle" '
                   f'dominant-baseline="middle" font-size="{0.55 * d:.0f}" data-size="{0.55 * d:.0f}">{n}</text>')
    out.append("</g>")
    # the LEDs under the holes (mirrored from the board referee), then pegs, then tap targets
    out.append('<g id="leds" class="leds"></g><g id="pegs" class="pegs"></g>'
               '<g id="targets" class="targets"></g></svg>')
    return "".join(out)
