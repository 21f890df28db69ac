"""The camera model of the path-traced scenes, without Blender: OpenCV's pinhole with
Brown-Conrady radial distortion (k1, k2), and the distortion applied to a wide render.

Board frame (as vision/render_hard.py): millimetres, x right and y down the printed
template, z into the board, so a peg head ``h`` mm high is at z = -h. Camera frame (OpenCV):
x right, y down, z forward; ``p_cam = R @ p_board + t``; a pixel is
``K @ distort(p_cam / z)`` with pixel centres at integer coordinates. So
``cv2.projectPoints(pts, rvec, tvec, K, (k1, k2, 0, 0, 0))`` gives where a point is seen.

Used by the scene generator (scene.py, with bpy) and by the tests and benchmark that read
the rendered sets (NumPy and OpenCV only).
"""
from __future__ import annotations

import math

import numpy as np


def distort_normalised(xy: np.ndarray, k1: float, k2: float) -> np.ndarray:
    """Undistorted normalised coordinates (..., 2) -> distorted (OpenCV's radial model)."""
    r2 = (xy ** 2).sum(axis=-1, keepdims=True)
    return xy * (1 + k1 * r2 + k2 * r2 * r2)


def undistort_normalised(xy: np.ndarray, k1: float, k2: float, iterations: int = 60) -> np.ndarray:
    """Distorted normalised coordinates -> undistorted, by Newton's method on the radius
    (exact to 1e-12 where the model is monotone, which `monotone` checks)."""
    xy = np.asarray(xy, np.float64)
    rd = np.sqrt((xy ** 2).sum(axis=-1))
    ru = rd.copy()
    for _ in range(iterations):
        r2 = ru * ru
        f = ru * (1 + k1 * r2 + k2 * r2 * r2) - rd
        df = 1 + 3 * k1 * r2 + 5 * k2 * r2 * r2
        ru = ru - f / df
    scale = np.where(rd > 1e-12, ru / np.maximum(rd, 1e-12), 1.0)
    return xy * scale[..., None]


def monotone(k1: float, k2: float, r_max: float) -> bool:
    """True if r (1 + k1 r^2 + k2 r^4) keeps growing up to r_max (the picture folds otherwise)."""
    r = np.linspace(0, r_max, 2000)
    return bool((1 + 3 * k1 * r ** 2 + 5 * k2 * r ** 4 > 0.05).all())


def distortion_maps(K: np.ndarray, k1: float, k2: float, size: tuple, K_wide: np.ndarray):
    """For every pixel of the distorted ``size`` picture (camera matrix K), where it is in the
    undistorted wide render (camera matrix K_wide, same focal length): maps for cv2.remap."""
    w, h = size
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float64)
    d = np.stack([(xx - K[0, 2]) / K[0, 0], (yy - K[1, 2]) / K[1, 1]], axis=-1)
    u = undistort_normalised(d, k1, k2)
    mx = u[..., 0] * K_wide[0, 0] + K_wide[0, 2]
    my = u[..., 1] * K_wide[1, 1] + K_wide[1, 2]
    return mx.astype(np.float32), my.astype(np.float32)


def look_rotation(tilt_deg: float, azimuth_deg: float, roll_deg: float) -> np.ndarray:
    """Camera -> board rotation (columns: the camera's axes in the board frame): looking
    straight down (+z), turned about its own axis by ``roll``, then its optical axis tilted by
    ``tilt`` toward ``azimuth`` (on the board, from +x toward +y; the camera stands on the
    other side of the point it looks at)."""
    t, a, r = (math.radians(v) for v in (tilt_deg, azimuth_deg, roll_deg))

    def rot(axis, ang):
        axis = np.asarray(axis, np.float64) / np.linalg.norm(axis)
        x, y, z = axis
        c, s = math.cos(ang), math.sin(ang)
        C = 1 - c
        return np.array([[c + x * x * C, x * y * C - z * s, x * z * C + y * s],
                         [y * x * C + z * s, c + y * y * C, y * z * C - x * s],
                         [z * x * C - y * s, z * y * C + x * s, c + z * z * C]])
    roll = rot([0, 0, 1], r)
    # tilt about the horizontal axis perpendicular to the azimuth: the optical axis leans toward it
    tilt = rot([-math.sin(a), math.cos(a), 0], t)
    return tilt @ roll


def project(points_mm, R: np.ndarray, t: np.ndarray, K: np.ndarray, k1: float, k2: float) -> np.ndarray:
    """Board points (N, 3) mm -> distorted pixels (N, 2), without OpenCV."""
    p = np.asarray(points_mm, np.float64).reshape(-1, 3) @ R.T + t
    n = p[:, :2] / p[:, 2:3]
    d = distort_normalised(n, k1, k2)
    return np.stack([d[:, 0] * K[0, 0] + K[0, 2], d[:, 1] * K[1, 1] + K[1, 2]], axis=-1)
