"""Per-hole occupancy and peg colour, from a frame and a board -> image homography.

For every hole the sampler reads two things through the homography: the
*inner* disc (where a peg's head or the dark hole is) and the *ring* of bare
board round it, clear of the neighbouring holes' pegs and of the marker
stickers. The ring says how this spot of the board is lit right now, so the
inner colour is normalised by it (per channel: ``inner / ring * board``, with
``board`` the board's colour at calibration): a lighting gradient, a shadow, a
colour cast or a change of exposure multiply both alike and cancel. The
normalised colour is compared in CIE Lab with the classes learnt at
calibration (empty hole, each side's pegs, and bare board, which is what a
hole covered by a hand looks like) and turned into a label with a confidence.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field, replace

import cv2
import numpy as np

from .colours import bgr_to_lab, delta_e
from .foreground import PATCH_POINTS, PointSampler, image_points, largest_patch
from .foreground import decode as decode_background
from .layout import Layout
from .sampling import Bilinear

EMPTY = -1        # label of an empty hole
UNKNOWN = -2      # covered, in glare, or unlike anything learnt
LAB_WEIGHT = np.array([0.6, 1.0, 1.0])   # lightness counts less than hue: shading errors mostly hit L


def weighted(lab) -> np.ndarray:
    return np.asarray(lab, float) * LAB_WEIGHT


# --------------------------------------------------------------------------- sampling

def _disc(radius: float, rings: int, first: int) -> list[tuple[float, float]]:
    pts = [(0.0, 0.0)]
    for i in range(1, rings + 1):
        r = radius * i / rings
        n = first * i
        turn = [2 * math.pi * (k + 0.5 * (i % 2)) / n for k in range(n)]
        pts += [(r * math.cos(t), r * math.sin(t)) for t in turn]
    return pts


STRUCTURE_EMPTY = 0.85   # a patch this like its empty pattern (correlation) is an empty hole
UNSURE_EMPTY_STRUCTURE = 0.6   # an unsure hole read "empty" closely is sure from this pattern score up
STRUCTURE_PEG = 0.5      # ... this unlike it holds something (the middle is left to the colours)
SHADOW_OWN_INTACT = 0.78  # a darkened spot over a hole whose own half is this intact: a shadow (black pegs: 0.74 at
#                           most on four sets; 0.76 and 0.79 on bench5's H4-s4, its whole patch broken: not a shadow's)
DEEP_OWN_INTACT = 0.9   # ... and, darker than a shadow, this intact (black pegs: 0.79 at most, bench5's H4-s4)
PEG_FAR_APART = 2.5   # spreads: a peg far from its side's look is still that side's this much nearer it than
                      # any other class (Classifier.classify; white heads in a lamp's light 2.6-2.8 nearer)
FAR_HEAD = 3.5       # spreads: a black or white head this far from its nearest side's look ...
SIDE_GAP = 1.5       # ... and the next side within this of it is not surely of either (Classifier.classify)
OWN_HALF_INTACT = 0.7   # an intact patch needs the hole's own half this intact where the colours are far from
                        # empty, and not broken whatever they are (distances(), ``Features.dome``)
SPOT_NO_HEAD = 0.9      # the spot's half of the patch this like its empty pattern: no head there, of any colour
SPOT_BARE = 0.95        # ... and this like it: no head there even where the hole's own half seems broken
SPOT_HALF_INTACT = 0.8  # the spot's half of the patch this like its empty pattern: no dark head there
SHADOW_LIGHTNESS = 0.6  # ... told so only where the spot keeps this much of its empty look's lightness (L)
SHADOW_RIM_LIGHTNESS = 0.55  # ... and its rim this much
HOLE_NEARLY_INTACT = 0.7  # a hole's own half this like its empty pattern, the spot's half no less: a shadow
RING_CLEAR = 10.0        # Lab: a ring this near its calibration look (light change divided out) is bare
SHADOW_SPREADS = 8.0     # a shadow moves an empty look by at most this many spreads (tau)
FAR_FROM_EMPTY = 10.0    # ... and a calibration's unsure hole read as a peg this far from it is settled
HUE_SHIFT = 25.0         # Lab a, b: a shadow or a reflection moves an empty spot's colour less than this
RING_ANGLES = 24   # a hole's ring: points at this many angles on each of its 3 radii
RING_NEIGHBOURS = 8   # a ring that isn't clear is told by this many nearest holes' rings ...
BESIDE = 1.05         # pitches: a hole's neighbours next to it (along the track, a start row)
NEIGHBOUR_TINT = 40.0  # Lab a, b: a spot's colour moved this little from its empty look has no coloured head
                      # (those beside another side's peg moved it 47 or more), a neighbour's tint at most
OFF_ITS_SIDE = 1.5    # spreads: a head this far from its side's look is not as its side's pegs were seen
RING_TOLD_BY = 3      # ... at least this many of them clear
RING_KEPT = 24        # a ring taken again clear of pegs seen over it keeps at least this many points
SEEN_MARGIN = 8.0     # mm above the measured head height (its middle) a peg may be seen over a neighbour
N_CORE = 7        # camera model: the head's first 7 points are its core (the rest its rim)
EMPTY_SEEN = 3.5   # camera model: an "empty" hole further than this (spreads) from its empty look is unsure
LIGHTER_SPREADS = 1.5   # camera model: a spot this much lighter (spreads, L) than its empty look is not surely empty
LIGHTER_CLOSE = 1.0     # spreads: a coloured head this near its side's look is not doubted for being lighter
RAW_CHROMA = 20.0  # Lab a-b: a head (and a side's start heads) this colourful has a hue worth comparing
RAW_HUE_CLEAR = 5.0   # degrees: a head's hue as seen must be this much nearer its side's than any other coloured side's
RAW_HUE_OWN = 15.0     # degrees: a head's hue as seen this near one coloured side's start heads' ...
RAW_HUE_APART = 15.0   # ... and this much further from every other side's names that side (sides_by_raw_hue)
RAW_HUE_SPREAD = 5.0   # degrees of hue as seen counted as one spread there
RAW_COLOURFUL = 0.5    # a head named by its hue as seen is at least this colourful as its side's start heads
VIVID_HEAD = 40.0     # Lab a-b: a head this colourful as seen (white heads: 33 at most on the path-traced sets) ...
PALER = 0.5           # ... is not judged by hue against a side whose start heads are less than this as colourful
RAW_COLOURLESS = 0.3   # a head this much less colourful as seen than its side's start heads is not surely of it
RAW_PLAIN_AB = 5.0   # Lab a-b: a white head read through a told ring this far from its start heads as seen is not sure
WARMER = 7.0      # Lab b: a head read white or black this much warmer than that side, as seen and divided, is not sure
SPOT_WEIGHT = 0.6  # a side's spot distance (unweighted lightness, two parts) against its head distance
# a hole not read surely may hold (``Classifier.candidates``): empty, its label, and the sides whose
# pegs its look is within this many spreads of the nearest side's and no further than CANDIDATE_FAR
# (a candidate more only makes the count settle less often; 8 until session 15 left pegs 9.0-10.2
# spreads from their side's look, the nearest, without it: 4 positions of bench6 and bench8)
CANDIDATE_SPREADS = 2.0
CANDIDATE_FAR = 12.0
CANDIDATES_BELOW = 0.95   # holes read with less confidence than this get their candidates listed
SURE = 0.8        # a hole read at this confidence or more is sure (the referee's and calibration's line)
NOT_HOME = -1     # HoleSampler.home_side of a hole outside every home row (and Classifier.start_side's)


def sides_by_id(holes, kind: str) -> np.ndarray:
    """(N,) the side each hole's id names for holes of ``kind`` ("H" a home row, "S" a start
    area), NOT_HOME (-1) for the others."""
    return np.array([side if k == kind else NOT_HOME for k, side, _ in map(Layout.parse_id, holes)], int)


def sample_geometry(layout: Layout, camera: bool = False) -> dict:
    """The sample radii and offsets (mm) for a layout's holes and pegs.

    * ``hole``: the disc read to see an empty hole (inside the drilled hole);
    * ``head`` / ``shifts``: a peg's head stands above the board, so unless the camera
      is straight above it, it shows up displaced away from the point under the
      camera (parallax: head height / camera height x distance, a few mm at a
      board's corners). The head is looked for at the hole and at 24 positions
      round it up to ``max_shift`` (a head's radius); the best match counts;
    * ``ring_in`` .. ``ring_out``: the bare board round all of that.
    """
    hole_r, peg_r = layout.hole_diameter / 2, layout.peg_diameter / 2
    if camera:
        # the head is read where the camera model puts it: its middle (7 points within 0.4 of its radius)
        # and 12 points on a ring at 0.82 of its radius
        # (which lies beyond the hole when the camera is straight above it: a black head shows
        # against the template's grey disc there, not against the dark hole), at the spot and at 8
        # places 1.5 mm round it (heads differ in height; a dome's top catches the light)
        head_pts = [(0.0, 0.0)] + [(0.4 * peg_r * math.cos(2 * math.pi * k / 6),
                                    0.4 * peg_r * math.sin(2 * math.pi * k / 6)) for k in range(6)] \
            + [(0.82 * peg_r * math.cos(2 * math.pi * (k + 0.5) / 12),
                0.82 * peg_r * math.sin(2 * math.pi * (k + 0.5) / 12)) for k in range(12)]
        step = min(1.5, 0.25 * peg_r)
        shifts = [(0.0, 0.0)] + [(step * math.cos(2 * math.pi * k / 8), step * math.sin(2 * math.pi * k / 8))
                                 for k in range(8)]
        max_shift = peg_r
        ring_in = max(hole_r, peg_r + max_shift) + max(1.0, 0.04 * layout.pitch)
        ring_out = ring_in + max(2.0, 0.12 * layout.pitch)
        return {"hole": 0.8 * hole_r, "head": 0.7 * peg_r, "head_points": head_pts, "shifts": shifts,
                "max_shift": max_shift, "ring_in": ring_in, "ring_out": ring_out}
    max_shift = peg_r
    head = 0.4 * peg_r
    shifts = [(0.0, 0.0)] + [(r * math.cos(2 * math.pi * k / 8 + off), r * math.sin(2 * math.pi * k / 8 + off))
                             for r, off in ((max_shift / 3, 0.0), (2 * max_shift / 3, math.pi / 8), (max_shift, 0.0))
                             for k in range(8)]
    ring_in = max(hole_r, peg_r + max_shift) + max(1.0, 0.04 * layout.pitch)
    ring_out = ring_in + max(2.0, 0.12 * layout.pitch)
    return {"hole": 0.8 * hole_r, "head": head, "shifts": shifts, "max_shift": max_shift,
            "ring_in": ring_in, "ring_out": ring_out}


@dataclass
class Samples:
    """Median BGR colours read from one frame (N holes, C head positions)."""
    hole: np.ndarray          # (N, 3) the disc inside each hole
    heads: np.ndarray         # (N, C, 3) a peg head's disc at each candidate position
    ring: np.ndarray          # (N, 3) bare board round the hole
    saturated: np.ndarray     # (N,) fraction of the ring clipped white (glare)
    spot: np.ndarray | None = None   # (N, 2, 3) camera model: the head's spot, its core and its rim
    covered: np.ndarray | None = None   # (N,) bool: some neighbour's head can be seen over the hole's disc
    patch: np.ndarray | None = None     # (N, P) grey levels over the hole and where its head would be seen
    hole_points: int = 0                # camera model: the patch's first this many points lie on the hole itself
    neighbours: np.ndarray | None = None   # (N, K) each hole's nearest holes on the board, nearest first
    seen_over: np.ndarray | None = None    # (N, K) bool: camera model: that neighbour's peg may be seen over the hole
    beside: np.ndarray | None = None       # (N, K) bool: that neighbour is next to the hole (BESIDE pitches)


class HoleSampler:
    """Reads every hole's discs and bare-board ring from a frame with one ``cv2.remap``."""

    def __init__(self, layout: Layout, homography, image_size, head_height: float | None = None):
        """``homography``: a board -> image homography (3x3), or a ``geometry.CameraModel``: then
        every point is projected through the lens, and a peg's head is read where the camera sees
        it, ``head_height`` mm above its hole (a few small shifts round it absorb the heads'
        spread), instead of anywhere within a head's radius of the hole."""
        self.layout = layout
        self.holes = list(layout.holes)
        self.camera = None if isinstance(homography, np.ndarray) or isinstance(homography, (list, tuple)) \
            else homography
        if self.camera is not None:
            from .geometry import best_homography
            self.homography = best_homography(self.camera, layout)
        else:
            self.homography = np.asarray(homography, np.float64)
        self.head_height = float(head_height) if self.camera is not None and head_height else 0.0
        self.image_size = tuple(image_size)
        g = self.geometry = sample_geometry(layout, camera=self.camera is not None)
        hole_disc = _disc(g["hole"], 2, 6)
        head_disc = g.get("head_points") or _disc(g["head"], 2, 6)
        self.n_hole, self.n_head, self.n_shift = len(hole_disc), len(head_disc), len(g["shifts"])
        ring = [(r * math.cos(2 * math.pi * (k + 0.5 * j) / RING_ANGLES),
                 r * math.sin(2 * math.pi * (k + 0.5 * j) / RING_ANGLES))
                for j, r in enumerate(np.linspace(g["ring_in"], g["ring_out"], 3)) for k in range(RING_ANGLES)]
        keep_out = layout.peg_diameter / 2 + g["max_shift"] + 0.5
        centres = np.array([layout.holes[h] for h in self.holes], np.float64)
        stickers = [(m.x, m.y, m.size / 2 + m.quiet + 1.0) for m in layout.markers]
        local = np.array(hole_disc + [(sx + dx, sy + dy) for sx, sy in g["shifts"] for dx, dy in head_disc],
                         np.float64)
        # a ring point is left out where another hole's peg or a marker is near it (every hole's
        # ring at once: a point by point loop was a tenth of a second a sampler)
        around = centres[:, None, :] + np.array(ring, np.float64)[None]             # (N, R, 2)
        d = np.hypot(centres[None, None, :, 0] - around[..., 0:1], centres[None, None, :, 1] - around[..., 1:2])
        d[np.arange(len(centres)), :, np.arange(len(centres))] = np.inf                # not its own hole
        crowded = d.min(axis=2) < keep_out
        for mx, my, half in stickers:
            crowded |= (np.abs(around[..., 0] - mx) < half) & (np.abs(around[..., 1] - my) < half)
        if self.camera is not None and self.head_height > 0:
            crowded |= self._under_own_peg(around, centres)
        pts_ring = []
        for i in range(len(centres)):
            good = around[i][~crowded[i]]
            if len(good) < 12:      # crowded: fall back to the whole ring
                good = around[i]
            pts_ring.append(good[np.arange(len(ring)) % len(good)])
        self.ring_board = np.array(pts_ring, np.float64)       # (N, R, 2) mm: each hole's ring points
        # the structure patch: a grid over the hole's disc on the board and over the head's spot
        # (``structure_points``); its grey levels are compared with the hole's empty look by their
        # correlation, which a shadow or a change of light (gain and offset) leaves alone
        patch = structure_points(layout)
        self.n_patch = 2 * len(patch) if self.camera is not None and self.head_height > 0 else len(patch)
        self.hole_points = len(patch) if self.n_patch > len(patch) else 0
        board_pts = np.concatenate([centres[:, None, :] + local[None], np.array(pts_ring),
                                    np.broadcast_to(centres[:, None, :] + np.concatenate(
                                        [patch] * (self.n_patch // len(patch)))[None], (len(centres), self.n_patch, 2))],
                                   axis=1)  # (N, K, 2)
        self.n_ring = len(ring)
        if self.camera is not None:
            z = np.zeros(board_pts.shape[:2] + (1,))
            z[:, self.n_hole:self.n_hole + self.n_head * self.n_shift] = -self.head_height
            if self.n_patch > len(patch):
                z[:, -len(patch):] = -self.head_height
            img_pts = self.camera.project(np.concatenate([board_pts, z], axis=-1))
            self.centres = self.camera.project(centres)
            self.head_centres = self.camera.project(np.column_stack([centres, np.full(len(centres),
                                                                                      -self.head_height)]))
        else:
            img_pts = cv2.perspectiveTransform(board_pts.reshape(1, -1, 2), self.homography).reshape(board_pts.shape)
            self.centres = cv2.perspectiveTransform(centres.reshape(1, -1, 2), self.homography)[0]
            self.head_centres = self.centres
        # camera model: which neighbours' heads are seen over each hole's disc
        self.covered = {}
        if self.camera is not None and self.head_height > 0:
            px_mm = np.linalg.norm(self.camera.project(centres + [1.0, 0.0]) - self.centres, axis=1)
            reach = (layout.peg_diameter / 2 + g["hole"]) * px_mm
            d = np.linalg.norm(self.head_centres[None, :, :] - self.centres[:, None, :], axis=2)   # (hole, head)
            np.fill_diagonal(d, np.inf)
            for i in range(len(centres)):
                near = np.nonzero(d[i] < reach[i])[0]
                if len(near):
                    self.covered[i] = [int(j) for j in near]
        self.covered_mask = np.array([i in self.covered for i in range(len(centres))], bool)
        # the side whose home row a hole is in (its id says so), NOT_HOME elsewhere
        self.home_side = sides_by_id(self.holes, "H")
        apart = np.linalg.norm(centres[:, None, :] - centres[None, :, :], axis=2)
        np.fill_diagonal(apart, np.inf)
        self.neighbours = np.argsort(apart, axis=1)[:, :RING_NEIGHBOURS] if len(centres) > RING_NEIGHBOURS else None
        self.beside = None if self.neighbours is None else \
            np.take_along_axis(apart, self.neighbours, axis=1) <= BESIDE * layout.pitch
        self.seen_over = None
        if self.camera is not None and self.head_height > 0 and self.neighbours is not None:
            self.seen_over = self._seen_over(centres)
        w, h = self.image_size

        def inside(p):
            return (p[..., 0] >= 0) & (p[..., 0] <= w - 1) & (p[..., 1] >= 0) & (p[..., 1] <= h - 1)
        # a hole near the picture's edge: ring and head points that fall outside are read on the
        # other side of the hole instead (mirrored through its centre), so the hole stays readable
        out = ~inside(img_pts)
        out[:, :self.n_hole] = False
        out[:, img_pts.shape[1] - self.n_patch:] = False
        mirrored = 2 * self.centres[:, None, :] - img_pts
        img_pts = np.where(out[..., None], mirrored, img_pts)
        self.map_x = np.ascontiguousarray(img_pts[..., 0], dtype=np.float32)
        self.map_y = np.ascontiguousarray(img_pts[..., 1], dtype=np.float32)
        self.bilinear = Bilinear(self.map_x, self.map_y, self.image_size)   # the same on every OpenCV
        self.visible = inside(img_pts).all(axis=1)

    def _under_own_peg(self, around: np.ndarray, centres: np.ndarray) -> np.ndarray:
        """(N, R) bool: ring points the camera may see the hole's own peg over, and the points
        opposite them. Seen from the camera, a peg covers the board from its hole to where its head
        is seen, which parallax puts head height / (camera height - head height) x the distance
        from the point under the camera further out: up to 10-14 mm at a tilted camera's far
        corners, beyond a ring kept one head's radius round the hole, and a ring with the head in
        it divides the head's colour wrong (path-traced sets: green, yellow, purple and white
        heads unreadable there). The opposite points go too, so each ring stays balanced round
        its hole: its median then follows the light's gradient across the hole as before, and
        neighbouring holes' empty looks still predict each other (dropping one side only made
        the calibration's spreads wider and refused a set-up). Neighbours' pegs are the ring's
        ``keep_out`` business."""
        sight = _line_of_sight(self.camera.centre, centres, self.head_height)     # to the head's middle
        if sight is None:
            return np.zeros(around.shape[:2], bool)
        ab, scale = sight
        reach = self.layout.peg_diameter / 2 * scale + 0.5
        under = _off_segment(around - centres[:, None, :], ab[:, None, :]) < reach
        # the ring's points come as radii x RING_ANGLES: the opposite point is half of them on
        by_angle = under.reshape(len(under), -1, RING_ANGLES)
        return (by_angle | np.roll(by_angle, RING_ANGLES // 2, axis=2)).reshape(under.shape)

    def ring_clear_of(self, frame: np.ndarray, samples: Samples, pegs) -> Samples:
        """``samples`` with each hole's ring median taken again without the points over which the
        camera may see a peg standing in one of the holes ``pegs`` (indices; from its hole up to
        ``SEEN_MARGIN`` mm above the head height), where at least ``RING_KEPT`` points are left. The
        ring keeps out of the other holes on the board, not of their heads as seen beside them: in
        the set-up picture a start peg's head over half of a neighbour's ring tinted that hole's
        every ratio to its ring (bench6's s8-wood, M64 beside yellow start pegs: its spot's empty
        look 22 Lab b off each of its later looks, and M64 empty read unsure in every position)."""
        if self.camera is None or self.head_height <= 0 or not len(pegs):
            return samples
        centres = np.array([self.layout.holes[h] for h in self.holes], np.float64)
        sight = _line_of_sight(self.camera.centre, centres, self.head_height + SEEN_MARGIN)
        if sight is None:
            return samples
        ab, scale = sight
        pegs = np.asarray(pegs, int)
        rel = self.ring_board[:, None, :, :] - centres[pegs][None, :, None, :]             # (N, P, R, 2)
        under = _off_segment(rel, ab[pegs][None, :, None, :]) < self.layout.peg_diameter / 2 * scale
        under[pegs, np.arange(len(pegs))] = False          # a hole's own peg is the sampler's business
        under = under.any(axis=1)
        rows = np.nonzero(under.any(axis=1) & ((~under).sum(axis=1) >= RING_KEPT))[0]
        if not len(rows):
            return samples
        b = self.n_hole + self.n_head * self.n_shift
        ring_vals = self.bilinear(frame)[:, b:b + self.n_ring].astype(np.float32)
        ring = samples.ring.astype(np.float32).copy()
        for i in rows:
            ring[i] = np.median(ring_vals[i][~under[i]], axis=0)
        return replace(samples, ring=ring.astype(samples.ring.dtype))

    def _seen_over(self, centres: np.ndarray) -> np.ndarray | None:
        """(N, K) bool: the camera may see neighbour k's peg (``neighbours``) over hole i's own half of
        the structure patch: the peg, from its hole up to its top (``SEEN_MARGIN`` mm above the head
        height calibration measures, which is the head's middle), passes within a head's radius
        (as seen) and half of one of the hole's centre. At a tilted camera's far corners the pegs next
        to an empty hole broke its own half to 0.39-0.48 from 7.2-8.4 mm away."""
        sight = _line_of_sight(self.camera.centre, centres, self.head_height + SEEN_MARGIN)
        if sight is None:
            return None
        ab, scale = sight
        r = self.layout.peg_diameter / 2
        rel = centres[:, None, :] - centres[self.neighbours]                       # (N, K, 2)
        return _off_segment(rel, ab[self.neighbours]) < r * scale + 0.5 * r

    def background(self, cells: np.ndarray) -> PointSampler:
        """The calibration's bare-board cells (vision.foreground) sampled in this picture, kept."""
        if getattr(self, "_background", None) is None or self._background[0] is not cells:
            self._background = (cells, PointSampler(image_points(self, cells), self.image_size))
        return self._background[1]

    def board_to_image(self, pts) -> np.ndarray:
        """Board points (N, 2) mm -> image px, through the lens when there is a camera."""
        pts = np.asarray(pts, np.float64).reshape(-1, 2)
        if self.camera is not None:
            return self.camera.project(pts)
        return cv2.perspectiveTransform(pts.reshape(1, -1, 2), self.homography)[0]

    def sample(self, frame: np.ndarray) -> Samples:
        vals = self.bilinear(frame)
        n = len(self.holes)
        a = self.n_hole
        b = a + self.n_head * self.n_shift
        # medians by partial sorts of the uint8 samples: the same values as np.median, 3x faster
        hole = _median(vals[:, :a], 1)
        heads = vals[:, a:b].reshape(n, self.n_shift, self.n_head, 3)
        if self.camera is not None:
            # whose head: its core only (the rim, at 0.82 of a head's radius, lies partly on the board,
            # the grey disc or the peg's shaded side where a head is seen obliquely, and its 12 points
            # outvote the core's 7 in the median: white heads at 43 cm and 25 degrees read 19 L dark)
            heads = heads[:, :, :N_CORE]
        heads = _median(heads, 2)
        ring_vals = vals[:, b:b + self.n_ring]
        pv = vals[:, b + self.n_ring:].astype(np.float32)
        patch = pv @ np.array([0.114, 0.587, 0.299], np.float32)      # grey (BGR)
        ring = _median(ring_vals, 1)
        saturated = (ring_vals.min(axis=2) >= 250).mean(axis=1)     # white: every channel clipped
        spot = None
        if self.camera is not None:     # the head's spot (no shift): its core and its rim apart
            core = _median(vals[:, a:a + N_CORE], 1)
            rim = _median(vals[:, a + N_CORE:a + self.n_head], 1)
            spot = np.stack([core, rim], axis=1)
        return Samples(hole, heads, ring, saturated, spot, self.covered_mask, patch,
                       self.hole_points, self.neighbours, self.seen_over, self.beside)


def _line_of_sight(camera_centre, centres: np.ndarray, height: float) -> tuple[np.ndarray, float] | None:
    """((N, 2) mm from each hole to where the camera (its centre, board mm, z negative above the
    board) sees a point ``height`` mm above it, on the board; the scale a length at that height is
    seen at there), or None for a camera no higher than that. Parallax puts the point height /
    (camera height - height) x the distance from the point under the camera further out."""
    H = -float(camera_centre[2])
    if H <= height:
        return None
    return (centres - camera_centre[:2]) * (height / (H - height)), H / (H - height)


def _off_segment(rel: np.ndarray, ab: np.ndarray) -> np.ndarray:
    """The distance of points ``rel`` (..., 2) from the segments from the origin to ``ab`` (..., 2)."""
    t = np.clip((rel * ab).sum(-1) / np.maximum((ab * ab).sum(-1), 1e-9), 0.0, 1.0)
    return np.linalg.norm(rel - t[..., None] * ab, axis=-1)


def structure_points(layout: Layout) -> np.ndarray:
    """(P, 2) mm offsets: a 7 x 7 grid clipped to a disc of 0.9 of a head's radius, centred on the
    hole (the sampler adds the same grid where the head is seen, camera model): wide enough to take
    in the dark hole and the template's grey disc round it, whose pattern an empty hole keeps
    whatever the light, and a peg's head (black and white ones too) or a hand breaks."""
    r = 0.9 * layout.peg_diameter / 2
    g = np.linspace(-1.0, 1.0, 7)
    return np.array([(x * r, y * r) for x in g for y in g if x * x + y * y <= 1.0], np.float64)


def structure_score(patch: np.ndarray, ref: np.ndarray) -> np.ndarray:
    """(N,) how much each hole's patch (N, P) keeps its empty look's pattern ``ref`` (N, P): their
    correlation (1: the same pattern under any gain and offset; near 0 or below: something covers
    the hole). NaN where the reference is unknown (a row of NaN)."""
    x = patch - patch.mean(axis=1, keepdims=True)
    nx = np.linalg.norm(x, axis=1)
    # a flat patch (a uniform head filling it) has no pattern: correlation 0
    return np.where(nx > 1e-3, (x * ref).sum(axis=1) / np.maximum(nx, 1e-3), 0.0)


def unit_pattern(patch: np.ndarray) -> np.ndarray:
    """Patches (N, P) made zero-mean and unit-norm (what ``structure_score`` compares with)."""
    x = np.asarray(patch, np.float64)
    x = x - x.mean(axis=-1, keepdims=True)
    return x / np.maximum(np.linalg.norm(x, axis=-1, keepdims=True), 1e-6)


def _median(x: np.ndarray, axis: int) -> np.ndarray:
    """np.median along ``axis`` (float32), by np.partition."""
    k = x.shape[axis]
    if k % 2:
        return np.take(np.partition(x, k // 2, axis=axis), k // 2, axis=axis).astype(np.float32)
    part = np.partition(x, (k // 2 - 1, k // 2), axis=axis)
    lo = np.take(part, k // 2 - 1, axis=axis).astype(np.float32)
    return 0.5 * (lo + np.take(part, k // 2, axis=axis))


CLIP = 245.0      # a channel this bright may be clipped by the sensor


def ring_estimate(ring: np.ndarray) -> np.ndarray:
    """The rings with clipped channels estimated from the unclipped ones and the frame's
    colour balance (the median ring over holes with nothing clipped)."""
    ring = np.maximum(np.asarray(ring, np.float32), 1.0)
    clipped = ring >= CLIP
    partial = clipped.any(axis=1) & ~clipped.all(axis=1)
    if not partial.any():
        return ring
    clean = ~clipped.any(axis=1)
    balance = np.median(ring[clean], axis=0) if clean.sum() >= 5 else np.median(ring, axis=0)
    balance = balance / balance.mean()
    r = ring[partial] / balance
    level = np.nanmean(np.where(clipped[partial], np.nan, r), axis=1, keepdims=True)
    out = ring.copy()
    out[partial] = np.where(clipped[partial], np.maximum(level * balance, ring[partial]), ring[partial])
    return out


def normalised(values: np.ndarray, ring: np.ndarray, board_ref) -> np.ndarray:
    """Colours as they would look where the board has colour ``board_ref``: each hole's
    values (N, 3) or (N, C, 3) divided by its ring (see ``ring_estimate``)."""
    ring = ring_estimate(ring)
    if values.ndim == 3:
        ring = ring[:, None, :]
    return values / ring * np.asarray(board_ref, np.float32)


@dataclass
class Features:
    hole_bgr: np.ndarray      # (N, 3) normalised
    head_bgr: np.ndarray      # (N, C, 3) normalised
    hole_lab: np.ndarray
    head_lab: np.ndarray
    hole_clip: np.ndarray     # (N, 3) bool: the sensor clipped this channel
    head_clip: np.ndarray     # (N, C, 3)
    saturated: np.ndarray
    brighter: np.ndarray | None = None   # (N,) bool: clipped where its empty look is well below the clip
    covered: np.ndarray | None = None          # (N,) bool: a neighbour's head may be seen over the disc
    head_empty_lab: np.ndarray | None = None   # (N, 2, 3) what the head's spot shows with the hole empty
    spot_lab: np.ndarray | None = None         # (N, 2, 3) what it shows now (core, rim)
    d_empty: np.ndarray | None = None          # (N,) the distance to "empty" (distances())
    structure: np.ndarray | None = None        # (N,) the patch's correlation with its empty pattern
    structure_hole: np.ndarray | None = None   # (N,) the same of its half on the hole itself (camera model)
    structure_spot: np.ndarray | None = None   # (N,) ... and of its half where the head is seen
    shadow: np.ndarray | None = None           # (N,) bool: a shadow over an empty hole (distances())
    unsure_shadow: np.ndarray | None = None    # (N,) bool: ... read empty, not surely (see distances())
    conflict: np.ndarray | None = None         # (N,) bool: pattern intact, yet the head's spot changed hue
    hue_shift: np.ndarray | None = None        # (N,) Lab a-b distance of the head's spot from its empty look
    ring_clear: np.ndarray | None = None       # (N,) bool: the hole's ring looks as at calibration
    ring_told: np.ndarray | None = None        # (N,) bool: ... told by its neighbours' (Classifier._ring_told)
    overlooked: np.ndarray | None = None       # (N,) bool: a neighbour that may hold a peg may be seen over the hole
    neighbours: np.ndarray | None = None       # (N, K) the samples' ``neighbours``, ``beside`` and ``seen_over``
    beside: np.ndarray | None = None
    seen_over: np.ndarray | None = None
    d_sides: np.ndarray | None = None          # (N, sides) each side's distance (distances())
    shaft: np.ndarray | None = None            # (N,) bool: a peg's shaft stands in the hole (distances())
    head_raw: np.ndarray | None = None         # (N, C, 3) the heads' BGR as seen (not normalised)
    dome: np.ndarray | None = None             # (N,) bool: the patch kept its pattern, the hole's half and
                                               # the colours did not (distances(): a shaded dome, not intact)


def local_normalised(values: np.ndarray, ring: np.ndarray, norm) -> np.ndarray:
    """Colours as they would look in the reference light, judged against two local references:
    the hole's ring (bare board) and the hole's own empty look (``norm.ratio`` x its ring, from
    calibration). Per channel the colour's place between the two, (value - empty) / (ring -
    empty), is light-independent when the light both multiplies (gradient, shadow, colour
    cast, exposure) and adds (a lamp's sheen on the paper, veiling glare): a ring ratio alone
    cancels only the first. It is mapped back between the reference empty hole and board."""
    ring = ring_estimate(ring)
    empty = norm.ratio * ring
    span = np.maximum(ring - empty, 4.0)
    if values.ndim == 3:
        empty, span = empty[:, None, :], span[:, None, :]
    return norm.empty_ref + (values - empty) / span * (norm.board_ref - norm.empty_ref)


@dataclass
class LocalNorm:
    """What ``local_normalised`` needs: per hole (N, 3) the ratio of its empty look to its ring,
    and the BGR of an empty hole and of bare board in the reference light."""
    ratio: np.ndarray
    empty_ref: np.ndarray
    board_ref: np.ndarray
    head_ratio: np.ndarray | None = None   # (N, 2, 3) the head's spot (core, rim), hole empty, to its ring


CLIP_PROOF = 20.0     # levels an empty look must stay below the clip for a clipped reading to rule it out


def brighter_than_empty(samples: Samples, norm: LocalNorm) -> np.ndarray:
    """(N,) bool: the hole's disc is clipped in a channel where its empty look, in this light
    (``norm.ratio`` x its ring), is at least ``CLIP_PROOF`` levels below the clip. A clipped
    channel says only "at least this bright", but that is enough to rule the empty look out:
    under a lamp's sheen a peg clips where the dark hole does not. (Only as good as the empty
    look: the caller trusts it only where calibration measured it.)"""
    empty = norm.ratio * ring_estimate(samples.ring)
    return ((samples.hole >= CLIP) & (empty <= CLIP - CLIP_PROOF)).any(axis=1)


def features(samples: Samples, board_ref, norm: LocalNorm | None = None) -> Features:
    if norm is None:        # a calibration without each hole's empty look: the ring ratio alone
        hole = normalised(samples.hole, samples.ring, board_ref)
        heads = normalised(samples.heads, samples.ring, board_ref)
    else:
        hole = local_normalised(samples.hole, samples.ring, norm)
        heads = local_normalised(samples.heads, samples.ring, norm)
    head_empty = spot = None
    if norm is not None and norm.head_ratio is not None and samples.spot is not None:
        head_empty = bgr_to_lab(local_normalised(norm.head_ratio * ring_estimate(samples.ring)[:, None, :],
                                                 samples.ring, norm))
        spot = bgr_to_lab(local_normalised(samples.spot, samples.ring, norm))
    return Features(hole, heads, bgr_to_lab(hole), bgr_to_lab(heads), samples.hole >= CLIP,
                    samples.heads >= CLIP, samples.saturated,
                    None if norm is None else brighter_than_empty(samples, norm), samples.covered, head_empty, spot)


# --------------------------------------------------------------------------- the colour model

@dataclass
class ColourModel:
    """The classes a hole can be in, learnt from the set-up picture (see calibration)."""
    board_ref: list                      # BGR of bare board at calibration
    empty: list                          # Lab of an empty hole (normalised)
    pegs: dict                           # side -> Lab of that side's pegs (normalised)
    tau: float = 3.0                     # spread of one class, weighted Lab units
    names: dict = field(default_factory=dict)   # side -> the user's colour name, for messages
    hole_empty: dict = field(default_factory=dict)   # hole -> Lab of that hole empty, in its own light
    hole_ratio: dict = field(default_factory=dict)   # hole -> BGR of its empty look / its ring (every hole)
    empty_ref: list | None = None        # BGR of an empty hole in the reference light (with hole_ratio)
    bodies: dict = field(default_factory=dict)   # side -> Lab of a hole holding its peg (the disc, normalised)
    spreads: dict = field(default_factory=dict)  # side -> its own pegs' spread (weighted Lab), if above tau
    unsure: list = field(default_factory=list)   # holes never read surely (see calibration)
    clip_proven: list = field(default_factory=list)  # holes where a clipped channel rules "empty" out
    head_ratio: dict = field(default_factory=dict)   # hole -> BGR of its head's spot (hole empty) / its ring
    head_weak: list = field(default_factory=list)    # holes whose head spot looks like some side's pegs
    spots: dict = field(default_factory=dict)        # side -> its head's spot (core, rim) Lab, camera model
    hole_patch: dict = field(default_factory=dict)   # hole -> its empty look's pattern (structure_points)
    structure: dict = field(default_factory=dict)    # what the structure told at calibration (for the record)
    hole_ring: dict = field(default_factory=dict)    # hole -> BGR of its ring (bare board) at calibration
    background: str = ""     # the bare board between the holes at calibration (vision.foreground), base64 BGR
    background_bare: str = ""   # the same points with no peg on the board (foreground.bare_board)
    raw_heads: dict = field(default_factory=dict)    # side -> Lab of its start heads as seen, not normalised

    def local_norm(self, holes) -> LocalNorm | None:
        """The local normalisation for ``holes`` (in the sampler's order), None for a model without it."""
        if not self.hole_ratio or self.empty_ref is None or any(h not in self.hole_ratio for h in holes):
            return None
        head = None
        if self.head_ratio and all(h in self.head_ratio for h in holes):
            head = np.array([self.head_ratio[h] for h in holes], np.float32).reshape(len(holes), 2, 3)
        return LocalNorm(np.array([self.hole_ratio[h] for h in holes], np.float32),
                         np.asarray(self.empty_ref, np.float32), np.asarray(self.board_ref, np.float32), head)

    def classes(self):
        """(keys, weighted Lab means): EMPTY, sides..., UNKNOWN for bare board."""
        keys = [EMPTY] + sorted(self.pegs) + [UNKNOWN]
        means = [self.empty] + [self.pegs[s] for s in sorted(self.pegs)] + [bgr_to_lab(self.board_ref)]
        return keys, weighted(np.array(means, float))

    def to_json(self) -> dict:
        return {"board_ref": [round(float(v), 2) for v in self.board_ref],
                "empty": [round(float(v), 2) for v in self.empty],
                "pegs": {str(s): [round(float(v), 2) for v in lab] for s, lab in sorted(self.pegs.items())},
                "tau": round(float(self.tau), 3),
                "names": {str(s): n for s, n in sorted(self.names.items())},
                "hole_empty": {h: [round(float(v), 2) for v in lab] for h, lab in self.hole_empty.items()},
                "hole_ratio": {h: [round(float(v), 4) for v in q] for h, q in self.hole_ratio.items()},
                "empty_ref": [round(float(v), 2) for v in self.empty_ref] if self.empty_ref is not None else None,
                "bodies": {str(s): [round(float(v), 2) for v in lab] for s, lab in sorted(self.bodies.items())},
                "spreads": {str(s): round(float(v), 3) for s, v in sorted(self.spreads.items())},
                "unsure": list(self.unsure), "clip_proven": list(self.clip_proven),
                "head_ratio": {h: [round(float(v), 4) for v in np.ravel(q)] for h, q in self.head_ratio.items()},
                "head_weak": list(self.head_weak),
                "spots": {str(k): v for k, v in sorted(self.spots.items())},
                "hole_patch": {h: [round(float(v), 3) for v in q] for h, q in self.hole_patch.items()},
                "structure": {k: round(float(v), 3) for k, v in self.structure.items()},
                "hole_ring": {h: [round(float(v), 1) for v in q] for h, q in self.hole_ring.items()},
                "background": self.background,
                "background_bare": self.background_bare,
                "raw_heads": {str(k): [round(float(v), 2) for v in lab] for k, lab in sorted(self.raw_heads.items())}}

    @classmethod
    def from_json(cls, data: dict) -> "ColourModel":
        return cls(board_ref=list(data["board_ref"]), empty=list(data["empty"]),
                   pegs={int(s): list(v) for s, v in data["pegs"].items()}, tau=float(data["tau"]),
                   names={int(s): n for s, n in data.get("names", {}).items()},
                   hole_empty={str(h): list(v) for h, v in (data.get("hole_empty") or {}).items()},
                   hole_ratio={str(h): [float(x) for x in v] for h, v in (data.get("hole_ratio") or {}).items()},
                   empty_ref=[float(v) for v in data["empty_ref"]] if data.get("empty_ref") else None,
                   bodies={int(s): [float(x) for x in v] for s, v in (data.get("bodies") or {}).items()},
                   spreads={int(s): float(v) for s, v in (data.get("spreads") or {}).items()},
                   unsure=[str(h) for h in data.get("unsure") or []],
                   clip_proven=[str(h) for h in data.get("clip_proven") or []],
                   head_ratio={str(h): [float(x) for x in v] for h, v in (data.get("head_ratio") or {}).items()},
                   head_weak=[str(h) for h in data.get("head_weak") or []],
                   spots={int(k): [list(map(float, p)) for p in v] for k, v in (data.get("spots") or {}).items()},
                   hole_patch={str(h): [float(x) for x in v] for h, v in (data.get("hole_patch") or {}).items()},
                   structure={str(k): float(v) for k, v in (data.get("structure") or {}).items()},
                   hole_ring={str(h): [float(x) for x in v] for h, v in (data.get("hole_ring") or {}).items()},
                   background=str(data.get("background") or ""),
                   background_bare=str(data.get("background_bare") or ""),
                   raw_heads={int(k): [float(x) for x in v] for k, v in (data.get("raw_heads") or {}).items()})


class Classifier:
    """Nearest class in weighted Lab, with a posterior-style confidence and a reject option.

    An empty hole and bare board (a covered hole) are judged on the hole's own disc,
    a side's pegs on the best of the head positions (see ``sample_geometry``).
    """

    def __init__(self, model: ColourModel, holes=None):
        self.model = model
        self.holes = list(holes) if holes is not None else None
        if holes is None and model.hole_ratio:
            holes = list(model.hole_ratio)          # saved in the layout's (the sampler's) order
        self.norm = model.local_norm(holes) if holes is not None else None
        self.unsure = np.array([h in model.unsure for h in holes], bool) if holes is not None and model.unsure \
            else None
        keys, self.means = model.classes()
        # each hole's own empty look where calibration saw it (else the board's typical empty hole)
        self.empty_means = self.empty_seen = None
        if holes is not None and model.hole_empty:
            self.empty_seen = np.array([h in model.hole_empty for h in holes], bool)
            self.empty_means = weighted(np.array([model.hole_empty.get(h, model.empty) for h in holes], float))
        # each start hole's side (else -1): the only pegs calibration saw in a start hole are its side's
        self.start_side = None if holes is None else sides_by_id(holes, "S")
        # holes where calibration saw both looks and the peg clipped where the empty look did not
        self.clip_proven = np.array([h in model.clip_proven for h in holes], bool) \
            if holes is not None and model.clip_proven else None
        self.head_weak = np.array([h in model.head_weak for h in holes], bool) \
            if holes is not None and model.head_weak else None
        # each hole's empty pattern (structure_points), where calibration learnt one for every hole
        self.patch_ref = None
        self._halves: tuple | None = None    # _ref_halves
        if holes is not None and model.hole_patch and all(h in model.hole_patch for h in holes):
            self.patch_ref = np.array([model.hole_patch[h] for h in holes], np.float32)
        self.background_ref = None
        if model.background:
            cells, bgr = decode_background(model.background)
            bare = decode_background(model.background_bare)[1] if model.background_bare else None
            # (a calibration file from before the bare board was kept: the set-up picture's look alone)
            self.background_ref = (cells, bgr, bgr_to_lab(bgr),
                                   bgr_to_lab(bare) if bare is not None and len(bare) == len(bgr) else None)
        self.ring_ref = None
        if holes is not None and model.hole_ring and all(h in model.hole_ring for h in holes):
            self.ring_ref = np.array([model.hole_ring[h] for h in holes], np.float32)
        self.keys = np.array(keys)
        self.sides = np.array(sorted(model.pegs), int)
        # each coloured side's hue as the camera saw its start heads (camera model; None: not known)
        self.raw_hue = None
        self.raw_chroma = self.raw_light = None
        if model.raw_heads and all(s in model.raw_heads for s in self.sides):
            lab = np.array([model.raw_heads[s] for s in self.sides], float)
            self.raw_chroma, self.raw_light = np.hypot(lab[:, 1], lab[:, 2]), lab[:, 0]
            self.raw_hue = (np.degrees(np.arctan2(lab[:, 2], lab[:, 1])), self.raw_chroma > RAW_CHROMA)
        d = np.linalg.norm(self.means[:, None] - self.means[None], axis=2)
        np.fill_diagonal(d, np.inf)
        self.separation = d.min(axis=1)               # distance to the nearest other class
        self.tau = max(float(model.tau), 1.0)
        # a class whose own pegs vary more (a bright colour clipping here and there) is far from
        # its mean more often: "unlike anything learnt" is judged on its own spread
        self.class_tau = np.array([min(max(self.tau, float(model.spreads.get(k, 0.0))), 1.5 * self.tau)
                                   if k >= 0 else self.tau for k in keys])
        self.class_bgr = lab_to_bgr_unclipped(self.means / LAB_WEIGHT)
        # a peg covers its hole, so a hole whose own disc looks empty holds no peg, however peg-like
        # the board next to it looks (a lamp's sheen can blow that out): the hole's distance from
        # empty must pass half the way to that side's pegs seen in a hole (3-4 spreads: a peg's look
        # in its hole changes with the view more than its head's)
        self.gate = None
        if model.bodies and all(s in model.bodies for s in model.pegs):
            gap = np.linalg.norm(weighted(np.array([model.bodies[s] for s in self.sides], float))
                                 - self.means[0], axis=1)
            self.gate = np.clip(0.5 * gap, 3 * self.tau, 4 * self.tau)

    def learned_empty(self, samples: Samples, holes) -> tuple["Classifier", list]:
        """(a classifier whose model knows ``holes``' own empty looks from ``samples``, the holes
        learnt). ``holes``: holes known to be empty in that frame (the referee's board: see
        ``start_holes_empty``). Only holes whose empty look calibration could not see (start
        holes: a peg stood in them; theirs came from their neighbours) are learnt, and only
        where the frame agrees they may be empty: the borrowed empty pattern not broken (a black
        head breaks it to 0.63 or less on the path-traced sets), the head's spot not moved in
        hue beyond a shadow's, no neighbour's head seen over the hole, no glare. Safety: the
        caller must know the holes are empty; this only refuses what plainly contradicts it."""
        if self.holes is None or self.norm is None or self.norm.head_ratio is None \
                or self.patch_ref is None or samples.patch is None:
            return self, []
        index = {h: i for i, h in enumerate(self.holes)}
        f = self.features(samples)
        self.distances(f)                  # fills f.hue_shift
        covered = np.zeros(len(self.holes), bool) if f.covered is None else np.asarray(f.covered, bool)
        take = [h for h in holes if h in index and h not in self.model.hole_empty
                and f.structure[index[h]] >= UNSURE_EMPTY_STRUCTURE and not covered[index[h]]
                and (f.hue_shift is None or f.hue_shift[index[h]] <= HUE_SHIFT)
                and samples.saturated[index[h]] <= 0.3]
        if not take:
            return self, []
        ring = ring_estimate(samples.ring)
        m = self.model
        hole_ratio, head_ratio, hole_patch = dict(m.hole_ratio), dict(m.head_ratio), dict(m.hole_patch)
        pats = unit_pattern(samples.patch)
        for h in take:
            i = index[h]
            hole_ratio[h] = [round(float(v), 4) for v in samples.hole[i] / ring[i]]
            head_ratio[h] = [round(float(v), 4) for v in np.ravel(samples.spot[i] / ring[i][None, :])]
            hole_patch[h] = [round(float(v), 3) for v in pats[i]]
        model = replace(m, hole_ratio=hole_ratio, head_ratio=head_ratio, hole_patch=hole_patch,
                        hole_empty=dict(m.hole_empty))
        fe = features(samples, model.board_ref, model.local_norm(self.holes))
        model.hole_empty.update({h: [round(float(v), 2) for v in fe.hole_lab[index[h]]] for h in take})
        return Classifier(model, self.holes), take

    def features(self, samples: Samples) -> Features:
        """The samples normalised as this model was learnt (see ``features``), and each hole's
        structure score where the model has the holes' empty patterns."""
        structure = structure_hole = structure_spot = None
        if self.patch_ref is not None and samples.patch is not None \
                and samples.patch.shape == self.patch_ref.shape:
            structure = structure_score(samples.patch, self.patch_ref)
            k = samples.hole_points
            if k:
                hole_ref, spot_ref = self._ref_halves(k)
                structure_hole = structure_score(samples.patch[:, :k], hole_ref)
                structure_spot = structure_score(samples.patch[:, k:], spot_ref)
        ring_clear = told = None
        if self.ring_ref is not None and len(self.ring_ref) == len(samples.ring):
            # each ring against its own look at calibration, the frame's change of light divided out
            ring = ring_estimate(samples.ring)
            gain = np.median(ring / np.maximum(self.ring_ref, 1.0), axis=0)
            dev = np.linalg.norm(bgr_to_lab(ring) - bgr_to_lab(self.ring_ref * gain), axis=1)
            ring_clear = dev < RING_CLEAR
            if structure is not None:
                samples, told = self._ring_told(samples, ring, ring_clear, structure, structure_hole)
                ring_clear = ring_clear | told
        f = features(samples, self.model.board_ref, self.norm)
        f.head_raw = samples.heads
        f.structure, f.structure_hole, f.structure_spot = structure, structure_hole, structure_spot
        f.ring_clear = ring_clear
        f.ring_told = told
        f.neighbours, f.beside, f.seen_over = samples.neighbours, samples.beside, samples.seen_over
        if structure_hole is not None and samples.seen_over is not None \
                and len(samples.seen_over) == len(structure_hole):
            # a neighbour whose pattern is not intact may hold a peg (a yellow one's at 0.52)
            f.overlooked = (samples.seen_over & (structure < STRUCTURE_EMPTY)[samples.neighbours]).any(axis=1)
        return f

    def _ring_told(self, samples: Samples, ring, clear, structure, structure_hole) -> tuple[Samples, np.ndarray]:
        """``samples`` with the ring of each hole that holds something (its pattern, or its own half
        of it, broken) but whose ring isn't as at calibration taken from its calibration look times
        the change of light its clear neighbours' rings show. At a tilted camera's far corners a
        peg's own head, or a neighbour's, is seen 10-14 mm out, over the ring that divides its
        colour: a black head's ring went from (150, 186, 218) to (38, 62, 110) and the head read
        blue; green and yellow heads read unlike anything learnt. A hand over the hole leaves too
        few clear rings near it, and its ring is left as it is. Also (N,) bool: the rings so told."""
        none = np.zeros(len(ring), bool)
        if samples.neighbours is None or len(samples.neighbours) != len(ring):
            return samples, none
        holds = structure <= STRUCTURE_PEG
        if structure_hole is not None:
            holds = holds | (structure_hole <= STRUCTURE_PEG)
        rows = np.nonzero(holds & ~clear)[0]
        if not len(rows):
            return samples, none
        near = samples.neighbours[rows]                                   # (R, K)
        ok = clear[near]
        told = ok.sum(axis=1) >= RING_TOLD_BY
        if not told.any():
            return samples, none
        ratio = ring[near] / np.maximum(self.ring_ref[near], 1.0)         # (R, K, 3)
        gain = np.nanmedian(np.where(ok[..., None], ratio, np.nan)[told], axis=1)
        out = np.array(samples.ring, np.float32, copy=True)
        out[rows[told]] = self.ring_ref[rows[told]] * gain
        none[rows[told]] = True
        return replace(samples, ring=out), none

    def _ref_halves(self, k: int) -> tuple[np.ndarray, np.ndarray]:
        """The empty patterns' two halves (the hole's first ``k`` points, the spot's the rest), each
        zero-mean and unit-norm as ``structure_score`` wants its reference: made once."""
        if self._halves is None or self._halves[0] != k:
            self._halves = (k, unit_pattern(self.patch_ref[:, :k]), unit_pattern(self.patch_ref[:, k:]))
        return self._halves[1], self._halves[2]

    def own_half_broken(self, f: Features, n: int) -> np.ndarray:
        """(N,) bool: the hole's own half of the patch is broken (``STRUCTURE_PEG``): a shaft stands in
        the hole, whatever the whole patch says (camera model; all False without it)."""
        if f.structure_hole is None or len(f.structure_hole) != n:
            return np.zeros(n, bool)
        return f.structure_hole <= STRUCTURE_PEG

    def shaft_seen(self, f: Features, intact, broken) -> np.ndarray | None:
        """(N,) bool: a peg's shaft stands in the hole though the whole patch is only in between (its
        head seen beside the hole, over the board): the hole's own half of the patch broken
        (``STRUCTURE_PEG``), no neighbour holding something that may be seen over it
        (``Features.overlooked``), nothing as wide as a hand over its ring (``ring_clear``), and the
        hole's empty look measured at calibration, not borrowed from its neighbours (a start hole's
        borrowed pattern came out broken, 0.20-0.21, over two empty start holes). On the four
        path-traced sets' positions and games 3,879 pegs' own halves were broken; 5 empty holes'
        outside the hand pictures, those two and three beside far-corner pegs."""
        n = len(intact)
        if f.overlooked is None or f.ring_clear is None or self.empty_seen is None or len(self.empty_seen) != n:
            return None
        covered = np.zeros(n, bool) if f.covered is None else np.asarray(f.covered, bool)
        # and a head where the shaft's would be seen: a spot whose half keeps its empty pattern this
        # well (SPOT_BARE) has none (the 227 pegs whose shaft this saw on the path-traced sets: 0.92
        # at most; 8 empty holes it saw one in, their own half noisy, 0.95-0.98)
        bare = np.zeros(n, bool) if f.structure_spot is None or len(f.structure_spot) != n \
            else f.structure_spot >= SPOT_BARE
        return self.own_half_broken(f, n) & ~intact & ~broken & ~f.overlooked & np.asarray(f.ring_clear, bool) \
            & self.empty_seen & ~covered & ~bare

    @staticmethod
    def spot_darker(f: Features) -> np.ndarray:
        """(N,) bool: the head's spot darker than its empty look (core or rim)."""
        return f.spot_lab[..., 0].min(axis=1) < f.head_empty_lab[..., 0].max(axis=1)

    def darkened_like_a_shadow(self, f: Features, d_empty) -> np.ndarray:
        """(N,) bool: the head's spot darker than its empty look, in the same hue (``HUE_SHIFT``),
        and no further from it than a peg's shadow moves an empty look (``SHADOW_SPREADS``: up to
        6-7 spreads on the path-traced sets, not a black head's 10 or more)."""
        out = self.spot_darker(f) & (f.hue_shift <= HUE_SHIFT)
        if d_empty is not None and len(d_empty) == len(out):
            out &= np.asarray(d_empty) <= SHADOW_SPREADS * self.tau
        return out

    def off_its_side(self, f: Features, labels) -> np.ndarray | None:
        """(N,) bool: a hole read as a side lies more than ``OFF_ITS_SIDE`` spreads from that side's
        look (None before ``distances``)."""
        if f.d_sides is None or len(f.d_sides) != len(labels) or not len(self.sides):
            return None
        col = {s: k for k, s in enumerate(self.sides)}
        k = np.array([col.get(int(v), -1) for v in labels])
        d = np.where(k >= 0, f.d_sides[np.arange(len(k)), np.maximum(k, 0)], 0.0)
        return (k >= 0) & (d > OFF_ITS_SIDE * self.tau)

    def beside_another_sides_peg(self, f: Features, labels) -> np.ndarray | None:
        """(N,) bool: a hole next to it (``BESIDE``) is read as a peg of a side other than this hole's
        label (None without the sampler's neighbours)."""
        if f.neighbours is None or f.beside is None or len(f.neighbours) != len(labels):
            return None
        labels = np.asarray(labels)
        theirs = labels[f.neighbours]                                           # (N, K)
        return (f.beside & (theirs >= 0) & (theirs != labels[:, None])).any(axis=1)

    def still_unsure(self, f: Features, labels, d_empty) -> np.ndarray:
        """(N,) bool: the calibration's unsure holes (a side's peg there may look like the hole
        empty) that this frame doesn't settle: the pattern neither intact nor broken, unless the
        hole reads "empty" with its colours within 2 spreads of its empty look and the pattern
        nearer intact than broken (a peg there, even a black one, moves the colours 18 spreads
        or more and the pattern to 0.53 or less on bench2's s4-wood-bw; empty ones 0.61 or more)."""
        intact, broken = self.structure_says(f)
        out = self.unsure & ~intact & ~broken
        if f.structure is not None:
            empty_now = (np.asarray(labels) == EMPTY) & (np.asarray(d_empty) <= 2 * self.tau) \
                & (f.structure >= UNSURE_EMPTY_STRUCTURE)
            # ... or a peg, its colours further from the hole's empty look than a shadow moves them
            # and the pattern nearer broken than intact
            peg_now = (np.asarray(labels) >= 0) & (np.asarray(d_empty) > SHADOW_SPREADS * self.tau) \
                & (f.structure < UNSURE_EMPTY_STRUCTURE)
            # ... or a peg whose colours are further still from the empty look, whatever the pattern:
            # the hole is unsure for a side that looks like it empty (black), not for a colour this
            # far off (bench2's s8-wood: orange start pegs 8.6-14 spreads off, the pattern 0.60-0.71,
            # left unsure in every picture; pegs read wrongly in unsure holes: 3.7 spreads at most)
            peg_now |= (np.asarray(labels) >= 0) & (np.asarray(d_empty) > FAR_FROM_EMPTY * self.tau)
            if f.structure_hole is not None and len(f.structure_hole) == len(out):
                # ... or the hole's own half of the patch says it: broken under a peg read there (a shaft
                # stands in the hole), or a shadow's darkening over an intact one under "empty"
                peg_now |= (np.asarray(labels) >= 0) & self.own_half_broken(f, len(out))
                if f.shadow is not None and len(f.shadow) == len(out):
                    empty_now |= (np.asarray(labels) == EMPTY) & np.asarray(f.shadow, bool)
            out &= ~empty_now & ~peg_now
        return out

    def structure_says(self, f: Features) -> tuple[np.ndarray, np.ndarray]:
        """((N,) bool the hole's empty pattern is intact: nothing covers it, (N,) bool it is broken:
        something stands in it), both False where the pattern can't tell (no model, in between, or a
        neighbour's head may be seen over the hole, which breaks the pattern of an empty hole too)."""
        n = len(f.hole_lab)
        if f.structure is None:
            return np.zeros(n, bool), np.zeros(n, bool)
        covered = np.zeros(n, bool) if f.covered is None else np.asarray(f.covered, bool)
        intact = f.structure >= STRUCTURE_EMPTY
        if f.dome is not None and len(f.dome) == n:
            intact &= ~f.dome
        return intact, (f.structure <= STRUCTURE_PEG) & ~covered

    def _dist(self, lab, bgr, clip, cls: slice) -> np.ndarray:
        """(..., k) distances to the classes ``cls``; a clipped channel only says "at least
        this much", so it is compared as the class's own value whenever that is higher."""
        means = self.means[cls]
        d = np.linalg.norm(weighted(lab)[..., None, :] - means, axis=-1)
        if clip.any():
            rows = clip.any(axis=-1)
            b = bgr[rows][:, None, :]
            c = clip[rows][:, None, :]
            raised = np.where(c, np.maximum(b, self.class_bgr[cls][None]), b)
            d[rows] = np.linalg.norm(weighted(bgr_to_lab(raised)) - means[None], axis=-1)
        return d

    def hole_empty_distance(self, f: Features) -> np.ndarray:
        """(N,) how unlike its empty look each hole's own disc is (weighted Lab)."""
        d_empty = self._dist(f.hole_lab, f.hole_bgr, f.hole_clip, slice(0, 1))[:, 0]
        if self.empty_means is not None and len(self.empty_means) == len(d_empty):
            own = np.linalg.norm(weighted(f.hole_lab) - self.empty_means, axis=1)
            d_empty = np.where(f.hole_clip.any(axis=1), d_empty, np.minimum(d_empty, own))
        return d_empty

    def check_picture(self, f: Features, labels, conf, covered) -> np.ndarray:
        """The confidences, lowered to 0.5 where the hole's own disc disagrees with its label (camera
        model): a peg whose shaft, seen in its hole, is unlike that hole empty must show there, and
        an empty hole's disc must look empty, unless a neighbour's head (``covered``: hole ->
        neighbours' indices whose heads are seen over its disc) read as a peg hides it. So a
        position rests on two looks at every hole, not on one look and the peg count."""
        if f.head_empty_lab is None or self.empty_means is None or not self.model.bodies \
                or len(self.empty_means) != len(labels):
            return conf
        d_hole = self.hole_empty_distance(f)
        n = len(labels)
        sides = [s for s in self.sides if s in self.model.bodies]
        if not sides:
            return conf
        bodies = weighted(np.array([self.model.bodies[s] for s in sides], float))
        gap = np.linalg.norm(self.empty_means[:, None, :] - bodies[None], axis=2)      # (N, sides)
        distinct = gap > 6 * self.tau
        col = {s: k for k, s in enumerate(sides)}
        hidden = np.array([any(labels[j] >= 0 for j in covered.get(i, ())) for i in range(n)], bool)
        intact, broken = self.structure_says(f)
        # an empty hole under a shadow (``distances``): its own pattern intact, the spot only darkened
        shadowed = np.asarray(f.shadow, bool) if f.shadow is not None and len(f.shadow) == n else np.zeros(n, bool)
        hole_broken = self.own_half_broken(f, n)
        # a neighbour's head may be seen over the hole's disc (the sampler's geometry, per hole)
        seen_over = np.zeros(n, bool) if f.covered is None else np.asarray(f.covered, bool)
        settled = (intact & (labels == EMPTY)) | (broken & (labels >= 0)) | (shadowed & (labels == EMPTY))
        out = conf.copy()
        if f.structure is not None and f.hue_shift is not None:
            # the pattern neither intact nor broken (a peg's shadow across an empty hole) and the head's
            # spot darker but of the same hue as the hole's empty look: a shadow may be all there is,
            # so a peg read there on the colours alone is not sure
            shadow_like = self.darkened_like_a_shadow(f, f.d_empty)
            between = ~intact & ~broken & ~seen_over
            # ... unless the hole's own half of the patch is broken: something stands in the hole
            # (a black head's spot over a dark hole keeps the whole patch in between), or only half
            # intact: a shadow over an empty hole leaves the hole itself as it was (the two this
            # lowered rightly on the path-traced sets kept their own half at 0.72 and 0.77), a black
            # head's shaft in it does not (29 black pegs it lowered, 0.50-0.67, half of them on paper)
            shadow_like &= ~hole_broken
            if f.structure_hole is not None and len(f.structure_hole) == n:
                shadow_like &= f.structure_hole >= OWN_HALF_INTACT
            out = np.where(between & (labels >= 0) & shadow_like, np.minimum(out, 0.5), out)
            # and "empty" there only where the colours say so (fingers over part of the hole's disc
            # break its pattern half-way and leave the colours nearest "empty"; the fingers themselves
            # are vision.foreground's to see, on the bare board round the holes)
            if f.d_empty is not None and len(f.d_empty) == n:
                out = np.where(between & (labels == EMPTY) & ~shadowed & (f.d_empty > EMPTY_SEEN * self.tau),
                               np.minimum(out, 0.5), out)
            # nor where the head's spot is lighter than its empty look: a shadow only darkens it, a
            # white head over the grey disc lightens it (bench2's s6-paper, a white peg seen beside its
            # hole: +10 L, the pattern at 0.78, read "empty" at 1.00; empty holes in between +4.5 L at most
            # on the path-traced sets, but for start holes whose empty look was only estimated, +5.9 and
            # +10.4: the second is left unsure too, until the game lets it learn its look)
            lighter = (f.spot_lab[..., 0] - f.head_empty_lab[..., 0]).max(axis=1) > LIGHTER_SPREADS * self.tau
            if f.structure_hole is not None and len(f.structure_hole) == n:
                # ... unless the hole's own half is all but intact (DEEP_OWN_INTACT): no shaft stands in
                # it, so no head is seen beside it (under the 7,680 pegs of the path-traced sets bench6-17
                # and the committed one, their own half 0.86 at most; empty holes so lighter, 0.63-0.97,
                # most of them start holes whose empty look was estimated: 0.9 and up read 5 more
                # positions from the picture, bench16's s4-wood S-s0-4 and S-s0-5 among them)
                lighter &= f.structure_hole < DEEP_OWN_INTACT
            out = np.where(between & (labels == EMPTY) & lighter, np.minimum(out, 0.5), out)
            if getattr(f, "conflict", None) is not None:
                out = np.where(f.conflict, np.minimum(out, 0.5), out)
            if f.unsure_shadow is not None and len(f.unsure_shadow) == n:
                out = np.where(f.unsure_shadow, np.minimum(out, 0.5), out)
            # nor a dark head read where the spot is darkened, at most tinted (NEIGHBOUR_TINT), over a
            # hole whose own half is not broken, next to another side's peg, and the head off its
            # side's look: that peg's shadow and the edge of its head may be all there is (bench11's
            # s8-wood M129, empty beside a purple peg, read black at 1.00, 2.3-2.6 spreads from black;
            # bench13's s8-wood H3-s1 and H4-s1 beside blue pegs, tinted 28.5-28.8, likewise; bench9's
            # s6-paper M27, in a refused set-up; one black peg so lowered, bench13's s4-paper-bw M15,
            # the count settles; the 2D room set's black pegs with their own half at 0.61-0.67 lay
            # 0.7-1.2 spreads from black)
            beside_other = self.beside_another_sides_peg(f, labels)
            off_side = self.off_its_side(f, labels)
            if beside_other is not None and off_side is not None and f.structure_hole is not None \
                    and len(f.structure_hole) == n:
                dark_there = self.spot_darker(f) & (f.hue_shift <= NEIGHBOUR_TINT) & (f.structure_hole > STRUCTURE_PEG)
                out = np.where(between & (labels >= 0) & dark_there & beside_other & off_side,
                               np.minimum(out, 0.5), out)
        # nor is "empty" sure where the hole's own half is broken and no neighbour's head may be seen over
        # it: a shaft stands there (sure "empty" holes so on the path-traced sets: 4, white pegs on white
        # paper; 1 empty hole, a neighbour's head over it)
        out = np.where((labels == EMPTY) & hole_broken & ~seen_over, np.minimum(out, 0.5), out)
        if f.structure_spot is not None and len(f.structure_spot) == n:
            # a head seen at the spot breaks its half of the patch (0.88 at most under the 6,570 pegs of
            # the seven path-traced sets): a peg read where that half keeps its empty pattern is not
            # sure (bench6's s8-wood H1-s4, empty, a neighbour's black peg seen over its disc: white at 0.95)
            # (unless the shaft breaks the hole's own half with the colours far from empty, no neighbour's
            # head seen over it: a dome shaded like the disc's edge, ``dome``; bench9's s4-paper-bw blue
            # heads, spot's half 0.90-0.92)
            shaded_dome = np.zeros(n, bool) if f.dome is None or len(f.dome) != n else f.dome & ~seen_over
            out = np.where((labels >= 0) & (f.structure_spot >= SPOT_NO_HEAD) & ~shaded_dome, np.minimum(out, 0.5), out)
            if f.seen_over is not None and f.neighbours is not None and len(f.seen_over) == n:
                # nor a peg read as the side of a neighbour whose peg may be seen over the hole, where
                # the spot's half keeps its pattern (SPOT_HALF_INTACT): that neighbour's peg may be
                # all that breaks the pattern (bench18's s8-wood, tilt 25: orange's empty H1-s6 under
                # H2-s6's head, its own half -0.05 and the spot's 0.87, read orange at 1.00; under the
                # path-traced sets' pegs read surely beside a look-alike neighbour so seen, the spot's
                # half was 0.75 at most)
                like_over = ((labels[f.neighbours] == labels[:, None]) & f.seen_over).any(axis=1)
                out = np.where((labels >= 0) & like_over & (f.structure_spot >= SPOT_HALF_INTACT),
                               np.minimum(out, 0.5), out)
        if self.empty_seen is not None and self.start_side is not None and len(self.start_side) == n:
            # a start hole whose empty look was never seen (its side's pegs stood in it at calibration)
            # is known with its own side's peg in it, not empty nor with another side's: its borrowed
            # empty look and pattern may be unlike its own (bench6's s4-wood-bw, white's empty start
            # holes, own half 0.01-0.10 against the borrowed pattern, read black at 1.00), so another
            # side read there is not sure
            other = ~self.empty_seen & (self.start_side >= 0) & (labels >= 0) & (labels != self.start_side)
            out = np.where(other, np.minimum(out, 0.5), out)
        for i in range(n):
            if hidden[i] or labels[i] == UNKNOWN or settled[i]:
                continue
            if labels[i] >= 0 and labels[i] in col:
                k = col[labels[i]]
                # (the shaft is seen where the hole's own half of the patch is broken, whatever its colours)
                if distinct[i, k] and d_hole[i] < 0.35 * gap[i, k] and not hole_broken[i]:
                    out[i] = min(out[i], 0.5)
            elif labels[i] == EMPTY:
                if distinct[i].any() and d_hole[i] > max(0.5 * gap[i][distinct[i]].min(), 4 * self.tau):
                    out[i] = min(out[i], 0.5)
                # nor is a hole unlike its own empty look: nearer to "empty" than to any peg is not enough
                if f.d_empty is not None and len(f.d_empty) == n and f.d_empty[i] > EMPTY_SEEN * self.tau:
                    out[i] = min(out[i], 0.5)
        return out

    def distances(self, f: Features) -> tuple[np.ndarray, np.ndarray]:
        """((N, classes) distances in the order of ``keys``, (N, sides) best head position)."""
        n_sides = len(self.sides)
        d_empty = self.hole_empty_distance(f)
        if f.head_empty_lab is not None:
            # the camera model puts the head: a peg is there when its spot doesn't look as it does with
            # the hole empty (a black head against the grey disc, not a dark shaft in a dark hole; a
            # neighbour's head over this hole's disc doesn't count for this hole)
            d_head = spot_distance(f.spot_lab, f.head_empty_lab)
            # where some side's heads look like the empty spot (a white head seen against a marker's
            # white sticker), the hole's own disc (the shaft hides the dark hole) must look empty too
            # both looks must say "empty" where no neighbour's head can be seen over the disc (a yellow
            # head may look like the wood round it, its body in the hole does not)
            both = np.ones(len(d_head), bool) if f.covered is None else ~np.asarray(f.covered, bool)
            if self.head_weak is not None and len(self.head_weak) == len(d_head):
                both |= self.head_weak
            d_empty = np.where(both, np.maximum(d_head, d_empty), d_head)
        if f.brighter is not None and self.clip_proven is not None and len(self.clip_proven) == len(d_empty):
            # clipped where its own (seen) empty look is far from clipping: not an empty hole
            d_empty = np.where(f.brighter & self.clip_proven, np.maximum(d_empty, 1e3), d_empty)
        f.dome = None
        if f.structure_hole is not None and len(f.structure_hole) == len(d_empty):
            # a dome lit from one side shades like the disc's edge round the hole, so the spot's half
            # (and with it the whole patch) may keep its empty pattern under a head; the shaft standing
            # in the hole breaks the hole's own half all the same, and the colours are far from empty
            # (bench9's s4-paper-bw M54, a black peg: whole 0.85, spot's half 0.87, own 0.64, read
            # "empty" at 1.00; intact patches over pegs: own half 0.65 at most, colours 10-11 spreads
            # off; over empty holes below 0.7, 16 of 7,251, bench7's s6-paper M74 0.64 at 1.9 spreads).
            # Broken (STRUCTURE_PEG), no empty hole (0.58 at least), 11 pegs: white heads on white paper
            # (bench9's s6-paper, own half -0.28 to 0.17, read "empty" at 1.00) whose colours say nothing
            f.dome = ((f.structure_hole < OWN_HALF_INTACT) & (d_empty > EMPTY_SEEN * self.tau)) \
                | self.own_half_broken(f, len(d_empty))
        d_board = self._dist(f.hole_lab, f.hole_bgr, f.hole_clip, slice(n_sides + 1, n_sides + 2))[:, 0]
        # where a lamp's sheen blows the ring out, bare board over the hole would be blown out
        # too: a hole whose own disc isn't clipped is not covered by board-coloured paper
        blown = (np.asarray(f.saturated) > 0.5) & ~f.hole_clip.any(axis=1)
        d_board = np.where(blown, np.maximum(d_board, 1e3), d_board)
        d_heads = self._dist(f.head_lab, f.head_bgr, f.head_clip, slice(1, n_sides + 2))   # (N, C, S + 1)
        # bare board over the hole (a hand, a card) is board-coloured where a peg's head would be too;
        # a peg coloured like the wood (yellow) shows it in its head, not in the hole it covers
        d_heads, d_board_heads = d_heads[..., :-1], d_heads[..., -1]
        where = d_heads.argmin(axis=1)
        d_sides = d_heads.min(axis=1)
        at = where[np.arange(len(where)), d_sides.argmin(axis=1)]        # the nearest side's best head
        d_board = np.maximum(d_board, d_board_heads[np.arange(len(at)), at])
        if self.gate is not None:
            d_sides = np.maximum(d_sides, 2 * self.gate[None, :] - d_empty[:, None])
        if f.spot_lab is not None and self.model.spots and all(s in self.model.spots for s in self.sides):
            # "a peg or empty" weighed on the same look: the head's spot against each side's own spot
            # as well as against its empty look (the best of the heads nearby may find a shadow)
            own = np.array([self.model.spots[s] for s in self.sides], float)           # (S, 2, 3)
            d_spot = spot_distance(f.spot_lab[:, None], own[None])                      # (N, S)
            d_sides = np.maximum(d_sides, SPOT_WEIGHT * d_spot)
        intact, broken = self.structure_says(f)
        f.conflict = None
        f.hue_shift = None
        if f.spot_lab is not None and f.head_empty_lab is not None:
            # how far the head's spot moved in hue and saturation (Lab a, b) from its empty look
            f.hue_shift = np.hypot(*(f.spot_lab[..., 1:] - f.head_empty_lab[..., 1:]).transpose(2, 0, 1)).max(axis=1)
            # more than a shadow or a neighbour's reflection moves it, where the pattern is intact: a
            # coloured head seen there with its hole in view is not a peg in this hole: not sure there
            # (unless the spot's half keeps its empty pattern too, SPOT_BARE: no head is there, the
            # colour is a neighbour's tint; 21 holes of the path-traced sets had their hue so moved
            # over an intact pattern, all empty, and left two of bench14's s4-wood positions unread;
            # a head seen at the spot breaks that half to 0.88 at most there, and the 2D room set's
            # head pasted at an empty hole's spot to 0.91)
            f.conflict = intact & (f.hue_shift > HUE_SHIFT)
            if f.structure_spot is not None and len(f.structure_spot) == len(d_sides):
                f.conflict &= f.structure_spot < SPOT_BARE
            d_sides = self.sides_by_raw_hue(f, d_sides, where, broken | self.own_half_broken(f, len(d_sides)))
            other_hue = self.raw_hue_disagrees(f, d_sides, where, np.minimum(d_empty, d_board))
            if other_hue is not None:
                f.conflict = f.conflict | other_hue
        if intact.any() or broken.any():
            # the hole's own pattern settles "empty or not": an intact pattern (the dark hole in its grey
            # disc, in a shadow or not) holds no peg and no hand; a broken one holds something, so
            # "empty" is out and the colour only says which side (or bare board: a hand, a card)
            far = 1e3
            d_empty = np.where(intact, 0.0, np.where(broken, np.maximum(d_empty, far), d_empty))
            d_sides = np.where(intact[:, None], np.maximum(d_sides, far), d_sides)
            d_board = np.where(intact, np.maximum(d_board, far), d_board)
            if f.ring_clear is not None:
                # something stands in the hole and the bare board round it looks as it did: nothing
                # as wide as a hand or a card covers it, so a head that looks like the board (a white
                # peg on a white print) is a peg
                d_board = np.where(broken & f.ring_clear, np.maximum(d_board, far), d_board)
        shaft = f.shaft = self.shaft_seen(f, intact, broken)
        if shaft is not None:
            d_empty = np.where(shaft, np.maximum(d_empty, 1e3), d_empty)
            d_board = np.where(shaft, np.maximum(d_board, 1e3), d_board)
        if f.structure_hole is not None and f.hue_shift is not None:
            # a shadow over an empty hole: the head's spot darker than its empty look, in the same hue,
            # by no more than a shadow darkens it, and the pattern of the hole itself (its half of
            # the patch, on the board) intact, though the whole patch is not (the spot's half is in
            # the shadow's soft edge). A peg's shaft in the hole breaks that half: on the four
            # path-traced sets its correlation was at most 0.74 under 670 black pegs (0.56 under the
            # 12 pegs of any colour whose spot was darkened like this), and 0.78-0.96 under empty
            # holes read black in a neighbour's shadow. So no side there
            # (or nearly intact, 0.7, with the spot's half no less so: a black head there breaks the spot's
            # half, 0.11-1.23 below its own half's under every black peg whose own half is 0.6 or more;
            # an empty hole's spot half is mostly the likelier, 0.1 above at the median)
            # (or the spot's half intact: a dark head seen there breaks it, to 0.74 at most under
            # the 670 black pegs; the own half of an empty hole at a far corner, 0.39-0.61, may be
            # broken by a neighbour's peg seen over it)
            spot_half = f.structure_spot if f.structure_spot is not None else f.structure_hole
            own_intact = (f.structure_hole >= SHADOW_OWN_INTACT) | (
                (f.structure_hole >= HOLE_NEARLY_INTACT) & (spot_half >= f.structure_hole - 0.05))
            # (but not where the spot is darker than a shadow makes it: 0.66 of its empty look's
            # lightness at the darkest under the 45 empty holes this said were shadowed on the
            # path-traced sets; bench13's s4-paper-bw M15, a black head over its own hole, its own
            # half 0.51 and the spot's 0.81, was at 0.54 and read empty at 1.00), nor where its rim, the
            # head's edge, keeps less than SHADOW_RIM_LIGHTNESS of it: the 102 empty holes this said
            # were shadowed on 18 path-traced sets kept 0.60 or more there, 4 of the 5 black heads
            # seen beside an intact spot's half 0.43-0.58 (bench22's s4-paper-bw M60, core 0.62 and
            # rim 0.50, was read empty at 1.00)
            ratio = f.spot_lab[..., 0] / np.maximum(f.head_empty_lab[..., 0], 1.0)
            lit = (ratio.max(axis=1) >= SHADOW_LIGHTNESS) & (ratio[:, 1] >= SHADOW_RIM_LIGHTNESS)
            own_intact |= (spot_half >= SPOT_HALF_INTACT) & lit
            covered = np.asarray(f.covered if f.covered is not None else np.zeros(len(d_empty)), bool)
            shadow = own_intact & ~intact & ~broken & self.darkened_like_a_shadow(f, d_empty) & ~covered
            # told only by the nearly intact own half with the spot's half a little less intact than it
            # (within 0.05): empty, not surely (bench6's s6-paper M87, a black peg: own 0.71, spot's 0.67)
            barely = shadow & (f.structure_hole < SHADOW_OWN_INTACT) & (spot_half < SPOT_HALF_INTACT) \
                & (spot_half < f.structure_hole)
            deep = np.zeros_like(shadow)
            if f.overlooked is not None:
                # a lamp's shadow darker than that (a peg's, near the lamp: the spot at a third of its
                # empty look's lightness) breaks the spot's half and the whole patch with it; the hole's
                # own half all but intact (``DEEP_OWN_INTACT``) says no shaft stands in it all the same,
                # where no neighbour's peg may be seen over it. Empty, but not surely: the spot is hidden
                deep = (f.structure_hole >= DEEP_OWN_INTACT) & ~intact & ~covered & ~f.overlooked \
                    & self.darkened_like_a_shadow(f, None) & ~shadow
            d_empty = np.where(deep, 0.0, d_empty)
            shadow = shadow | deep
            f.unsure_shadow = barely | deep
            d_sides = np.where(shadow[:, None], np.maximum(d_sides, 1e3), d_sides)
            if f.ring_clear is not None:
                # nor a hand or a card: the board round the hole looks as it did
                d_board = np.where(shadow & np.asarray(f.ring_clear, bool), np.maximum(d_board, 1e3), d_board)
            f.shadow = shadow
        f.d_empty = d_empty
        if f.conflict is not None:
            # after the pattern's say, so "a peg" here is the label the hole gets
            warmer = self.warmer_than_a_plain_head(f, d_sides, where, np.minimum(d_empty, d_board))
            if warmer is not None:
                f.conflict = f.conflict | warmer
            unlike = self.unlike_its_side_as_seen(f, d_sides, where, np.minimum(d_empty, d_board))
            if unlike is not None:
                f.conflict = f.conflict | unlike
        lighter = self.lighter_than_a_dark_head(f, d_sides, np.minimum(d_empty, d_board))
        if lighter is not None:
            f.conflict = lighter if f.conflict is None else f.conflict | lighter
        f.d_sides = d_sides
        return np.column_stack([d_empty, d_sides, d_board]), where

    def _raw_hue_apart(self, f: Features, rows, at) -> tuple[np.ndarray, np.ndarray]:
        """(Lab of the heads as the camera sees them at ``rows``' shift ``at``, (rows, sides) degrees
        of hue between each and every side's start heads)."""
        lab = bgr_to_lab(f.head_raw[rows, at].astype(np.float32))
        return lab, self._hue_apart(lab)

    def _hue_apart(self, lab: np.ndarray) -> np.ndarray:
        """(R, sides) degrees of hue between each of the heads ``lab`` (R, 3) as seen and every
        side's start heads."""
        hue = np.degrees(np.arctan2(lab[:, 2], lab[:, 1]))
        return np.abs((hue[:, None] - self.raw_hue[0][None, :] + 180.0) % 360.0 - 180.0)

    def sides_by_raw_hue(self, f: Features, d_sides, where, broken) -> np.ndarray:
        """``d_sides`` (N, S), with the coloured sides' distances taken from the head's hue as the
        camera sees it (``RAW_HUE_SPREAD`` degrees a spread) where the colour divided by the board
        fails: the nearest side is far (more than 4 of its spreads: "unlike anything learnt") or not
        the side whose hue the head shows. Only where something stands in the hole (its pattern
        broken), the board round it is as at calibration (no hand), the head is colourful, and its
        hue is within ``RAW_HUE_OWN`` degrees of one coloured side's start heads and ``RAW_HUE_APART``
        further from every other side's (black and white ones by their own distances). On the
        path-traced sets the hue as seen named the right side for all 671 coloured pegs read and
        for all 18 coloured heads left "unlike anything learnt", 8 of them nearest another side by
        the divided colour (purple heads nearest blue, yellow nearest orange). The hue is read
        where the nearest side's head was found and where the head is most colourful (its lit
        side); either names the side where it is clear and the head there is ``RAW_COLOURFUL``
        as colourful as that side's start heads (the 2,730 coloured pegs in view: 0.76 or more)."""
        if self.raw_hue is None or f.head_raw is None or f.ring_clear is None or len(self.sides) < 2:
            return d_sides
        _, coloured = self.raw_hue
        n = len(d_sides)
        j = d_sides.argmin(axis=1)
        nearest = d_sides[np.arange(n), j]
        rows = np.nonzero(broken & np.asarray(f.ring_clear, bool))[0]
        if not len(rows):
            return d_sides
        at = where[rows, j[rows]]
        # the hue where the nearest side's head was best found, and where the head is most colourful:
        # a yellow head's shaded side looks orange as seen (hue 91 against yellow's 100 and orange's
        # 76, where orange found its best match), its lit side yellow (100)
        every = bgr_to_lab(f.head_raw[rows].astype(np.float32))                       # (R, shifts, 3)
        vivid = np.hypot(every[..., 1], every[..., 2]).argmax(axis=1)
        by, ks, takes = [], [], []
        for shift in (at, vivid):
            lab = every[np.arange(len(rows)), shift]
            chroma = np.hypot(lab[:, 1], lab[:, 2])
            # a side whose start heads are far paler than this head (a warm white, chroma 22 as seen,
            # against a yellow head's 85) has no say by hue: its hue is the lamp's (white's 79 sat
            # between yellow's 91 and orange's 57 on bench10's s8-wood, and kept yellow heads unread)
            paler = self.raw_chroma[None, :] < PALER * chroma[:, None]
            hued_sides = coloured[None, :] & ~((chroma[:, None] >= VIVID_HEAD) & paler)
            apart = np.where(hued_sides, self._hue_apart(lab), np.inf)
            k = apart.argmin(axis=1)
            own = apart[np.arange(len(rows)), k]
            second = np.partition(apart, 1, axis=1)[:, 1] if apart.shape[1] > 1 else np.full(len(rows), np.inf)
            by_hue = np.where(hued_sides, self.tau * apart / RAW_HUE_SPREAD, d_sides[rows])
            # clear of the other coloured sides by hue, and of the plain sides by their divided
            # colour unless their start heads are less than half as colourful as this head (then only
            # by the argmin below): a head in a coloured side's hue, at half its colour, more than
            # twice as colourful as a plain side's heads, is none of them (bench10's s8-wood: a blue
            # head read black at 1.00, 2.8 spreads from black and 8.0 from blue, chroma 34 against
            # black's 1, and a purple one read black; no black peg of the path-traced sets does so.
            # A cool white head, chroma 26 against white's 17, in blue's hue: the 2D room 710's M64)
            hued = np.where(hued_sides | (~coloured[None, :] & ~paler), by_hue, np.inf)
            clear = np.partition(hued, 1, axis=1)[:, 1] - by_hue[np.arange(len(rows)), k] \
                if hued.shape[1] > 1 else np.full(len(rows), np.inf)
            fails = (j[rows] != k) | (nearest[rows] > 4 * self.class_tau[1 + j[rows]])
            # as colourful as that side's start heads, or half so (a warm white head's most
            # colourful spot has yellow's hue, not its colour)
            takes.append(fails & (chroma > RAW_CHROMA) & (chroma >= RAW_COLOURFUL * self.raw_chroma[k]) & (own <= RAW_HUE_OWN)
                         & (second >= own + RAW_HUE_APART) & (by_hue.argmin(axis=1) == k)
                         & (clear >= RAW_HUE_APART / RAW_HUE_SPREAD * self.tau))
            by.append(by_hue)
            ks.append(k)
        # either look, where the two don't name different sides
        agree = ~(takes[0] & takes[1]) | (ks[0] == ks[1])
        take = (takes[0] | takes[1]) & agree
        if not take.any():
            return d_sides
        out = d_sides.copy()
        out[rows[take]] = np.where(takes[0][:, None], by[0], by[1])[take]
        return out

    def lighter_than_a_dark_head(self, f: Features, d_sides, d_rest) -> np.ndarray | None:
        """(N,) bool: the nearest class is a side whose heads darken this hole's spot (core and rim
        both darker than its empty look: black, say), yet the spot is lighter than its empty look, in
        core and rim alike, by more than ``LIGHTER_SPREADS`` spreads: a dark head can't do that (the
        mirror of "a spot lighter than its empty look is not surely empty"). On the path-traced sets
        168 black pegs read as black had at least one part 0.7 spreads darker or more; an empty start
        hole whose empty look was only estimated (bench2's s4-wood-bw S-s2-3, both parts 2 spreads
        lighter) was read black at 1.00."""
        if f.spot_lab is None or f.head_empty_lab is None or not self.model.spots \
                or not all(s in self.model.spots for s in self.sides) or len(self.sides) == 0:
            return None
        n = len(d_sides)
        j = d_sides.argmin(axis=1)
        own = np.array([self.model.spots[s] for s in self.sides], float)[j, :, 0]          # (N, 2)
        empty = f.head_empty_lab[..., 0]
        dark = (own < empty).all(axis=1)
        lighter = ((f.spot_lab[..., 0] - empty) > LIGHTER_SPREADS * self.tau).all(axis=1)
        d_own = d_sides[np.arange(n), j]
        if self.raw_hue is not None:
            # but a coloured head as its side's look within a spread, over a hole its shaft breaks,
            # is that side's peg: a glossy blue or red dome in the lamp's light is lighter than the
            # dark hole and disc it covers (bench21's s4-wood M52: L 54 and 49 over an empty look of
            # 39 and 38, as in the empty-board picture), though its side's start heads are darker.
            # On the path-traced sets the rule met 5 such heads, all right (0.0-0.9 spreads off);
            # every hole it rightly doubted was 3.7 spreads off or more
            close = self.raw_hue[1][j] & (d_own <= LIGHTER_CLOSE * self.tau) & self.own_half_broken(f, n)
            lighter &= ~close
        return dark & lighter & (d_own < d_rest)

    def raw_hue_disagrees(self, f: Features, d_sides, where, d_rest) -> np.ndarray | None:
        """(N,) bool: the nearest side's head, as the camera sees it before any normalisation, is not
        clearly of that side's hue (``RAW_HUE_CLEAR`` degrees nearer its start heads' than any other
        coloured side's). Dividing by the
        board round a hole assumes the head is lit like the board; a dome turned from the lamp, or a
        ring brighter than the head (a yellow head whose ring is near white), breaks that, and a
        yellow head read orange surely (bench3's s8-wood-k1-0.2) still shows yellow's hue as seen.
        Only where a peg is the nearest class (not empty, not bare board) and the head is coloured.
        On the path-traced sets every coloured peg read surely and rightly was 10 degrees nearer
        its own side's hue or more; the old bench's s8-wood read two yellow heads orange at 1.00
        whose hue was 15.2 and 13.0 degrees from orange's, 9.5 and 11.8 from yellow's: nearer the
        other side's, but by less than the 10 degrees an earlier rule asked for.
        Nor is a head sure of a coloured side when the camera sees it nearly grey (its chroma under
        ``RAW_COLOURLESS`` of that side's start heads') and no lighter than they are: the colour
        then comes from the division by a board in shadow or in a warm light (a lamp's sheen, which
        lightens a head, may wash its colour out: 2D `hard` 1007, a blue head at L 78 against its
        start heads' 50, chroma 0.29 of theirs). Over 2,680 coloured heads read surely and rightly
        on the path-traced sets the lowest was 0.54; two black heads read blue at 0.99 were at
        0.08 and 0.09 (a black dome's sheen, (62, 58, 56) as seen, divided by a dark warm ring)."""
        if self.raw_hue is None or f.head_raw is None or len(self.sides) < 2:
            return None
        _, coloured = self.raw_hue
        n = len(d_sides)
        j = d_sides.argmin(axis=1)
        peg = (d_sides[np.arange(n), j] < d_rest) & coloured[j]
        if not peg.any():
            return np.zeros(n, bool)
        rows = np.nonzero(peg)[0]
        lab, apart = self._raw_hue_apart(f, rows, where[rows, j[rows]])
        own = apart[np.arange(len(rows)), j[rows]]
        others = np.where(coloured[None, :] & (np.arange(len(coloured))[None, :] != j[rows][:, None]), apart, np.inf)
        chroma = np.hypot(lab[:, 1], lab[:, 2])
        out = np.zeros(n, bool)
        out[rows] = ((chroma > RAW_CHROMA) & (own > others.min(axis=1) - RAW_HUE_CLEAR)) \
            | ((chroma < RAW_COLOURLESS * self.raw_chroma[j[rows]]) & (lab[:, 0] <= self.raw_light[j[rows]]))
        return out

    def warmer_than_a_plain_head(self, f: Features, d_sides, where, d_rest) -> np.ndarray | None:
        """(N,) bool: the nearest side's heads are plain (white or black: their start heads' chroma as
        seen under ``RAW_CHROMA``), yet the head read is warmer (Lab b) than that side's by more than
        ``WARMER`` both as the camera sees it (against the start heads) and divided by the board
        (against the side's class). The lamp warms a plain head as seen and the board's division
        takes that out; a surface warm of its own, skin, stays warm in both: bench2's s6-wood
        ``move-06-hand`` read an empty hole under a lamp-lit finger white at 1.00 (+10.4 as seen,
        +13.6 divided), where the 645 white and 640 black pegs read surely on the path-traced sets
        were at most +3.7 and +5.1 in the lesser of the two."""
        if self.raw_hue is None or f.head_raw is None or len(self.sides) == 0:
            return None
        _, coloured = self.raw_hue
        n = len(d_sides)
        j = d_sides.argmin(axis=1)
        peg = (d_sides[np.arange(n), j] < d_rest) & ~coloured[j]
        out = np.zeros(n, bool)
        if not peg.any():
            return out
        rows = np.nonzero(peg)[0]
        at = where[rows, j[rows]]
        raw = bgr_to_lab(f.head_raw[rows, at].astype(np.float32))[:, 2]
        seen = np.array([self.model.raw_heads[s][2] for s in self.sides], float)[j[rows]]
        divided = f.head_lab[rows, at, 2]
        own = np.array([self.model.pegs[s][2] for s in self.sides], float)[j[rows]]
        out[rows] = np.minimum(raw - seen, divided - own) > WARMER
        return out

    def unlike_its_side_as_seen(self, f: Features, d_sides, where, d_rest) -> np.ndarray | None:
        """(N,) bool: a hole whose ring was told by its neighbours' (``_ring_told``), nearest a side's
        pegs, whose head as the camera sees it is unlike that side's start heads: a light plain
        side's (white) further than ``RAW_PLAIN_AB`` from theirs in Lab a-b, a coloured side's less
        than ``RAW_COLOURFUL`` as colourful. A told ring divides whatever stands over the hole as if it were lit
        like the board at calibration, and a lamp-lit finger over an empty hole came out white at
        1.00 (bench2's s8-wood ``move-06-hand`` M97 and M100, bench3's s8-wood-k1-0.2 ``hand-01``
        M109-M111: 6.7-14.8 from the white start heads as seen, redder; the white heads read through
        told rings on the path-traced sets 0.0-3.9). Not black: a black dome's sheen tints it as seen,
        up to 8.4 from its start heads through told rings, and no hand over a hole read black."""
        if f.ring_told is None or not np.any(f.ring_told) or self.raw_hue is None or f.head_raw is None \
                or len(self.sides) == 0:
            return None
        _, coloured = self.raw_hue
        n = len(d_sides)
        j = d_sides.argmin(axis=1)
        out = np.zeros(n, bool)
        rows = np.nonzero((d_sides[np.arange(n), j] < d_rest) & np.asarray(f.ring_told, bool))[0]
        if not len(rows):
            return out
        lab = bgr_to_lab(f.head_raw[rows, where[rows, j[rows]]].astype(np.float32))
        start = np.array([self.model.raw_heads[s] for s in self.sides], float)[j[rows]]
        ab = np.hypot(lab[:, 1] - start[:, 1], lab[:, 2] - start[:, 2])
        chroma = np.hypot(lab[:, 1], lab[:, 2])
        light = self.raw_light[j[rows]] >= 50.0          # white, not black (Lab L as seen)
        out[rows] = np.where(coloured[j[rows]], chroma < RAW_COLOURFUL * self.raw_chroma[j[rows]],
                             light & (ab > RAW_PLAIN_AB))
        return out

    def readings(self, f: Features, visible=None, d=None, labels=None) -> list:
        """Per hole, ``(p_peg, side or None, p_side)`` (companion.readings.Reading), or None
        for a hole that tells nothing (covered by a hand, blown out, unlike anything learnt,
        out of the picture). p_peg weighs the nearest side's pegs against an empty hole;
        p_side is the chosen side's share among the sides. ``d``/``labels``: from
        ``distances``/``classify`` of the same features, if the caller has them."""
        if d is None:
            d, _ = self.distances(f)
        if labels is None:
            labels = self.classify(f, d=d)[0]
        n, n_sides = len(d), len(self.sides)
        unread = labels == UNKNOWN
        if self.unsure is not None and len(self.unsure) == n:
            unread = unread | self.still_unsure(f, labels, d[:, 0])
        if visible is not None:
            unread = unread | ~np.asarray(visible, bool)
        if f.conflict is not None and len(f.conflict) == n:
            unread = unread | f.conflict
        if n_sides == 0:
            return [None if unread[i] else (0.0, None, 0.0) for i in range(n)]
        t2 = 2 * self.tau ** 2
        de, ds = d[:, 0], d[:, 1:1 + n_sides]
        j = ds.argmin(axis=1)
        dmin = ds[np.arange(n), j]
        # log-odds peg vs empty, bounded so one hole never decides a game alone
        p_peg = 1.0 / (1.0 + np.exp(-np.clip((de ** 2 - dmin ** 2) / t2, -30, 30)))
        p_side = 1.0 / np.exp(-np.clip((ds ** 2 - dmin[:, None] ** 2) / t2, 0, 60)).sum(axis=1)
        sides = self.sides[j]
        out = []
        for i in range(n):
            if unread[i]:
                out.append(None)
            elif p_peg[i] < 0.2:     # an empty hole: its nearest colour means nothing
                out.append((float(p_peg[i]), None, 0.0))
            else:
                out.append((float(p_peg[i]), int(sides[i]), float(p_side[i])))
        return out

    def candidates(self, d, labels) -> list:
        """Per hole, what it may hold as far as its look goes, for settling a hole not read surely by
        the peg count (vision.position.settle_by_count): a tuple of labels, EMPTY always among them
        (a candidate too many only makes the count settle less often, one too few can make it settle
        wrongly), or None where the nearest class is bare board (a hand or a card over the hole: the
        picture says nothing of it)."""
        n_sides = len(self.sides)
        out = []
        if n_sides == 0:
            return [(EMPTY,)] * len(d)
        ds = d[:, 1:1 + n_sides]
        best = ds.min(axis=1)
        near = (ds <= best[:, None] + CANDIDATE_SPREADS * self.tau) & (ds <= CANDIDATE_FAR * self.tau)
        covered = d.argmin(axis=1) == d.shape[1] - 1
        for i in range(len(d)):
            if covered[i]:
                out.append(None)
                continue
            c = {EMPTY} | {int(s) for s in self.sides[near[i]]}
            if labels[i] >= 0:
                c.add(int(labels[i]))
            out.append(tuple(sorted(c)))
        return out

    def classify(self, f: Features, d=None):
        """(labels, confidences, distance to the chosen class, best head position per hole)."""
        d, where = self.distances(f) if d is None else (d, None)
        if where is None:
            where = np.zeros((len(d), max(len(self.sides), 1)), int)
        n = len(d)
        best = d.argmin(axis=1)
        d1 = d[np.arange(n), best]
        z = -(d ** 2 - d1[:, None] ** 2) / (2 * self.tau ** 2)
        conf = 1.0 / np.exp(np.clip(z, -60, 0)).sum(axis=1)
        labels = self.keys[best].copy()
        outlier = d1 > np.maximum(4 * self.class_tau[best], 0.5 * self.separation[best])
        # the ring is blown out (a lamp's sheen), so it can't normalise: still sure when the hole
        # matches one class closely and every other clearly worse (an empty hole its own look)
        second = np.partition(d, 1, axis=1)[:, 1] if d.shape[1] > 1 else np.full(n, np.inf)
        clear = (d1 <= 3.5 * self.tau) & (second >= d1 + 1.5 * self.tau)
        outlier |= (np.asarray(f.saturated) > 0.5) & ~clear
        if f.structure is not None and f.ring_clear is not None and len(self.sides) > 1:
            # something stands in the hole (its pattern broken) and the board round it looks as it did
            # (no hand, no card): a peg, whose colour a lamp's sheen moved further from its side's than
            # the spread allows (clipped channels); still that side's where every other class is at least
            # PEG_FAR_APART spreads further (2D `hard` 1010: green pegs in the sheen 25-27 from green, 48-50
            # from the next; yellow against green there stays unread: 27.5 against 29.5; bench8's and bench9's
            # white heads in a lamp's light, 6.5-6.7 spreads from white, 2.6-2.8 nearer it than black: 3.5
            # until session 13)
            _, broken = self.structure_says(f)
            if f.shaft is not None and len(f.shaft) == n:
                broken = broken | f.shaft
            peg_far = broken & np.asarray(f.ring_clear, bool) & (self.keys[best] >= 0) \
                & (d1 <= 6 * self.class_tau[best]) & (second >= d1 + PEG_FAR_APART * self.tau)
            outlier &= ~peg_far
        if f.shadow is not None and len(f.shadow) == n:
            # a shadow explains how far "empty" is (up to SHADOW_SPREADS): not unlike anything learnt
            outlier &= ~(f.shadow & (self.keys[best] == EMPTY))
        labels[outlier] = UNKNOWN
        conf = np.where(labels == UNKNOWN, 0.0, conf)
        if self.unsure is not None and len(self.unsure) == n:
            conf = np.where(self.still_unsure(f, labels, d[:, 0]), np.minimum(conf, 0.5), conf)
        if len(self.sides) > 1:
            # far from every side's look, a small gap says little (the posterior saturates: a purple
            # head in a shadow, 4.1 spreads from black and 5.3 from purple, read black at 1.00 on
            # bench10's s8-wood, and an empty hole under a yellow head seen beside it read black at 0.98,
            # white 0.9 spreads further; sure pegs so placed on six path-traced sets: 4 right of 2,386,
            # 2 of the 3 wrong)
            ds = np.sort(d[:, 1:1 + len(self.sides)], axis=1)
            torn = (labels >= 0) & (ds[:, 0] > FAR_HEAD * self.tau) & (ds[:, 1] - ds[:, 0] < SIDE_GAP * self.tau)
            if self.raw_hue is not None:
                # ... for a colourless side (black, white): a coloured one's hue as seen names it
                # (sides_by_raw_hue; 2D `hard` yellow heads in the sheen, 3.5 spreads off, orange near)
                col = np.clip(best - 1, 0, len(self.sides) - 1)
                torn &= ~self.raw_hue[1][col]
            conf = np.where(torn, np.minimum(conf, 0.5), conf)
        side_col = np.clip(best - 1, 0, max(len(self.sides) - 1, 0))
        head = where[np.arange(n), side_col] if len(self.sides) else np.zeros(n, int)
        return labels, conf, d1, head


@dataclass
class BoardReading:
    """One frame's reading of every hole."""
    labels: dict                 # hole -> EMPTY, a side, or UNKNOWN
    confidence: dict             # hole -> 0..1
    lab: dict | None = None      # hole -> normalised Lab (for diagnostics)
    markers_ok: bool = True      # the homography was confirmed on this frame
    moving: bool = False         # something moved over the board (see motion.py)
    readings: dict = field(default_factory=dict)   # hole -> (p_peg, side, p_side); unread holes left out
    foreground: int = 0          # points of the largest patch of changed bare board (vision.foreground)
    # hole -> what it may hold (Classifier.candidates), for the visible holes read with confidence
    # below CANDIDATES_BELOW: settling them by the peg count (vision.position.settle_by_count)
    candidates: dict = field(default_factory=dict)

    @property
    def pegs(self) -> dict:
        """hole -> side of every hole read as holding a peg."""
        return {h: int(v) for h, v in self.labels.items() if v >= 0}

    @property
    def unknown(self) -> list:
        return [h for h, v in self.labels.items() if v == UNKNOWN]

    @property
    def min_confidence(self) -> float:
        return min(self.confidence.values()) if self.confidence else 0.0

    def state(self) -> tuple:
        """A hashable snapshot: ((hole, label), ...) in hole order."""
        return tuple(self.labels.items())


def read_holes(frame: np.ndarray, sampler: HoleSampler, classifier: Classifier, keep_lab: bool = False,
               samples: Samples | None = None, foreground: int | None = None) -> BoardReading:
    """Every hole of one frame. ``samples``: the frame's, if the caller already took them (the
    live path keeps them for what the referee later learns from a still board); ``foreground``:
    its largest patch of changed bare board (``largest_patch``), if the caller knows it."""
    f = classifier.features(samples if samples is not None else sampler.sample(frame))
    d, where = classifier.distances(f)
    labels, conf, _, _ = classifier.classify(f, d=d)
    conf = classifier.check_picture(f, labels, conf, sampler.covered)
    patch = 0 if foreground is None else foreground
    if classifier.background_ref is not None:
        if foreground is None:
            cells, reference, reference_lab, bare_lab = classifier.background_ref
            patch = largest_patch(frame, cells, sampler.background(cells), reference, reference_lab, bare_lab)
        if patch >= PATCH_POINTS:
            # something as large as a hand lies over the board: no hole is sure while it is there
            conf = np.minimum(conf, 0.5)
    labels, conf = _own_home(labels, conf, d, classifier, sampler.home_side)
    conf = _more_than_its_pegs(labels, conf, sampler.layout.start_holes, sampler.visible)
    head = where[np.arange(len(d)), np.clip(np.argmin(d, axis=1) - 1, 0, max(len(classifier.sides) - 1, 0))] \
        if len(classifier.sides) else np.zeros(len(d), int)
    per_hole = dict(zip(sampler.holes, classifier.readings(f, sampler.visible, d, labels)))
    labels = np.where(sampler.visible, labels, UNKNOWN)
    conf = np.where(sampler.visible, conf, 0.0)
    holes = sampler.holes
    low = np.flatnonzero((conf < CANDIDATES_BELOW) & sampler.visible)
    may_hold = classifier.candidates(d[low], labels[low]) if len(low) else []
    own = sampler.home_side
    candidates = {holes[i]: c if own[i] == NOT_HOME else tuple(v for v in c if v in (EMPTY, own[i]))
                  for i, c in zip(low, may_hold) if c is not None}
    lab = None
    if keep_lab:
        lab = {h: (f.head_lab[i, head[i]] if labels[i] >= 0 else f.hole_lab[i]).tolist() for i, h in enumerate(holes)}
    return BoardReading(labels=dict(zip(holes, labels.tolist())), confidence=dict(zip(holes, conf.tolist())), lab=lab,
                        readings={h: r for h, r in per_hole.items() if r is not None}, foreground=patch,
                        candidates=candidates)


def _own_home(labels: np.ndarray, conf: np.ndarray, d: np.ndarray, classifier: Classifier,
              home_side: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """A home hole holds its own side's peg or none. One read unsure as another side's peg takes
    the nearer of those two looks, still unsure, or is unread where both are further than
    CANDIDATE_FAR spreads (empty holes of bench11's s8-wood H1-s7 and H4-s7, 4.2-6.8 spreads from
    empty, and bench13's H3-s1 and H4-s1, 17-18 from empty and 14-17 from their side's blue: a
    neighbour's shadow or tinted edge read black at 0.50). Read surely, it stays: a peg put in the
    wrong home is for the referee to name."""
    wrong = (home_side != NOT_HOME) & (labels >= 0) & (labels != home_side) & (conf < SURE)
    if not wrong.any():
        return labels, conf
    labels, conf = labels.copy(), conf.copy()
    column = {int(k): i for i, k in enumerate(classifier.keys)}
    for i in np.flatnonzero(wrong):
        own = column.get(int(home_side[i]))          # None: that side is not in play
        label, near = (EMPTY, d[i, 0]) if own is None or d[i, 0] <= d[i, own] else (int(home_side[i]), d[i, own])
        far = near > CANDIDATE_FAR * classifier.tau
        labels[i] = UNKNOWN if far else label
        conf[i] = 0.0 if far else min(conf[i], 0.5)
    return labels, conf


def _more_than_its_pegs(labels: np.ndarray, conf: np.ndarray, pegs_per_side: int,
                        visible: np.ndarray | None = None) -> np.ndarray:
    """A side read surely in more holes than it has pegs (the layout's start holes) can't be: some
    of them hold no peg of it, and the picture doesn't say which, so none of that side's holes is
    sure (fingers over four holes and a home hole, lamp-lit to the blown-out white of white's heads,
    read white at 1.00 beside white's five pegs, while the bare board round them changed too little
    to make a hand-sized patch: bench15's s8-wood hand-01)."""
    sure = (labels >= 0) & (conf >= SURE) & (True if visible is None else visible)
    if not sure.any():
        return conf
    sides, counts = np.unique(labels[sure], return_counts=True)
    over = sides[counts > pegs_per_side]
    if not len(over):
        return conf
    return np.where(np.isin(labels, over), np.minimum(conf, 0.5), conf)


def start_holes_empty(layout: Layout, reading: "BoardReading", start_counts: dict,
                      min_confidence: float = 0.8) -> list:
    """The start holes that must be empty: the referee knows how many pegs each side has in
    its start area (``start_counts``: side -> n), not in which holes; where exactly n of that
    side's start holes are read surely as its pegs, the others are empty."""
    out = []
    for s, n in start_counts.items():
        ids = layout.start_ids(int(s))
        sure = [h for h in ids if reading.labels.get(h) == int(s) and reading.confidence.get(h, 0.0) >= min_confidence]
        if len(sure) == int(n):
            out += [h for h in ids if h not in sure]
    return out


def spot_distance(a, b) -> np.ndarray:
    """How unlike two head spots (..., 2, 3) Lab are: the larger of their cores' and rims' distances
    (a black head shows on the rim against the grey disc, a white one in the core against the
    dark hole or on the rim against the grey)."""
    # lightness at full weight: black and white differ from the grey disc and the hole in nothing else
    return np.linalg.norm(np.asarray(a, float) - np.asarray(b, float), axis=-1).max(axis=-1)


def lab_to_bgr_unclipped(lab) -> np.ndarray:
    """Lab -> BGR (0-255 scale) without clipping at white."""
    from .colours import _M, _WHITE
    lab = np.asarray(lab, np.float64)
    fy = (lab[..., 0] + 16) / 116
    f = np.stack([fy + lab[..., 1] / 500, fy, fy - lab[..., 2] / 200], axis=-1)
    xyz = np.where(f ** 3 > 216 / 24389, f ** 3, (116 * f - 16) / (24389 / 27)) * _WHITE
    lin = np.maximum(xyz @ np.linalg.inv(_M).T, 0)
    c = np.where(lin <= 0.0031308, 12.92 * lin, 1.055 * lin ** (1 / 2.4) - 0.055)
    return c[..., ::-1] * 255


def colour_distance(a, b) -> float:
    return float(delta_e(weighted(a), weighted(b)))
