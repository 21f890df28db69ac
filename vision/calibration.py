"""Calibration: where the board is in the picture, and what each side's pegs look like.

* Geometry: the ArUco markers give the board (mm) -> image homography
  (``cv2.findHomography`` over all their corners), or, without markers, four
  tapped points on the reference holes of ``Layout.manual_reference_holes()``
  (``calibrate_manual``; the web page sends the taps).
* Re-checking: ``MarkerCheck`` looks for each marker only in a small window
  round where the homography puts it (a fraction of a full detection's cost);
  when the corners are off by more than ``threshold_px`` the board or camera
  has moved and the caller recalibrates from a full detection.
* Colours: learnt from one picture of the set-up position (every colour's pegs
  in its start holes): empty holes (the main track and homes), each side's pegs
  (its start holes), and the bare board. Nothing is tuned by hand: sides with
  pegs are those whose start holes stand out from the empty holes by more than
  the empty holes vary among themselves; colours closer than a margin (in Lab,
  relative to the spread seen) are reported in ``warnings`` with advice.

A calibration is a JSON file (``save``/``load``).
"""
from __future__ import annotations

import json
import math
import os
import time
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

# warnings, advice and refusals are messages (their str is the English the CLI prints): the
# camera page shows them in its reader's language
from companion.message import Join, Msg, msg, nmsg, pmsg

from .colours import bgr_to_lab
from .detect import (OWN_HALF_INTACT, STRUCTURE_PEG, SURE, Classifier, ColourModel, HoleSampler, LocalNorm, features,
                     read_holes, ring_estimate, spot_distance, structure_score, unit_pattern, weighted)
from .foreground import PATCH_POINTS
from .geometry import CameraModel, fit_camera, fit_pose, residuals
from .layout import Layout
from .markers import detect_in_windows, detect_markers, to_gray
from .template import hole_disc_radius

FORMAT = "pegs-and-jokers/vision-calibration/2"
FORMAT_V1 = "pegs-and-jokers/vision-calibration/1"   # a homography only: still read, as before
MIN_MARKERS = 2


class CalibrationError(ValueError):
    """The picture can't be used for calibration; one line saying why."""


@dataclass
class Calibration:
    homography: np.ndarray                 # board mm -> image px
    image_size: tuple                      # (width, height)
    method: str = "markers"                # markers | manual
    layout_id: str = ""                    # Layout.fingerprint() it was made for
    sides: int = 4
    holes_per_side: int = 18
    markers: dict = field(default_factory=dict)     # id -> 4x2 image corners at calibration
    reprojection_px: float = 0.0
    refined_on: int = 0                    # empty holes the homography was refined on
    colours: ColourModel | None = None
    warnings: list = field(default_factory=list)
    weak: list = field(default_factory=list)        # sides whose pegs can't be told apart (dicts)
    accepted_weak: bool = False                     # the user saved it anyway
    created: float = field(default_factory=time.time)
    camera: CameraModel | None = None               # the lens and pose (format 2); None: the homography
    head_height: float = 0.0                        # where the pegs' heads are seen, mm above the board
    fit: dict = field(default_factory=dict)         # the camera fit's figures (residual per region, ...)

    @property
    def geometry(self):
        """What ``HoleSampler`` maps the board with: the camera where fitted, else the homography."""
        return self.camera if self.camera is not None else self.homography

    def sampler(self, layout: Layout, image_size=None) -> HoleSampler:
        return HoleSampler(layout, self.geometry, image_size or self.image_size, self.head_height)

    def to_json(self) -> dict:
        return {"format": FORMAT, "method": self.method, "layout": self.layout_id,
                "sides": self.sides, "holes_per_side": self.holes_per_side,
                "image_size": list(self.image_size),
                "homography": [[float(v) for v in row] for row in np.asarray(self.homography)],
                "reprojection_px": round(float(self.reprojection_px), 3), "refined_on": self.refined_on,
                "markers": {str(k): np.asarray(v).round(2).tolist() for k, v in sorted(self.markers.items())},
                "colours": self.colours.to_json() if self.colours else None,
                "warnings": list(self.warnings), "weak": list(self.weak), "accepted_weak": self.accepted_weak,
                "created": round(self.created, 1),
                "camera": self.camera.to_json() if self.camera is not None else None,
                "head_height": round(float(self.head_height), 2), "fit": self.fit}

    @classmethod
    def from_json(cls, data) -> "Calibration":
        if isinstance(data, dict) and isinstance(data.get("format"), str) \
                and data["format"].startswith("pegs-and-jokers/vision-calibration/") \
                and data["format"] not in (FORMAT, FORMAT_V1):
            raise CalibrationError(msg("the calibration file is in a newer format (%(format)s) than this "
                                       "version reads (%(known)s): calibrate again with this version",
                                       format=str(data["format"]), known=FORMAT))
        if not isinstance(data, dict) or data.get("format") not in (FORMAT, FORMAT_V1):
            raise CalibrationError(msg("not a calibration file (format should be %(format)s)", format=repr(FORMAT)))
        try:
            H = np.array(data["homography"], np.float64)
            if H.shape != (3, 3) or not np.isfinite(H).all():
                raise ValueError
            return cls(homography=H, image_size=tuple(int(v) for v in data["image_size"]),
                       method=data.get("method", "markers"), layout_id=data.get("layout", ""),
                       sides=int(data.get("sides", 4)), holes_per_side=int(data.get("holes_per_side", 18)),
                       markers={int(k): np.array(v, np.float64) for k, v in (data.get("markers") or {}).items()},
                       reprojection_px=float(data.get("reprojection_px", 0.0)),
                       refined_on=int(data.get("refined_on", 0)),
                       colours=ColourModel.from_json(data["colours"]) if data.get("colours") else None,
                       warnings=list(data.get("warnings", [])), weak=list(data.get("weak", [])),
                       accepted_weak=bool(data.get("accepted_weak", False)), created=float(data.get("created", 0)),
                       camera=CameraModel.from_json(data["camera"]) if data.get("camera") else None,
                       head_height=float(data.get("head_height") or 0.0), fit=dict(data.get("fit") or {}))
        except (KeyError, TypeError, ValueError) as exc:
            raise CalibrationError(msg("calibration file is damaged (%(error)s)",
                                       error="%s: %s" % (exc.__class__.__name__, exc))) from None

    def save(self, path) -> None:
        """Atomically: a power cut leaves the old file or the new one, never half of one."""
        path = Path(path)
        tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
        try:
            with open(tmp, "w", encoding="utf-8") as fh:
                fh.write(json.dumps(self.to_json(), indent=1) + "\n")
                fh.flush()
                os.fsync(fh.fileno())
            os.replace(tmp, path)
        finally:
            tmp.unlink(missing_ok=True)

    @classmethod
    def load(cls, path) -> "Calibration":
        try:
            data = json.loads(Path(path).read_text(encoding="utf-8"))
        except FileNotFoundError:
            raise CalibrationError(f"{path}: no such file") from None
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise CalibrationError(msg("%(path)s: can't be read as JSON (%(error)s)", path=str(path),
                                       error=str(exc))) from None
        return cls.from_json(data)

    def check_layout(self, layout: Layout) -> None:
        if (self.sides, self.holes_per_side) != (layout.sides, layout.holes_per_side):
            raise CalibrationError(msg("the calibration is for a %(sides)s-sided board with %(holes)s holes a side, "
                                       "the layout is %(layout_sides)s-sided with %(layout_holes)s",
                                       sides=self.sides, holes=self.holes_per_side, layout_sides=layout.sides,
                                       layout_holes=layout.holes_per_side))
        if self.layout_id and self.layout_id != layout.fingerprint():
            raise CalibrationError(msg("the calibration was made with another layout (holes or markers elsewhere): "
                                       "pass the layout it was made with, or calibrate again"))


# --------------------------------------------------------------------------- geometry

def marker_points(layout: Layout, found: dict) -> tuple[np.ndarray, np.ndarray, list]:
    board, image, used = [], [], []
    by_id = {m.id: m for m in layout.markers}
    for mid, corners in sorted(found.items()):
        if mid in by_id:
            board += by_id[mid].corners()
            image += list(np.asarray(corners, np.float64))
            used.append(mid)
    return np.array(board, np.float64).reshape(-1, 2), np.array(image, np.float64).reshape(-1, 2), used


def reprojection_error(H, board_pts, image_pts) -> np.ndarray:
    if len(board_pts) == 0:
        return np.zeros(0)
    proj = cv2.perspectiveTransform(board_pts.reshape(1, -1, 2), H)[0]
    return np.linalg.norm(proj - image_pts, axis=1)


def homography_from_markers(layout: Layout, found: dict) -> tuple[np.ndarray, float, list]:
    """(H board mm -> image, RMS reprojection error px, marker ids used); CalibrationError if
    fewer than two of the layout's markers were found."""
    board, image, used = marker_points(layout, found)
    if len(used) < MIN_MARKERS:
        raise _markers_missing(used, layout)
    H, inliers = cv2.findHomography(board, image, cv2.RANSAC, 4.0)
    if H is None:
        raise CalibrationError(msg("the markers' corners don't fit one board plane"))
    keep = inliers.ravel().astype(bool)
    if keep.sum() >= 8:
        H, _ = cv2.findHomography(board[keep], image[keep], 0)
    err = reprojection_error(H, board, image)
    return H, float(np.sqrt(np.mean(err ** 2))), used


def calibrate_geometry(image: np.ndarray, layout: Layout) -> Calibration:
    """Geometry from the markers of one frame (no colours yet)."""
    found = detect_markers(image, ids={m.id for m in layout.markers})
    H, rms, used = homography_from_markers(layout, found)
    h, w = image.shape[:2]
    return Calibration(homography=H, image_size=(w, h), method="markers", layout_id=layout.fingerprint(),
                       sides=layout.sides, holes_per_side=layout.holes_per_side,
                       markers={k: found[k] for k in used}, reprojection_px=rms)


def calibrate_manual(layout: Layout, points, image_size) -> Calibration:
    """Geometry from four tapped points: the image positions (x, y) of the holes
    ``layout.manual_reference_holes()``, in that order."""
    pts = np.asarray(points, np.float64)
    if pts.shape != (4, 2) or not np.isfinite(pts).all():
        raise CalibrationError(msg("manual calibration needs four points [x, y], one for each of %(holes)s",
                                   holes=", ".join(layout.manual_reference_holes())))
    refs = np.array([layout.holes[h] for h in layout.manual_reference_holes()], np.float64)
    area = 0.5 * abs(sum(pts[i, 0] * pts[(i + 1) % 4, 1] - pts[(i + 1) % 4, 0] * pts[i, 1] for i in range(4)))
    if area < 100:
        raise CalibrationError(msg("the four points are (almost) on one line; tap the four corner holes"))
    H = cv2.getPerspectiveTransform(refs.astype(np.float32), pts.astype(np.float32))
    # the tapped order must not fold the board over (a convex quadrilateral, same orientation)
    def orient(p):
        return np.sign(_cross(p[1] - p[0], p[2] - p[1]))
    if orient(pts) != orient(refs) or not _convex(pts):
        raise CalibrationError(msg("the four points are not in order; tap %(holes)s in that order",
                                   holes=", ".join(layout.manual_reference_holes())))
    w, h = image_size
    return Calibration(homography=H, image_size=(int(w), int(h)), method="manual",
                       layout_id=layout.fingerprint(), sides=layout.sides, holes_per_side=layout.holes_per_side,
                       warnings=[msg("manual calibration: a moved board or camera can't be noticed; "
                                     "calibrate again after moving either")])


def refine_with_holes(image: np.ndarray, layout: Layout, H, holes=None, search_mm: float | None = None,
                      iterations: int = 2) -> tuple[np.ndarray, int]:
    """(H refined on the centres of empty holes, holes used).

    Each hole (default: every hole but the start holes, which are empty in the set-up
    picture) is looked for round where ``H`` puts it - within ``search_mm`` (default a
    hole's diameter) - as the dark-weighted centroid of its drilled hole; the
    homography is then fitted to all of them (RANSAC), which spreads the fit over the
    whole board instead of four markers or four taps."""
    gray = to_gray(image).astype(np.float32)
    h, w = gray.shape
    holes = holes or [hh for hh in layout.holes if not hh.startswith("S-")]
    board = np.array([layout.holes[hh] for hh in holes], np.float64)
    r_mm = layout.hole_diameter / 2
    search = search_mm if search_mm is not None else 2 * r_mm
    H = np.asarray(H, np.float64)
    used = 0
    for it in range(iterations):
        proj = cv2.perspectiveTransform(board.reshape(1, -1, 2), H)[0]
        side = cv2.perspectiveTransform((board + [1.0, 0.0]).reshape(1, -1, 2), H)[0]
        scale = np.linalg.norm(side - proj, axis=1)                    # px per mm at each hole
        got_b, got_i = [], []
        for (bx, by), (px, py), sc in zip(board, proj, scale):
            rad = max(3.0, (search if it == 0 else 2 * r_mm) * sc)
            x0, x1 = int(max(0, px - rad)), int(min(w, px + rad + 1))
            y0, y1 = int(max(0, py - rad)), int(min(h, py + rad + 1))
            if x1 - x0 < 3 or y1 - y0 < 3:
                continue
            patch = gray[y0:y1, x0:x1]
            thr = 0.5 * (float(np.median(patch)) + float(patch.min()))
            weight = np.clip(thr - patch, 0, None)
            area = float((weight > 0).sum())
            expect = np.pi * (r_mm * sc) ** 2
            if weight.sum() <= 0 or not 0.3 * expect <= area <= 3 * expect:
                continue
            ys, xs = np.mgrid[y0:y1, x0:x1]
            cx, cy = (weight * xs).sum() / weight.sum(), (weight * ys).sum() / weight.sum()
            got_b.append((bx, by))
            got_i.append((cx, cy))
        if len(got_b) < max(8, len(holes) // 3):
            break
        Hn, inliers = cv2.findHomography(np.array(got_b), np.array(got_i), cv2.RANSAC, 1.5)
        if Hn is None:
            break
        H, used = Hn, int(inliers.sum())
    return H, used


def find_holes(gray: np.ndarray, layout: Layout, holes, predicted: np.ndarray, scale: np.ndarray,
               radius_mm: float) -> tuple[np.ndarray, np.ndarray, list]:
    """(board mm, image px, hole ids) of the drilled holes found within ``radius_mm`` of their
    ``predicted`` image positions (``scale``: px per mm there): each the dark-weighted centroid."""
    h, w = gray.shape
    r_mm = layout.hole_diameter / 2
    got_b, got_i, ids = [], [], []
    for hole, (px, py), sc in zip(holes, predicted, scale):
        rad = max(3.0, radius_mm * sc)
        x0, x1 = int(max(0, px - rad)), int(min(w, px + rad + 1))
        y0, y1 = int(max(0, py - rad)), int(min(h, py + rad + 1))
        if x1 - x0 < 3 or y1 - y0 < 3:
            continue
        patch = gray[y0:y1, x0:x1]
        thr = 0.5 * (float(np.median(patch)) + float(patch.min()))
        weight = np.clip(thr - patch, 0, None)
        area = float((weight > 0).sum())
        expect = np.pi * (r_mm * sc) ** 2
        if weight.sum() <= 0 or not 0.3 * expect <= area <= 3 * expect:
            continue
        ys, xs = np.mgrid[y0:y1, x0:x1]
        got_b.append(layout.holes[hole])
        got_i.append(((weight * xs).sum() / weight.sum(), (weight * ys).sum() / weight.sum()))
        ids.append(hole)
    return np.array(got_b, np.float64).reshape(-1, 2), np.array(got_i, np.float64).reshape(-1, 2), ids


def find_discs(gray: np.ndarray, layout: Layout, holes, predicted: np.ndarray,
               scale: np.ndarray) -> tuple[np.ndarray, np.ndarray, list]:
    """(board mm, image px, hole ids) of the printed mid-tone discs round the holes, each the
    centroid of its disc (with the hole in it) darker than the board round it, found where it
    covers ``predicted`` or lies nearest it (``scale``: px per mm there).

    The disc is printed on the board's plane, so its outline is where the camera puts it. The
    drilled hole's dark centroid is not: the lamp lights one side of its wall and the camera sees
    into it at an angle, which moves it by about a pixel, differently across the board (the
    committed s6-paper: the true camera 1.05 px off the holes' centroids, 0.27 px off the discs')."""
    h, w = gray.shape
    disc_r = hole_disc_radius(layout)
    reach = disc_r + 0.12 * layout.pitch           # short of the next disc (0.58 pitch away)

    def disc_at(px, py, sc):
        rad = max(4.0, reach * sc)
        x0, x1 = int(max(0, px - rad)), int(min(w, px + rad + 2))
        y0, y1 = int(max(0, py - rad)), int(min(h, py + rad + 2))
        if x1 - x0 < 5 or y1 - y0 < 5:
            return None
        patch = gray[y0:y1, x0:x1]
        ys, xs = np.mgrid[y0:y1, x0:x1]
        d2 = (xs - px) ** 2 + (ys - py) ** 2
        inside = d2 <= rad * rad
        inner = d2 <= (0.6 * disc_r * sc) ** 2
        if not inner.any():
            return None
        board_level = float(np.percentile(patch[inside], 90))
        disc_level = float(np.median(patch[inner]))
        if board_level - disc_level < 8:           # no disc to see (an old template, glare)
            return None
        mask = ((patch < 0.5 * (board_level + disc_level)) & inside).astype(np.uint8)
        n, lab, stats, cents = cv2.connectedComponentsWithStats(mask)
        expect = np.pi * (disc_r * sc) ** 2
        best = None
        for k in range(1, n):
            area = float(stats[k, cv2.CC_STAT_AREA])
            dist = math.hypot(cents[k, 0] + x0 - px, cents[k, 1] + y0 - py)
            if 0.5 * expect <= area <= 1.6 * expect and dist <= disc_r * sc and (best is None or dist < best[0]):
                best = (dist, k, area)
        if best is None:
            return None
        _, k, area = best
        cut = int(((lab == k) & (d2 > (rad - 1.0) ** 2)).sum())     # pixels at the search's edge
        return float(cents[k, 0] + x0), float(cents[k, 1] + y0), cut <= 0.03 * area

    got_b, got_i, ids = [], [], []
    for hole, (px, py), sc in zip(holes, predicted, scale):
        found = disc_at(px, py, sc)
        if found is not None and not found[2]:      # cut by the search's edge: look again round it
            found = disc_at(found[0], found[1], sc)
        if found is None or not found[2]:
            continue
        got_b.append(layout.holes[hole])
        got_i.append(found[:2])
        ids.append(hole)
    return np.array(got_b, np.float64).reshape(-1, 2), np.array(got_i, np.float64).reshape(-1, 2), ids


# the regions' names in the warnings' words ("the board's top left doesn't fit the camera")
REGION_WORDS = {
    "top left": pmsg("board region", "top left"), "top": pmsg("board region", "top"),
    "top right": pmsg("board region", "top right"), "left": pmsg("board region", "left"),
    "centre": pmsg("board region", "centre"), "right": pmsg("board region", "right"),
    "bottom left": pmsg("board region", "bottom left"), "bottom": pmsg("board region", "bottom"),
    "bottom right": pmsg("board region", "bottom right"),
}


# where the heads' height came from, in the summary's words
HEAD_HEIGHT_WORDS = {"measured": pmsg("head height", "measured"), "set": pmsg("head height", "set"),
                     "not seen": pmsg("head height", "not seen")}


def _regions(layout: Layout, board: np.ndarray) -> list:
    """Each board point's region: centre, or the edge/corner it is nearest (a 3 x 3 grid)."""
    names = [["top left", "top", "top right"], ["left", "centre", "right"], ["bottom left", "bottom", "bottom right"]]
    cx = np.clip((board[:, 0] / layout.width * 3).astype(int), 0, 2)
    cy = np.clip((board[:, 1] / layout.height * 3).astype(int), 0, 2)
    return [names[j][i] for i, j in zip(cx, cy)]


def fit_camera_to_picture(image: np.ndarray, layout: Layout, H: np.ndarray, found: dict | None = None,
                          holes=None, fov: float | None = None) -> tuple[CameraModel | None, dict]:
    """(the camera, its figures) fitted to the markers' corners (``found``) and the drilled holes
    (default every hole but the start holes) found round where ``H`` puts them, then round where
    the camera puts them (twice, dropping outliers). None if fewer than 12 points are found."""
    gray = to_gray(image).astype(np.float32)
    hh_, ww_ = gray.shape
    holes = holes or [h for h in layout.holes if not h.startswith("S-")]
    board_all = np.array([layout.holes[h] for h in holes], np.float64)
    mb, mi, _ = marker_points(layout, found or {})
    r_mm = layout.hole_diameter / 2

    def scale_of(project):
        return np.linalg.norm(project(board_all + [1.0, 0.0]) - project(board_all), axis=1)

    def by_h(b):
        return cv2.perspectiveTransform(np.asarray(b, np.float64).reshape(1, -1, 2), H)[0]
    first = by_h
    if len(mb) >= 12:
        # a strong lens bends the markers off any homography: a camera fitted to their corners
        # alone (k1 only) may put the holes better for the first search
        try:
            cam0, rms0 = fit_camera(mb, mi, (ww_, hh_), k2=False, fov=fov)
            if rms0 < float(np.sqrt(np.mean(np.linalg.norm(by_h(mb) - mi, axis=1) ** 2))):
                first = cam0.project
        except ValueError:
            pass
    hb, hi, _ = find_holes(gray, layout, holes, first(board_all), scale_of(first), 2 * r_mm)
    if len(hb) + len(mb) < 12:
        return None, {}
    pts_b, pts_i = np.concatenate([mb, hb]), np.concatenate([mi, hi])
    try:
        cam, rms = fit_camera(pts_b, pts_i, (ww_, hh_), k2=False, fov=fov)
        for k2 in (True, True):
            hb, hi, ids = find_holes(gray, layout, holes, cam.project(board_all), scale_of(cam.project), r_mm)
            pts_b, pts_i = np.concatenate([mb, hb]), np.concatenate([mi, hi])
            err = residuals(cam, pts_b, pts_i)
            keep = err <= max(3 * float(np.median(err)), 1.5)
            cam, rms = fit_camera(pts_b[keep], pts_i[keep], (ww_, hh_), k2=k2 and keep.sum() >= 40, fov=fov)
    except ValueError:
        return None, {}
    err = residuals(cam, pts_b, pts_i)
    keep = err <= max(3 * float(np.median(err)), 1.5)
    # the homography judged the same way: on the holes found round where it puts them
    hb2, hi2, _ = find_holes(gray, layout, holes, by_h(board_all), scale_of(by_h), r_mm)
    b2, i2 = np.concatenate([mb, hb2]), np.concatenate([mi, hi2])
    err_h = np.linalg.norm(by_h(b2) - i2, axis=1)
    keep_h = err_h <= max(3 * float(np.median(err_h)), 1.5)
    judge = _judge_on_discs(gray, layout, holes, board_all, mb, mi, cam.project, by_h, scale_of)
    regions = _regions(layout, pts_b)
    per_region = {}
    for name in dict.fromkeys(regions):
        sel = np.array([r == name for r in regions]) & keep
        if sel.any():
            per_region[name] = round(float(np.sqrt(np.mean(err[sel] ** 2))), 2)
    lens = cam.lens_shift_px(board_all)
    return cam, {"rms_px": round(float(np.sqrt(np.mean(err[keep] ** 2))), 3),
                 "homography_rms_px": round(float(np.sqrt(np.mean(err_h[keep_h] ** 2))), 3),
                 "homography_points": int(keep_h.sum()),
                 "points": int(keep.sum()), "outliers": int((~keep).sum()), "per_region_px": per_region,
                 "lens_shift_px": round(float(lens.max()), 1), "height_mm": round(cam.height_mm, 1),
                 "tilt_deg": round(cam.tilt_deg, 1), "fov_deg": round(cam.fov_deg, 1),
                 "focal_observed": cam.focal_observed,
                 "look_at_mm": [round(v, 1) for v in cam.look_point], **judge}


def _judge_on_discs(gray, layout: Layout, holes, board_all, mb, mi, project_cam, project_h, scale_of) -> dict:
    """The camera and the homography measured on the printed discs round the holes (each found
    round where that model puts it): which one fits the board. The holes' dark centroids, which
    both are fitted to, are moved by the lamp and the view into the hole by about a pixel, and a
    homography's free principal point takes up part of that; a true camera then fits them worse
    than a homography (the committed s6-paper: its true camera 1.05 px off the holes' centroids,
    the homography 0.41, the fitted camera 0.63, refused) while on the discs it is the better fit.
    Empty where the template has no discs to find (fewer than half the holes)."""
    out = {}
    for key, project in (("camera", project_cam), ("homography", project_h)):
        db, di, _ = find_discs(gray, layout, holes, project(board_all), scale_of(project))
        if len(db) < max(12, len(holes) // 2):
            return {}
        b, i = np.concatenate([mb, db]), np.concatenate([mi, di])
        err = np.linalg.norm(project(b) - i, axis=1)
        keep = err <= max(3 * float(np.median(err)), 1.5)
        out[f"discs_{key}_rms_px"] = round(float(np.sqrt(np.mean(err[keep] ** 2))), 3)
        out[f"discs_{key}_points"] = int(keep.sum())
    return out


HEAD_UNIFORMITY = 0.0
HEAD_RANK = 0
HEAD_EDGE = 0.0     # 0.8: the top of the head (see measure_head_height, ``edge``); off, measured worse:
# taken at the top where the camera is tilted 10 degrees or more (its perspective pins focal length
# and height) it comes within -2.5 to +4.5 mm of the truth on 13 tilted path-traced set-ups (the peak
# 1.6 to 7.9 mm low), yet reads fewer positions (bench2's games 62 of 80 against 72; committed set 1
# of 6 against 3; old bench 3 of 11 against 2); nearly straight down only the height-to-focal ratio
# shows and the peak, measured through the same model, gives the parallax that model needs


def measure_head_height(image: np.ndarray, layout: Layout, cam: CameraModel, sides=None,
                        heights=np.arange(0.0, 26.0, 1.0), edge: float | None = None) -> float | None:
    """How high above the board (mm) the set-up picture shows the start pegs' heads: the height at
    which the heads, projected through the camera, look least like the board does at the same
    spot round the empty holes. None when no height stands out (a view straight down, where
    every height projects alike, or no pegs)."""
    from .detect import sample_geometry
    from .sampling import sample_linear
    g = sample_geometry(layout, camera=True)
    offsets = np.array(g["head_points"], np.float64)
    ring_r = 0.5 * (g["ring_in"] + g["ring_out"])
    ring_off = np.array([(ring_r * math.cos(2 * math.pi * k / 16), ring_r * math.sin(2 * math.pi * k / 16))
                         for k in range(16)])
    sides = range(layout.sides) if sides is None else sides
    starts = {s: layout.start_ids(s) for s in sides}
    start_ids = [h for ids in starts.values() for h in ids]
    if not start_ids:
        return None
    empty_ids = [h for h in layout.holes if not h.startswith("S-")]
    img = image.astype(np.float32)

    def look(ids, z):
        xy = np.array([layout.holes[h] for h in ids], np.float64)
        pts = np.concatenate([xy[:, None, :] + offsets[None], np.full((len(ids), len(offsets), 1), -z)], axis=2)
        p = cam.project(pts).astype(np.float32)
        vals = sample_linear(img, p[..., 0], p[..., 1])
        rp = cam.project(xy[:, None, :] + ring_off[None]).astype(np.float32)
        ring = sample_linear(img, rp[..., 0], rp[..., 1])
        return np.median(vals, axis=1), np.maximum(np.median(ring, axis=1), 1.0), vals
    scores = []
    for z in heights:
        e_val, e_ring, _ = look(empty_ids, z)
        ratio = np.median(e_val / e_ring, axis=0)
        s_val, s_ring, s_all = look(start_ids, z)
        d = np.linalg.norm(bgr_to_lab(s_val) - bgr_to_lab(ratio * s_ring), axis=1)
        # all of the head's points on the head: they agree (a sample half on the board doesn't)
        lab_all = bgr_to_lab(s_all)
        d = d - HEAD_UNIFORMITY * np.median(np.linalg.norm(lab_all - bgr_to_lab(s_val)[:, None], axis=2), axis=1)
        scores.append(d)
    scores = np.array(scores)                               # (heights, start pegs)
    total = np.zeros(len(heights))
    k = 0
    for s, ids in starts.items():
        # the least of its pegs: a height that puts the heads on their neighbours leaves the end one out
        sc = np.sort(scores[:, k:k + len(ids)], axis=1)[:, min(HEAD_RANK, len(ids) - 1)]
        k += len(ids)
        if sc.max() - sc.min() > 3.0:                       # this side's pegs show where their heads are
            total += (sc - sc.min()) / (sc.max() - sc.min())
    if not total.any() or total.max() - np.median(total) < 0.2 * len(starts) / max(len(starts), 1):
        return None
    i = int(np.argmax(total))
    edge = HEAD_EDGE if edge is None else edge
    if edge > 0:
        # the score peaks where the sample sits on the middle of the visible head (the dome and the
        # head's side seen below it); the top is where it falls back, on the far side of the peak
        level = total.min() + edge * (total[i] - total.min())
        j = i
        while j + 1 < len(heights) and total[j + 1] >= level:
            j += 1
        if j + 1 < len(heights):
            a, b = total[j], total[j + 1]
            return float(heights[j] + (heights[j + 1] - heights[j]) * (a - level) / max(a - b, 1e-9))
        return float(heights[j])
    if 0 < i < len(heights) - 1:                            # a parabola through the best and its neighbours
        a, b, c = total[i - 1], total[i], total[i + 1]
        den = a - 2 * b + c
        step = float(heights[1] - heights[0])
        if den < 0:
            return float(heights[i] + 0.5 * step * (a - c) / den)
    return float(heights[i])


def _cross(a, b) -> float:
    return float(a[0] * b[1] - a[1] * b[0])


def _convex(p) -> bool:
    s = [np.sign(_cross(p[(i + 1) % 4] - p[i], p[(i + 2) % 4] - p[(i + 1) % 4])) for i in range(4)]
    return all(v == s[0] for v in s) and s[0] != 0


# --------------------------------------------------------------------------- colours

RING_SKEWED = 4.0   # a start head this many times its side's median distance from the side's look, and
                    # this many times further than the camera saw it from the side's: its ring was skewed


def _robust_spread(x: np.ndarray) -> float:
    """A standard deviation from the median absolute deviation (of distances, >= 0)."""
    if len(x) == 0:
        return 0.0
    return float(1.4826 * np.median(np.abs(x - np.median(x))))


# the advice to add an empty-board picture; the camera page swaps it for its own step's words
EMPTY_ADVICE = msg("add a picture of the empty board (pegs vision calibrate --empty)")


def learn_colours(image: np.ndarray, layout: Layout, calib: Calibration, sides=None, names=None,
                  empty_image: np.ndarray | None = None, _seen_empty: dict | None = None,
                  _seen_head: dict | None = None) -> ColourModel:
    """Learn the colour classes from a picture of the set-up position; adds warnings to ``calib``
    and, for every side whose pegs can't be told apart, an entry to ``calib.weak``.

    ``sides``: the sides that have pegs (their start holes full); None: the sides of
    ``names`` if given, else found in the picture. ``names``: side -> the colour the user
    chose for that seat, used in every message (the camera never guesses a colour's name).
    ``empty_image``: an optional picture of the board with no pegs, from the same camera:
    every hole's empty look, start holes included.
    """
    names = {int(k): str(v) for k, v in (names or {}).items()}
    if sides is None and names:
        sides = sorted(names)
    h, w = image.shape[:2]
    if (w, h) != tuple(calib.image_size):
        raise CalibrationError(msg("the set-up picture is %(size)s but the calibration is for %(wanted)s",
                                   size="%dx%d" % (w, h), wanted="%dx%d" % tuple(calib.image_size)))
    sampler = calib.sampler(layout)
    if not sampler.visible.all():
        missing = [hh for hh, v in zip(sampler.holes, sampler.visible) if not v]
        raise CalibrationError(nmsg("%(n)s holes are outside the picture (%(holes)s): move the camera back",
                                    "%(n)s holes are outside the picture (%(holes)s): move the camera back",
                                    len(missing), holes=_some(missing, 4)))
    # every ratio to a hole's ring is learnt from the bare board: not where a start peg is seen over it
    samples = sampler.ring_clear_of(image, sampler.sample(image),
                                    [i for i, hh in enumerate(sampler.holes) if hh.startswith("S-")])
    index = {hh: i for i, hh in enumerate(sampler.holes)}
    board_ref = np.median(samples.ring, axis=0)
    f = features(samples, board_ref)
    x = weighted(f.hole_lab)
    heads = weighted(f.head_lab)                               # (N, C, 3)
    board_w = weighted(bgr_to_lab(board_ref))
    warnings: list[str] = []
    glare = [hh for hh, s in zip(sampler.holes, samples.saturated) if s > 0.3]
    if glare:
        warnings.append(nmsg("glare on %(n)s holes (%(holes)s): move the lamp or the camera so the board isn't "
                             "shiny there",
                             "glare on %(n)s holes (%(holes)s): move the lamp or the camera so the board isn't "
                             "shiny there", len(glare), holes=_some(glare, 5)))
    if bgr_to_lab(board_ref)[0] < 25:
        warnings.append(msg("the board looks very dark: add light"))
    empty_ids = [hh for hh in layout.holes if not hh.startswith("S-")]
    e = x[[index[hh] for hh in empty_ids]]
    mu_e = np.median(e, axis=0)
    de = np.linalg.norm(e - mu_e, axis=1)
    spread_e = max(_robust_spread(de) + float(np.median(de)), 1.0)
    odd = [hh for hh, d in zip(empty_ids, de) if d > max(8 * spread_e, 12)]
    if odd:
        warnings.append(nmsg("%(n)s holes that should be empty don't look empty (%(holes)s): take the set-up "
                             "picture with every peg in start",
                             "%(n)s holes that should be empty don't look empty (%(holes)s): take the set-up "
                             "picture with every peg in start", len(odd), holes=_some(odd, 5)))
    # each hole judged against two references of its own light: its ring and its own empty look
    # (set-up picture: every hole but the start holes; those, and odd ones, from their neighbours)
    measured = [hh for hh, d in zip(empty_ids, de) if d <= max(8 * spread_e, 12)]
    ring_est = ring_estimate(samples.ring)
    ratio = samples.hole / ring_est
    seen = _seen_empty or {}          # start holes seen empty in the empty-board picture
    for hh, r in seen.items():
        ratio[index[hh]] = r
    measured += [hh for hh in seen if hh not in measured]
    q, loo = _spread_ratios(layout, sampler.holes, ratio, [index[hh] for hh in measured])
    norm = LocalNorm(q.astype(np.float32), (np.median(ratio[[index[hh] for hh in measured]], axis=0)
                                            * board_ref).astype(np.float32), board_ref.astype(np.float32))
    camera = sampler.camera is not None
    wild_holes: set = set()
    head_q = head_loo = None
    if camera:      # what each head's spot shows with its hole empty, as a ratio to its ring
        head_ratio = (samples.spot / ring_est[:, None, :]).reshape(len(sampler.holes), 6)
        for hh, r in (_seen_head or {}).items():
            head_ratio[index[hh]] = np.ravel(r)
        head_q, head_loo = _spread_ratios(layout, sampler.holes, head_ratio, [index[hh] for hh in measured])
        head_q, head_loo = head_q.reshape(-1, 2, 3), head_loo.reshape(-1, 2, 3)
        norm.head_ratio = head_q.astype(np.float32)
    f = features(samples, board_ref, norm)
    x = weighted(f.hole_lab)
    heads = weighted(f.head_lab)
    mu_e = weighted(bgr_to_lab(norm.empty_ref))
    # how far an empty hole's look strays when it has to come from its neighbours (start holes)
    f_loo = features(samples, board_ref, LocalNorm(loo.astype(np.float32), norm.empty_ref, norm.board_ref))
    e_keep = weighted(f_loo.hole_lab)[[index[hh] for hh in measured if hh not in seen]]
    spread_e = max(_robust_spread(np.linalg.norm(e_keep - mu_e, axis=1))
                   + float(np.median(np.linalg.norm(e_keep - mu_e, axis=1))), 1.0)
    hole_empty = {hh: x[index[hh]] for hh in measured if hh not in seen}
    head_empty = None
    if camera:      # a peg is judged on its head's spot: how far that strays from its neighbours' look
        head_empty = f.head_empty_lab
        spots = f.spot_lab
        f_hl = features(samples, board_ref, LocalNorm(norm.ratio, norm.empty_ref, norm.board_ref,
                                                       head_loo.astype(np.float32)))
        keep_i = [index[hh] for hh in measured if hh not in seen]
        dh = spot_distance(spots[keep_i], f_hl.head_empty_lab[keep_i])
        spread_e = max(_robust_spread(dh) + float(np.median(dh)), 1.0)
        # an empty hole its neighbours don't predict at all (a lamp's hot spot washing its grey disc
        # out: bench5's s4-wood-bw, 67-103 against a median of 4) is no measure of how empty holes
        # vary; it would widen every class's spread (there, tau 13.1 instead of 5.7: its black pegs
        # read 20 %). Left out, and never read surely
        wild = dh > float(np.median(dh)) + WILD_SPREADS * max(_robust_spread(dh), 1.0)
        wild_holes = {sampler.holes[i] for i, v in zip(keep_i, wild) if v}
        dh = dh[~wild]
    # which sides have pegs: start holes well away from the empty holes
    stand_out = max(4 * spread_e, 8.0)
    side_full: dict = {}
    side_lab, centres, side_spread, spreads = {}, {}, {}, [dh if camera else np.linalg.norm(e_keep - mu_e, axis=1)]
    side_heads = {}
    found_sides = []
    looks_empty: list = []      # (side, its start holes that look empty, where its warning goes)
    for s in range(layout.sides):
        ids = layout.start_ids(s)
        # each start peg's head where it stands out most from both an empty hole and the board
        hs = heads[[index[hh] for hh in ids]]                                  # (5, C, 3)
        apart = np.minimum(np.linalg.norm(hs - mu_e, axis=2), np.linalg.norm(hs - board_w, axis=2))
        xs = hs[np.arange(len(ids)), apart.argmax(axis=1)]
        # full: the hole itself (its centre disc) no longer looks like an empty hole; with the camera
        # model, the head's spot no longer looks as it does with the hole empty
        dist_empty = np.linalg.norm(x[[index[hh] for hh in ids]] - mu_e, axis=1) if not camera else \
            spot_distance(spots[[index[hh] for hh in ids]], head_empty[[index[hh] for hh in ids]])
        if camera:
            xs = heads[[index[hh] for hh in ids], 0]
        full = dist_empty > stand_out
        wanted = sides is None and full.sum() >= math.ceil(len(ids) / 2) or sides is not None and s in sides
        if not wanted:
            continue
        found_sides.append(s)
        side_full[s] = full if full.any() else np.ones(len(ids), bool)
        if sides is not None and not full.any():
            use = xs            # black pegs, say: learn them anyway (and warn below)
        else:
            use = xs[full]
            if (~full).any():
                looks_empty.append((s, [hh for hh, f in zip(ids, full) if not f], len(warnings)))
        mu = np.median(use, axis=0)
        side_lab[s] = mu / np.array([0.6, 1.0, 1.0])
        centres[s] = np.median(x[[index[hh] for hh in ids]], axis=0)    # what sits in the hole itself
        apart_mu = np.linalg.norm(use - mu, axis=1)
        if camera and len(use) == len(ids) and len(ids) >= 4:
            # a head the division by its ring moved far from its side's look while the camera saw it as
            # it saw the others: the ring was disturbed (a neighbour's shadow over it), not the peg
            # (bench9's s8-wood, two of blue's five start heads read cyan, 54 and 66 from the median
            # against 4-9, 1.3 and 10 as seen): not a measure of how the side's pegs vary
            as_seen = weighted(bgr_to_lab(samples.heads[[index[hh] for hh in ids], 0].astype(np.float32)))
            seen_apart = np.linalg.norm(as_seen - np.median(as_seen, axis=0), axis=1)
            skewed = (apart_mu > RING_SKEWED * max(float(np.median(apart_mu)), 1.0)) \
                & (RING_SKEWED * seen_apart < apart_mu)
            if skewed.any() and (~skewed).sum() >= 3:
                apart_mu, use = apart_mu[~skewed], use[~skewed]
        spreads.append(apart_mu)
        side_spread[s] = float(np.sqrt(np.mean(spreads[-1] ** 2)))
        side_heads[s] = use
    if not found_sides:
        raise CalibrationError(msg("no side's start holes hold pegs: take the set-up picture with every "
                                   "colour's pegs in its start holes (or name the sides with pegs)"))
    if sides is None:        # a side with some start holes standing out: pegs too dark to find?
        for s in range(layout.sides):
            if s in found_sides:
                continue
            ids = layout.start_ids(s)
            ii = [index[hh] for hh in ids]
            some = int(((spot_distance(spots[ii], head_empty[ii]) if camera else
                         np.linalg.norm(x[ii] - mu_e, axis=1)) > stand_out).sum())
            if some:
                warnings.append(nmsg("side %(side)s: %(n)s of its start holes look filled, the others empty, so "
                                     "its pegs were not learnt; if that seat plays, name the table's colours "
                                     "(--colours) and check the light there",
                                     "side %(side)s: %(n)s of its start holes look filled, the others empty, so "
                                     "its pegs were not learnt; if that seat plays, name the table's colours "
                                     "(--colours) and check the light there", some, side=s))
    pooled = np.concatenate(spreads)
    tau = max(float(np.sqrt(np.mean(pooled ** 2))), 2.0)
    lab_w = np.array([0.6, 1, 1])
    model = ColourModel(board_ref=[float(v) for v in board_ref], empty=[float(v) for v in mu_e / lab_w],
                        pegs={s: [float(v) for v in lab_s] for s, lab_s in side_lab.items()}, tau=tau,
                        names={s: n for s, n in names.items() if s in side_lab},
                        hole_empty={hh: [round(float(v), 2) for v in lab / lab_w] for hh, lab in hole_empty.items()},
                        hole_ratio={hh: [round(float(v), 4) for v in q[index[hh]]] for hh in sampler.holes},
                        head_ratio={hh: [round(float(v), 4) for v in head_q[index[hh]].ravel()]
                                    for hh in sampler.holes}
                        if camera else {},
                        empty_ref=[round(float(v), 2) for v in norm.empty_ref],
                        bodies={s: [round(float(v), 2) for v in c / lab_w] for s, c in centres.items()},
                        spreads={s: round(v, 2) for s, v in side_spread.items()})
    # (the empty-board picture's own patterns only once it is seen to show an empty board: the second pass)
    model.hole_ring = {hh: [round(float(v), 1) for v in ring_est[index[hh]]] for hh in sampler.holes}
    from .foreground import background_points, bare_board, encode, sample_points
    cells, points = background_points(sampler)
    seen_empty = empty_image if _seen_empty is not None and empty_image is not None \
        and empty_image.shape == image.shape else None
    board = sample_points(image, points)
    model.background = encode(cells, board)
    model.background_bare = encode(cells, bare_board(
        layout, cells, board, None if seen_empty is None else sample_points(seen_empty, points)))
    model.hole_patch = _empty_patterns(layout, sampler, samples, measured, seen_empty)
    for s, holes, at in reversed(looks_empty):
        warnings.insert(at, _looks_empty_warning(s, holes, model.hole_patch, samples, index))
    if empty_image is not None:    # every hole's own empty look, start holes too
        if empty_image.shape != image.shape:
            raise CalibrationError(msg("the empty-board picture is not the size of the set-up picture"))
        se = sampler.sample(empty_image)
        clf = Classifier(model, sampler.holes)
        labels = clf.classify(clf.features(se))[0]
        if _seen_empty is None:
            full_now = [hh for hh, v in zip(sampler.holes, labels) if v >= 0]
            if len(full_now) > max(3, len(sampler.holes) // 20):
                raise CalibrationError(nmsg("the empty-board picture doesn't show an empty board (%(n)s holes "
                                            "look filled): take every peg off, same camera and light",
                                            "the empty-board picture doesn't show an empty board (%(n)s holes "
                                            "look filled): take every peg off, same camera and light",
                                            len(full_now)))
            # learn again with the start holes' own empty look: the pegs' colours in their start holes
            # are then judged against it, not against their neighbours'
            own = se.hole / ring_estimate(se.ring)
            # (every start hole: the picture shows an empty board, and one under a lamp's sheen may
            # look filled only because its empty look was not known yet)
            seen_now = {hh: own[i] for i, hh in enumerate(sampler.holes)
                        if hh.startswith("S-") and hh not in model.hole_empty}
            own_head = se.spot / ring_estimate(se.ring)[:, None, :] if camera else None
            seen_head = {hh: own_head[index[hh]] for hh in seen_now} if camera else None
            return learn_colours(image, layout, calib, sides, names, empty_image, seen_now, seen_head)
        fe = clf.features(se)
        model.hole_empty.update({hh: [round(float(v), 2) for v in fe.hole_lab[index[hh]]] for hh in seen})
    in_hole = {s: float(np.linalg.norm(c - mu_e)) for s, c in centres.items()}
    at_holes = None
    if camera:      # each side against every hole's own empty look at its head's spot
        at_holes = features(samples, board_ref, model.local_norm(sampler.holes)).head_empty_lab
        model_spots = {s: np.median(spots[[index[hh] for hh in layout.start_ids(s)]][side_full[s]], axis=0)
                       for s in side_lab}
        at_holes = (at_holes, model_spots)
        model.spots = {s: [[round(float(v), 2) for v in part] for part in sp] for s, sp in model_spots.items()}
        # each side's heads as the camera saw them, before any normalisation (see Classifier.raw_hue)
        model.raw_heads = {s: [round(float(v), 2) for v in bgr_to_lab(np.median(
            samples.heads[[index[hh] for hh in layout.start_ids(s)], 0][side_full[s]], axis=0).astype(np.float32))]
            for s in side_lab}
    empty_spread = float(np.sqrt(np.mean(spreads[0] ** 2)))
    problems = weak_sides(model, in_hole, at_holes, side_heads, empty_spread)
    if camera and model.hole_patch and samples.patch is not None:
        # a side whose pegs look like the empty spot but break their holes' empty pattern (the dark
        # hole in its grey disc: a black head covers it) is told from empty holes by that pattern
        # (camera model only: there its colour is learnt where its heads are seen; a flat homography
        # learns it from the best of several places round the hole, which for a black peg may be wrong)
        ref = np.array([model.hole_patch[hh] for hh in sampler.holes], np.float32)
        score = structure_score(samples.patch, ref)
        for s_ in list(problems):
            ii = [index[hh] for hh in layout.start_ids(s_)]
            if np.mean(score[ii] <= STRUCTURE_PEG) >= 0.8:
                model.structure[f"side {s_} broken"] = round(float(np.mean(score[ii] <= STRUCTURE_PEG)), 2)
                problems[s_] = [it for it in problems[s_] if it[0] != "empty"]
                if not problems[s_]:
                    del problems[s_]
    # how the light is where each weak side's pegs stand: the advice depends on it
    def light_at(s, empty_advice=False):
        """The advice for side ``s``'s light, and to add the empty-board picture (if there is none)
        where ``empty_advice`` or where the board is washed out (a peg clipping where the empty hole
        does not can be told apart): once, not twice."""
        ring = np.median(samples.ring[[index[hh] for hh in layout.start_ids(s)]], axis=0)
        level = float(bgr_to_lab(ring)[0])
        if level < 35:
            light = msg("add light over that side or raise the camera's exposure (it looks dark there)")
        elif float(ring.max()) >= CLIP_LEVEL:
            light = msg("lower the camera's exposure or move the lamp (the board is washed out there)")
            empty_advice = True
        else:
            light = msg("add light over that side")
        return Join([light, EMPTY_ADVICE], "comma").msg() if empty_advice and empty_image is None else light
    for s, items in problems.items():
        light = light_at(s)
        cause = None
        if at_holes is not None and any(k == "empty" for k, *_ in items):
            cause = _weak_cause(layout, calib, sampler.holes, at_holes[0], at_holes[1][s],
                                hole_margin(model, s, empty_spread))
        for kind, other, d, margin in items:
            what = _like(model, kind, other)
            fix = (msg("give one of these seats pegs of a clearly different colour") if kind == "side"
                   else msg("%(light)s, or use lighter, brighter pegs for that seat", light=light))
            if kind == "empty" and cause:
                what, fix = cause
            calib.weak.append({"side": s, "colour": model.names.get(s), "like": kind, "other": other,
                               "distance": round(d, 1), "needed": round(margin, 1),
                               "message": msg("%(pegs)s can't be told from %(what)s (colour distance %(d)s, "
                                              "needs %(margin)s): %(fix)s", pegs=_side_name(model, s),
                                              what=what, d="%.0f" % d, margin="%.0f" % margin, fix=fix)})
    warnings += [w["message"] for w in calib.weak]
    # a side that can't be told from empty holes (in its start holes, where it was measured): neither
    # "empty" nor "a peg" is ever sure there, nor where a lamp's sheen blows the board out
    like_empty = [s for s, items in problems.items() if any(k == "empty" for k, *_ in items)]
    near_empty, head_weak = set(), set()
    if at_holes is not None:
        # the holes where some side's heads look like the spot empty: read on the hole's disc too
        # there, and never sure where that side's peg in its hole looks like the hole empty as well
        m = hole_margin(model)
        hole_e = weighted(np.array([model.hole_empty.get(hh, model.empty) for hh in sampler.holes], float))
        for s in model.pegs:
            near = spot_distance(at_holes[1][s][None], at_holes[0]) < m
            head_weak |= {hh for hh, v in zip(sampler.holes, near) if v}
            body = weighted(model.bodies[s]) if s in model.bodies else weighted(model.pegs[s])
            also = near & (np.linalg.norm(hole_e - body, axis=1) < m)
            near_empty |= {hh for hh, v in zip(sampler.holes, also) if v}
    if at_holes is not None and like_empty:
        # a side refused as like the empty spot: nowhere is "empty" sure unless the hole's own disc
        # looks empty too (no wrong hole from a refused side used anyway)
        head_weak = set(sampler.holes)
    model.head_weak = sorted(head_weak)
    # ... except a start hole whose own empty look was seen (an empty-board picture) and whose peg
    # clips a channel that its empty look leaves well below the clip: the detector rules "empty" out
    # there on that channel alone (``brighter_than_empty``), not on the colour distance
    proven = set()
    if seen and like_empty:
        starts = [hh for s in like_empty for hh in layout.start_ids(s)]
        fs = features(samples, board_ref, model.local_norm(sampler.holes))
        proven = {hh for hh in starts if hh in seen and fs.brighter[index[hh]]}
    model.clip_proven = sorted(proven)
    if at_holes is not None:
        model.unsure = sorted(near_empty | wild_holes
                              | ({hh for hh, v in zip(sampler.holes, samples.saturated) if v > 0.3}
                                 if like_empty else set()))
    else:
        model.unsure = sorted({hh for s in like_empty for hh in layout.start_ids(s) if hh not in proven}
                              | ({hh for hh, v in zip(sampler.holes, samples.saturated) if v > 0.3} if like_empty
                                 else set()))
    if at_holes is not None:
        # the set-up picture read with what was just learnt: a side whose pegs are not read surely
        # in most of their own start holes there, where they were learnt, won't be read surely
        # where they look the same elsewhere (bench6's s4-paper-bw: its black heads like the empty
        # holes' borrowed look, none of 5 sure, then unsure in every position picture)
        reading = read_holes(image, sampler, Classifier(model, sampler.holes))
        for s in sorted(model.pegs):
            ids = layout.start_ids(s)
            sure = sum(reading.labels[hh] == s and reading.confidence[hh] >= SURE for hh in ids)
            if s in problems or reading.foreground >= PATCH_POINTS or sure >= SELF_READ_SURE * len(ids):
                continue
            fix = light_at(s, empty_advice=True)
            calib.weak.append({"side": s, "colour": model.names.get(s), "like": "unsure", "other": None,
                               "distance": sure, "needed": math.ceil(SELF_READ_SURE * len(ids)),
                               "message": nmsg("%(pegs)s are read surely in only %(sure)s of their %(n)s start hole "
                                               "in the set-up picture: %(fix)s",
                                               "%(pegs)s are read surely in only %(sure)s of their %(n)s start holes "
                                               "in the set-up picture: %(fix)s", len(ids),
                                               pegs=_side_name(model, s), sure=sure, fix=fix)})
            warnings.append(calib.weak[-1]["message"])
    calib.colours = model
    # what the calibration already said (a manual one's caveat, the camera fit's lens and envelope) stays
    calib.warnings = list(calib.warnings) + warnings
    return model


CLIP_LEVEL = 245.0


def _weak_cause(layout: Layout, calib: Calibration, holes, at_holes, peg, margin):
    """(what the pegs look like, what to do) for a side whose pegs look like the empty spot at
    too many holes, in the words of the cause: the heads seen off the template's grey discs
    (parallax: raise the camera or point it straight down) or their colour."""
    from .template import hole_disc_radius
    near = spot_distance(np.asarray(peg)[None], at_holes) < margin
    xy = np.array([layout.holes[h] for h in holes], np.float64)
    shift = calib.camera.parallax_mm(xy, calib.head_height)
    off_disc = shift > hole_disc_radius(layout) - 0.82 * layout.peg_diameter / 2
    n = int(near.sum())
    if n and (near & off_disc).sum() >= 0.7 * n:
        t = calib.camera.tilt_deg
        return (nmsg("the board where the camera sees their heads off the holes' grey discs (%(n)s holes, "
                     "heads seen up to %(mm)s mm off their holes; %(camera)s)",
                     "the board where the camera sees their heads off the holes' grey discs (%(n)s holes, "
                     "heads seen up to %(mm)s mm off their holes; %(camera)s)",
                     n, mm="%.0f" % shift[near].max(), camera=pose_words(calib.camera)),
                msg("raise the camera or point it straight down") if t > 5 else msg("raise the camera"))
    return (msg("empty holes (these pegs look like the board and the empty holes)"),
            msg("use pegs of a clearly different colour for that seat, or add light over that side"))


def _spread_ratios(layout: Layout, holes: list, ratio: np.ndarray, known: list, k: int = 6):
    """(every hole's empty-look ratio: measured where ``known`` (indices), else from its ``k``
    nearest measured holes by inverse squared distance; the same for every hole from its
    neighbours only, leaving itself out)."""
    xy = np.array([layout.holes[h] for h in holes], np.float64)
    known = np.asarray(known, int)
    d = np.linalg.norm(xy[:, None, :] - xy[None, known, :], axis=2)          # (N, K)

    def blend(dist):
        near = np.argsort(dist, axis=1)[:, :k]
        w = 1.0 / (np.take_along_axis(dist, near, axis=1) ** 2 + 1.0)
        idw = (w[..., None] * ratio[known][near]).sum(axis=1) / w.sum(axis=1, keepdims=True)
        return idw
    out = blend(d)
    out[known] = ratio[known]
    d_loo = d.copy()
    d_loo[known, np.arange(len(known))] = np.inf
    return out, blend(d_loo)


def _looks_empty_warning(side: int, holes: list, patterns: dict, samples, index: dict):
    """The advice for start holes whose look is an empty hole's in the set-up picture. Where the
    hole's own half of the patch is broken (below OWN_HALF_INTACT against the empty pattern), a
    peg stands there that looks like an empty hole (black pegs, mostly): the cause is the pegs'
    colour, not a peg left out. Under the 2,240 pegged start holes of the path-traced sets'
    set-up pictures (bench6-18 and the committed one) the own half was 0.81 at most, 0.64 at most
    under the 17 that looked empty; under the same holes empty, 0.78 or more in 99 %."""
    k = samples.hole_points
    if k and samples.patch is not None and all(hh in patterns for hh in holes):
        rows = [index[hh] for hh in holes]
        own = structure_score(samples.patch[rows, :k],
                              unit_pattern(np.array([patterns[hh] for hh in holes], np.float32)[:, :k]))
        if np.mean(own < OWN_HALF_INTACT) > 0.5:
            return nmsg("side %(side)s: start hole %(holes)s holds a peg that looks like an empty hole; use pegs "
                        "of a clearly different colour for that seat, or add light over that side",
                        "side %(side)s: start holes %(holes)s hold pegs that look like empty holes; use pegs "
                        "of a clearly different colour for that seat, or add light over that side",
                        len(holes), side=side, holes=", ".join(holes))
    return nmsg("side %(side)s: start hole %(holes)s looks empty; put every peg in start for the set-up picture",
                "side %(side)s: start holes %(holes)s look empty; put every peg in start for the set-up picture",
                len(holes), side=side, holes=", ".join(holes))


def _empty_patterns(layout: Layout, sampler, samples, measured, empty_image=None) -> dict:
    """hole -> its empty pattern (``detect.structure_points``, made zero-mean and unit-norm): from the
    empty-board picture where there is one, else from the set-up picture where the hole is empty
    (``measured``), and for the start holes (pegs in them) the nearest such hole's: the pattern is
    the dark hole in the template's grey disc, seen from nearly the same angle."""
    if samples.patch is None:
        return {}
    if empty_image is not None:
        pats = unit_pattern(sampler.sample(empty_image).patch)
        return {hh: [round(float(v), 3) for v in pats[i]] for i, hh in enumerate(sampler.holes)}
    pats = unit_pattern(samples.patch)
    index = {hh: i for i, hh in enumerate(sampler.holes)}
    known = [index[hh] for hh in measured if hh in index]
    if not known:
        return {}
    xy = np.array([layout.holes[hh] for hh in sampler.holes], np.float64)
    out, own = {}, set(known)
    for i, hh in enumerate(sampler.holes):
        j = i if i in own else known[int(np.argmin(np.linalg.norm(xy[known] - xy[i], axis=1)))]
        out[hh] = [round(float(v), 3) for v in pats[j]]
    return out


def _side_name(model: ColourModel, s: int) -> str:
    """"side 0's red pegs" with the user's colour name, "side 0's pegs" without one."""
    name = model.names.get(s)
    return (msg("side %(side)s's %(colour)s pegs", side=s, colour=pmsg("colour", name)) if name else
            msg("side %(side)s's pegs", side=s))


def _like(model: ColourModel, kind: str, other) -> str:
    """What a side's pegs look like: empty holes, the bare board, another side's pegs."""
    return (msg("empty holes") if kind == "empty" else msg("the bare board") if kind == "board"
            else _side_name(model, other))


def _some(holes: list, most: int) -> str:
    """"M1, M2, M3 ..." (the first `most` holes named)."""
    return ", ".join(holes[:most]) + (" ..." if len(holes) > most else "")


def _markers_missing(used: list, layout: Layout) -> "CalibrationError":
    have = (msg("only marker %(marker)s", marker=used[0]) if used else msg("no marker"))
    return CalibrationError(msg("%(have)s of the board found (need %(needed)s of %(markers)s): check that the "
                                "markers are in view, lit and not covered", have=have, needed=MIN_MARKERS,
                                markers=len(layout.markers)))


def margin_for(model: ColourModel) -> float:
    """Two classes closer than this (weighted Lab) can't be told apart reliably: 6 spreads
    (3 either side) and at least 15, for the light changing during a game."""
    return max(6 * model.tau, 15.0)


SELF_READ_SURE = 0.5  # a side whose pegs the set-up picture reads surely in fewer of its start holes is refused
WILD_SPREADS = 8.0    # an empty hole's look this many spreads beyond the median from its neighbours' is wild
WEAK_SHARE = 0.05     # a side is refused when its pegs look like the empty spot at more holes than this


def hole_margin(model: ColourModel, side: int | None = None, empty_spread: float | None = None) -> float:
    """A side's pegs closer than this to one hole's own empty look (camera model) can't be read there:
    4.5 spreads, at least 12. The spread is the pooled one (every side's and the empty holes'), or,
    given ``side`` and the empty holes' own spread, that side's and the empty holes' alone: a glossy
    side's highlights say nothing of how a black head differs from an empty hole."""
    tau = model.tau
    if side is not None and empty_spread is not None and side in model.spreads:
        tau = max(float(np.hypot(empty_spread, model.spreads[side]) / np.sqrt(2)), 2.0)
    return max(4.5 * tau, 12.0)


def pair_margin(model: ColourModel, a: int, b: int, heads: dict | None = None) -> float:
    """Two sides' pegs closer than this (weighted Lab) can't be told apart reliably: 6 spreads (3
    either side), at least 15, for the light changing during a game. The spread is the pooled one,
    or, given both sides' start heads (``heads``: side -> (n, 3) weighted Lab), each side's spread
    along the line between the two: how far its heads stray towards the other side, not how much
    a glossy head's highlight moves its lightness."""
    if not heads or a not in heads or b not in heads:
        return margin_for(model)
    mu_a, mu_b = weighted(model.pegs[a]), weighted(model.pegs[b])
    axis = (mu_b - mu_a) / max(float(np.linalg.norm(mu_b - mu_a)), 1e-6)
    along = [float(np.sqrt(np.mean(((np.asarray(heads[s]) - mu) @ axis) ** 2))) for s, mu in ((a, mu_a), (b, mu_b))]
    return max(6 * max(float(np.hypot(along[0], along[1]) / np.sqrt(2)), 2.0), 15.0)


def weak_sides(model: ColourModel, in_hole: dict | None = None, at_holes=None, heads: dict | None = None,
               empty_spread: float | None = None) -> dict:
    """side -> [(kind, other side or None, distance, margin needed)] for every class a side's
    pegs are too close to (kind: empty, board, side). ``in_hole``: side -> how far (weighted Lab)
    the middle of its occupied start holes is from an empty hole. ``at_holes``: (N, 3) weighted
    Lab of each hole's head spot with the hole empty (the camera model): a side is then judged
    against every hole's own look, at the ``WEAK_SHARE`` worst holes' distance. ``heads`` (side ->
    its start heads, weighted Lab) and ``empty_spread`` (the empty holes' spread): each side is
    judged on its own spread (``hole_margin``, ``pair_margin``), else on the pooled one."""
    out: dict = {}
    margin = margin_for(model)
    empty = weighted(model.empty)
    board = weighted(bgr_to_lab(model.board_ref))
    sides = sorted(model.pegs)
    for s in sides:
        p = weighted(model.pegs[s])
        if at_holes is not None:
            # each hole's own empty look is measured there, not a class mean: 4.5 spreads suffice
            m = hole_margin(model, s, empty_spread)
            d = float(np.quantile(spot_distance(at_holes[1][s][None], at_holes[0]), WEAK_SHARE))
            if d < m:
                out.setdefault(s, []).append(("empty", None, d, m))
            continue        # bare board over a hole is told from a peg by the hole's own disc
        d = float(np.linalg.norm(p - empty))
        if in_hole and s in in_hole and d < 2 * margin:     # a dark head and a dark stem: a black peg
            d = min(d, in_hole[s])
        if d < margin:
            out.setdefault(s, []).append(("empty", None, d, margin))
        d = float(np.linalg.norm(p - board))
        if d < margin:
            out.setdefault(s, []).append(("board", None, d, margin))
    for i, a in enumerate(sides):
        for b in sides[i + 1:]:
            d = float(np.linalg.norm(weighted(model.pegs[a]) - weighted(model.pegs[b])))
            m = pair_margin(model, a, b, heads)
            if d < m:
                out.setdefault(a, []).append(("side", b, d, m))
    return out


def colour_warnings(model: ColourModel, in_hole: dict | None = None) -> list[str]:
    """The problems of ``weak_sides`` in words (without the light-dependent advice)."""
    out = []
    for s, items in sorted(weak_sides(model, in_hole).items()):
        for kind, other, d, margin in items:
            out.append(msg("%(pegs)s can't be told from %(what)s (colour distance %(d)s, needs %(margin)s)",
                           pegs=_side_name(model, s), what=_like(model, kind, other), d="%.0f" % d,
                           margin="%.0f" % margin))
    return out


def calibrate(image: np.ndarray, layout: Layout, sides=None, points=None, names=None,
              empty_image: np.ndarray | None = None, head_height: float | None = None,
              fov: float | None = None) -> Calibration:
    """Geometry (markers, or the four manual ``points``) and colours from a set-up picture
    (see ``learn_colours`` for ``names`` and ``empty_image``). ``calib.weak`` lists what
    can't be told apart: the caller must not use such a calibration unless the user accepts it."""
    if points is not None:
        h, w = image.shape[:2]
        calib = calibrate_manual(layout, points, (w, h))
        search = 0.4 * layout.pitch          # a fingertip's tap is a few mm off
    else:
        calib = calibrate_geometry(image, layout)
        search = None
    calib.homography, calib.refined_on = refine_with_holes(image, layout, calib.homography, search_mm=search)
    fit_camera_geometry(image, layout, calib, sides, names, head_height=head_height, fov=fov)
    learn_colours(image, layout, calib, sides, names, empty_image)
    return calib


def _camera_fits(figures: dict, rms: str, rms_h: str, points: str, points_h: str) -> bool:
    """The camera fits the points (``figures``' keys) at least as well as the homography."""
    if rms not in figures:
        return False
    return figures[rms] <= figures[rms_h] * 1.1 + 0.05 and figures[points] >= 0.8 * figures[points_h]


def fit_camera_geometry(image, layout: Layout, calib: Calibration, sides=None, names=None,
                        head_height: float | None = None, fov: float | None = None) -> None:
    """The camera's lens and pose (``calib.camera``) where they fit the picture better than the
    homography, and the heads' height (measured from the start pegs unless given); the figures
    go to ``calib.fit``, a lens that doesn't fit the corners to ``calib.warnings``."""
    found = {}
    if calib.method == "markers":
        found = detect_markers(image, ids={m.id for m in layout.markers})
    cam, figures = fit_camera_to_picture(image, layout, calib.homography, found, fov=fov)
    if cam is None:
        return
    # a camera has fewer free parameters than a homography: take it where it fits at least as well
    # (a real lens and a tilted view), keep the homography where only that fits (a flat picture)
    # on the holes' centroids, or on the printed discs round them (see _judge_on_discs): the lamp
    # moves the former, a camera fitted to them can be a little off the latter; a flat picture
    # (no camera can make it) fails both
    if not (_camera_fits(figures, "rms_px", "homography_rms_px", "points", "homography_points")
            or _camera_fits(figures, "discs_camera_rms_px", "discs_homography_rms_px", "discs_camera_points",
                            "discs_homography_points")):
        figures["used"] = False
        calib.fit = figures
        return
    figures["used"] = True
    if sides is None and names:
        sides = sorted(int(k) for k in names)
    measured = measure_head_height(image, layout, cam, sides) if head_height is None else None
    calib.camera = cam
    # not seen: every height projects alike (a view straight down, flat pegs): any will do
    calib.head_height = float(head_height if head_height is not None else measured if measured is not None
                              else 0.0)
    figures["head_height_mm"] = round(calib.head_height, 1)
    figures["head_height_from"] = "set" if head_height is not None else "measured" if measured is not None \
        else "not seen"
    calib.fit = figures
    outside = outside_envelope(layout, calib)
    if outside is not None:
        calib.warnings.append(outside)
    worst = max(figures["per_region_px"].items(), key=lambda kv: kv[1], default=(None, 0.0))
    if worst[0] is not None and worst[1] > max(1.0, 3 * figures["rms_px"]):
        calib.warnings.append(msg("the board's %(region)s doesn't fit the camera (residual %(px)s px, %(rms)s px "
                                  "overall): the lens bends the corners more than it can be modelled, or the "
                                  "board isn't flat there", region=REGION_WORDS.get(worst[0], worst[0]), px="%.1f" % worst[1],
                                  rms="%.2f" % figures["rms_px"]))



def repose_camera(image: np.ndarray, layout: Layout, camera: CameraModel, found: dict,
                  holes=None) -> tuple[CameraModel, float]:
    """The same lens, the pose again (the board or camera moved): solvePnP on the markers'
    corners, then on them and the empty holes (``holes``) found round the new pose."""
    mb, mi, used = marker_points(layout, found)
    if len(used) < MIN_MARKERS:
        raise _markers_missing(used, layout)
    try:
        cam, rms = fit_pose(camera, mb, mi)
        holes = holes or [h for h in layout.holes if not h.startswith("S-")]
        board = np.array([layout.holes[h] for h in holes], np.float64)
        scale = np.linalg.norm(cam.project(board + [1.0, 0.0]) - cam.project(board), axis=1)
        hb, hi, _ = find_holes(to_gray(image).astype(np.float32), layout, holes, cam.project(board), scale,
                               layout.hole_diameter / 2)
        if len(hb) >= 8:
            b, i = np.concatenate([mb, hb]), np.concatenate([mi, hi])
            err = residuals(cam, b, i)
            keep = err <= max(3 * float(np.median(err)), 1.5)
            cam, rms = fit_pose(cam, b[keep], i[keep])
    except ValueError as exc:
        raise CalibrationError(f"the markers don't fit the camera ({exc})") from None
    return cam, rms


# --------------------------------------------------------------------------- per-frame check

@dataclass
class CheckResult:
    status: str                  # ok | moved | unknown (no marker seen in its window)
    found: int
    error_px: float              # median corner error of the markers found


class MarkerCheck:
    """Cheap per-frame confirmation that the homography still holds.

    Each marker is looked for in a window round its expected place (its sticker's
    box, widened by ``pad`` of the marker's size), so a frame costs a few small
    detections. ``moved``: two markers (or one, by three times the threshold) are
    off by more than ``threshold_px``.
    """

    def __init__(self, layout: Layout, homography, image_size, threshold_px: float | None = None,
                 pad: float = 0.6):
        """``homography``: a homography, or a ``CameraModel`` (its lens puts the corners)."""
        self.layout = layout
        camera = homography if isinstance(homography, CameraModel) else None
        self.homography = camera.plane_homography() if camera is not None else np.asarray(homography, np.float64)
        w, h = image_size
        self.threshold = threshold_px if threshold_px is not None else max(2.0, 0.002 * math.hypot(w, h))
        self.expected, self.windows = {}, {}
        for m in layout.markers:
            corners = np.array(m.corners(), np.float64)
            img = camera.project(corners) if camera is not None else \
                cv2.perspectiveTransform(corners.reshape(1, -1, 2), self.homography)[0]
            self.expected[m.id] = img
            size = np.linalg.norm(img[0] - img[2]) / math.sqrt(2)
            grow = size * (pad + 1 / 6)
            x0, y0 = img.min(axis=0) - grow
            x1, y1 = img.max(axis=0) + grow
            self.windows[m.id] = (x0, y0, x1, y1)

    def check(self, frame: np.ndarray) -> CheckResult:
        found = detect_in_windows(to_gray(frame), self.windows)
        if not found:
            return CheckResult("unknown", 0, 0.0)
        errors = sorted(float(np.linalg.norm(found[k] - self.expected[k], axis=1).mean()) for k in found)
        med = float(np.median(errors))
        moved = (len(errors) >= 2 and med > self.threshold) or (len(errors) == 1 and errors[0] > 3 * self.threshold)
        return CheckResult("moved" if moved else "ok", len(errors), med)


# --------------------------------------------------------------------------- the camera in words

# How far off its hole (a share of the board's pitch) a calibration may see a head and the hole
# still read as well as near it, measured on the four path-traced sets (bench_vision_real.py
# --offsets; docs/CAMERA.md) with each set-up's own calibration, as working_envelope is given it
# (the fitted camera, the measured head height): peg holes read wrong 1.2 % under 0.4 pitch,
# 3.3 % at 0.4-0.5 (a 16 mm pitch set-up's far heads: 14 of 191 against 3 of 223 near its holes).
# Against the truth (the head's middle, 3.65 mm below its top) the step is at 0.55 pitch; the
# measured head height scatters round that middle (-4.2 to +4.8 mm), so the calibration's own
# offsets, which are all the envelope has, needed the stricter 0.4. Measured again in session 12 on
# six sets (bench2-bench7, 30,296 holes, 5,410 of them pegs) with that session's detector: holes
# not read right 0.26-0.33 % in every bin under 0.5 pitch as the calibration sees it (peg holes
# 0.51-1.09 %), 0.41 % at 0.5-0.6 (peg holes 1.61 %) and 0.55-5.2 % beyond: so 0.5.
HEAD_OFFSET_READ = 0.5
ENVELOPE_FLOOR_MM = 400.0   # no camera lower than this was measured (bench3's 40 cm): never promised
ENVELOPE_SLACK = 1.1        # warned beyond this share of the envelope's offset (peg holes 1.6 % wrong at 0.5-0.6 pitch)
MOUNT_MAX_MM = 1200.0       # the envelope's height at a tilt beyond this: say "point it down", not "raise it"


def working_envelope(layout: Layout, head_height: float, tilts=(0, 10, 20, 25)) -> list:
    """[(tilt degrees, lowest camera height mm or None)] at which every head is seen at most
    ``head_offset_read(layout)`` off its hole (a camera aimed at the board's middle), as far as the
    path-traced pictures read the holes as well as with the heads over them; lower or more
    tilted, the heads far from the camera are seen over the next hole. None: not at any height.
    Never lower than ``ENVELOPE_FLOOR_MM``, the lowest camera the tolerance was measured from."""
    s = head_offset_read(layout)
    centre = np.array([layout.width / 2, layout.height / 2])
    R = float(max(np.linalg.norm(np.array(xy) - centre) for xy in layout.holes.values()))
    h = max(float(head_height), 1e-6)
    out = []
    for t in tilts:
        k = s - h * math.tan(math.radians(t))
        out.append((t, max(h * (R + s) / k, ENVELOPE_FLOOR_MM) if k > 0 else None))
    return out


def outside_envelope(layout: Layout, calib: Calibration):
    """The advice (a message) when the camera sees some heads more than ``ENVELOPE_SLACK`` x
    ``head_offset_read`` off their holes (the working envelope's limit: peg holes read wrong at most
    1.1 % under it, 1.6-3.9 % beyond, on the path-traced sets), in the words of what to change:
    raise the camera to the envelope's height at its tilt, point it straight down where no height
    up to ``MOUNT_MAX_MM`` will do at that tilt, or aim it at the board's middle where the height is
    enough but the aim is not. None within the envelope, or without a camera model or a measured
    head height."""
    cam = calib.camera
    if cam is None or not calib.head_height or calib.head_height <= 0:
        return None
    xy = np.array(list(layout.holes.values()), np.float64)
    off = float(cam.parallax_mm(xy, calib.head_height).max())
    limit = head_offset_read(layout)
    if off <= ENVELOPE_SLACK * limit:
        return None
    tilt = cam.tilt_deg
    (_, here), (_, down) = working_envelope(layout, calib.head_height, tilts=(tilt, 0.0))
    cm = lambda mm: "%.0f" % math.ceil(mm / 10)      # noqa: E731
    if here is None or here > MOUNT_MAX_MM:
        fix = msg("point it straight down, from at least %(cm)s cm up", cm=cm(down))
    elif cam.height_mm < here:
        fix = msg("raise the camera to at least %(cm)s cm, or point it straight down from at least %(down)s cm up",
                  cm=cm(here), down=cm(down))
    else:
        fix = msg("aim the camera at the board's middle, or point it straight down")
    return msg("the camera sees the farthest peg heads %(off)s mm off their holes, more than the %(limit)s mm "
               "these holes read well at (%(camera)s): %(fix)s",
               off="%.0f" % off, limit="%.0f" % limit, camera=pose_words(cam), fix=fix)


def pose_words(cam: CameraModel) -> Msg:
    """The camera's height and tilt in words; the height with the lens it goes with where one
    picture could not tell the two apart (``focal_observed``)."""
    if cam.focal_observed:
        return msg("camera %(cm)s cm up, tilted %(deg)s degrees", cm="%.0f" % (cam.height_mm / 10),
                   deg="%.0f" % cam.tilt_deg)
    return msg("camera about %(cm)s cm up if its lens is %(fov)s degrees across, tilted %(deg)s degrees",
               cm="%.0f" % (cam.height_mm / 10), fov="%.0f" % cam.fov_deg, deg="%.0f" % cam.tilt_deg)


def head_offset_read(layout: Layout) -> float:
    """How far (mm) off its hole a head may be seen and its hole still read (``HEAD_OFFSET_READ``)."""
    return HEAD_OFFSET_READ * layout.pitch


def camera_summary(calib: Calibration, layout: Layout) -> list[str]:
    """The camera as calibration measured it, in words (the CLI and the phone page show these)."""
    cam, fit = calib.camera, calib.fit
    if cam is None:
        if fit:
            return [msg("camera model not used: the holes fit a flat homography better (%(homography)s px "
                        "against %(camera)s px)", homography=str(fit.get("homography_rms_px")),
                        camera=str(fit.get("rms_px")))]
        return []
    if cam.focal_observed:
        lines = [msg("camera %(cm)s cm above the board, tilted %(tilt)s degrees from straight down, lens %(fov)s "
                     "degrees across", cm="%.0f" % (cam.height_mm / 10), tilt="%.0f" % cam.tilt_deg,
                     fov="%.0f" % cam.fov_deg)]
    else:       # straight down, the lens's width and the camera's height can't be told apart
        lines = [msg("camera about %(cm)s cm above the board if its lens is %(fov)s degrees across (a view "
                     "straight down can't tell the two apart: give --fov), tilted %(tilt)s degrees from straight "
                     "down", cm="%.0f" % (cam.height_mm / 10), fov="%.0f" % cam.fov_deg, tilt="%.0f" % cam.tilt_deg)]
    worst = max((fit.get("per_region_px") or {}).items(), key=lambda kv: kv[1], default=("-", 0.0))
    lines.append(msg("lens: k1 %(k1)s, k2 %(k2)s, bending the corners by up to %(shift)s px; fitted to %(rms)s px "
                     "over %(points)s points (worst: %(worst)s, %(worst_px)s px; a homography: %(homography)s px)",
                     k1="%+.3f" % cam.dist[0], k2="%+.3f" % cam.dist[1],
                     shift="%.0f" % fit.get("lens_shift_px", 0), rms="%.2f" % fit.get("rms_px", 0),
                     points=fit.get("points", 0), worst=REGION_WORDS.get(worst[0], worst[0]),
                     worst_px="%.2f" % worst[1], homography="%.2f" % fit.get("homography_rms_px", 0)))
    xy = np.array(list(layout.holes.values()), np.float64)
    shift = cam.parallax_mm(xy, calib.head_height)
    source = fit.get("head_height_from", "measured")
    lines.append(msg("peg heads seen %(mm)s mm above the board (%(source)s), up to %(off)s mm off their holes",
                     mm="%.1f" % calib.head_height, source=HEAD_HEIGHT_WORDS.get(source, source),
                     off="%.0f" % shift.max()))
    env = Join([msg("%(tilt)s degrees: %(height)s", tilt=t, height=msg("%(cm)s cm", cm="%.0f" % (hmin / 10))
                    if hmin else msg("not at any height"))
                for t, hmin in working_envelope(layout, calib.head_height)], "comma")
    lines.append(msg("working envelope for these pegs (heads seen up to %(mm)s mm off their holes, as far as "
                     "the test pictures still read them), lowest camera height at a tilt of %(envelope)s",
                     mm="%.0f" % head_offset_read(layout), envelope=env))
    return lines
