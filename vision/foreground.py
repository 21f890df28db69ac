"""Something over the board besides pegs (a hand, a sleeve, a card), seen on the bare board between
the holes rather than in them: fingers beside a hole cover no hole, yet the position under them
can't be trusted while they are there.

The calibration keeps the bare board's colour on a grid of points that no peg's head, shaft or
hole reaches (the head's line of sight from its hole, with the camera's pose and the heads'
height); a frame compares them with it, the frame's change of light divided out. A peg's head or
shadow changes a few scattered points; a hand changes a patch of board larger than any peg makes.
"""
from __future__ import annotations

import base64

import cv2
import numpy as np

from .colours import bgr_to_lab
from .sampling import Bilinear

GRID_MM = 4.0          # the points' spacing on the board
CLEAR_MM = 3.0         # kept this far from a hole, a peg's head and the line between them
EDGE_MM = 6.0          # and from the board's edge
CHANGED = 15.0         # Lab: a point this far from its calibration look (light divided out) changed
# the largest patch of changed points a frame may show: on the path-traced sets (156 pictures without a
# hand) a position's pegs, shadows and sheen change fewer than 60 points in all once the start pegs'
# shadows at calibration are known (``bare_board``); 39 of 42 hands made a patch of 64 points or more
# (the other three: fingers over print of their own lightness, left to the per-hole checks)
PATCH_POINTS = 60
# the start pegs' shadows at calibration: a point within SHADOW_NEAR pitches of a start hole and this
# much darker (Lab L) than the bare board within SHADOW_ROUND pitches round it. Unknown, they made
# patches of 60-77 points on 8 of 156 path-traced pictures without a hand, once the pegs left
SHADOWED = 10.0
SHADOW_NEAR = 1.5
SHADOW_ROUND = 3.0
_FIVE = np.array([(0, 0), (-2, -2), (2, -2), (-2, 2), (2, 2)], np.float32)   # a point and four round it


def background_points(sampler) -> tuple[np.ndarray, np.ndarray]:
    """((P, 2) int grid cells, (P, 2) float32 image points) of the bare board a sampler's
    calibration leaves between the holes, the heads and the markers."""
    layout = sampler.layout
    holes = np.array([layout.holes[h] for h in sampler.holes], np.float64)
    xs = np.arange(0.0, layout.width, GRID_MM)
    ys = np.arange(0.0, layout.height, GRID_MM)
    grid = np.stack(np.meshgrid(xs, ys), axis=-1).reshape(-1, 2)
    poly = np.array(layout.outline, np.float32)
    keep = np.array([cv2.pointPolygonTest(poly, (float(x), float(y)), True) > EDGE_MM for x, y in grid], bool)
    for m in layout.markers:
        half = m.size / 2 + m.quiet + CLEAR_MM
        keep &= ~((np.abs(grid[:, 0] - m.x) < half) & (np.abs(grid[:, 1] - m.y) < half))
    grid = grid[keep]
    # where each head is seen, taken back to the board: the line from the hole to it is the peg
    heads = holes
    if sampler.camera is not None and sampler.head_height > 0:
        seen = sampler.head_centres.reshape(-1, 1, 2).astype(np.float64)
        heads = cv2.perspectiveTransform(seen, np.linalg.inv(sampler.homography)).reshape(-1, 2)
    reach = layout.peg_diameter / 2 + CLEAR_MM
    # each point on the line (six along it) clears the grid cells within reach of it; the grid is
    # regular, so only the few cells round a point are measured (every point against every cell
    # was half of a calibration's time)
    near = np.zeros((len(ys), len(xs)), bool)
    span = int(np.ceil(reach / GRID_MM)) + 1
    for t in np.linspace(0.0, 1.0, 6):
        for cx, cy in holes + t * (heads - holes):
            i0, j0 = max(int(cx // GRID_MM) - span, 0), max(int(cy // GRID_MM) - span, 0)
            wx, wy = xs[i0:int(cx // GRID_MM) + span + 1], ys[j0:int(cy // GRID_MM) + span + 1]
            dx, dy = wx[None, :] - cx, wy[:, None] - cy
            near[j0:j0 + len(wy), i0:i0 + len(wx)] |= np.sqrt(dx * dx + dy * dy) <= reach
    cells_at = np.round(grid / GRID_MM).astype(int)
    grid = grid[~near[cells_at[:, 1], cells_at[:, 0]]]
    img = sampler.board_to_image(grid)
    w, h = sampler.image_size
    inside = (img[:, 0] >= 2) & (img[:, 0] <= w - 3) & (img[:, 1] >= 2) & (img[:, 1] <= h - 3)
    cells = np.round(grid[inside] / GRID_MM).astype(int)
    return cells, np.ascontiguousarray(img[inside], np.float32)


class PointSampler:
    """The five-pixel means at fixed points (``sample_points``), the gather's indices and weights
    worked out once: working them out was 6 of the 7 ms a 720p frame's check took."""

    def __init__(self, points: np.ndarray, size: tuple[int, int]):
        xy = np.asarray(points, np.float32).reshape(-1, 2)
        self.points = xy
        self.size = (int(size[0]), int(size[1]))
        # the five offsets as one (5, P) map: one gather (sampling.Bilinear has no map size limit)
        dx, dy = _FIVE[:, :1], _FIVE[:, 1:]
        self._bilinear = Bilinear(xy[None, :, 0] + dx, xy[None, :, 1] + dy, self.size)

    def __len__(self) -> int:
        return len(self.points)

    def __call__(self, frame: np.ndarray) -> np.ndarray:
        vals = self._bilinear(frame)
        return vals.reshape(len(_FIVE), len(self.points), -1).astype(np.float32).sum(axis=0) / len(_FIVE)


def sample_points(frame: np.ndarray, points: np.ndarray) -> np.ndarray:
    """(P, 3) BGR at the points, each the mean of five pixels round it (noise, JPEG)."""
    h, w = frame.shape[:2]
    return PointSampler(points, (w, h))(frame)


def bare_board(layout, cells: np.ndarray, bgr: np.ndarray, empty: np.ndarray | None = None) -> np.ndarray:
    """(P, 3) BGR of the points with no peg on the board: the empty-board picture's (``empty``, its
    light matched to the set-up picture's), else the set-up picture's (``bgr``) with each point a
    start peg shades replaced by the bare board round it. A frame is then compared with both looks:
    a start hole emptied (its shadow gone) or filled again changes nothing, a hand changes both."""
    bgr = np.asarray(bgr, np.float32)
    if empty is not None and len(empty) == len(bgr):
        gain = np.median(bgr / np.maximum(empty, 1.0), axis=0)
        return np.asarray(empty, np.float32) * gain
    starts = np.array([xy for h, xy in layout.holes.items() if h.startswith("S-")], np.float64).reshape(-1, 2)
    out = bgr.copy()
    if not len(starts) or not len(cells):
        return out
    mm = np.asarray(cells, np.float64) * GRID_MM
    near = np.full(len(cells), np.inf)
    for xy in starts:
        near = np.minimum(near, np.linalg.norm(mm - xy, axis=1))
    near = near <= SHADOW_NEAR * layout.pitch
    if not near.any():
        return out
    # the points on a grid of cells: each point's neighbours within SHADOW_ROUND pitches by slicing
    c = np.asarray(cells, int) - np.asarray(cells, int).min(axis=0)
    lum = np.full((c[:, 1].max() + 1, c[:, 0].max() + 1), np.nan, np.float32)
    lum[c[:, 1], c[:, 0]] = bgr_to_lab(bgr)[:, 0]
    reach = int(np.ceil(SHADOW_ROUND * layout.pitch / GRID_MM))
    dy, dx = np.mgrid[-reach:reach + 1, -reach:reach + 1]
    disc = dy * dy + dx * dx <= reach * reach
    shaded = np.zeros(len(cells), bool)
    windows = {}
    for i in np.flatnonzero(near):
        x, y = c[i]
        y0, x0 = max(y - reach, 0), max(x - reach, 0)
        win = lum[y0:y + reach + 1, x0:x + reach + 1]
        mask = disc[y0 - y + reach:y0 - y + reach + win.shape[0], x0 - x + reach:x0 - x + reach + win.shape[1]]
        vals = win[mask & ~np.isnan(win)]
        shaded[i] = lum[y, x] < np.median(vals) - SHADOWED
        windows[i] = (y0, x0, win.shape, mask)
    if not shaded.any():
        return out
    index = np.full(lum.shape, -1, int)
    index[c[:, 1], c[:, 0]] = np.arange(len(cells))
    for i in np.flatnonzero(shaded):
        y0, x0, shape, mask = windows[i]
        ids = index[y0:y0 + shape[0], x0:x0 + shape[1]][mask]
        ids = ids[ids >= 0]
        ids = ids[~shaded[ids]]
        if len(ids):
            out[i] = np.median(bgr[ids], axis=0)
    return out


def encode(cells: np.ndarray, bgr: np.ndarray) -> str:
    """The points' grid cells and calibration colours, for the calibration file."""
    rows = np.zeros(len(cells), [("cell", "<i2", 2), ("bgr", "u1", 3)])
    rows["cell"] = cells
    rows["bgr"] = np.clip(np.round(bgr), 0, 255)
    return base64.b64encode(rows.tobytes()).decode("ascii")


def decode(text: str) -> tuple[np.ndarray, np.ndarray]:
    rows = np.frombuffer(base64.b64decode(text), [("cell", "<i2", 2), ("bgr", "u1", 3)])
    return rows["cell"].astype(int), rows["bgr"].astype(np.float32)


def image_points(sampler, cells: np.ndarray) -> np.ndarray:
    """The cells' points in the sampler's picture (through its lens)."""
    return np.ascontiguousarray(sampler.board_to_image(cells * GRID_MM), np.float32)


def largest_patch(frame: np.ndarray, cells: np.ndarray, points: np.ndarray | PointSampler, reference: np.ndarray,
                  reference_lab: np.ndarray | None = None, bare_lab: np.ndarray | None = None) -> int:
    """How many points the largest patch of changed bare board holds (neighbours one cell apart
    across a hole's gap count as one patch). ``points``: image points, or a ``PointSampler`` of
    them (a live frame's). ``reference_lab``: ``bgr_to_lab(reference)``, if kept. ``bare_lab``:
    the points' Lab with no peg on the board (``bare_board``): a point changed from both looks."""
    if not len(points) or len(reference) != len(points):
        return 0
    now = points(frame) if isinstance(points, PointSampler) else sample_points(frame, points)
    # the frame's change of light, divided out (a few thousand points tell it as well as all)
    step = max(1, len(points) // 2000)
    gain = np.median(now[::step] / np.maximum(reference[::step], 1.0), axis=0)
    if reference_lab is None:
        reference_lab = bgr_to_lab(reference)
    lab = bgr_to_lab(now / np.maximum(gain, 1e-3))
    dev = np.linalg.norm(lab - reference_lab, axis=1)
    if bare_lab is not None and len(bare_lab) == len(dev):
        dev = np.minimum(dev, np.linalg.norm(lab - bare_lab, axis=1))
    changed = dev > CHANGED
    if changed.sum() < PATCH_POINTS:
        return int(changed.sum())
    c = cells - cells.min(axis=0) + 1
    grid = np.zeros((c[:, 1].max() + 2, c[:, 0].max() + 2), np.uint8)
    grid[c[changed, 1], c[changed, 0]] = 1
    grid = cv2.dilate(grid, np.ones((3, 3), np.uint8))
    n, labels = cv2.connectedComponents(grid, connectivity=8)
    counts = np.bincount(labels[c[changed, 1], c[changed, 0]], minlength=n)[1:]
    return int(counts.max()) if len(counts) else 0
