"""Synthetic camera pictures of the board, for tests and benchmarks.

``render(layout, pegs, ...)`` draws the board from its layout in board space
(wood-like texture, dark drilled holes, the ArUco stickers, pegs as shaded
coloured discs with a shadow and, from ``mild`` on, a little parallax because a
peg's head stands above the board), then looks at it through a random camera
(perspective, rotation) and spoils it by the chosen ``distortion`` level:
lighting gradient and vignetting, exposure, colour cast (white balance),
glare spots, blur, noise and JPEG. A hand-shaped occluder (palm, fingers,
thumb, forearm, with its shadow) can be drawn over it; ``occlusion_sequence``
makes a video of hands sweeping over an unchanged board and then making one
real move.

Everything is seeded: the same arguments give the same picture.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, replace

import cv2
import numpy as np

from .colours import DEFAULT_PEGS, bgr_of
from .layout import Layout

LEVELS = ("clean", "mild", "moderate", "strong")
IMAGE_SIZE = (1280, 720)
BOARD_PX_PER_MM = 2.0


@dataclass(frozen=True)
class Distortion:
    perspective: float = 0.0      # corner jitter, as a fraction of the board's size in the picture
    rotation: float = 0.0         # camera roll, degrees either way
    gradient: float = 0.0         # lighting gradient across the board (fraction, either way)
    vignette: float = 0.0         # darkening toward the picture's corners
    exposure: tuple = (1.0, 1.0)  # overall brightness range
    cast: float = 0.0             # white balance error: per-channel gain spread
    glare: int = 0                # glare spots
    glare_strength: float = 0.0
    blur: float = 0.0             # Gaussian blur sigma, pixels
    noise: float = 0.0            # Gaussian noise sigma, grey levels
    parallax: float = 0.0         # peg head height / camera height
    jpeg: int | None = None       # JPEG quality


DISTORTIONS = {
    "clean": Distortion(perspective=0.01, rotation=3, noise=1.0),
    "mild": Distortion(perspective=0.03, rotation=12, gradient=0.15, vignette=0.1, exposure=(0.9, 1.1),
                       cast=0.05, blur=0.6, noise=3.0, parallax=0.005, jpeg=92),
    "moderate": Distortion(perspective=0.06, rotation=30, gradient=0.3, vignette=0.2, exposure=(0.75, 1.15),
                           cast=0.10, glare=1, glare_strength=0.2, blur=1.0, noise=5.0, parallax=0.01, jpeg=85),
    "strong": Distortion(perspective=0.10, rotation=180, gradient=0.45, vignette=0.3, exposure=(0.6, 1.25),
                         cast=0.18, glare=2, glare_strength=0.6, blur=1.6, noise=9.0, parallax=0.015, jpeg=70),
}


def distortion(level) -> Distortion:
    if isinstance(level, Distortion):
        return level
    if level not in DISTORTIONS:
        raise ValueError(f"unknown distortion {level!r}; choose {', '.join(LEVELS)}")
    return DISTORTIONS[level]


# --------------------------------------------------------------------------- pegs from positions

def setup_pegs(layout: Layout, sides=None, colours=None) -> dict:
    """hole -> colour for the set-up position: every given side's pegs in its start holes."""
    sides = range(layout.sides) if sides is None else sides
    colours = colours or DEFAULT_PEGS
    return {h: colours[s % len(colours)] for s in sides for h in layout.start_ids(s)}


# --------------------------------------------------------------------------- board space

def _smooth_noise(shape, cell: float, rng) -> np.ndarray:
    h, w = shape
    small = rng.standard_normal((max(2, int(h / cell) + 2), max(2, int(w / cell) + 2))).astype(np.float32)
    return cv2.resize(small, (w, h), interpolation=cv2.INTER_CUBIC)


_BOARD_CACHE: dict = {}

WOODS = [(150, 196, 222), (110, 170, 214), (100, 150, 190)]   # BGR: birch, pine, oak


def board_texture(layout: Layout, seed: int = 0, s: float = BOARD_PX_PER_MM, discs: bool = False):
    """(BGR float32 board image with holes and markers, uint8 mask of the outline) at ``s`` px/mm;
    cached. ``discs``: the template's mid-grey disc round every hole (``template.HOLE_DISC``)."""
    key = (id(layout), len(layout.holes), seed, s, discs)
    hit = _BOARD_CACHE.get(key)
    if hit is not None and hit[0] is layout:
        return hit[1]
    rng = np.random.default_rng(seed)
    W, H = int(math.ceil(layout.width * s)), int(math.ceil(layout.height * s))
    base = np.array(WOODS[seed % len(WOODS)], np.float32) * rng.uniform(0.95, 1.05, 3).astype(np.float32)
    yy = np.arange(H, dtype=np.float32)[:, None]
    bend = _smooth_noise((H, W), 120 * s, rng) * 6 * s + _smooth_noise((H, W), 30 * s, rng) * 1.5 * s
    period = rng.uniform(3.0, 6.0) * s
    grain = np.sin(2 * np.pi * (yy + bend) / period)
    rings = np.sin(2 * np.pi * (yy + bend * 3) / (period * 7))
    tone = 1 + 0.05 * grain + 0.04 * rings + 0.05 * _smooth_noise((H, W), 40 * s, rng) \
        + 0.015 * rng.standard_normal((H, W)).astype(np.float32)
    img = tone[..., None] * base[None, None, :]
    mask = np.zeros((H, W), np.uint8)
    cv2.fillPoly(mask, [np.round(np.array(layout.outline) * s * 16).astype(np.int32)], 255, cv2.LINE_AA, 4)
    # drilled holes: a lit wall round a dark bottom
    r = layout.hole_diameter / 2 * s
    if discs:        # the printed template's grey disc, on the wood's grain (printed paper glued on)
        from .template import HOLE_DISC, hole_disc_radius
        grey = np.array(HOLE_DISC, np.float32)[::-1] * 255 * 0.92
        disc = np.zeros(img.shape[:2], np.float32)
        for x, y in layout.holes.values():
            c = (int(round((x * s - 0.5) * 16)), int(round((y * s - 0.5) * 16)))
            cv2.circle(disc, c, int(hole_disc_radius(layout) * s * 16), 1.0, -1, cv2.LINE_AA, 4)
        img = img * (1 - disc[..., None]) + (tone[..., None] * grey[None, None, :]) * disc[..., None]
    for x, y in layout.holes.values():
        c = (int(round((x * s - 0.5) * 16)), int(round((y * s - 0.5) * 16)))
        cv2.circle(img, c, int(r * 16), (45, 52, 62), -1, cv2.LINE_AA, 4)
        cv2.circle(img, c, int(r * 0.75 * 16), (24, 27, 32), -1, cv2.LINE_AA, 4)
    # the marker stickers: paper with the black cells
    from .template import marker_cells
    for m in layout.markers:
        q = m.quiet

        def quad(x0, y0, x1, y1):
            pts = np.array([(x0, y0), (x1, y0), (x1, y1), (x0, y1)], np.float64) * s - 0.5
            return np.round(pts * 16).astype(np.int32)
        x0, y0 = m.x - m.size / 2, m.y - m.size / 2
        cv2.fillPoly(img, [quad(x0 - q, y0 - q, x0 + m.size + q, y0 + m.size + q)], (236, 240, 242),
                     cv2.LINE_AA, 4)
        cell = m.size / 6
        for rr, row in enumerate(marker_cells(m.id)):
            for cc, black in enumerate(row):
                if black:
                    cv2.fillPoly(img, [quad(x0 + cc * cell, y0 + rr * cell, x0 + (cc + 1) * cell,
                                            y0 + (rr + 1) * cell)], (22, 22, 24), cv2.LINE_AA, 4)
    if len(_BOARD_CACHE) > 8:
        _BOARD_CACHE.clear()
    _BOARD_CACHE[key] = (layout, (img, mask))
    return img, mask


def draw_pegs(img: np.ndarray, layout: Layout, pegs: dict, s: float = BOARD_PX_PER_MM, *,
              light=(-0.4, -0.5), parallax: float = 0.0, nadir=None, rng=None) -> np.ndarray:
    """Draw pegs (hole -> colour) on a board-space float image, in place; returns it."""
    rng = rng or np.random.default_rng(0)
    r = layout.peg_diameter / 2 * s
    nadir = nadir if nadir is not None else (layout.width / 2, layout.height / 2)
    lx, ly = light
    lz = 0.75
    ln = math.sqrt(lx * lx + ly * ly + lz * lz)
    lvec = np.array([lx / ln, ly / ln, lz / ln], np.float32)
    half = np.array([lvec[0], lvec[1], lvec[2] + 1.0], np.float32)
    half /= np.linalg.norm(half)
    H, W = img.shape[:2]
    centres = []
    for hole, colour in pegs.items():
        x, y = layout.holes[hole]                # the head stands above the hole: seen displaced
        x += parallax * (x - nadir[0])
        y += parallax * (y - nadir[1])
        bx, by = layout.holes[hole]
        centres.append((x * s - 0.5, y * s - 0.5, np.array(bgr_of(colour), np.float32), bx * s - 0.5, by * s - 0.5))
    # shadows first, on the board under every head
    shadow = np.zeros((H, W), np.float32)
    for cx, cy, *_ in centres:
        cv2.circle(shadow, (int(round((cx - lx * 0.5 * r) * 16)), int(round((cy - ly * 0.5 * r) * 16))),
                   int(r * 1.05 * 16), 1.0, -1, cv2.LINE_AA, 4)
    shadow = cv2.GaussianBlur(shadow, (0, 0), 0.25 * r)
    rgb = img
    rgb *= (1 - 0.45 * shadow)[..., None]
    # the stem, from the hole up to the head: it hides the hole whatever the parallax
    stem = 0.5 * layout.hole_diameter * s
    for cx, cy, bgr, bx, by in centres:
        cv2.line(rgb, (int(round(bx * 16)), int(round(by * 16))), (int(round(cx * 16)), int(round(cy * 16))),
                 tuple(float(v) * 0.55 for v in bgr), max(1, int(2 * stem)), cv2.LINE_AA, 4)
        cv2.circle(rgb, (int(round(bx * 16)), int(round(by * 16))), int(stem * 16), tuple(float(v) * 0.5 for v in bgr),
                   -1, cv2.LINE_AA, 4)
    for cx, cy, bgr, _, _ in centres:
        x0, x1 = max(0, int(cx - r - 2)), min(W, int(cx + r + 3))
        y0, y1 = max(0, int(cy - r - 2)), min(H, int(cy + r + 3))
        yy, xx = np.mgrid[y0:y1, x0:x1].astype(np.float32)
        dx, dy = (xx - cx) / r, (yy - cy) / r
        d = np.sqrt(dx * dx + dy * dy)
        alpha = np.clip((1 - d) * r + 0.5, 0, 1)
        k = 0.85
        nz = np.sqrt(np.clip(1 - (k * d) ** 2, 0, 1))
        nx, ny = k * dx, k * dy
        diffuse = np.clip(nx * lvec[0] + ny * lvec[1] + nz * lvec[2], 0, 1)
        spec = np.clip(nx * half[0] + ny * half[1] + nz * half[2], 0, 1) ** 30
        tint = bgr * rng.uniform(0.97, 1.03)
        head = tint[None, None, :] * (0.45 + 0.6 * diffuse)[..., None] + (110 * spec)[..., None]
        patch = rgb[y0:y1, x0:x1]
        patch[:] = patch * (1 - alpha[..., None]) + head * alpha[..., None]
    return img


# --------------------------------------------------------------------------- camera

def random_homography(layout: Layout, dist: Distortion, rng, size=IMAGE_SIZE, fill: float = 0.92) -> np.ndarray:
    """Board mm -> image px for a random camera pose; the whole board stays in the picture."""
    w, h = size
    outline = np.array(layout.outline, np.float64)
    centre = np.array([layout.width / 2, layout.height / 2])
    for _ in range(50):
        angle = math.radians(rng.uniform(-dist.rotation, dist.rotation))
        rot = np.array([[math.cos(angle), -math.sin(angle)], [math.sin(angle), math.cos(angle)]])
        pts = (outline - centre) @ rot.T
        span = pts.max(0) - pts.min(0)
        scale = min(w * fill / span[0], h * fill / span[1]) * rng.uniform(0.85, 1.0)
        offset = np.array([w / 2, h / 2]) + rng.uniform(-1, 1, 2) * (np.array([w, h]) - span * scale) * 0.3
        src = np.array([[0, 0], [layout.width, 0], [layout.width, layout.height], [0, layout.height]], np.float64)
        dst = (src - centre) @ rot.T * scale + offset
        dst += rng.uniform(-1, 1, (4, 2)) * dist.perspective * span.max() * scale
        Hm = cv2.getPerspectiveTransform(src.astype(np.float32), dst.astype(np.float32))
        proj = cv2.perspectiveTransform(outline[None].astype(np.float64), Hm)[0]
        if proj.min() >= 4 and proj[:, 0].max() <= w - 5 and proj[:, 1].max() <= h - 5:
            return Hm
        fill *= 0.97
    raise RuntimeError("could not fit the board in the picture")


@dataclass
class Scene:
    """What stays the same between the frames of one session: camera, lights, board."""
    layout: Layout
    homography: np.ndarray         # board mm -> image px
    dist: Distortion
    size: tuple = IMAGE_SIZE
    wood_seed: int = 0
    light: np.ndarray | None = None      # HxWx3 multiplicative field (exposure, gradient, vignette, cast)
    glare: np.ndarray | None = None      # HxW additive (0-1)
    nadir: tuple = (0.0, 0.0)
    background: np.ndarray | None = None

    @property
    def px_per_mm(self) -> float:
        c = np.array([[[self.layout.width / 2, self.layout.height / 2],
                       [self.layout.width / 2 + 10, self.layout.height / 2]]])
        p = cv2.perspectiveTransform(c, self.homography)[0]
        return float(np.linalg.norm(p[1] - p[0]) / 10)


def make_scene(layout: Layout, level="clean", seed: int = 0, size=IMAGE_SIZE, homography=None) -> Scene:
    dist = distortion(level)
    rng = np.random.default_rng(seed)
    Hm = homography if homography is not None else random_homography(layout, dist, rng, size)
    w, h = size
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    theta = rng.uniform(0, 2 * np.pi)
    ramp = (np.cos(theta) * (xx - w / 2) + np.sin(theta) * (yy - h / 2)) / (0.5 * math.hypot(w, h))
    field = 1 + dist.gradient * ramp
    cx, cy = w / 2 + rng.uniform(-0.2, 0.2) * w, h / 2 + rng.uniform(-0.2, 0.2) * h
    rr = ((xx - cx) ** 2 + (yy - cy) ** 2) / (0.5 * math.hypot(w, h)) ** 2
    field *= 1 - dist.vignette * rr
    field *= rng.uniform(*dist.exposure)
    gains = np.clip(1 + dist.cast * rng.standard_normal(3), 0.6, 1.4).astype(np.float32)
    light = field[..., None] * gains[None, None, :]
    glare = np.zeros((h, w), np.float32)
    if dist.glare:
        board_pts = cv2.perspectiveTransform(np.array([list(layout.holes.values())], np.float64), Hm)[0]
        for _ in range(dist.glare):
            gx, gy = board_pts[rng.integers(len(board_pts))] + rng.normal(0, 20, 2)
            sigma = rng.uniform(15, 35)
            glare += dist.glare_strength * np.exp(-((xx - gx) ** 2 + (yy - gy) ** 2) / (2 * sigma ** 2))
    nadir = (layout.width / 2 + rng.uniform(-0.15, 0.15) * layout.width,
             layout.height / 2 + rng.uniform(-0.15, 0.15) * layout.height)
    bg = (np.array([60, 70, 80], np.float32) * np.float32(rng.uniform(0.6, 1.4))
          * (1 + 0.1 * _smooth_noise((h, w), 50, rng))[..., None]).astype(np.float32)
    return Scene(layout, Hm, dist, size, int(rng.integers(0, 1000)), light.astype(np.float32),
                 glare.astype(np.float32), nadir, bg)


def render_scene(scene: Scene, pegs: dict, seed: int = 0, hands=()) -> np.ndarray:
    """One camera frame (BGR uint8) of the scene with these pegs and hands ([(tip_xy, angle_deg)])."""
    rng = np.random.default_rng(seed)
    layout, dist, s = scene.layout, scene.dist, BOARD_PX_PER_MM
    board, mask = board_texture(layout, scene.wood_seed, s)
    img = draw_pegs(board.copy(), layout, pegs, s, parallax=dist.parallax, nadir=scene.nadir, rng=rng)
    to_mm = np.array([[1 / s, 0, 0.5 / s], [0, 1 / s, 0.5 / s], [0, 0, 1]])
    Hpx = scene.homography @ to_mm
    w, h = scene.size
    warped = cv2.warpPerspective(img, Hpx, (w, h), flags=cv2.INTER_LINEAR)
    alpha = cv2.warpPerspective(mask, Hpx, (w, h), flags=cv2.INTER_LINEAR).astype(np.float32)[..., None] * (1 / 255)
    frame = warped - scene.background
    frame *= alpha
    frame += scene.background
    for tip, angle in hands:       # the same hand (skin, texture) in every frame of a scene
        frame = draw_hand(frame, tip, angle, scene.px_per_mm, np.random.default_rng(scene.wood_seed + 99))
    frame *= scene.light
    if dist.glare:
        frame += 255 * scene.glare[..., None]
    if dist.blur:
        frame = cv2.GaussianBlur(frame, (0, 0), dist.blur)
    if dist.noise:
        noise = np.empty_like(frame)
        cv2.setRNGSeed(int(rng.integers(0, 2**31 - 1)))
        cv2.randn(noise, 0, dist.noise)
        frame += noise
    out = np.clip(frame, 0, 255, out=frame).astype(np.uint8)
    if dist.jpeg:
        ok, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, int(dist.jpeg)])
        out = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    return out


def render(layout: Layout, pegs: dict, level="clean", seed: int = 0, size=IMAGE_SIZE, hands=()) -> tuple:
    """(image, board mm -> image homography) of one random scene."""
    scene = make_scene(layout, level, seed, size)
    return render_scene(scene, pegs, seed + 1, hands), scene.homography


# --------------------------------------------------------------------------- hands

def _hand_alpha(shape, tip, angle_deg: float, px_per_mm: float, pad: int = 3):
    """(coverage 0-1 of the hand's bounding box grown by ``pad``, (y0, y1, x0, x1)), or None."""
    h, w = shape[:2]
    a = math.radians(angle_deg)
    fx, fy = math.cos(a), math.sin(a)          # finger direction
    px, py = -fy, fx                          # across the hand
    k = px_per_mm

    def P(u, v):                              # hand mm (u along the fingers, 0 at the tips) -> px
        return tip[0] + k * (u * fx + v * px), tip[1] + k * (u * fy + v * py)

    mask = np.zeros((h, w), np.uint8)
    sh = 16

    def cap(u0, v0, u1, v1, width):
        p0, p1 = P(u0, v0), P(u1, v1)
        cv2.line(mask, (int(p0[0] * sh), int(p0[1] * sh)), (int(p1[0] * sh), int(p1[1] * sh)), 255,
                 max(1, int(width * k)), cv2.LINE_AA, 4)
    for v, length in ((-26, 62), (-9, 72), (9, 70), (25, 58)):
        cap(-(75 - length) - 70, v, -(75 - length), v, 16)
    cap(-105, 36, -62, 62, 19)                                  # thumb
    c = P(-112, 2)
    cv2.ellipse(mask, (int(c[0] * sh), int(c[1] * sh)), (int(48 * k * sh), int(42 * k * sh)), angle_deg, 0, 360,
                255, -1, cv2.LINE_AA, 4)
    cap(-150, 0, -700, 0, 70)                                   # forearm
    x, y, bw, bh = cv2.boundingRect(mask)
    if bw == 0 or bh == 0:
        return None
    y0, y1, x0, x1 = max(0, y - pad), min(h, y + bh + pad), max(0, x - pad), min(w, x + bw + pad)
    alpha = cv2.GaussianBlur(mask[y0:y1, x0:x1].astype(np.float32) / 255, (0, 0), 1.0)
    return alpha, (y0, y1, x0, x1)


def hand_mask(shape, tip, angle_deg: float, px_per_mm: float) -> np.ndarray:
    """Float (0-1) coverage of a hand whose fingertips are at ``tip`` (px), fingers
    pointing along ``angle_deg``, with its forearm running back out of the picture."""
    out = np.zeros(shape[:2], np.float32)
    got = _hand_alpha(shape, tip, angle_deg, px_per_mm)
    if got is not None:
        alpha, (y0, y1, x0, x1) = got
        out[y0:y1, x0:x1] = alpha
    return out


def draw_hand(frame: np.ndarray, tip, angle_deg: float, px_per_mm: float, rng=None,
              skin=None, shadow_offset=(18, 24)) -> np.ndarray:
    """A hand (see ``hand_mask``) drawn over a float ``frame`` (in place), shaded, with its
    shadow on the board; returns the frame."""
    rng = rng or np.random.default_rng(0)
    k = px_per_mm
    dx, dy = shadow_offset[0] * k / 1.2, shadow_offset[1] * k / 1.2
    blur = 8 * k
    pad = int(abs(dx) + abs(dy) + 3 * blur) + 4
    got = _hand_alpha(frame.shape, tip, angle_deg, px_per_mm, pad)
    skin = np.array(skin if skin is not None else
                    (rng.uniform(95, 140), rng.uniform(120, 165), rng.uniform(170, 225)), np.float32)
    if got is None:
        return frame
    alpha, (y0, y1, x0, x1) = got
    h, w = alpha.shape
    inner = cv2.distanceTransform((alpha > 0.5).astype(np.uint8), cv2.DIST_L2, 3)
    round_ = np.clip(inner / (12 * k), 0, 1)
    tone = (0.72 + 0.28 * round_) * (1 + 0.05 * _smooth_noise((h, w), 30, rng))
    hand = skin[None, None, :] * tone[..., None]
    M = np.float32([[1, 0, dx], [0, 1, dy]])
    shadow = cv2.GaussianBlur(cv2.warpAffine(alpha, M, (w, h)), (0, 0), blur)
    sub = frame[y0:y1, x0:x1]
    sub *= (1 - 0.4 * shadow * (1 - alpha))[..., None]
    sub[:] = sub * (1 - alpha[..., None]) + hand * alpha[..., None]
    return frame


def _edge_point(size, angle_from_centre, centre):
    """Where a ray from ``centre`` at ``angle`` leaves the picture (a bit beyond)."""
    w, h = size
    dx, dy = math.cos(angle_from_centre), math.sin(angle_from_centre)
    t = min((w - centre[0]) / dx if dx > 0 else (-centre[0] / dx if dx < 0 else 1e9),
            (h - centre[1]) / dy if dy > 0 else (-centre[1] / dy if dy < 0 else 1e9))
    return centre[0] + dx * (t + 40), centre[1] + dy * (t + 40)


def occlusion_sequence(layout: Layout, before: dict, after: dict, moved: tuple, level="moderate",
                       seed: int = 0, size=IMAGE_SIZE, pause: int = 8, still: int = 8, scene: Scene | None = None):
    """A video of hands over an unchanged board, then one real move.

    ``before``/``after`` are hole -> colour; ``moved`` is (from hole, to hole). Returns
    (frames, truth) where truth[i] is "before", "after" or None (a hand is over the
    board, or the peg is in the hand). ``scene`` (default: a new one from ``level`` and
    ``seed``) fixes the camera and the light. The sequence: ``still`` quiet frames; a hand
    sweeps in, stops over the board for ``pause`` frames, sweeps across and out;
    ``still`` quiet frames; a hand reaches for the peg on ``moved[0]``, lifts it,
    carries it to ``moved[1]``, puts it down and leaves; ``still + 4`` quiet frames.
    """
    scene = scene or make_scene(layout, level, seed, size)
    size = scene.size
    rng = np.random.default_rng(seed + 7)
    Hm = scene.homography

    def proj(hole):
        return tuple(cv2.perspectiveTransform(np.array([[layout.holes[hole]]], np.float64), Hm)[0, 0])
    centre = tuple(cv2.perspectiveTransform(np.array([[[layout.width / 2, layout.height / 2]]]), Hm)[0, 0])
    frames, truth = [], []
    n = 0
    outline = cv2.perspectiveTransform(np.array([layout.outline], np.float64), Hm)[0]
    board = np.zeros((size[1], size[0]), np.uint8)
    cv2.fillPoly(board, [np.round(outline).astype(np.int32)], 1)

    def add(pegs, hands, label):
        nonlocal n
        frames.append(render_scene(scene, pegs, seed * 1000 + n, hands))
        over = False
        for tip, ang in hands:
            got = _hand_alpha(board.shape, tip, ang, scene.px_per_mm)
            if got is not None:
                alpha, (y0, y1, x0, x1) = got
                over = over or bool(((alpha > 0.2) & (board[y0:y1, x0:x1] > 0)).any())
        truth.append(None if over else label)
        n += 1

    def path(p0, p1, steps):
        return [(p0[0] + (p1[0] - p0[0]) * t / steps, p0[1] + (p1[1] - p0[1]) * t / steps)
                for t in range(1, steps + 1)]

    def hand_at(p, entry):
        return [(p, math.degrees(math.atan2(p[1] - entry[1], p[0] - entry[0])))]

    for _ in range(still):
        add(before, (), "before")
    # a sweep: in from one edge, a pause over the board, across, and out
    a = rng.uniform(0, 2 * math.pi)
    entry = _edge_point(size, a, centre)
    over = (centre[0] + 0.25 * (entry[0] - centre[0]), centre[1] + 0.25 * (entry[1] - centre[1]))
    far = (centre[0] - 0.35 * (entry[0] - centre[0]), centre[1] - 0.35 * (entry[1] - centre[1]))
    back = (entry[0] + 80 * math.cos(a), entry[1] + 80 * math.sin(a))
    for p in path(entry, over, 6):
        add(before, hand_at(p, back), "before")
    for _ in range(pause):
        add(before, hand_at(over, back), "before")
    for p in path(over, far, 6) + path(far, entry, 6):
        add(before, hand_at(p, back), "before")
    for _ in range(still):
        add(before, (), "before")
    # the move
    src, dst = proj(moved[0]), proj(moved[1])
    a = math.atan2(src[1] - centre[1], src[0] - centre[0]) + rng.uniform(-0.6, 0.6)
    entry = _edge_point(size, a, centre)
    back = (entry[0] + 80 * math.cos(a), entry[1] + 80 * math.sin(a))
    lifted = {h: c for h, c in before.items() if h != moved[0]}
    grip = lambda p: (p[0] + 6 * scene.px_per_mm * math.cos(a), p[1] + 6 * scene.px_per_mm * math.sin(a))  # noqa: E731
    for p in path(entry, grip(src), 7):
        add(before, hand_at(p, back), "before")
    for p in path(grip(src), grip(dst), 6):
        add(lifted, hand_at(p, back), None)
    for p in path(grip(dst), entry, 7):
        add(after, hand_at(p, back), "after")
    for _ in range(still + 4):
        add(after, (), "after")
    return frames, truth


def with_distortion(level, **changes) -> Distortion:
    return replace(distortion(level), **changes)


def random_position(layout: Layout, rng, sides=None, pegs_per_side: int | None = None) -> dict:
    """A random mid-game position as hole -> side: each side's pegs spread over its start
    holes, the main track (one peg a hole) and its own home."""
    sides = list(range(layout.sides)) if sides is None else list(sides)
    n = pegs_per_side or layout.start_holes
    free_main = [f"M{i}" for i in range(layout.track_length)]
    rng.shuffle(free_main)
    out = {}
    for s in sides:
        where = rng.choice(["S", "M", "H"], size=n, p=[0.35, 0.45, 0.2])
        homes = list(layout.home_ids(s))
        rng.shuffle(homes)
        starts = iter(layout.start_ids(s))
        for w in where:
            if w == "M" and free_main:
                out[free_main.pop()] = s
            elif w == "H" and homes:
                out[homes.pop()] = s
            else:
                out[next(starts)] = s
    return out


def coloured(pegs: dict, colours=None) -> dict:
    """hole -> side  to  hole -> colour."""
    colours = colours or DEFAULT_PEGS
    return {h: colours[s % len(colours)] for h, s in pegs.items()}
