"""Colour arithmetic for vision: sRGB <-> CIE Lab in NumPy, colour distances and names.

Images are OpenCV BGR. ``bgr_to_lab`` takes floats in 0-255 (values above 255 are
allowed: a peg brighter than the board after normalisation) and returns L in 0-100.
"""
from __future__ import annotations

import numpy as np

# Named peg colours (sRGB hex): the web page's seat colours, and lime.
NAMED = {
    "red": "#d62728", "blue": "#1f5fbf", "green": "#2e9e3e", "yellow": "#f5c800",
    "black": "#222222", "white": "#f7f7f7", "orange": "#ff7f0e", "purple": "#7b3fa0",
    "pink": "#f27db5", "teal": "#139a9a", "brown": "#8c564b", "grey": "#8a8a8a", "lime": "#a6e22e",
}
# Default peg colour of each side for synthetic pictures: well apart in Lab (no black: see README).
DEFAULT_PEGS = ["red", "blue", "green", "yellow", "white", "orange", "purple", "pink", "teal", "lime"]


def hex_to_bgr(text: str) -> tuple[int, int, int]:
    text = text.lstrip("#")
    r, g, b = (int(text[i:i + 2], 16) for i in (0, 2, 4))
    return b, g, r


def bgr_of(colour) -> tuple[int, int, int]:
    """A colour given as a name, "#rrggbb" or a BGR triple."""
    if isinstance(colour, str):
        if colour.lower() in NAMED:
            return hex_to_bgr(NAMED[colour.lower()])
        if colour.startswith("#") and len(colour) == 7:
            return hex_to_bgr(colour)
        raise ValueError(f"unknown colour {colour!r}; use a name ({', '.join(NAMED)}) or #rrggbb")
    b, g, r = colour
    return int(b), int(g), int(r)


_M = np.array([[0.4124564, 0.3575761, 0.1804375],
               [0.2126729, 0.7151522, 0.0721750],
               [0.0193339, 0.1191920, 0.9503041]])
_WHITE = np.array([0.95047, 1.0, 1.08883])


def bgr_to_lab(bgr) -> np.ndarray:
    """(..., 3) BGR in 0-255 -> (..., 3) Lab (L 0-100)."""
    c = np.asarray(bgr, dtype=np.float64)[..., ::-1] / 255.0
    c = np.maximum(c, 0.0)
    lin = np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)
    xyz = lin @ _M.T / _WHITE
    eps = 216 / 24389
    f = np.where(xyz > eps, np.cbrt(xyz), (24389 / 27 * xyz + 16) / 116)
    L = 116 * f[..., 1] - 16
    a = 500 * (f[..., 0] - f[..., 1])
    b = 200 * (f[..., 1] - f[..., 2])
    return np.stack([L, a, b], axis=-1)


def lab_to_bgr(lab) -> np.ndarray:
    lab = np.asarray(lab, dtype=np.float64)
    fy = (lab[..., 0] + 16) / 116
    fx = fy + lab[..., 1] / 500
    fz = fy - lab[..., 2] / 200
    f = np.stack([fx, fy, fz], axis=-1)
    eps = 216 / 24389
    xyz = np.where(f ** 3 > eps, f ** 3, (116 * f - 16) / (24389 / 27)) * _WHITE
    lin = xyz @ np.linalg.inv(_M).T
    lin = np.maximum(lin, 0)
    c = np.where(lin <= 0.0031308, 12.92 * lin, 1.055 * lin ** (1 / 2.4) - 0.055)
    return np.clip(c[..., ::-1] * 255, 0, 255)


def delta_e(a, b) -> np.ndarray:
    """CIE76 colour difference (Euclidean in Lab)."""
    return np.linalg.norm(np.asarray(a, float) - np.asarray(b, float), axis=-1)


def colour_name(lab) -> str:
    """The nearest named colour to a Lab value (for messages such as 'the red pegs')."""
    lab = np.asarray(lab, float)
    best, name = None, "?"
    for key, hx in NAMED.items():
        d = float(delta_e(lab, bgr_to_lab(hex_to_bgr(hx))))
        if best is None or d < best:
            best, name = d, key
    return name
