"""The camera page (issue 16.4): calibrate the camera from a phone, reached from the settings.

Who may call it: the admin, exactly as the settings page (a browser on the companion
itself, or a phone that gave the admin code: `web.access`). What it reveals:
the camera's picture of the board and what it reads there, nothing of any game.

* ``GET /settings/camera``: the page;
* ``POST /api/camera/snapshot``: take a picture now (``GET /api/camera/snapshot.jpg`` shows it):
  the running camera board's latest frame, else one frame from ``camera.source``;
* ``POST /api/camera/empty`` ``{"drop": bool?}``: take the optional picture of the empty board
  now (``GET /api/camera/empty.jpg`` shows it), or drop it; kept across set-up pictures, so the
  two can be taken in either order;
* ``POST /api/camera/analyse`` ``{"colours": [names by side], "points": [[x, y] x 4]?}``: the
  markers found, a calibration from them (or from four tapped holes) and the empty-board picture
  if one was taken, each hole's reading (filled, empty, unsure), the colour warnings in words;
  kept until saved;
* ``POST /api/camera/save`` ``{"accept_weak": bool}``: writes that calibration atomically
  to ``camera.calibration`` (or ``camera-calibration.json`` beside the config file).
"""
from __future__ import annotations

import threading
from pathlib import Path

from flask import Blueprint, Response, current_app, jsonify, render_template

from companion.message import Msg, msg

from ..colours import BY_KEY, DEFAULTS
from ..errors import ApiError
from ..access import Body, Bool, List, Num, OneOf, Opt, is_admin, route
from ..access import body as body_of_request
from ..settings import ADMIN, control

bp = Blueprint("camera", __name__, template_folder="templates", static_folder="static",
               static_url_path="/camera/static")

_lock = threading.Lock()
CALIBRATION_NAME = "camera-calibration.json"


def _state() -> dict:
    return current_app.extensions.setdefault("pegs_camera_page", {"frame": None, "calibration": None,
                                                                 "layout": None, "empty": None})


def _camera_config() -> dict:
    ctl = control()
    return dict(ctl.camera) if ctl is not None else dict(current_app.config.get("CAMERA") or {})


def _target_path() -> str | None:
    """Where Save writes: camera.calibration, else beside the config file."""
    cam = _camera_config()
    if cam.get("calibration"):
        return str(cam["calibration"])
    config = current_app.config.get("CONFIG_PATH")
    return str(Path(config).with_name(CALIBRATION_NAME)) if config else None


def _running_frame():
    """The camera board's latest frame, if the camera is the running board (it holds the camera)."""
    ctl = control()
    hub = getattr(ctl, "hub", None) if ctl is not None else None
    sensor = getattr(getattr(hub, "hw", None), "sensor", None)
    vision = getattr(sensor, "vision", None)
    return getattr(vision, "last_frame", None)


def _grab():
    frame = _running_frame()
    if frame is not None:
        return frame.copy()
    source = _camera_config().get("source")
    if not source:
        raise ApiError(409, msg("no camera is configured: set camera.source in the config file (pi, usb:0, ...)"))
    try:
        from vision.camera import CameraError, open_camera
    except ImportError:
        raise ApiError(409, msg("the camera can't be used: OpenCV is missing (sudo systemd/install.sh --camera)")) from None
    try:
        cam = open_camera(source)
        try:
            return cam.read()
        finally:
            cam.close()
    except CameraError as exc:
        raise ApiError(409, msg("the camera gives no picture (%(error)s): check its cable and camera.source",
                                error=str(exc))) from None


def _layout():
    from vision.layout import LayoutError, layout_from_spec
    spec = _camera_config().get("layout") or "4"
    try:
        return layout_from_spec(str(spec))
    except LayoutError as exc:
        raise ApiError(409, msg("camera.layout can't be used: %(error)s", error=str(exc))) from None


@route(bp, "GET", "/settings/camera", who={"anyone"},
       reveals="the camera page; the picture and the calibration only to the admin")
def camera_page():
    ok = is_admin()
    colours = [{"key": k, "name": BY_KEY[k]["name"]} for k in BY_KEY]
    return render_template("camera/camera.html", authorised=ok,
                           boot={"authorised": ok, "colours": colours, "defaults": DEFAULTS[:4],
                                 "target": _target_path() if ok else None,
                                 "empty": ok and _state()["empty"] is not None})


@route(bp, "POST", "/api/camera/snapshot", who=ADMIN, body=Body({}),
       reveals="the picture's size (the picture is taken from the camera now)")
def snapshot_take():
    frame = _grab()
    with _lock:
        st = _state()
        st["frame"], st["calibration"] = frame, None
    h, w = frame.shape[:2]
    return jsonify({"size": [w, h]})


def _jpeg(frame):
    import cv2
    ok, buf = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, 85])
    return Response(buf.tobytes(), mimetype="image/jpeg")


@route(bp, "GET", "/api/camera/snapshot.jpg", who=ADMIN, reveals="the camera's last picture of the board")
def snapshot_image():
    frame = _state()["frame"]
    if frame is None:
        raise ApiError(404, msg("no picture yet: take one"))
    return _jpeg(frame)


@route(bp, "POST", "/api/camera/empty", who=ADMIN, body=Body({"drop": Bool()}),
       reveals="the empty-board picture's size (the picture is taken from the camera now)")
def empty_take():
    """The optional second picture, with every peg off the board: each start hole's own empty look."""
    if body_of_request().get("drop", False):
        with _lock:
            st = _state()
            st["empty"], st["calibration"] = None, None
        return jsonify({"empty": False})
    frame = _grab()
    with _lock:
        st = _state()
        st["empty"], st["calibration"] = frame, None     # the next reading uses it
    h, w = frame.shape[:2]
    return jsonify({"empty": True, "size": [w, h]})


@route(bp, "GET", "/api/camera/empty.jpg", who=ADMIN, reveals="the camera's picture of the empty board")
def empty_image():
    frame = _state()["empty"]
    if frame is None:
        raise ApiError(404, msg("no picture of the empty board yet: take one"))
    return _jpeg(frame)


def _page_words(message):
    """The calibration's advice names the CLI's --empty; on the page that is a step below (a
    message keeps its structure, so the page shows it in its reader's language)."""
    from vision.calibration import EMPTY_ADVICE
    step = msg('take all pegs off and use "Take a picture of the empty board" below')
    if isinstance(message, Msg):
        if message.id == EMPTY_ADVICE.id:
            return step
        return Msg(message.id, {k: _page_words(v) if isinstance(v, Msg) else v for k, v in message.params.items()},
                   message.plural, message.n, message.ctx)
    return message.replace(EMPTY_ADVICE, str(step))


def _colour_names(body, sides: int) -> dict:
    given = body.get("colours", DEFAULTS[:4])
    if not isinstance(given, list) or len(given) > sides or not all(c is None or c in BY_KEY for c in given):
        raise ApiError(400, f"colours: a list of up to {sides} colour keys or null, one per side "
                            f"({', '.join(BY_KEY)})")
    return {s: BY_KEY[c]["name"] for s, c in enumerate(given) if c is not None}


def _points(body):
    pts = body.get("points")
    if pts is None:
        return None
    if (not isinstance(pts, list) or len(pts) != 4 or
            not all(isinstance(p, list) and len(p) == 2 and all(isinstance(v, (int, float)) for v in p) for p in pts)):
        raise ApiError(400, msg("points: four [x, y] image positions, one for each hole named on the page"))
    return [(float(x), float(y)) for x, y in pts]


@route(bp, "POST", "/api/camera/analyse", who=ADMIN, body=Body({
    "colours": List(Opt(OneOf(BY_KEY)), 12), "points": Opt(List(List(Num(-1e6, 1e6), 2), 4))}),
    reveals="the markers, the calibration's warnings and each hole's reading in the last picture")
def analyse():
    body = body_of_request()
    layout = _layout()
    names = _colour_names(body, layout.sides)
    points = _points(body)
    frame, empty = _state()["frame"], _state()["empty"]
    if frame is None:
        raise ApiError(409, msg("take a picture with every peg in its start hole first"))
    from vision.calibration import CalibrationError, calibrate
    from vision.detect import EMPTY, UNKNOWN, Classifier, HoleSampler, read_holes
    from vision.markers import detect_markers
    found = detect_markers(frame, ids={m.id for m in layout.markers})
    h, w = frame.shape[:2]
    out = {"size": [w, h], "markers": {str(k): v.round(1).tolist() for k, v in found.items()},
           "markers_needed": 2, "tap": layout.manual_reference_holes(), "holes": [], "warnings": [],
           "weak": [], "ok": False, "error": None, "empty_used": empty is not None}
    try:
        cal = calibrate(frame, layout, points=points, names=names, empty_image=empty)
    except CalibrationError as exc:
        out["error"] = exc.args[0] if exc.args and isinstance(exc.args[0], Msg) else str(exc)
        with _lock:
            _state()["calibration"] = None
        return jsonify(out)
    sampler = cal.sampler(layout)
    reading = read_holes(frame, sampler, Classifier(cal.colours, sampler.holes))
    for i, hole in enumerate(sampler.holes):
        label, conf = reading.labels[hole], reading.confidence[hole]
        state = ("unsure" if label == UNKNOWN or conf < 0.8 else "empty" if label == EMPTY else "filled")
        x, y = (float(v) for v in sampler.centres[i])
        side = int(label) if label >= 0 else None
        out["holes"].append({"id": hole, "x": round(x, 1), "y": round(y, 1), "state": state, "side": side,
                             "colour": names.get(side) if side is not None else None})
    out["warnings"] = [_page_words(w) for w in cal.warnings]
    out["weak"] = [_page_words(w["message"]) for w in cal.weak]
    out["ok"] = not cal.weak
    out["method"] = cal.method
    from vision.calibration import camera_summary
    # the camera's measured height, tilt and lens, and the working envelope for the pegs measured
    out["camera"] = camera_summary(cal, layout)
    with _lock:
        _state()["calibration"] = cal
    return jsonify(out)


@route(bp, "POST", "/api/camera/save", who=ADMIN, body=Body({"accept_weak": Bool()}),
       reveals="the path the calibration was saved to")
def save():
    body = body_of_request()
    accept = body.get("accept_weak", False)
    if not isinstance(accept, bool):
        raise ApiError(400, "accept_weak: true or false")
    with _lock:
        cal = _state()["calibration"]
        if cal is None:
            raise ApiError(409, msg("nothing to save: take a picture and let the camera read it first"))
        if cal.weak and not accept:
            raise ApiError(409, msg("the camera can't tell every colour's pegs apart (see the warnings); change "
                                    "what they say and take a new picture, or save anyway"))
        path = _target_path()
        if path is None:
            raise ApiError(409, msg("there is no config file to save beside (start the companion with --config FILE)"))
        cal.accepted_weak = bool(cal.weak)
        try:
            cal.save(path)
        except OSError as exc:
            raise ApiError(500, msg("the calibration could not be saved to %(path)s (%(error)s)", path=str(path),
                                    error=str(exc.strerror))) from None
    configured = bool(_camera_config().get("calibration"))
    return jsonify({"saved": path, "message": msg("Saved to %(path)s.", path=str(path)) if configured else msg(
        "Saved to %(path)s. Set camera.calibration = \"%(path)s\" under [camera] in the config file to use it.",
        path=str(path))})
