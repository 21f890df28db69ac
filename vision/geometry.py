"""The camera as a camera: its lens (focal length, radial distortion k1, k2) and its pose above the
board (height, tilt, where it looks), fitted at calibration, instead of a board -> image homography.

A homography is exact only for a flat board seen through a perfect lens. A webcam's lens bends
the corners (barrel distortion, k1 < 0), and a peg's head stands 12-16 mm above the board, so
unless the camera is straight above it the head is seen beside its hole (parallax: up to the
head's own width at 45 cm and 20 degrees of tilt). With the pose and the lens, any point of the
board or above it (``project``) lands where the picture shows it.

World coordinates: board millimetres, x right and y down the printed sheet, z into the board
(the camera is at z < 0; a head ``h`` mm above the board is at z = -h), as in ``render_hard``.

The fit (``fit_camera``) uses one picture: the markers' corners and the 100-plus hole centres,
all on the board's plane. One planar view fixes the focal length only through perspective (a
tilted board); straight down it can't be told from the distance, so the focal length is scanned
over plausible lenses and, where the fit can't choose, a typical webcam's (65 degrees across)
is kept. The principal point stays at the picture's centre; tangential distortion is left out.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

TYPICAL_FOV = 65.0          # horizontal field of view (degrees) assumed when the picture can't tell
FOV_RANGE = (35.0, 130.0)


@dataclass
class CameraModel:
    K: np.ndarray               # 3x3 intrinsics
    dist: np.ndarray            # (5,) k1, k2, p1, p2, k3 (OpenCV's order; only k1, k2 fitted)
    rvec: np.ndarray            # (3,) board -> camera rotation (Rodrigues)
    tvec: np.ndarray            # (3,)
    image_size: tuple           # (width, height)
    focal_observed: bool = True     # False: the focal length is the typical one (a view straight down)

    # ------------------------------------------------------------------ projection
    def project(self, pts) -> np.ndarray:
        """Board points (..., 3) mm (or (..., 2) on the board) -> image px (..., 2), lens included."""
        pts = np.asarray(pts, np.float64)
        shape = pts.shape[:-1]
        if pts.shape[-1] == 2:
            pts = np.concatenate([pts, np.zeros(shape + (1,))], axis=-1)
        out, _ = cv2.projectPoints(pts.reshape(-1, 1, 3), self.rvec, self.tvec, self.K, self.dist)
        return out.reshape(shape + (2,))

    @property
    def R(self) -> np.ndarray:
        return cv2.Rodrigues(np.asarray(self.rvec, np.float64))[0]

    @property
    def centre(self) -> np.ndarray:
        """The camera's position in board mm (z < 0: above the board)."""
        return -self.R.T @ np.asarray(self.tvec, np.float64).reshape(3)

    @property
    def height_mm(self) -> float:
        return float(-self.centre[2])

    @property
    def tilt_deg(self) -> float:
        """The optical axis from straight down."""
        axis = self.R.T @ np.array([0.0, 0.0, 1.0])
        return float(math.degrees(math.acos(max(-1.0, min(1.0, axis[2])))))

    @property
    def look_point(self) -> tuple:
        """Where the optical axis meets the board (mm)."""
        c = self.centre
        axis = self.R.T @ np.array([0.0, 0.0, 1.0])
        if axis[2] <= 1e-9:
            return (float("nan"), float("nan"))
        t = -c[2] / axis[2]
        p = c + t * axis
        return (float(p[0]), float(p[1]))

    @property
    def fov_deg(self) -> float:
        return float(math.degrees(2 * math.atan(self.image_size[0] / 2 / self.K[0, 0])))

    def parallax_mm(self, xy, height: float) -> np.ndarray:
        """How far (mm, on the board) a point ``height`` mm above each board point (N, 2) is seen
        from it: height x tan(the angle off the vertical under the camera)."""
        xy = np.asarray(xy, np.float64).reshape(-1, 2)
        c = self.centre
        h = max(self.height_mm - height, 1.0)
        return np.linalg.norm(xy - c[:2], axis=1) * height / h

    def lens_shift_px(self, pts) -> np.ndarray:
        """How far (px) the lens moves each board point (N, 2) from where a perfect lens puts it."""
        pts = np.asarray(pts, np.float64).reshape(-1, 2)
        pinhole = CameraModel(self.K, np.zeros(5), self.rvec, self.tvec, self.image_size)
        return np.linalg.norm(self.project(pts) - pinhole.project(pts), axis=1)

    def plane_homography(self) -> np.ndarray:
        """Board mm (z = 0) -> image px through a perfect lens (what a homography can describe)."""
        R = self.R
        return self.K @ np.column_stack([R[:, 0], R[:, 1], np.asarray(self.tvec, np.float64).reshape(3)])

    # ------------------------------------------------------------------ files
    def to_json(self) -> dict:
        return {"fx": round(float(self.K[0, 0]), 3), "fy": round(float(self.K[1, 1]), 3),
                "cx": round(float(self.K[0, 2]), 3), "cy": round(float(self.K[1, 2]), 3),
                "k1": float(self.dist[0]), "k2": float(self.dist[1]),
                "rvec": [float(v) for v in np.asarray(self.rvec).ravel()],
                "tvec": [float(v) for v in np.asarray(self.tvec).ravel()],
                "image_size": list(self.image_size), "focal_observed": bool(self.focal_observed),
                "height_mm": round(self.height_mm, 1), "tilt_deg": round(self.tilt_deg, 2)}

    @classmethod
    def from_json(cls, data: dict) -> "CameraModel":
        K = np.array([[float(data["fx"]), 0, float(data["cx"])], [0, float(data["fy"]), float(data["cy"])],
                      [0, 0, 1]], np.float64)
        dist = np.array([float(data["k1"]), float(data.get("k2", 0.0)), 0, 0, 0], np.float64)
        rvec = np.array(data["rvec"], np.float64).reshape(3)
        tvec = np.array(data["tvec"], np.float64).reshape(3)
        if not (np.isfinite(K).all() and np.isfinite(dist).all() and np.isfinite(rvec).all()
                and np.isfinite(tvec).all()):
            raise ValueError("camera values are not finite")
        return cls(K, dist, rvec, tvec, tuple(int(v) for v in data["image_size"]),
                   bool(data.get("focal_observed", True)))

    def with_pose(self, rvec, tvec) -> "CameraModel":
        return CameraModel(self.K, self.dist, np.asarray(rvec, np.float64).reshape(3),
                           np.asarray(tvec, np.float64).reshape(3), self.image_size, self.focal_observed)


# ---------------------------------------------------------------------- fitting

_FLAGS = (cv2.CALIB_USE_INTRINSIC_GUESS | cv2.CALIB_FIX_PRINCIPAL_POINT | cv2.CALIB_FIX_ASPECT_RATIO
          | cv2.CALIB_ZERO_TANGENT_DIST | cv2.CALIB_FIX_K3)


def _calibrate(board, image, size, f, flags):
    w, h = size
    K = np.array([[f, 0, (w - 1) / 2], [0, f, (h - 1) / 2], [0, 0, 1]], np.float64)
    obj = [np.column_stack([board, np.zeros(len(board))]).astype(np.float32)]
    img = [image.reshape(-1, 1, 2).astype(np.float32)]
    try:
        rms, K, dist, rv, tv = cv2.calibrateCamera(obj, img, (w, h), K, np.zeros(5), flags=flags,
                                                   criteria=(cv2.TERM_CRITERIA_COUNT | cv2.TERM_CRITERIA_EPS,
                                                             60, 1e-9))
    except cv2.error:
        return None
    cam = CameraModel(K, dist.ravel()[:5].astype(np.float64), rv[0].ravel(), tv[0].ravel(), (w, h))
    if cam.height_mm <= 0 or not np.isfinite(rms):
        return None
    return float(rms), cam


def fit_camera(board, image, size, k2: bool = True, fov: float | None = None) -> tuple[CameraModel, float]:
    """(the camera, RMS px) that best maps the board points (N, 2) mm onto the image points (N, 2).

    The focal length is scanned (FOV_RANGE) with k1 (and k2) and the pose free at each; the best
    is refined with the focal length free too. Where the error hardly changes across focal
    lengths (a view nearly straight down), the typical lens's focal length is kept, or where the
    typical lens fits clearly worse while the error stays flat out to the widest lens, the
    nearest lens to it that fits (``fov``, degrees across, if the user knows it); either is marked
    ``focal_observed = False``, as is a best lens inside an error floor that runs out to the
    widest (its pose kept: the picture fits it best)."""
    board = np.asarray(board, np.float64).reshape(-1, 2)
    image = np.asarray(image, np.float64).reshape(-1, 2)
    w, _ = size
    flags = _FLAGS | (0 if k2 else cv2.CALIB_FIX_K2)

    def focal(deg):
        return (w / 2) / math.tan(math.radians(deg) / 2)
    if fov is not None:
        got = _calibrate(board, image, size, focal(fov), flags | cv2.CALIB_FIX_FOCAL_LENGTH)
        if got is None:
            raise ValueError("the points don't fit a camera")
        return got[1], got[0]
    scan = []
    for deg in np.linspace(FOV_RANGE[0], FOV_RANGE[1], 20):
        got = _calibrate(board, image, size, focal(deg), flags | cv2.CALIB_FIX_FOCAL_LENGTH)
        if got is not None:
            scan.append((got[0], deg, got[1]))
    if not scan:
        raise ValueError("the points don't fit a camera")
    best_rms, best_deg, best = min(scan, key=lambda t: t[0])
    # the focal length is seen only if it changes the fit clearly more than the points' noise
    near = [t for t in scan if t[0] <= best_rms * 1.05 + 0.02]

    def from_typical(t):
        return abs(t[1] - TYPICAL_FOV)
    typical = min(near, key=from_typical)     # the typical lens, or the nearest that fits

    def unobserved():
        cam = typical[2]
        cam.focal_observed = False
        return cam, typical[0]
    # a floor of error running off the scan's widest lens is no lens seen (nearly straight down, a
    # wider lens with less barrel, lower down, fits as well); a minimum the error rises to is
    widest = FOV_RANGE[1] - 1e-9
    floor_to_edge = len(near) > 1 and max(t[1] for t in near) >= widest
    if typical is min(scan, key=from_typical) or (floor_to_edge and best_deg >= widest):
        return unobserved()
    got = _calibrate(board, image, size, best.K[0, 0], flags)
    if got is not None and got[0] <= best_rms and FOV_RANGE[0] - 5 <= got[1].fov_deg <= FOV_RANGE[1] + 5:
        if floor_to_edge and got[1].fov_deg >= FOV_RANGE[1]:
            return unobserved()
        best, best_rms = got[1], got[0]
    # a minimum inside such a floor is kept, the picture fitting it best, but not said as seen
    best.focal_observed = not floor_to_edge
    return best, best_rms


def fit_pose(camera: CameraModel, board, image) -> tuple[CameraModel, float]:
    """The same lens, a new pose (the board or camera moved): solvePnP on board points (N, 2)."""
    board = np.asarray(board, np.float64).reshape(-1, 2)
    obj = np.column_stack([board, np.zeros(len(board))])
    ok, rv, tv = cv2.solvePnP(obj, np.asarray(image, np.float64).reshape(-1, 1, 2), camera.K, camera.dist,
                              camera.rvec.copy().reshape(3, 1), camera.tvec.copy().reshape(3, 1),
                              useExtrinsicGuess=True, flags=cv2.SOLVEPNP_ITERATIVE)
    if not ok:
        raise ValueError("the points don't fit the camera")
    cam = camera.with_pose(rv, tv)
    err = np.linalg.norm(cam.project(board) - np.asarray(image).reshape(-1, 2), axis=1)
    return cam, float(np.sqrt(np.mean(err ** 2)))


def residuals(camera, board, image) -> np.ndarray:
    return np.linalg.norm(camera.project(np.asarray(board, np.float64).reshape(-1, 2))
                          - np.asarray(image, np.float64).reshape(-1, 2), axis=1)


def best_homography(camera: CameraModel, layout) -> np.ndarray:
    """The homography nearest the camera over the board (for what needs only a rough board
    outline: the motion mask, a crop)."""
    xs = np.linspace(0, layout.width, 9)
    ys = np.linspace(0, layout.height, 9)
    board = np.array([(x, y) for x in xs for y in ys], np.float64)
    H, _ = cv2.findHomography(board, camera.project(board), 0)
    return H
