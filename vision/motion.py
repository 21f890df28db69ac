"""Is something moving over the board? Frame differencing on a small grey copy of the frame.

Skin-colour detection fails on wooden boards (wood is skin-coloured), so a hand
is noticed by what it does: it moves. Each frame is shrunk (``scale``), and
compared with the previous ``history`` frames inside the board's outline; a
pixel has changed when it differs by more than ``k`` times the frame's own
noise level (estimated from the median difference, so no threshold depends on
the camera). The frame is "moving" when more than ``min_fraction`` of the
board's pixels changed, or when nearly all of them did (the light changed).
"""
from __future__ import annotations

from collections import deque
from dataclasses import dataclass

import cv2
import numpy as np


@dataclass
class MotionResult:
    moving: bool
    fraction: float          # share of board pixels that changed
    threshold: float         # grey levels a pixel had to change by


def board_mask(layout, homography, image_size, grow_mm: float = 15.0) -> np.ndarray:
    """uint8 mask (image size) of the board's outline, grown by ``grow_mm``."""
    w, h = image_size
    pts = np.array(layout.outline, np.float64)
    c = pts.mean(axis=0)
    v = pts - c
    n = np.linalg.norm(v, axis=1, keepdims=True)
    pts = c + v * (n + grow_mm) / np.maximum(n, 1e-9)
    img = cv2.perspectiveTransform(pts.reshape(1, -1, 2), np.asarray(homography, np.float64))[0]
    mask = np.zeros((h, w), np.uint8)
    cv2.fillPoly(mask, [np.round(img).astype(np.int32)], 255)
    return mask


class MotionDetector:
    def __init__(self, mask: np.ndarray | None = None, scale: float = 0.25, history: int = 2,
                 min_fraction: float = 0.002, k: float = 5.0, floor: float = 4.0):
        self.scale = scale
        self.history: deque = deque(maxlen=history)
        self.min_fraction = min_fraction
        self.k = k
        self.floor = floor
        self._full_mask = mask
        self._mask = None

    def set_mask(self, mask: np.ndarray | None) -> None:
        self._full_mask = mask
        self._mask = None
        self.history.clear()

    def _small(self, frame: np.ndarray) -> np.ndarray:
        gray = frame if frame.ndim == 2 else cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
        return cv2.resize(gray, None, fx=self.scale, fy=self.scale, interpolation=cv2.INTER_AREA)

    def update(self, frame: np.ndarray) -> MotionResult:
        small = self._small(frame)
        if self._mask is None or self._mask.shape != small.shape:
            if self._full_mask is not None:
                m = cv2.resize(self._full_mask, (small.shape[1], small.shape[0]), interpolation=cv2.INTER_NEAREST)
                self._mask = m > 0
            else:
                self._mask = np.ones(small.shape, bool)
        if len(self.history) < self.history.maxlen:
            self.history.append(small)
            return MotionResult(True, 1.0, 0.0)          # not enough history yet: assume the worst
        changed = np.zeros(small.shape, bool)
        threshold = self.floor
        global_change = False
        for old in self.history:
            diff = cv2.absdiff(small, old)[self._mask]
            noise = 1.4826 * float(np.median(diff))
            thr = max(self.floor, self.k * noise)
            threshold = max(threshold, thr)
            if noise > 3 * self.floor:               # most of the board changed: light or camera
                global_change = True
            changed[self._mask] |= diff > thr
        self.history.append(small)
        fraction = float(changed.sum()) / max(1, int(self._mask.sum()))
        return MotionResult(global_change or fraction > self.min_fraction, fraction, threshold)
