"""``pegs board ...`` and ``pegs vision ...`` (registered in the ``pegs.commands`` entry-point group).

    pegs board print  [geometry | --preset tock|jackaroo|carbles [--sides 6]] [--wiring W.toml] [--out PREFIX] [--formats svg,png,pdf] [--paper a4]
    pegs board layout [geometry] [--out LAYOUT.json]
    pegs vision calibrate IMAGE --layout L --out C.json [--sides 0,2] [--points "x,y x,y x,y x,y"]
                          [--colours red,blue,green,yellow] [--empty EMPTY.png] [--accept-weak]
    pegs vision detect IMAGE --layout L --calibration C [--rules basic] [--teams 2] [--to-move 0]
    pegs vision render --position POS.json --out IMG.png [--distortion moderate] [--seed 0]
    pegs vision watch --camera usb:0|pi|VIDEO --layout L --calibration C

``--layout`` is a layout file (JSON or TOML, see vision/layout.py), a
standard board written ``SIDES`` or ``SIDES:HOLES_PER_SIDE`` (``4``, ``6:20``), or
a game's board written as its preset (``tock``, ``jackaroo``, ``carbles6``);
``pegs board print --preset tock`` (``--preset carbles --sides 8``) does the same.
Bad input exits with status 2 and one line on standard error; a picture whose
position can't be read exits with status 1.
"""
from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

EXIT_BAD_INPUT = 2
EXIT_NOT_READ = 1


class _Parser(argparse.ArgumentParser):
    def error(self, message):  # one line, status 2, no usage dump
        self.exit(EXIT_BAD_INPUT, f"{self.prog}: {message}\n")


class _Fail(Exception):
    def __init__(self, message: str, status: int = EXIT_BAD_INPUT):
        super().__init__(message)
        self.status = status


# Modules of an optional extra -> the one line that says how to get it.
_VISION = "this needs OpenCV and NumPy, the vision extra: pip install -e '.[vision]' (on a Pi: sudo systemd/install.sh --camera)"
_EXTRAS = {"cv2": _VISION, "numpy": _VISION,
           "picamera2": "the Pi camera needs Picamera2: sudo apt install python3-picamera2 (sudo systemd/install.sh --camera does it)"}


def _has_opencv() -> bool:
    try:
        import cv2  # noqa: F401
        import numpy  # noqa: F401
    except ImportError:
        return False
    return True


def _one_line(text: str) -> str:
    return " ".join(str(text).split())


# --------------------------------------------------------------------------- shared options

def _add_geometry(p):
    g = p.add_argument_group("board geometry (a standard board; or --layout FILE)")
    g.add_argument("--layout", help="a layout file (JSON/TOML), or SIDES[:HOLES_PER_SIDE] for a standard board")
    g.add_argument("--preset", default=None,
                   help="the board a rule preset plays on: tock, jackaroo, carbles (with --sides 4, 6, 8 "
                        "or 12 sections; default 6), basic ...")
    g.add_argument("--sides", type=int, default=None, help="4, 6, 8, 10 or 12 (default 4)")
    g.add_argument("--holes-per-side", type=int, default=None, help="18 (standard) or 20 (Pegoo)")
    g.add_argument("--pitch", type=float, default=None, help="mm between neighbouring holes (default 25)")
    g.add_argument("--hole-diameter", type=float, default=None, help="drill size, mm (default 8)")
    g.add_argument("--peg-diameter", type=float, default=None, help="a peg's head, mm (default 12)")
    g.add_argument("--marker-size", type=float, default=None, help="ArUco marker side, mm (default 40)")


def _layout_arg(text: str):
    from .layout import layout_from_spec
    return layout_from_spec(text)


def _layout_from(args):
    from .layout import LayoutError, standard_layout
    geometry = {k: getattr(args, k, None) for k in ("pitch", "hole_diameter", "peg_diameter", "marker_size")}
    try:
        if args.layout:
            if (any(v is not None for v in geometry.values()) or args.sides or args.holes_per_side
                    or getattr(args, "preset", None)):
                raise _Fail("give either --layout or the geometry options, not both")
            return _layout_arg(args.layout)
        kw = {k: v for k, v in geometry.items() if v is not None}
        if getattr(args, "preset", None):
            if args.holes_per_side:
                raise _Fail("--preset sets the holes per side; leave out --holes-per-side")
            from .layout import preset_layout
            return preset_layout(args.preset.strip().lower(), args.sides, **kw)
        return standard_layout(args.sides or 4, args.holes_per_side or 18, **kw)
    except LayoutError as exc:
        raise _Fail(_one_line(exc)) from None


def _read_image(path: str):
    import cv2
    if not Path(path).is_file():
        raise _Fail(f"{path}: no such file")
    img = cv2.imread(path, cv2.IMREAD_COLOR)
    if img is None:
        raise _Fail(f"{path}: can't be read as an image")
    return img


def _int_list(text: str, what: str) -> list[int]:
    try:
        out = [int(v) for v in re.split(r"[,\s]+", text.strip()) if v]
    except ValueError:
        raise _Fail(f"{what} must be numbers separated by commas, e.g. 0,2") from None
    if not out:
        raise _Fail(f"{what} is empty")
    return out


def _run(parser, argv) -> int:
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:              # argparse: --help (0) or a usage error (2)
        return int(exc.code or 0)
    if not getattr(args, "func", None):
        parser.print_usage(sys.stderr)
        return EXIT_BAD_INPUT
    try:
        return args.func(args) or 0
    except _Fail as exc:
        print(f"{parser.prog}: {exc}", file=sys.stderr)
        return exc.status
    except ModuleNotFoundError as exc:
        extra = _EXTRAS.get((exc.name or "").split(".")[0])
        if extra is None:
            raise
        print(f"{parser.prog}: {extra}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except BrokenPipeError:
        return 0
    except KeyboardInterrupt:
        return 130


# --------------------------------------------------------------------------- pegs board

def cmd_board_print(args) -> int:
    from .template import led_numbers, template_pdf, template_png, template_svg
    layout = _layout_from(args)
    formats = [f.strip().lower() for f in (args.formats or "svg,png,pdf").split(",") if f.strip()]
    bad = [f for f in formats if f not in ("svg", "png", "pdf", "json")]
    if bad or not formats:
        raise _Fail(f"--formats takes svg, png, pdf and json, not {', '.join(bad) or 'nothing'}")
    skipped = None
    if "png" in formats and not _has_opencv():
        if args.formats:   # asked for by name: say what it needs and stop
            raise _Fail("--formats png: " + _VISION)
        formats.remove("png")   # the default set: SVG and PDF need no OpenCV
        skipped = "no PNG: drawing it needs OpenCV (pip install -e '.[vision]'); the SVG and PDF print the same board"
    if args.px_per_mm <= 0 or args.px_per_mm > 40:
        raise _Fail("--px-per-mm must be above 0 and at most 40")
    labels = None
    if args.wiring:
        from hardware.config import WiringError, load_wiring
        try:
            wiring = load_wiring(Path(args.wiring), layout.sides, layout.holes_per_side,
                                 start_holes=layout.start_holes, home_holes=layout.home_holes,
                                 allow_duplicates=True)
        except WiringError as exc:
            raise _Fail(_one_line(exc)) from None
        labels = led_numbers(layout, wiring.leds.map, wiring.sensors.map if wiring.sensors.map else None)
    prefix = Path(args.out)
    if prefix.is_dir():
        prefix = prefix / "board"
    if not prefix.parent.exists():
        raise _Fail(f"{prefix.parent}: no such folder")
    written = []
    if "svg" in formats:
        path = prefix.with_suffix(".svg")
        path.write_text(template_svg(layout, labels), encoding="utf-8")
        written.append(str(path))
    if "png" in formats:
        from .template import png_scale
        path = prefix.with_suffix(".png")
        path.write_bytes(template_png(layout, args.px_per_mm, labels))
        scale = png_scale(layout, args.px_per_mm)
        written.append(f"{path} ({scale:g} px/mm" + (", reduced to keep the file printable)" if scale < args.px_per_mm
                                                        else ")"))
    if "pdf" in formats:
        path = prefix.with_suffix(".pdf")
        try:
            data, pages = template_pdf(layout, args.paper, labels)
        except ValueError as exc:
            raise _Fail(str(exc)) from None
        path.write_bytes(data)
        written.append(f"{path} ({pages} page{'s' * (pages > 1)}, {args.paper})")
    if "json" in formats or not args.no_layout:
        path = Path(str(prefix) + "-layout.json")
        layout.save(path)
        written.append(f"{path} (the layout for pegs vision --layout)")
    print(f"{layout.describe()}; print at 100 % (actual size)")
    for w in written:
        print(f"  wrote {w}")
    if skipped:
        print(f"  {skipped}")
    return 0


def cmd_board_layout(args) -> int:
    layout = _layout_from(args)
    text = json.dumps(layout.to_json(), indent=1) + "\n"
    if args.out in (None, "-"):
        sys.stdout.write(text)
    else:
        Path(args.out).write_text(text, encoding="utf-8")
        print(f"wrote {args.out}: {layout.describe()}")
    return 0


def build_board_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="pegs board", description="The physical board: printable drilling template and layout.")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    p = sub.add_parser("print", help="write the true-scale template (SVG, PNG, PDF) and the layout JSON")
    _add_geometry(p)
    p.add_argument("--wiring", help="a wiring TOML (hardware/wiring.example.toml) for the LED/switch numbers")
    p.add_argument("--out", default="board", help="file name prefix or folder (default ./board)")
    p.add_argument("--formats", default=None,
                   help="any of svg,png,pdf,json (default svg,png,pdf; png needs the vision extra)")
    p.add_argument("--px-per-mm", type=float, default=10.0, help="PNG resolution (default 10)")
    p.add_argument("--paper", default="a4", help="PDF pages: a4, letter, a3 (tiled) or none (one page)")
    p.add_argument("--no-layout", action="store_true", help="don't write PREFIX-layout.json")
    p.set_defaults(func=cmd_board_print)
    p = sub.add_parser("layout", help="write the hole and marker coordinates (mm) as JSON")
    _add_geometry(p)
    p.add_argument("--out", default=None, help="file (default: standard output)")
    p.set_defaults(func=cmd_board_layout)
    return parser


def board_command(argv=None) -> int:
    return _run(build_board_parser(), sys.argv[1:] if argv is None else list(argv))


# --------------------------------------------------------------------------- pegs vision

def _layout_and_calibration(args):
    from .calibration import Calibration, CalibrationError
    from .layout import LayoutError
    try:
        calib = Calibration.load(args.calibration)
    except CalibrationError as exc:
        raise _Fail(_one_line(exc)) from None
    try:
        layout = _layout_arg(args.layout) if args.layout else _layout_arg(f"{calib.sides}:{calib.holes_per_side}")
    except LayoutError as exc:
        raise _Fail(_one_line(exc)) from None
    try:
        calib.check_layout(layout)
    except CalibrationError as exc:
        raise _Fail(_one_line(exc)) from None
    if calib.colours is None:
        raise _Fail(f"{args.calibration} has no peg colours: run pegs vision calibrate on a set-up picture")
    return layout, calib


def _parse_points(text: str):
    nums = re.split(r"[,;\s]+", text.strip())
    try:
        vals = [float(v) for v in nums if v]
    except ValueError:
        raise _Fail("--points takes four image points: \"x,y x,y x,y x,y\"") from None
    if len(vals) != 8:
        raise _Fail(f"--points takes four image points (8 numbers), got {len(vals)} numbers")
    return [(vals[i], vals[i + 1]) for i in range(0, 8, 2)]


def cmd_calibrate(args) -> int:
    from .calibration import CalibrationError, calibrate, camera_summary
    from .layout import LayoutError
    try:
        layout = _layout_arg(args.layout)
    except LayoutError as exc:
        raise _Fail(_one_line(exc)) from None
    image = _read_image(args.image)
    sides = None
    if args.sides:
        sides = _int_list(args.sides, "--sides")
        bad = [s for s in sides if not 0 <= s < layout.sides]
        if bad:
            raise _Fail(f"--sides: the board has sides 0-{layout.sides - 1}, not {bad[0]}")
    points = _parse_points(args.points) if args.points else None
    names = None
    if args.colours:
        given = [c.strip() for c in args.colours.split(",")]
        if len(given) > layout.sides:
            raise _Fail(f"--colours names {len(given)} seats but the board has {layout.sides} sides")
        names = {s: c for s, c in enumerate(given) if c and c.lower() not in ("-", "none")}
        if sides is not None and set(sides) != set(names):
            raise _Fail("--sides and --colours disagree about which sides have pegs; give one of them")
    empty = _read_image(args.empty) if args.empty else None
    try:
        calib = calibrate(image, layout, sides=sides, points=points, names=names, empty_image=empty,
                          head_height=args.head_height, fov=args.fov)
    except CalibrationError as exc:
        raise _Fail(_one_line(exc), EXIT_NOT_READ) from None
    how = (f"{len(calib.markers)} markers (RMS {calib.reprojection_px:.2f} px)" if calib.method == "markers"
           else "four tapped points")
    if calib.weak and not args.accept_weak:
        print(f"pegs vision: the calibration can't tell every side's pegs apart; {args.out} not written:",
              file=sys.stderr)
        for line in camera_summary(calib, layout):
            print(f"  {line}", file=sys.stderr)
        for w in calib.weak:
            print(f"  {w['message']}", file=sys.stderr)
        print("  change what the message says and calibrate again, or add --accept-weak to save it anyway "
              "(those pegs will then be misread)", file=sys.stderr)
        return EXIT_NOT_READ
    calib.accepted_weak = bool(calib.weak)
    try:
        calib.save(args.out)
    except OSError as exc:
        raise _Fail(f"can't write {args.out}: {exc.strerror}") from None
    print(f"calibrated from {how}; wrote {args.out}")
    for line in camera_summary(calib, layout):
        print(f"  {line}")
    for s in sorted(calib.colours.pegs):
        name = calib.colours.names.get(s)
        print(f"  side {s}: {name + ' pegs' if name else 'pegs learnt (no colour named: --colours)'}")
    for w in calib.warnings:
        print(f"  warning: {w}")
    if calib.weak:
        print("  accepted with --accept-weak: the sides above will be misread")
    return 0


def _teams_arg(text):
    if text is None:
        return None
    if re.fullmatch(r"\d+", text.strip()):
        return int(text)
    try:
        teams = [[int(v) for v in part.split(",") if v.strip()] for part in text.split("/")]
    except ValueError:
        raise _Fail("--teams is a number of teams (2) or sides like 0,2/1,3") from None
    if len(teams) < 2 or not all(teams):
        raise _Fail("--teams needs at least two non-empty teams, like 0,2/1,3")
    return teams


def _preset_teams(rules, players):
    """The number of teams a rule set seats (each alone, or partners in pairs), or None for T1's."""
    from companion.rules import rules_from_json
    try:
        play = rules_from_json(rules).team_play
    except Exception:  # a bad rule set is reported by the position check, with its reason
        return None
    return players if play == "solo" else (players // 2 if play == "pairs" and players % 2 == 0 else None)


def _reading_json(r):
    """(p_peg, side, p_side) rounded, or None for a hole that tells nothing."""
    return None if r is None else [round(r[0], 4), r[1], round(r[2], 4)]


def cmd_detect(args) -> int:
    from .calibration import CalibrationError
    from .detect import EMPTY, UNKNOWN
    from .position import ReadingError, position_from_labels, settle_by_count
    from .watch import detect_image
    layout, calib = _layout_and_calibration(args)
    image = _read_image(args.image)
    try:
        reading = detect_image(image, layout, calib)
    except CalibrationError as exc:
        raise _Fail(_one_line(exc), EXIT_NOT_READ) from None
    if args.holes:
        names = {EMPTY: "empty", UNKNOWN: "unknown"}
        out = {h: {"label": names.get(v, v), "confidence": round(reading.confidence[h], 3),
                   "reading": _reading_json(reading.readings.get(h))}
               for h, v in reading.labels.items()}
        json.dump(out, sys.stdout, indent=args.indent)
        sys.stdout.write("\n")
        return 0
    sides = _int_list(args.sides, "--sides") if args.sides else sorted(calib.colours.pegs)
    rules = args.rules
    if rules.lstrip().startswith("{"):
        try:
            rules = json.loads(rules)
        except json.JSONDecodeError as exc:
            raise _Fail(f"--rules is not JSON: {exc.msg}") from None
    labels, settled = reading.labels, {}
    if not (args.assume_start or args.strict):
        # the few holes the picture leaves unsure, settled where one way alone gives every side its pegs
        labels, settled = settle_by_count(reading, layout, sides, args.pegs, args.min_confidence)
    low = [h for h, c in reading.confidence.items()
           if c < args.min_confidence and labels[h] != UNKNOWN and h not in settled]
    try:
        if low and not args.force:
            raise ReadingError([f"{len(low)} hole{'s' * (len(low) > 1)} read with low confidence "
                                f"({', '.join(low[:6])}{' ...' if len(low) > 6 else ''}); --force to accept"])
        to_move = args.to_move
        if to_move is not None and to_move not in sides:
            raise _Fail(f"--to-move {to_move} is not a side in play ({', '.join(map(str, sides))})")
        teams = _teams_arg(args.teams)
        if teams is None:
            teams = _preset_teams(rules, len(sides))
        position, notes = position_from_labels(labels, layout, sides, rules=rules,
                                               teams=teams, to_move=to_move,
                                               pegs_per_side=args.pegs, assume_start=args.assume_start)
    except ReadingError as exc:
        raise _Fail(f"can't read a position from {args.image}: {_one_line(exc)}", EXIT_NOT_READ) from None
    def said(v):
        return "empty" if v == EMPTY else f"side {v}"
    for h, v in settled.items():
        may = reading.candidates.get(h, ())
        print(f"pegs vision: note: {h} read as {said(v)} by the peg count (the picture leaves it unsure: "
              f"{' or '.join(said(c) for c in may)}; only this gives every side its pegs)", file=sys.stderr)
    for n in notes:
        print(f"pegs vision: note: {n}", file=sys.stderr)
    if not reading.markers_ok:
        print("pegs vision: note: the markers weren't found; used the calibration's homography", file=sys.stderr)
    json.dump(position, sys.stdout, indent=args.indent)
    sys.stdout.write("\n")
    return 0


def cmd_render(args) -> int:
    import cv2
    from .colours import DEFAULT_PEGS, bgr_of
    from .position import labels_from_position
    from .render import LEVELS, coloured, make_scene, render_scene
    if args.distortion not in LEVELS:
        raise _Fail(f"--distortion must be one of {', '.join(LEVELS)}")
    try:
        text = sys.stdin.read() if args.position == "-" else Path(args.position).read_text(encoding="utf-8")
        data = json.loads(text)
    except FileNotFoundError:
        raise _Fail(f"{args.position}: no such file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise _Fail(f"{args.position}: can't be read ({exc})") from None
    except json.JSONDecodeError as exc:
        raise _Fail(f"{args.position} is not JSON: {exc.msg} at line {exc.lineno}") from None
    from companion.notation import position_from_json
    try:
        pos = position_from_json(data)
    except ValueError as exc:
        raise _Fail(f"{args.position}: {_one_line(exc)}") from None
    from .layout import LayoutError
    try:
        if args.layout:
            layout = _layout_arg(args.layout)
        elif _tock_family(pos.rules):   # the Tock/Jackaroo/Carbles board (RG-B1)
            from .layout import preset_layout
            layout = preset_layout(pos.rules.preset, pos.sides)
        else:
            layout = _layout_arg(f"{pos.sides}:{pos.geo.holes_per_side}")
    except LayoutError as exc:
        raise _Fail(_one_line(exc)) from None
    if (layout.sides, layout.holes_per_side) != (pos.sides, pos.geo.holes_per_side):
        raise _Fail(f"the position is for a {pos.sides}-sided board with {pos.geo.holes_per_side} holes a side, "
                    f"the layout is {layout.sides}-sided with {layout.holes_per_side}")
    colours = DEFAULT_PEGS
    if args.colours:
        colours = [c.strip() for c in args.colours.split(",") if c.strip()]
        try:
            for c in colours:
                bgr_of(c)
        except ValueError as exc:
            raise _Fail(str(exc)) from None
    try:
        labels = labels_from_position(data, layout)
    except ValueError as exc:
        raise _Fail(f"{args.position}: {exc}") from None
    size = (args.width, args.height)
    if not (160 <= args.width <= 8192 and 120 <= args.height <= 8192):
        raise _Fail("--width and --height must be 160-8192 and 120-8192 pixels")
    scene = make_scene(layout, args.distortion, args.seed, size)
    hands = []
    if args.hand:
        import numpy as np
        centre = cv2.perspectiveTransform(np.array([[[layout.width / 2, layout.height / 2]]]), scene.homography)[0, 0]
        hands = [((float(centre[0]), float(centre[1])), 200.0)]
    img = render_scene(scene, coloured(labels, colours), args.seed + 1, hands)
    out = Path(args.out)
    if not out.parent.exists():
        raise _Fail(f"{out.parent}: no such folder")
    if not cv2.imwrite(str(out), img):
        raise _Fail(f"can't write {out} (use a .png or .jpg name)")
    print(f"wrote {out}: {size[0]}x{size[1]}, {args.distortion}, seed {args.seed}")
    return 0


def cmd_watch(args) -> int:
    from .camera import CameraError, open_camera
    from .calibration import CalibrationError
    from .watch import BoardVision, BoardWatcher
    layout, calib = _layout_and_calibration(args)
    try:
        camera = open_camera(args.camera, size=tuple(calib.image_size), timeout=args.timeout)
    except CameraError as exc:
        raise _Fail(_one_line(exc)) from None
    try:
        vision = BoardVision(layout, calib, hold_frames=args.hold)
    except CalibrationError as exc:
        raise _Fail(_one_line(exc)) from None

    def show(event):
        data = {"event": event.kind, "frame": event.frame, "message": event.message}
        if event.kind == "board":
            data["pegs"] = event.data.after
        elif event.kind == "recalibrated":
            vision.calibration.save(args.calibration)       # keep the cache current
        print(json.dumps(data), flush=True)
    with camera:
        lost = BoardWatcher(camera, vision, show).run(max_frames=args.frames)
    return EXIT_NOT_READ if lost and "end of the recording" not in lost else 0


def build_vision_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="pegs vision", description="Camera recognition of the pegs on the board.")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)

    p = sub.add_parser("calibrate", help="learn where the board is and the peg colours from a set-up picture")
    p.add_argument("image", help="a picture with every colour's pegs in its start holes")
    p.add_argument("--layout", required=True, help="layout file, or SIDES[:HOLES_PER_SIDE]")
    p.add_argument("--out", required=True, help="calibration JSON to write")
    p.add_argument("--sides", help="sides with pegs, e.g. 0,2 (default: found in the picture)")
    p.add_argument("--points", help="manual: image x,y of the four reference holes (no markers)")
    p.add_argument("--colours", help="the table's peg colour per side, e.g. red,blue,green,yellow (none for a side "
                                     "without pegs); used in every message, and the sides with pegs")
    p.add_argument("--empty", help="a second picture, same camera and light, with the board empty")
    p.add_argument("--accept-weak", action="store_true",
                   help="save even when some side's pegs can't be told from empty holes, the board or another side")
    p.add_argument("--head-height", type=float,
                   help="mm above the board where the pegs' heads are seen (their middle; default: measured "
                        "from the start pegs)")
    p.add_argument("--fov", type=float, help="the lens's field of view across, degrees (default: fitted)")
    p.set_defaults(func=cmd_calibrate)

    p = sub.add_parser("detect", help="print the position in a picture (NOTATION.md JSON)")
    p.add_argument("image")
    p.add_argument("--layout", help="layout file, or SIDES[:HOLES_PER_SIDE] (default: the calibration's board)")
    p.add_argument("--calibration", required=True)
    p.add_argument("--rules", default="basic", help="preset name or rules JSON (default basic)")
    p.add_argument("--teams", default=None, help="number of teams (default: the rule set's, else 2) or sides like 0,2/1,3")
    p.add_argument("--to-move", type=int, default=None, help="side to move (default: the first in play)")
    p.add_argument("--sides", help="sides in play (default: the calibration's colours)")
    p.add_argument("--pegs", type=int, default=None, help="pegs per side (default: the start holes, 5)")
    p.add_argument("--assume-start", action="store_true", help="pegs missing from the board are in start")
    p.add_argument("--min-confidence", type=float, default=0.8)
    p.add_argument("--force", action="store_true", help="accept holes read with low confidence")
    p.add_argument("--strict", action="store_true",
                   help="every hole from the picture alone: don't settle the few it leaves unsure by the peg count")
    p.add_argument("--holes", action="store_true", help="print every hole's reading instead")
    p.add_argument("--indent", type=int, default=None)
    p.set_defaults(func=cmd_detect)

    p = sub.add_parser("render", help="draw a synthetic camera picture of a position")
    p.add_argument("--position", required=True, help="NOTATION.md position JSON, or - for standard input")
    p.add_argument("--out", required=True, help="image to write (.png, .jpg)")
    p.add_argument("--distortion", default="clean", help="clean, mild, moderate or strong")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--layout", help="layout file, or SIDES[:HOLES_PER_SIDE] (default: standard)")
    p.add_argument("--colours", help="peg colour per side, e.g. red,blue,green,yellow")
    p.add_argument("--hand", action="store_true", help="draw a hand over the board")
    p.add_argument("--width", type=int, default=1280)
    p.add_argument("--height", type=int, default=720)
    p.set_defaults(func=cmd_render)

    p = sub.add_parser("watch", help="follow a camera and print board changes as JSON lines")
    p.add_argument("--camera", default="usb:0", help="usb:N, pi, a video file or a folder of images")
    p.add_argument("--layout")
    p.add_argument("--calibration", required=True)
    p.add_argument("--hold", type=int, default=5, help="frames a new state must hold (default 5)")
    p.add_argument("--timeout", type=float, default=3.0, help="seconds without a frame = camera lost")
    p.add_argument("--frames", type=int, default=None, help="stop after this many frames")
    p.set_defaults(func=cmd_watch)
    return parser


def vision_command(argv=None) -> int:
    return _run(build_vision_parser(), sys.argv[1:] if argv is None else list(argv))


def _tock_family(rules) -> bool:
    """Rules played on the related games' board (the family says, not the preset's name)."""
    from companion.families import PEGS, find_family
    return find_family(rules) is not PEGS
