"""The camera as the referee's sensor (issue 16.3, the camera side): per-hole readings
(p_peg, side, p_side) of a still board, its colours, no readings while a hand rests on the
board, and a small PNG of a named hole for the phone."""
from __future__ import annotations

import pytest

pytest.importorskip("cv2", reason="the vision extra (OpenCV, NumPy) is not installed")

import cv2  # noqa: E402
import numpy as np  # noqa: E402

from vision.camera import ReplayCamera  # noqa: E402
from vision.render import render_scene, setup_pegs  # noqa: E402
from vision.sensor import CameraSensor  # noqa: E402
from vision.watch import BoardVision  # noqa: E402


def test_still_board_gives_readings_colours_and_crops(layout4, calibrated):
    scene, cal = calibrated("moderate")[0]
    board = {"S-s0-1": "red", "M7": "blue", "H2-s2": "green"}
    pics = [render_scene(scene, board, i) for i in range(6)]
    sensor = CameraSensor(ReplayCamera(pics), BoardVision(layout4, cal, hold_frames=3), layout4.hole_ids(),
                          threaded=False)
    assert sensor.readings() is None
    for _ in range(6):
        sensor.step()
    stamp, readings = sensor.readings()
    assert set(readings) == set(layout4.holes)          # every hole read in a quiet picture
    p, side, q = readings["M7"]
    assert p > 0.9 and side == 1 and q > 0.9
    assert readings["M8"][0] < 0.1 and readings["M8"][1] is None
    assert sensor.colours() == {"S-s0-1": 0, "M7": 1, "H2-s2": 2}
    png = sensor.crop_png("M7")
    crop = cv2.imdecode(np.frombuffer(png, np.uint8), cv2.IMREAD_COLOR)
    assert crop.shape == (96, 96, 3)
    centre = crop[40:56, 40:56].reshape(-1, 3).mean(axis=0)
    assert centre[0] > centre[2] + 20                   # the blue peg in the middle of the crop
    assert sensor.crop_png("M999") is None
    assert sensor.crop("M7") == png                     # the name the board hub asks for


def test_no_readings_while_a_hand_rests_on_the_board(layout4, calibrated):
    scene, cal = calibrated("moderate")[0]
    tip = tuple(float(v) for v in cv2.perspectiveTransform(
        np.array([[layout4.holes["M30"]]], np.float64), scene.homography)[0, 0])
    pics = [render_scene(scene, setup_pegs(layout4), i, hands=[(tip, 200.0)]) for i in range(8)]
    sensor = CameraSensor(ReplayCamera(pics), BoardVision(layout4, cal, hold_frames=3), layout4.hole_ids(),
                          threaded=False)
    for _ in range(8):
        sensor.step()
    assert sensor.readings() is None
