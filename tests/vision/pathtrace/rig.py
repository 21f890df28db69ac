"""A path-traced set-up's camera, lens, lights and camera pipeline, drawn from its seed,
without Blender (NumPy only): the scene generator (scene.py, bpy) renders it, and the fast
tests check what it draws (the hand's placement, tests/vision/test_vision_pathtraced_hands.py)
without rendering anything.
"""
from __future__ import annotations

import math
import sys
from dataclasses import asdict, dataclass, field
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parents[2]))

from camera import look_rotation, monotone, undistort_normalised  # noqa: E402

from vision.layout import Layout, standard_layout  # noqa: E402

IMAGE_SIZE = (1280, 720)

# --------------------------------------------------------------------------- set-up parameters

@dataclass
class SetUpSpec:
    """What a set-up is meant to be (the random draw fills in the rest)."""
    name: str
    sides: int
    surface: str                     # wood | paper
    colours: list                    # side -> colour name (colours.NAMED)
    seed: int
    pitch: float = 25.0
    finish: str = "glossy"           # glossy | satin
    height: tuple = (40.0, 75.0)     # cm
    tilt: tuple = (0.0, 25.0)        # degrees
    k1: tuple = (-0.2, -0.02)


@dataclass
class SetUp:
    spec: SetUpSpec
    layout: Layout
    head_height: float               # mm, top of the head above the board
    K: np.ndarray                    # 3x3, the distorted picture's camera matrix
    k1: float
    k2: float
    R: np.ndarray                    # board -> camera
    t: np.ndarray                    # mm
    camera_mm: np.ndarray            # camera centre, board frame
    tilt: float
    aperture_mm: float
    focus_mm: float
    wide_size: tuple
    lamp: dict
    window: dict
    room: dict
    camera_pipeline: dict
    wood_seed: int
    table: dict = field(default_factory=dict)


def draw_setup(spec: SetUpSpec) -> SetUp:
    """Draw the camera, lens, lights and camera pipeline of a set-up from its seed."""
    rng = np.random.default_rng(spec.seed)
    layout = standard_layout(spec.sides, 18, pitch=spec.pitch)
    w, h = IMAGE_SIZE
    outline = np.array([(x, y, 0.0) for x, y in layout.outline])
    centre = np.array([layout.width / 2, layout.height / 2, 0.0])
    head = float(rng.uniform(12.5, 15.5))
    for attempt in range(400):
        height = 10 * rng.uniform(*spec.height)
        tilt = rng.uniform(*spec.tilt)
        azimuth = rng.uniform(0, 360)
        roll = rng.uniform(-180, 180) if rng.random() < 0.5 else rng.choice([0, 90, 180, 270]) + rng.uniform(-8, 8)
        k1 = rng.uniform(*spec.k1)
        k2 = 0.45 * k1 * k1 * rng.uniform(1.3, 2.5)          # a real lens: the picture never folds
        aim = centre + np.array([rng.uniform(-0.06, 0.06) * layout.width, rng.uniform(-0.06, 0.06) * layout.height, 0])
        Rcb = look_rotation(tilt, azimuth, roll)             # camera -> board
        axis = Rcb[:, 2]
        C = aim - axis * (height / axis[2])
        R = Rcb.T
        t = -R @ C
        cam = (outline - C) @ R.T
        if (cam[:, 2] <= 50).any():
            continue
        n = cam[:, :2] / cam[:, 2:3]
        r2 = (n ** 2).sum(1, keepdims=True)
        d = n * (1 + k1 * r2 + k2 * r2 * r2)
        # principal point a little off centre, as a real sensor's
        cx, cy = (w - 1) / 2 + rng.uniform(-12, 12), (h - 1) / 2 + rng.uniform(-8, 8)
        margin = rng.uniform(6, 40)
        fx = min((cx - margin) / max(-d[:, 0].min(), 1e-6), (w - 1 - margin - cx) / max(d[:, 0].max(), 1e-6),
                 (cy - margin) / max(-d[:, 1].min(), 1e-6), (h - 1 - margin - cy) / max(d[:, 1].max(), 1e-6))
        if fx <= 0:
            continue
        hfov = 2 * math.degrees(math.atan(w / 2 / fx))
        corner_r = math.hypot(w / 2 + 12, h / 2 + 8) / fx
        if not 48 <= hfov <= 92 or not monotone(k1, k2, 1.6 * corner_r):
            continue
        break
    else:
        raise RuntimeError(f"{spec.name}: no camera in 400 draws sees the whole board")
    K = np.array([[fx, 0, cx], [0, fx, cy], [0, 0, 1.0]])
    # the wide undistorted render that covers the distorted picture, same focal length
    corners = np.array([[0, 0], [w - 1, 0], [0, h - 1], [w - 1, h - 1], [0, cy], [w - 1, cy], [cx, 0], [cx, h - 1]],
                       np.float64)
    u = undistort_normalised(np.stack([(corners[:, 0] - cx) / fx, (corners[:, 1] - cy) / fx], -1), k1, k2)
    half_w = int(math.ceil(np.abs(u[:, 0]).max() * fx + 3))
    half_h = int(math.ceil(np.abs(u[:, 1]).max() * fx + 3))
    wide = (2 * half_w, 2 * half_h)
    focus = float(np.linalg.norm(aim - C)) * rng.uniform(0.95, 1.05)    # autofocus is never exact
    # the lamp: a desk lamp beside the board, warm; the window: big, far, cool, low
    la = rng.uniform(0, 2 * math.pi)
    lr = max(layout.width, layout.height) * rng.uniform(0.35, 0.75)
    lamp = {"kind": "sphere", "kelvin": round(float(rng.uniform(2700, 3300))),
            "position_mm": [float(centre[0] + lr * math.cos(la)), float(centre[1] + lr * math.sin(la)),
                            float(-rng.uniform(350, 650))],
            "radius_mm": float(rng.uniform(15, 35)), "watts": float(rng.uniform(25, 60))}
    wa = rng.uniform(0, 2 * math.pi)
    elev = math.radians(rng.uniform(15, 45))
    wd = rng.uniform(1500, 2500)
    window = {"kind": "area", "kelvin": round(float(rng.uniform(6000, 7500))),
              "position_mm": [float(centre[0] + wd * math.cos(elev) * math.cos(wa)),
                              float(centre[1] + wd * math.cos(elev) * math.sin(wa)), float(-wd * math.sin(elev))],
              "size_mm": [1000.0, 1300.0], "watts": float(rng.uniform(150, 600))}
    room = {"ambient": float(rng.uniform(0.02, 0.08)), "colour": [0.9, 0.92, 1.0]}
    pipeline = {"vignetting": float(rng.uniform(0.1, 0.35)),
                "exposure_percentile": 97.0, "exposure_target": float(rng.uniform(0.78, 0.95)),
                "white_balance_strength": float(rng.uniform(0.4, 0.85)),
                "shot_noise": float(rng.uniform(2e-4, 8e-4)), "read_noise": float(rng.uniform(0.002, 0.005)),
                "jpeg_quality": int(rng.integers(72, 91))}
    table = {"colour": [float(v) for v in rng.uniform([0.05, 0.04, 0.03], [0.35, 0.3, 0.28])],
             "roughness": float(rng.uniform(0.4, 0.8))}
    return SetUp(spec, layout, head, K, float(k1), float(k2), R, t, C, float(tilt),
                 aperture_mm=float(rng.uniform(1.5, 4.5)), focus_mm=focus, wide_size=wide, lamp=lamp,
                 window=window, room=room, camera_pipeline=pipeline, wood_seed=int(rng.integers(0, 2**31)),
                 table=table)


def spec_to_json(spec: SetUpSpec) -> dict:
    return asdict(spec)
