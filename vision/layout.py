"""The physical board: where every hole and marker is, in millimetres.

Coordinates are millimetres on the board seen from above, x to the right and y
down (the SVG/image convention), origin at the top-left of the board's bounding
box. The main track ``M0 .. M(L-1)`` runs clockwise on that picture (RULES G2):
hole ``M(k*h)`` is corner ``k`` and side 0 is at the bottom, as on the web page.

Hole ids are those of ``hardware.config`` (and the web page's SVG):

* ``M<n>``       main-track hole n;
* ``H<k>-s<s>``  home hole k (1-5) of side s, ``H1`` next to the in-spot (G4);
* ``S-s<s>-<k>`` start hole k of side s (G5).

A standard layout is generated from a few parameters (``standard_layout``);
a home-made board is described by a JSON or TOML file (``load_layout``) that
either gives the same parameters or lists every hole (and optionally the
markers) explicitly. The module is pure Python: no OpenCV, no NumPy.
"""
from __future__ import annotations

import itertools
import json
import math
import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

FORMAT = "pegs-and-jokers/board-layout/1"
SIDES = (4, 6, 8, 10, 12)   # 12: the 12-section Carbles board (CB-G1)
HOME_HOLES = 5
START_HOLES = 5

_HOLE_RE = re.compile(r"^(?:M(0|[1-9]\d*)|H([1-9]\d*)-s(0|[1-9]\d*)|S-s(0|[1-9]\d*)-([1-9]\d*))$")


class LayoutError(ValueError):
    """A layout that can't be used; the message is one line naming the problem."""


@dataclass(frozen=True)
class Marker:
    """An ArUco marker (DICT_4X4_50) glued flat on the board, axis-aligned, upright.

    ``x, y`` is the centre and ``size`` the side of the black square in mm; the
    printed sticker adds a white quiet zone of one cell (``size / 6``) round it.
    """
    id: int
    x: float
    y: float
    size: float

    @property
    def quiet(self) -> float:
        return self.size / 6

    def corners(self) -> list[tuple[float, float]]:
        """The black square's corners in ArUco order: top-left, top-right, bottom-right, bottom-left."""
        h = self.size / 2
        return [(self.x - h, self.y - h), (self.x + h, self.y - h),
                (self.x + h, self.y + h), (self.x - h, self.y + h)]

    def to_json(self) -> dict:
        return {"id": self.id, "x": round(self.x, 3), "y": round(self.y, 3), "size": round(self.size, 3)}


@dataclass
class Layout:
    """Every hole of one physical board, its markers and the physical sizes vision needs."""
    sides: int
    holes_per_side: int
    holes: dict                      # hole id -> (x, y) mm
    markers: list                    # [Marker]
    width: float
    height: float
    outline: list                    # board edge polygon [(x, y)]
    pitch: float = 25.0              # distance between neighbouring holes
    hole_diameter: float = 8.0       # drilled hole
    peg_diameter: float = 12.0       # a peg's head seen from above
    in_spot_offset: int = 3
    come_out_offset: int = 8
    start_holes: int = START_HOLES
    home_holes: int = HOME_HOLES
    params: dict = field(default_factory=dict)   # how it was generated (for the file)

    # ---------------------------------------------------------------- ids

    @property
    def track_length(self) -> int:
        return self.sides * self.holes_per_side

    def hole_ids(self) -> list[str]:
        """Every hole id: the main track in order, then per side its start and home holes."""
        return expected_ids(self.sides, self.holes_per_side, self.start_holes, self.home_holes)

    def start_ids(self, side: int) -> list[str]:
        return [f"S-s{side}-{k}" for k in range(1, self.start_holes + 1)]

    def home_ids(self, side: int) -> list[str]:
        return [f"H{k}-s{side}" for k in range(1, self.home_holes + 1)]

    @staticmethod
    def parse_id(hole: str) -> tuple[str, int | None, int]:
        """("M", None, n) | ("H", side, k) | ("S", side, k); ValueError if not a hole id."""
        m = _HOLE_RE.match(hole) if isinstance(hole, str) else None
        if not m:
            raise ValueError(f"{hole!r} is not a hole id (M<n>, H<k>-s<side> or S-s<side>-<k>)")
        main, hk, hs, ss, sk = m.groups()
        if main is not None:
            return "M", None, int(main)
        if hk is not None:
            return "H", int(hs), int(hk)
        return "S", int(ss), int(sk)

    def side_of(self, hole: str) -> int:
        """The side a hole belongs to (main-track holes: the side whose stretch holds them)."""
        kind, side, n = self.parse_id(hole)
        return n // self.holes_per_side if kind == "M" else side

    def manual_reference_holes(self) -> list[str]:
        """The four holes a person taps for the manual calibration, in this order:
        the main-track corner holes nearest the four markers (well spread out)."""
        corners = _marker_corners(self.sides)
        return [f"M{k * self.holes_per_side}" for k in corners]

    def describe(self) -> str:
        return (f"{self.sides}-sided board, {self.holes_per_side} holes a side, pitch {self.pitch:g} mm, "
                f"holes {self.hole_diameter:g} mm, {len(self.holes)} holes, {self.width:.0f} x {self.height:.0f} mm")

    # ---------------------------------------------------------------- files

    def to_json(self) -> dict:
        return {
            "format": FORMAT,
            "sides": self.sides, "holes_per_side": self.holes_per_side,
            "in_spot_offset": self.in_spot_offset, "come_out_offset": self.come_out_offset,
            "start_holes": self.start_holes, "home_holes": self.home_holes,
            "pitch": self.pitch, "hole_diameter": self.hole_diameter, "peg_diameter": self.peg_diameter,
            "width": round(self.width, 3), "height": round(self.height, 3),
            "params": dict(self.params),
            "outline": [[round(x, 3), round(y, 3)] for x, y in self.outline],
            "holes": {h: [round(x, 3), round(y, 3)] for h, (x, y) in self.holes.items()},
            "markers": [m.to_json() for m in self.markers],
        }

    def save(self, path) -> None:
        Path(path).write_text(json.dumps(self.to_json(), indent=1) + "\n", encoding="utf-8")

    def fingerprint(self) -> str:
        """A short text that changes when a hole or marker moves (stored with calibrations)."""
        import hashlib
        data = json.dumps([self.sides, self.holes_per_side, sorted((h, round(x, 1), round(y, 1))
                           for h, (x, y) in self.holes.items()),
                           [m.to_json() for m in self.markers]]).encode()
        return hashlib.sha1(data).hexdigest()[:12]


def expected_ids(sides: int, holes_per_side: int, start_holes: int = START_HOLES,
                 home_holes: int = HOME_HOLES) -> list[str]:
    ids = [f"M{i}" for i in range(sides * holes_per_side)]
    for s in range(sides):
        ids += [f"S-s{s}-{k}" for k in range(1, start_holes + 1)]
        ids += [f"H{k}-s{s}" for k in range(1, home_holes + 1)]
    return ids


# --------------------------------------------------------------------------- generation

def standard_layout(sides: int = 4, holes_per_side: int = 18, *, pitch: float = 25.0,
                    hole_diameter: float = 8.0, peg_diameter: float = 12.0,
                    in_spot_offset: int = 3, come_out_offset: int = 8,
                    start_holes: int = START_HOLES, home_holes: int = HOME_HOLES,
                    start_centre: float | None = None, start_inset: float = 1.7,
                    marker_size: float = 40.0, margin: float = 1.6,
                    marker_clearance: float = 2.0) -> Layout:
    """A regular-polygon board (RULES G1-G5) with holes ``pitch`` mm apart.

    * the main track runs round the polygon, hole ``k*h`` on corner ``k``;
    * home ``H1..H5`` leaves the in-spot straight toward the centre, one pitch apart;
    * the start area is a row of holes parallel to the side, ``start_inset`` pitches
      inside the track, centred on hole ``start_centre`` of the side (default: the
      come-out hole) and moved clear of the home track;
    * the board edge is ``margin`` pitches outside the track's corners;
    * four ArUco markers sit inside the track near four well-spread corners, as
      close to the corner as the holes (and the pegs in them) allow, their stickers
      ``marker_clearance`` mm beyond a peg's edge.
    """
    if sides not in SIDES:
        raise LayoutError(f"a board has 4, 6, 8, 10 or 12 sides, not {sides}")
    if not 10 <= holes_per_side <= 40:
        raise LayoutError(f"holes_per_side must be 10-40 (18 standard, 20 Pegoo), not {holes_per_side}")
    if not (0 < in_spot_offset < holes_per_side and 0 < come_out_offset < holes_per_side):
        raise LayoutError("in_spot_offset and come_out_offset must lie inside a side")
    if not 1 <= start_holes <= 10 or not 1 <= home_holes <= 10:
        raise LayoutError("start_holes and home_holes must be 1-10")
    if pitch <= 0 or hole_diameter <= 0 or peg_diameter <= 0:
        raise LayoutError("pitch, hole_diameter and peg_diameter must be above 0")
    if max(hole_diameter, peg_diameter) >= 0.9 * pitch:
        raise LayoutError(f"holes ({hole_diameter:g} mm) and pegs ({peg_diameter:g} mm) must be well under "
                          f"the pitch ({pitch:g} mm)")
    n, h, d = sides, holes_per_side, pitch
    radius = h * d / (2 * math.sin(math.pi / n))
    base = math.pi / 2 - math.pi / n          # side 0 at the bottom, running right to left
    corners = [(radius * math.cos(base + 2 * math.pi * k / n), radius * math.sin(base + 2 * math.pi * k / n))
               for k in range(n)]
    holes: dict[str, tuple[float, float]] = {}
    for k in range(n):
        (x0, y0), (x1, y1) = corners[k], corners[(k + 1) % n]
        ux, uy = (x1 - x0) / h, (y1 - y0) / h
        for i in range(h):
            holes[f"M{k * h + i}"] = (x0 + i * ux, y0 + i * uy)
    for k in range(n):
        (x0, y0), (x1, y1) = corners[k], corners[(k + 1) % n]
        ux, uy = (x1 - x0) / h, (y1 - y0) / h
        mx, my = (x0 + x1) / 2, (y0 + y1) / 2
        norm = math.hypot(mx, my)
        nx, ny = -mx / norm, -my / norm        # inward normal
        sx, sy = holes[f"M{k * h + in_spot_offset}"]
        for j in range(1, home_holes + 1):
            holes[f"H{j}-s{k}"] = (sx + j * d * nx, sy + j * d * ny)
        centre = come_out_offset if start_centre is None else start_centre
        first = min(max(centre - (start_holes - 1) / 2, 1), h - start_holes)
        last = first + start_holes - 1
        if first - 1.5 < in_spot_offset < last + 1.5:   # keep the row clear of the home track
            after = in_spot_offset + 1.5
            before = in_spot_offset - 1.5 - (start_holes - 1)
            # after the in-spot if it fits on the side; a start hole next to the far corner
            # (Tock, RG-B1) puts the row before it
            fits_after = after + start_holes - 1 <= h - 1
            first = after if (centre >= in_spot_offset and fits_after) or before < 0.5 else before
        for j in range(start_holes):
            px, py = x0 + (first + j) * ux, y0 + (first + j) * uy
            holes[f"S-s{k}-{j + 1}"] = (px + start_inset * d * nx, py + start_inset * d * ny)
    # the board edge: the corners pushed out by `margin` pitches (a parallel polygon)
    grow = margin * d / math.cos(math.pi / n)
    outline = [(x * (radius + grow) / radius, y * (radius + grow) / radius) for x, y in corners]
    min_x = min(x for x, _ in outline)
    min_y = min(y for _, y in outline)
    shift = lambda p: (p[0] - min_x, p[1] - min_y)  # noqa: E731
    holes = {k: shift(p) for k, p in holes.items()}
    outline = [shift(p) for p in outline]
    corners = [shift(p) for p in corners]
    width = max(x for x, _ in outline)
    height = max(y for _, y in outline)
    params = dict(pitch=pitch, hole_diameter=hole_diameter, peg_diameter=peg_diameter,
                  start_centre=start_centre, start_inset=start_inset, marker_size=marker_size, margin=margin)
    if marker_clearance != 2.0:
        params["marker_clearance"] = marker_clearance
    layout = Layout(sides=n, holes_per_side=h, holes=holes, markers=[], width=width, height=height,
                    outline=outline, pitch=pitch, hole_diameter=hole_diameter, peg_diameter=peg_diameter,
                    in_spot_offset=in_spot_offset, come_out_offset=come_out_offset,
                    start_holes=start_holes, home_holes=home_holes, params=params)
    layout.markers = place_markers(layout, corners, marker_size, marker_clearance)
    return layout


def _marker_corners(n: int) -> list[int]:
    """Four corners of a regular n-gon spanning the largest area (all four of a square)."""
    pts = [(math.cos(2 * math.pi * k / n), math.sin(2 * math.pi * k / n)) for k in range(n)]

    def area(q):
        return abs(sum(pts[q[i]][0] * pts[q[(i + 1) % 4]][1] - pts[q[(i + 1) % 4]][0] * pts[q[i]][1]
                       for i in range(4)))
    return list(max(itertools.combinations(range(n), 4), key=lambda q: (round(area(q), 9), [-i for i in q])))


def _inside(poly, x, y) -> bool:
    inside = False
    for (x0, y0), (x1, y1) in zip(poly, poly[1:] + poly[:1]):
        if (y0 > y) != (y1 > y) and x < x0 + (y - y0) * (x1 - x0) / (y1 - y0):
            inside = not inside
    return inside


def _square_clearance(cx, cy, half, px, py) -> float:
    """Distance from point p to an axis-aligned square (0 inside)."""
    dx = max(abs(px - cx) - half, 0.0)
    dy = max(abs(py - cy) - half, 0.0)
    return math.hypot(dx, dy)


def place_markers(layout: Layout, corners: list, size: float, clearance: float = 2.0) -> list[Marker]:
    """Four markers inside the track near well-spread corners, clear of every hole and peg.

    Each sits as close to its corner as it can while its sticker (marker plus quiet
    zone) keeps a peg's radius plus 2 mm from every hole centre; if no spot fits, the
    marker shrinks (down to 20 mm) and the search repeats.
    """
    chosen = _marker_corners(layout.sides)
    keep = max(layout.peg_diameter, layout.hole_diameter) / 2 + clearance
    pts = list(layout.holes.values())
    track = [layout.holes[f"M{k * layout.holes_per_side}"] for k in range(layout.sides)]
    markers = []
    for marker_id, k in enumerate(chosen):
        cx, cy = corners[k]
        prev_c, next_c = corners[k - 1], corners[(k + 1) % layout.sides]
        e1 = _unit(next_c[0] - cx, next_c[1] - cy)
        e2 = _unit(prev_c[0] - cx, prev_c[1] - cy)
        near = [p for p in pts if math.hypot(p[0] - cx, p[1] - cy) < 12 * layout.pitch]
        step = max(layout.pitch / 12, 0.5)
        limit = int(8 * layout.pitch / step)
        # candidate centres inside the corner's angle, nearest the corner first
        grid = sorted(((i * step * e1[0] + j * step * e2[0]) ** 2 + (i * step * e1[1] + j * step * e2[1]) ** 2, i, j)
                      for i in range(1, limit) for j in range(1, limit))
        s = size
        spot = None
        while spot is None and s >= 20.0:
            half = s / 2 + s / 6
            for _, i, j in grid:
                a, b = i * step, j * step
                x, y = cx + a * e1[0] + b * e2[0], cy + a * e1[1] + b * e2[1]
                if any(_square_clearance(x, y, half, px, py) < keep for px, py in near):
                    continue
                if all(_inside(track, x + sx * half, y + sy * half) for sx in (-1, 1) for sy in (-1, 1)):
                    spot = (x, y)
                    break
            if spot is None:
                s *= 0.9
        if spot is None:
            raise LayoutError(f"no room for a marker of 20 mm or more near corner {k}; use a larger pitch")
        # whole half-millimetres: easy to measure, and stable if the search changes
        markers.append(Marker(marker_id, round(spot[0] * 2) / 2, round(spot[1] * 2) / 2, round(s * 2) / 2))
    return markers


def _unit(x, y):
    n = math.hypot(x, y)
    return x / n, y / n


# --------------------------------------------------------------------------- files

_PARAM_KEYS = {"pitch", "hole_diameter", "peg_diameter", "in_spot_offset", "come_out_offset",
               "start_holes", "home_holes", "start_centre", "start_inset", "marker_size", "margin",
               "marker_clearance"}
_FILE_KEYS = _PARAM_KEYS | {"format", "sides", "holes_per_side", "width", "height", "outline", "holes",
                            "markers", "params"}


def layout_from_spec(text: str) -> Layout:
    """A standard board written ``SIDES`` or ``SIDES:HOLES_PER_SIDE`` (``4``, ``6:20``), a
    game's board written as its preset (``tock``, ``jackaroo``, ``carbles6``, see
    `preset_layout`), else a layout file (`load_layout`)."""
    m = re.fullmatch(r"(\d+)(?::(\d+))?", text.strip())
    if m:
        return standard_layout(int(m.group(1)), int(m.group(2) or 18))
    m = re.fullmatch(r"([a-z][a-z0-9_]*?)(?::?(\d+))?", text.strip().lower())
    if m and not Path(text).suffix and m.group(1) in _preset_names():
        return preset_layout(m.group(1), int(m.group(2)) if m.group(2) else None)
    return load_layout(text)


# A Carbles preset names no board size: its standard one (CB-G1, "6 and 8 are standard").
CARBLES_DEFAULT_SECTIONS = 6
# mm between a marker's sticker and a peg's edge on the related games' boards: room for the
# template's hole id and LED number, which sit up to ~10 mm from a hole's centre
RELATED_MARKER_CLEARANCE = 8.0


def _preset_names() -> list[str]:
    from companion.rules import ALL_PRESETS   # pure standard library, like this module
    return list(ALL_PRESETS)


def preset_layout(preset: str, sides: int | None = None, **geometry) -> Layout:
    """The board a rule preset plays on, its holes where that preset's rules put them.

    Pegs and Jokers presets: the standard board (in-spot 3, come-out 8, 5 + 5 holes,
    RULES G). Tock and Jackaroo presets: the 4-sided board of RG-B1, one start hole at
    offset 17 (next to the far corner) with a 4-hole home running inward from it and a
    4-hole start area beside it (TK-G3 to G5). Carbles presets: the same side repeated
    on ``sides`` sections (4, 6, 8 or 12; default 6). ``geometry``: pitch and the other
    physical sizes of `standard_layout`.
    """
    from companion.families import PEGS, find_family
    from companion.rules import ALL_PRESETS
    if preset not in ALL_PRESETS:
        raise LayoutError(f"unknown preset {preset!r}; known: {', '.join(ALL_PRESETS)}")
    rules = ALL_PRESETS[preset]
    family = find_family(rules)   # the family says its boards: no preset names here
    tock = family is not PEGS
    sections = family.board_sizes(rules)
    carbles = tock and sections != (4,)
    if sides is None:
        sides = CARBLES_DEFAULT_SECTIONS if carbles else 4
    if tock and not carbles and sides != 4:
        raise LayoutError(f"{preset} is played on the 4-sided board (TK-G1, JR-G1), not {sides} sides")
    if carbles and sides not in sections:
        raise LayoutError(f"a Carbles board has {', '.join(map(str, sections))} sections, not {sides}")
    if tock:   # home lanes by the corners: keep the stickers off the printed labels too
        geometry.setdefault("marker_clearance", RELATED_MARKER_CLEARANCE)
    layout = standard_layout(sides, rules.holes_per_side, in_spot_offset=rules.in_spot_offset,
                             come_out_offset=rules.come_out_offset, start_holes=rules.pegs_per_side,
                             home_holes=rules.home_size, **geometry)
    layout.params["preset"] = preset
    return layout


def load_layout(path) -> Layout:
    """A layout from a JSON or TOML file (see ``layout_from_dict``); LayoutError on any problem."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise LayoutError(f"{path}: no such file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise LayoutError(f"{path}: can't be read ({exc})") from None
    if path.suffix.lower() == ".toml":
        try:
            data = tomllib.loads(text)
        except tomllib.TOMLDecodeError as exc:
            raise LayoutError(f"{path}: not valid TOML ({exc})") from None
    else:
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise LayoutError(f"{path}: not JSON ({exc.msg} at line {exc.lineno})") from None
    try:
        return layout_from_dict(data)
    except LayoutError as exc:
        raise LayoutError(f"{path}: {exc}") from None


def _num(data, key, default, lo=None, hi=None, kind=float):
    v = data.get(key, default)
    ok = isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)
    if kind is int:
        ok = ok and isinstance(v, int)
    if not ok or (lo is not None and v < lo) or (hi is not None and v > hi):
        rng = f" from {lo:g} to {hi:g}" if lo is not None and hi is not None else ""
        raise LayoutError(f"{key} must be {'an integer' if kind is int else 'a number'}{rng}, not {v!r}")
    return v


def _point(value, what):
    if (not isinstance(value, (list, tuple)) or len(value) != 2 or
            not all(isinstance(c, (int, float)) and not isinstance(c, bool) and math.isfinite(c) for c in value)):
        raise LayoutError(f"{what} must be [x, y] in mm, not {value!r}")
    return float(value[0]), float(value[1])


def layout_from_dict(data) -> Layout:
    """A layout from parsed JSON/TOML.

    Keys: ``sides`` (required), ``holes_per_side`` (18), the generation parameters
    of ``standard_layout`` (``pitch``, ``hole_diameter``, ``peg_diameter``,
    ``in_spot_offset``, ``come_out_offset``, ``start_holes``, ``home_holes``,
    ``start_centre``, ``start_inset``, ``marker_size``, ``margin``), and optionally
    ``holes`` (``{"M0": [x, y], ...}``: every hole, or only those that differ from
    the generated layout), ``markers`` (``[{"id", "x", "y", "size"}]``, default:
    placed automatically), ``outline`` and ``width``/``height``.
    """
    if not isinstance(data, dict):
        raise LayoutError("a layout must be an object/table")
    unknown = sorted(set(data) - _FILE_KEYS)
    if unknown:
        raise LayoutError(f"unknown key(s) {', '.join(unknown)}")
    if "format" in data and data["format"] != FORMAT:
        raise LayoutError(f"format is {data['format']!r}, expected {FORMAT!r}")
    if "sides" not in data:
        raise LayoutError("missing key 'sides' (4, 6, 8, 10 or 12)")
    sides = _num(data, "sides", 4, kind=int)
    if sides not in SIDES:
        raise LayoutError(f"sides must be 4, 6, 8, 10 or 12, not {sides}")
    hps = _num(data, "holes_per_side", 18, 10, 40, int)
    params = dict(data.get("params") or {})
    params.update({k: data[k] for k in _PARAM_KEYS if k in data})
    kw = {}
    for key, lo, hi, kind in (("pitch", 5, 200, float), ("hole_diameter", 1, 50, float),
                              ("peg_diameter", 1, 60, float), ("in_spot_offset", 1, hps - 1, int),
                              ("come_out_offset", 1, hps - 1, int), ("start_holes", 1, 10, int),
                              ("home_holes", 1, 10, int), ("start_inset", 0.5, 10, float),
                              ("marker_size", 10, 300, float), ("margin", 0, 20, float),
                              ("start_centre", 0, hps, float), ("marker_clearance", 0, 50, float)):
        if key in params and params[key] is not None:
            kw[key] = _num(params, key, None, lo, hi, kind)
    layout = standard_layout(sides, hps, **kw)
    if isinstance(params.get("preset"), str):   # the game it was made for (for its title)
        layout.params["preset"] = params["preset"]
    explicit = "holes" in data
    if explicit:
        holes_in = data["holes"]
        if not isinstance(holes_in, dict):
            raise LayoutError("holes must be a table {hole id: [x, y]}")
        valid = set(layout.hole_ids())
        for hole, xy in holes_in.items():
            if hole not in valid:
                try:
                    Layout.parse_id(hole)
                    raise LayoutError(f"holes.{hole}: not a hole of a {sides}-sided board with "
                                      f"{hps} holes a side")
                except ValueError as exc:
                    raise LayoutError(f"holes: {exc}") from None
            layout.holes[hole] = _point(xy, f"holes.{hole}")
    if "outline" in data:
        outline = data["outline"]
        if not isinstance(outline, list) or len(outline) < 3:
            raise LayoutError("outline must be a list of at least 3 [x, y] points")
        layout.outline = [_point(p, "an outline point") for p in outline]
    elif explicit:
        xs = [x for x, _ in layout.holes.values()]
        ys = [y for _, y in layout.holes.values()]
        pad = layout.pitch * 1.6
        layout.outline = [(min(xs) - pad, min(ys) - pad), (max(xs) + pad, min(ys) - pad),
                          (max(xs) + pad, max(ys) + pad), (min(xs) - pad, max(ys) + pad)]
    if "markers" in data:
        ms = data["markers"]
        if not isinstance(ms, list) or len(ms) < 3:
            raise LayoutError("markers must be a list of at least 3 {id, x, y, size}")
        markers = []
        for i, m in enumerate(ms):
            if not isinstance(m, dict) or set(m) - {"id", "x", "y", "size"} or not {"id", "x", "y"} <= set(m):
                raise LayoutError(f"markers[{i}] must be {{id, x, y, size}}")
            mid = _num(m, "id", None, 0, 49, int)
            markers.append(Marker(mid, float(_num(m, "x", None)), float(_num(m, "y", None)),
                                  float(_num(m, "size", kw.get("marker_size", 40.0), 10, 300))))
        if len({m.id for m in markers}) != len(markers):
            raise LayoutError("two markers share an id")
        layout.markers = markers
    elif explicit and holes_in:
        corners = [layout.holes[f"M{k * hps}"] for k in range(sides)]
        layout.markers = place_markers(layout, corners, kw.get("marker_size", 40.0), kw.get("marker_clearance", 2.0))
    # normalise so that everything has positive coordinates
    xs = [x for x, _ in layout.outline] + [x for x, _ in layout.holes.values()]
    ys = [y for _, y in layout.outline] + [y for _, y in layout.holes.values()]
    layout.width = float(data["width"]) if "width" in data else max(xs) + max(0.0, -min(xs))
    layout.height = float(data["height"]) if "height" in data else max(ys) + max(0.0, -min(ys))
    if min(xs) < 0 or min(ys) < 0:
        dx, dy = max(0.0, -min(xs)), max(0.0, -min(ys))
        layout.holes = {k: (x + dx, y + dy) for k, (x, y) in layout.holes.items()}
        layout.outline = [(x + dx, y + dy) for x, y in layout.outline]
        layout.markers = [Marker(m.id, m.x + dx, m.y + dy, m.size) for m in layout.markers]
    check_layout(layout)
    return layout


def check_layout(layout: Layout) -> None:
    """Holes far enough apart for the pegs, markers clear of the holes; LayoutError otherwise."""
    items = list(layout.holes.items())
    need = max(layout.hole_diameter, layout.peg_diameter * 0.9)
    for i, (a, (xa, ya)) in enumerate(items):
        for b, (xb, yb) in items[i + 1:]:
            if math.hypot(xa - xb, ya - yb) < need:
                raise LayoutError(f"holes {a} and {b} are {math.hypot(xa - xb, ya - yb):.1f} mm apart, "
                                  f"closer than a peg ({need:g} mm)")
    for m in layout.markers:
        half = m.size / 2 + m.quiet
        for h, (x, y) in items:
            if _square_clearance(m.x, m.y, half, x, y) < layout.hole_diameter / 2:
                raise LayoutError(f"marker {m.id} covers hole {h}")
