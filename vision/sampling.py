"""Bilinear sampling that gives the same values on every OpenCV version.

``cv2.remap`` with float maps interpolates at 1/32 px through fixed-point tables on OpenCV 4.x
(4.6 on Debian Bookworm, 4.10 on Trixie, 4.14 from pip) and almost exactly on 5.0: the same
frame sampled at the same points differed by up to 2 levels at 5 % of the points, which moved a
few marginal holes and a calibration's figures between the Pi's OpenCV and a PC's. Converting the
maps to fixed point first (``cv2.convertMaps``, CV_16SC2) makes every version take the same
integer path; the sampler converts its maps once, which also saves the conversion per frame.
"""
from __future__ import annotations

import cv2
import numpy as np


def fixed_maps(map_x: np.ndarray, map_y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Float maps (same shape, under 32,767 on a side) -> cv2's fixed-point pair (CV_16SC2)."""
    return cv2.convertMaps(np.ascontiguousarray(map_x, np.float32), np.ascontiguousarray(map_y, np.float32),
                           cv2.CV_16SC2)


def remap_linear(frame: np.ndarray, maps: tuple[np.ndarray, np.ndarray],
                 border: int = cv2.BORDER_REPLICATE) -> np.ndarray:
    """``frame`` sampled bilinearly at fixed-point ``maps`` (see ``fixed_maps``)."""
    return cv2.remap(frame, maps[0], maps[1], cv2.INTER_LINEAR, borderMode=border)


def sample_linear(frame: np.ndarray, map_x: np.ndarray, map_y: np.ndarray,
                  border: int = cv2.BORDER_REPLICATE) -> np.ndarray:
    """``cv2.remap(frame, map_x, map_y, INTER_LINEAR)``, the same on every OpenCV version."""
    return remap_linear(frame, fixed_maps(map_x, map_y), border)
