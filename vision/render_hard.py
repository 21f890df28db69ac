"""Photo-like pictures of a game night: a real camera above a tilted board, for tests and benchmarks.

``render.py`` looks at a flat board through a homography. Here a pinhole camera
stands above the board, tilted 4-20 degrees from straight down, seeing it through
a barrel-distorting lens (k1 < 0: straight lines bow out, the corners are pulled
in), and pegs are bodies: a 12 mm cylinder with a dome on top, 14 mm tall, so a
head is seen displaced from its hole (parallax) and a peg hides part of the board
behind it. Light: a strong gradient, a soft shadow band across the board (a
lamp's arm, a person), a colour-temperature shift the camera's white balance did
not undo, noise and JPEG. Hands and forearms can be drawn over it.

``PRESETS`` holds the issue's two sets of conditions: ``mild`` (tilt 4-10,
k1 -0.05..-0.07, gradient 30 %, noise 3-4, JPEG 75) and ``hard`` (tilt 15-20,
k1 -0.12..-0.15, gradient 45-50 %, shadow band 25-40 % deep, noise 5-6, a colour
temperature shift, JPEG 75). Seeded: the same arguments give the same picture.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from .colours import bgr_of
from .layout import Layout
from .render import IMAGE_SIZE, _smooth_noise, board_texture, draw_hand

# the seat colours of the hard set, as a builder's plastic pegs look: the blue is a deep one
TABLE_COLOURS = ["red", "#1a3a8c", "green", "yellow"]
TABLE_NAMES = ["red", "blue", "green", "yellow"]

PEG_BODY_MM = 8.0          # cylinder height; the dome (radius peg/2) puts the top at 14 mm
PEG_HEIGHT_MM = 14.0


@dataclass(frozen=True)
class Conditions:
    tilt: tuple = (15.0, 20.0)          # camera axis from straight down, degrees
    k1: tuple = (-0.15, -0.12)          # barrel distortion, radius normalised by the focal length
    gradient: tuple = (0.45, 0.50)      # brightness difference across the board
    band: tuple = (0.25, 0.40)          # shadow band depth (0: none)
    noise: tuple = (5.0, 6.0)
    temperature: float = 0.2            # colour-temperature shift (gain spread red vs blue)
    jpeg: int = 75
    blur: float = 0.7
    fov: float = 62.0                   # horizontal field of view, degrees
    margin: tuple = (2, 30)             # px from the board's outline to the picture's edge
    # what a ring-normalising detector can't divide away (all 0 in the gentle presets):
    hotspot: tuple = (0.0, 0.0)         # a lamp's sheen on the board: additive white, x 255 at its centre
    flare: tuple = (0.0, 0.0)           # veiling glare: additive grey over the whole picture, levels
    glare: float = 90.0                 # specular highlight on a dome's head, levels
    peg_spread: float = 0.04            # peg-to-peg colour spread (plastic, moulding), per channel
    shade_tint: float = 0.0             # the shadow band lit by cooler sky light: blue up, red down
    # a camera in a room (0 / None in the older presets, which fit the board to the picture):
    k2: tuple = (0.0, 0.0)              # the lens's second radial term
    height: tuple | None = None         # camera height above the board (mm); the lens widens to fit
    peg_height: tuple = (PEG_HEIGHT_MM, PEG_HEIGHT_MM)   # the head's top above the board (mm)
    shaft: bool = False                 # a thin shaft in the hole under the head (else a full cylinder)
    discs: bool = False                 # the template's grey disc round every hole


PRESETS = {
    "mild": Conditions(tilt=(4.0, 10.0), k1=(-0.07, -0.05), gradient=(0.3, 0.3), band=(0.0, 0.0),
                       noise=(3.0, 4.0), temperature=0.05),
    # the first hard set: every light effect multiplicative, so dividing by the ring cancels it
    # (the old detector made 0.00-0.11 % hole errors on it, not the 2.75 %)
    "hard-soft": Conditions(),
    # issue 16's hard conditions as a real lamp gives them: its sheen on the paper and the domes
    # adds white light (a ring ratio can't cancel it), veiling glare lifts the dark holes, the
    # shadow band is lit by cooler light, pegs of one colour differ
    "hard": Conditions(temperature=0.3, hotspot=(0.35, 0.50), flare=(8.0, 14.0), glare=190.0,
                       peg_spread=0.08, shade_tint=0.15),
    # issue 23: a webcam 40-75 cm up, tilted 0-25 degrees, a barrel lens (k1 down to -0.2, k2),
    # pegs with a shaft in the hole and a head 12.5-15.5 mm up, the template's grey discs
    "room": Conditions(tilt=(0.0, 25.0), k1=(-0.20, -0.04), k2=(0.0, 0.05), gradient=(0.3, 0.45),
                       band=(0.0, 0.3), noise=(3.0, 5.0), temperature=0.2, hotspot=(0.0, 0.25),
                       flare=(3.0, 8.0), glare=150.0, peg_spread=0.05, height=(400.0, 750.0),
                       margin=(20, 60), peg_height=(12.5, 15.5), shaft=True, discs=True),
    # the same camera and lens over a board printed before the grey discs
    "room-plain": Conditions(tilt=(0.0, 25.0), k1=(-0.20, -0.04), k2=(0.0, 0.05), gradient=(0.3, 0.45),
                             band=(0.0, 0.3), noise=(3.0, 5.0), temperature=0.2, hotspot=(0.0, 0.25),
                             flare=(3.0, 8.0), glare=150.0, peg_spread=0.05, height=(400.0, 750.0),
                             margin=(20, 60), peg_height=(12.5, 15.5), shaft=True),
}


def conditions(level) -> Conditions:
    if isinstance(level, Conditions):
        return level
    if level not in PRESETS:
        raise ValueError(f"unknown conditions {level!r}; choose {', '.join(PRESETS)}")
    return PRESETS[level]


def _rot(axis, angle):
    return cv2.Rodrigues(np.asarray(axis, np.float64) * angle)[0]


@dataclass
class Camera3D:
    """World: board mm (x right, y down the printed sheet, z into the board; the camera at z < 0)."""
    K: np.ndarray
    R: np.ndarray                 # world -> camera rotation
    C: np.ndarray                 # camera centre (world)
    k1: float
    size: tuple
    k2: float = 0.0

    @property
    def f(self) -> float:
        return float(self.K[0, 0])

    def project_undistorted(self, pts) -> np.ndarray:
        pts = np.asarray(pts, np.float64).reshape(-1, 3)
        cam = (pts - self.C) @ self.R.T
        uv = cam[:, :2] / cam[:, 2:3]
        return uv * self.f + self.K[:2, 2]

    def depth(self, pts) -> np.ndarray:
        pts = np.asarray(pts, np.float64).reshape(-1, 3)
        return ((pts - self.C) @ self.R.T)[:, 2]

    def distort(self, px) -> np.ndarray:
        c = self.K[:2, 2]
        v = (np.asarray(px, np.float64) - c) / self.f
        r2 = (v ** 2).sum(axis=-1, keepdims=True)
        return c + v * (1 + self.k1 * r2 + self.k2 * r2 * r2) * self.f

    def project(self, pts) -> np.ndarray:
        """World points -> distorted image px (what the picture shows)."""
        return self.distort(self.project_undistorted(pts))

    def plane_homography(self) -> np.ndarray:
        """Board mm (z = 0) -> undistorted image px."""
        t = -self.R @ self.C
        return self.K @ np.column_stack([self.R[:, 0], self.R[:, 1], t])

    def undistort_maps(self):
        """For every distorted output pixel, where it comes from in the undistorted picture."""
        w, h = self.size
        c = self.K[:2, 2]
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float64)
        d = np.stack([(xx - c[0]) / self.f, (yy - c[1]) / self.f], axis=-1)
        u = d.copy()
        for _ in range(12):     # invert d = u (1 + k1 |u|^2 + k2 |u|^4)
            r2 = (u ** 2).sum(axis=-1, keepdims=True)
            u = d / (1 + self.k1 * r2 + self.k2 * r2 * r2)
        u = u * self.f + c
        return u[..., 0].astype(np.float32), u[..., 1].astype(np.float32)


    @property
    def height(self) -> float:
        return float(-self.C[2])


def _room_camera(layout: Layout, cond: Conditions, rng, size) -> Camera3D:
    """A camera at a chosen height and tilt, aimed near the board's middle; its lens just wide
    enough to show the whole board with a margin."""
    w, h = size
    height = rng.uniform(*cond.height)
    tilt = math.radians(rng.uniform(*cond.tilt))
    azimuth = rng.uniform(0, 2 * math.pi)
    roll = rng.uniform(-math.pi, math.pi)
    k1, k2 = rng.uniform(*cond.k1), rng.uniform(*cond.k2)
    want = rng.uniform(*cond.margin)
    centre = np.array([layout.width / 2, layout.height / 2, 0.0])
    Rw = _rot([math.cos(azimuth + math.pi / 2), math.sin(azimuth + math.pi / 2), 0], tilt) @ _rot([0, 0, 1], roll)
    R = Rw.T
    axis = Rw[:, 2]
    # the camera stands above a point off the board's middle so that it looks near the middle
    aim = centre + np.array([rng.uniform(-20, 20), rng.uniform(-20, 20), 0])
    outline = np.array([(x, y, 0.0) for x, y in layout.outline], np.float64)
    # the lens must not fold over in the picture's corners (1 + 3 k1 r^2 + 5 k2 r^4 > 0.3)
    r2 = np.linspace(0.01, 4.0, 400)
    ok = 1 + 3 * k1 * r2 + 5 * k2 * r2 ** 2 > 0.3
    r_max = math.sqrt(r2[np.argmin(ok)] if not ok.all() else 4.0)
    # ... at the picture's corners, which show the distorted radius there
    r_max *= 1 + k1 * r_max ** 2 + k2 * r_max ** 4
    f_min = math.hypot(w, h) / 2 / r_max
    for _ in range(30):          # too close for this lens to see the whole board: a little higher
        C = aim - axis * (height / max(axis[2], 1e-6))
        lo, hi = f_min, 5000.0
        for _ in range(40):      # the focal length at which the outline sits ``want`` px inside the edge
            f = 0.5 * (lo + hi)
            K = np.array([[f, 0, w / 2], [0, f, h / 2], [0, 0, 1]], np.float64)
            p = Camera3D(K, R, C, k1, (w, h), k2).project(outline)
            gap = min(p[:, 0].min(), p[:, 1].min(), w - 1 - p[:, 0].max(), h - 1 - p[:, 1].max())
            if gap < want:
                hi = f
            else:
                lo = f
        if lo > f_min + 1:
            break
        height *= 1.05
    K = np.array([[lo, 0, w / 2], [0, lo, h / 2], [0, 0, 1]], np.float64)
    return Camera3D(K, R, C, k1, (w, h), k2)


def make_camera(layout: Layout, cond: Conditions, rng, size=IMAGE_SIZE) -> Camera3D:
    if cond.height is not None:
        return _room_camera(layout, cond, rng, size)
    w, h = size
    f = (w / 2) / math.tan(math.radians(cond.fov / 2))
    K = np.array([[f, 0, w / 2], [0, f, h / 2], [0, 0, 1]], np.float64)
    centre = np.array([layout.width / 2, layout.height / 2, 0.0])
    tilt = math.radians(rng.uniform(*cond.tilt))
    azimuth = rng.uniform(0, 2 * math.pi)
    roll = rng.uniform(-math.pi, math.pi)
    k1 = rng.uniform(*cond.k1)
    want = rng.uniform(*cond.margin)
    outline = np.array([(x, y, 0.0) for x, y in layout.outline], np.float64)
    aim = centre + np.array([rng.uniform(-15, 15), rng.uniform(-15, 15), 0])
    # camera looks along +z (into the board), rolled, then tilted toward the azimuth
    base = np.diag([1.0, 1.0, 1.0])
    Rw = _rot([math.cos(azimuth + math.pi / 2), math.sin(azimuth + math.pi / 2), 0], tilt) @ \
        _rot([0, 0, 1], roll) @ base          # camera -> world
    R = Rw.T
    axis = Rw[:, 2]
    lo, hi = 200.0, 5000.0
    cam = None
    for _ in range(40):           # the distance at which the outline sits ``want`` px inside the edge
        dist = 0.5 * (lo + hi)
        cam = Camera3D(K, R, aim - axis * dist, k1, (w, h))
        p = cam.project(outline)
        gap = min(p[:, 0].min(), p[:, 1].min(), w - 1 - p[:, 0].max(), h - 1 - p[:, 1].max())
        if gap < want:
            lo = dist
        else:
            hi = dist
    return Camera3D(K, R, aim - axis * hi, k1, (w, h))


@dataclass
class HardScene:
    layout: Layout
    cond: Conditions
    camera: Camera3D
    size: tuple
    wood_seed: int
    light: np.ndarray             # HxWx3 multiplicative, in the distorted picture
    noise: float
    light_dir: tuple              # (x, y) of the lamp's direction across the board
    background: np.ndarray
    maps: tuple                   # distorted px -> undistorted px
    sheen: np.ndarray | None = None   # HxWx3 additive light (lamp's sheen, veiling glare)
    peg_height: float = PEG_HEIGHT_MM  # the heads' top above the board (mm)

    @property
    def px_per_mm(self) -> float:
        c = np.array([[self.layout.width / 2, self.layout.height / 2, 0], [self.layout.width / 2 + 10,
                                                                        self.layout.height / 2, 0]])
        p = self.camera.project(c)
        return float(np.linalg.norm(p[1] - p[0]) / 10)

    def hole_px(self, hole: str) -> tuple:
        x, y = self.layout.holes[hole]
        return tuple(self.camera.project([(x, y, 0.0)])[0])


def make_hard_scene(layout: Layout, level="hard", seed: int = 0, size=IMAGE_SIZE) -> HardScene:
    cond = conditions(level)
    rng = np.random.default_rng(seed)
    cam = make_camera(layout, cond, rng, size)
    w, h = size
    maps = cam.undistort_maps()
    # board coordinates of every (distorted) pixel, for light that lives on the board
    Hinv = np.linalg.inv(cam.plane_homography())
    uu = np.stack([maps[0], maps[1], np.ones_like(maps[0])], axis=-1).astype(np.float64)
    bxy = uu @ Hinv.T
    bx, by = (bxy[..., 0] / bxy[..., 2]).astype(np.float32), (bxy[..., 1] / bxy[..., 2]).astype(np.float32)
    size_mm = max(layout.width, layout.height)
    theta = rng.uniform(0, 2 * math.pi)
    g = rng.uniform(*cond.gradient)
    ramp = (math.cos(theta) * (bx - layout.width / 2) + math.sin(theta) * (by - layout.height / 2)) / size_mm
    field = 1 + g * np.clip(ramp, -0.6, 0.6)
    depth = rng.uniform(*cond.band)
    if depth > 0:                 # a soft shadow band across the board
        phi = rng.uniform(0, math.pi)
        offset = rng.uniform(-0.25, 0.25) * size_mm
        width = rng.uniform(50, 110)
        soft = rng.uniform(15, 30)
        d = np.abs(math.cos(phi) * (bx - layout.width / 2) + math.sin(phi) * (by - layout.height / 2) - offset)
        shade = depth / (1 + np.exp(np.clip((d - width / 2) / (soft / 4), -30, 30)))
        field *= 1 - shade
    else:
        shade = np.zeros_like(field)
    field *= rng.uniform(0.75, 1.1)
    t = rng.uniform(-1, 1) * cond.temperature / 0.2
    gains = np.array([1 - 0.25 * t, 1 - 0.03 * t + rng.uniform(-0.03, 0.03), 1 + 0.2 * t], np.float32)
    light = (field[..., None] * gains[None, None, :]).astype(np.float32)
    if cond.shade_tint:           # in the band the sky's light, not the lamp's: bluer
        tint = np.array([1 + cond.shade_tint, 1.0, 1 - cond.shade_tint], np.float32)
        light *= 1 + (shade / max(depth, 1e-6))[..., None] * (tint - 1)[None, None, :]
    sheen = None
    if cond.hotspot[1] > 0 or cond.flare[1] > 0:
        hx, hy = rng.uniform(0.2, 0.8) * layout.width, rng.uniform(0.2, 0.8) * layout.height
        rad = rng.uniform(60, 120)
        spot = rng.uniform(*cond.hotspot) * 255 * np.exp(-((bx - hx) ** 2 + (by - hy) ** 2) / (2 * rad ** 2))
        veil = rng.uniform(*cond.flare)
        sheen = ((spot + veil)[..., None] * gains[None, None, :]).astype(np.float32)
    bg = (np.array([60, 70, 80], np.float32) * np.float32(rng.uniform(0.6, 1.4))
          * (1 + 0.1 * _smooth_noise((h, w), 50, rng))[..., None]).astype(np.float32)
    a = rng.uniform(0, 2 * math.pi)
    wood = int(rng.integers(0, 1000))
    noise = float(rng.uniform(*cond.noise))
    # drawn last, so the older presets' scenes stay as they were
    top = float(rng.uniform(*cond.peg_height)) if cond.peg_height[1] > cond.peg_height[0] else cond.peg_height[0]
    return HardScene(layout, cond, cam, (w, h), wood, light, noise, (math.cos(a), math.sin(a)), bg, maps, sheen,
                     top)


def _peg_shadows(board: np.ndarray, layout: Layout, pegs, s: float, light_dir) -> None:
    """Soft shadows of the pegs on the board (board-space image, in place)."""
    H, W = board.shape[:2]
    shadow = np.zeros((H, W), np.float32)
    r = layout.peg_diameter / 2 * s
    for hole in pegs:
        x, y = layout.holes[hole]
        for k in (0.0, 0.35, 0.7):
            cx, cy = (x - light_dir[0] * k * PEG_HEIGHT_MM) * s, (y - light_dir[1] * k * PEG_HEIGHT_MM) * s
            cv2.circle(shadow, (int(round(cx * 16)), int(round(cy * 16))), int(r * 16), 1.0, -1, cv2.LINE_AA, 4)
    shadow = cv2.GaussianBlur(shadow, (0, 0), 0.3 * r)
    board *= (1 - 0.4 * np.clip(shadow, 0, 1))[..., None]


def _draw_peg_bodies(img: np.ndarray, cam: Camera3D, layout: Layout, pegs: dict, light_dir, rng,
                     spread: float = 0.04, glare: float = 90.0, top: float = PEG_HEIGHT_MM,
                     shaft: bool = False) -> None:
    """Cylinder plus dome for every peg, far ones first, in the undistorted picture (in place).
    ``top``: the head's top above the board; ``shaft``: a thin shaft (0.3 of the head's width)
    from the hole up to a head (a cylinder a quarter of its width tall and a dome), instead of a full-width cylinder."""
    r_mm = layout.peg_diameter / 2
    body_top = top - r_mm
    lvec = np.array([-light_dir[0], -light_dir[1], 1.2])
    lvec /= np.linalg.norm(lvec)
    H, W = img.shape[:2]
    order = sorted(pegs, key=lambda hh: -cam.depth([(*layout.holes[hh], 0.0)])[0])
    heights = np.linspace(0, body_top, 13 if shaft else 9)
    for hole in order:
        x, y = layout.holes[hole]
        bgr = np.array(bgr_of(pegs[hole]), np.float32) * rng.uniform(1 - spread, 1 + spread, 3).astype(np.float32)
        pts = np.array([(x, y, -z) for z in heights] + [(x, y, -body_top)], np.float64)
        px = cam.project_undistorted(pts)
        radii = np.where(heights < body_top - 0.25 * 2 * r_mm, 0.3 * r_mm, r_mm) if shaft \
            else np.full(len(heights), r_mm)
        rad = cam.f * np.append(radii, r_mm) / cam.depth(pts)
        for (cx, cy), rr in zip(px[:-1], rad[:-1]):          # the body: a darker side
            cv2.circle(img, (int(round(cx * 16)), int(round(cy * 16))), int(rr * 16),
                       tuple(float(v) * 0.6 for v in bgr), -1, cv2.LINE_AA, 4)
        cx, cy = px[-1]
        rr = rad[-1]
        x0, x1 = max(0, int(cx - rr - 2)), min(W, int(cx + rr + 3))
        y0, y1 = max(0, int(cy - rr - 2)), min(H, int(cy + rr + 3))
        if x1 <= x0 or y1 <= y0:
            continue
        yy, xx = np.mgrid[y0:y1, x0:x1].astype(np.float32)
        dx, dy = (xx - cx) / rr, (yy - cy) / rr
        d = np.sqrt(dx * dx + dy * dy)
        alpha = np.clip((1 - d) * rr + 0.5, 0, 1)
        nz = np.sqrt(np.clip(1 - d * d, 0, 1))
        diffuse = np.clip(dx * lvec[0] + dy * lvec[1] + nz * lvec[2], 0, 1)
        half = lvec + np.array([0, 0, 1.0])
        half /= np.linalg.norm(half)
        spec = np.clip(dx * half[0] + dy * half[1] + nz * half[2], 0, 1) ** 40
        head = bgr[None, None, :] * (0.45 + 0.6 * diffuse)[..., None] + (glare * spec)[..., None]
        patch = img[y0:y1, x0:x1]
        patch[:] = patch * (1 - alpha[..., None]) + head * alpha[..., None]


def render_hard(scene: HardScene, pegs: dict, seed: int = 0, hands=()) -> np.ndarray:
    """One frame (BGR uint8): pegs is hole -> colour; hands [(tip px, angle deg)] in the picture."""
    rng = np.random.default_rng(seed)
    layout, cam = scene.layout, scene.camera
    s = 2.0
    board, mask = board_texture(layout, scene.wood_seed, s, scene.cond.discs)
    board = board.copy()
    _peg_shadows(board, layout, pegs, s, scene.light_dir)
    to_mm = np.array([[1 / s, 0, 0.5 / s], [0, 1 / s, 0.5 / s], [0, 0, 1]])
    Hpx = cam.plane_homography() @ to_mm
    w, h = scene.size
    if scene.cond.height is not None:
        # a wide barrel lens shows more than the undistorted picture's frame: draw on a canvas
        # that holds every point the picture shows, then bend it into the picture
        x0, y0 = np.floor(scene.maps[0].min()) - 2, np.floor(scene.maps[1].min()) - 2
        cw, ch = int(np.ceil(scene.maps[0].max() - x0)) + 3, int(np.ceil(scene.maps[1].max() - y0)) + 3
        shift = np.array([[1, 0, -x0], [0, 1, -y0], [0, 0, 1]], np.float64)
        warped = cv2.warpPerspective(board, shift @ Hpx, (cw, ch), flags=cv2.INTER_LINEAR)
        alpha = cv2.warpPerspective(mask, shift @ Hpx, (cw, ch), flags=cv2.INTER_LINEAR).astype(np.float32) / 255
        moved = Camera3D(shift @ cam.K, cam.R, cam.C, cam.k1, (cw, ch), cam.k2)
        _draw_peg_bodies(warped, moved, layout, pegs, scene.light_dir, rng, scene.cond.peg_spread,
                         scene.cond.glare, scene.peg_height, scene.cond.shaft)
        mx, my = scene.maps[0] - np.float32(x0), scene.maps[1] - np.float32(y0)
        frame = cv2.remap(warped, mx, my, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
        a = cv2.remap(alpha, mx, my, cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT)[..., None]
        frame = frame * a + scene.background * (1 - a)
    else:
        warped = cv2.warpPerspective(board, Hpx, (w, h), flags=cv2.INTER_LINEAR)
        alpha = cv2.warpPerspective(mask, Hpx, (w, h), flags=cv2.INTER_LINEAR).astype(np.float32)[..., None] / 255
        img = warped * alpha + scene.background * (1 - alpha)
        _draw_peg_bodies(img, cam, layout, pegs, scene.light_dir, rng, scene.cond.peg_spread, scene.cond.glare,
                         scene.peg_height, scene.cond.shaft)
        frame = cv2.remap(img, scene.maps[0], scene.maps[1], cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    for tip, angle in hands:
        frame = draw_hand(frame, tip, angle, scene.px_per_mm, np.random.default_rng(scene.wood_seed + 99))
    frame *= scene.light
    if scene.sheen is not None:
        frame += scene.sheen
    if scene.cond.blur:
        frame = cv2.GaussianBlur(frame, (0, 0), scene.cond.blur)
    noise = np.empty_like(frame)
    cv2.setRNGSeed(int(rng.integers(0, 2**31 - 1)))
    cv2.randn(noise, 0, scene.noise)
    frame += noise
    out = np.clip(frame, 0, 255).astype(np.uint8)
    ok, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, int(scene.cond.jpeg)])
    return cv2.imdecode(buf, cv2.IMREAD_COLOR)


def hand_over_board(scene: HardScene, rng) -> list:
    """A hand whose fingers lie over a random hole, its forearm reaching in from outside."""
    holes = list(scene.layout.holes)
    over = scene.hole_px(holes[int(rng.integers(len(holes)))])
    w, h = scene.size
    angle = math.degrees(math.atan2(over[1] - h / 2, over[0] - w / 2)) + 180 + rng.uniform(-40, 40)
    reach = rng.uniform(10, 60) * scene.px_per_mm        # the fingers run on past the hole
    a = math.radians(angle)
    return [((over[0] + reach * math.cos(a), over[1] + reach * math.sin(a)), angle)]


__all__ = ["TABLE_COLOURS", "TABLE_NAMES", "Conditions", "PRESETS", "HardScene", "make_hard_scene", "render_hard", "hand_over_board"]
