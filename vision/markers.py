"""ArUco markers (DICT_4X4_50): detection in a whole frame or in small windows.

Works with OpenCV's ``ArucoDetector`` API (4.7 and later, 5.x) and with the older
functions of 4.6 (Raspberry Pi OS Bookworm's ``python3-opencv``).
"""
from __future__ import annotations

import cv2
import numpy as np

_DETECTORS: dict = {}


def dictionary():
    aruco = cv2.aruco
    if hasattr(aruco, "getPredefinedDictionary"):
        return aruco.getPredefinedDictionary(aruco.DICT_4X4_50)
    return aruco.Dictionary_get(aruco.DICT_4X4_50)            # OpenCV < 4.7


class _LegacyDetector:
    """``cv2.aruco.detectMarkers`` (OpenCV < 4.7) behind the ArucoDetector interface."""

    def __init__(self, dictionary, params):
        self.dictionary, self.params = dictionary, params

    def detectMarkers(self, image):
        return cv2.aruco.detectMarkers(image, self.dictionary, parameters=self.params)


def detector(refine: bool = True):
    """A shared detector (sub-pixel corner refinement by default)."""
    key = refine
    if key not in _DETECTORS:
        aruco = cv2.aruco
        params = aruco.DetectorParameters() if hasattr(aruco, "ArucoDetector") else aruco.DetectorParameters_create()
        if refine:
            params.cornerRefinementMethod = aruco.CORNER_REFINE_SUBPIX
        if hasattr(params, "validBitIdThreshold"):
            # OpenCV 5.0 also rejects a marker with too many uncertain bits (default 0.49), which 4.x
            # doesn't check: on the path-traced sets 5.0's default lost a marker of a calibration
            # picture 4.10 found (pathtraced/s6-wood, all four at 0.6); at 0.6 5.0 finds what 4.10
            # finds in all their pictures, at 0.7 and above it finds false markers too (a duplicate
            # id drops the real one)
            params.validBitIdThreshold = 0.6
        if hasattr(aruco, "ArucoDetector"):
            _DETECTORS[key] = aruco.ArucoDetector(dictionary(), params)
        else:
            _DETECTORS[key] = _LegacyDetector(dictionary(), params)
    return _DETECTORS[key]


def marker_image(marker_id: int, pixels: int) -> np.ndarray:
    """The marker (black border included) as a square uint8 image."""
    aruco = cv2.aruco
    if hasattr(aruco, "generateImageMarker"):
        return aruco.generateImageMarker(dictionary(), marker_id, pixels)
    return aruco.drawMarker(dictionary(), marker_id, pixels)    # OpenCV < 4.7


def to_gray(image: np.ndarray) -> np.ndarray:
    return image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)


def detect_markers(image: np.ndarray, ids=None) -> dict[int, np.ndarray]:
    """marker id -> (4, 2) float corners (top-left, top-right, bottom-right, bottom-left, as
    printed), in image pixels. ``ids`` keeps only those ids; a duplicated id is dropped."""
    corners, found, _ = detector().detectMarkers(to_gray(image))
    out: dict[int, np.ndarray] = {}
    seen = set()
    if found is None:
        return out
    for c, i in zip(corners, found.ravel()):
        i = int(i)
        if ids is not None and i not in ids:
            continue
        if i in seen:
            out.pop(i, None)
            continue
        seen.add(i)
        out[i] = c.reshape(4, 2).astype(np.float64)
    return out


def detect_in_windows(gray: np.ndarray, windows: dict[int, tuple]) -> dict[int, np.ndarray]:
    """Look for each marker only in its window (x0, y0, x1, y1): the cheap per-frame check."""
    out = {}
    h, w = gray.shape[:2]
    det = detector()
    for mid, (x0, y0, x1, y1) in windows.items():
        x0, y0 = max(0, int(x0)), max(0, int(y0))
        x1, y1 = min(w, int(x1)), min(h, int(y1))
        if x1 - x0 < 12 or y1 - y0 < 12:
            continue
        corners, found, _ = det.detectMarkers(gray[y0:y1, x0:x1])
        if found is None:
            continue
        for c, i in zip(corners, found.ravel()):
            if int(i) == mid:
                out[mid] = c.reshape(4, 2).astype(np.float64) + (x0, y0)
                break
    return out
