"""vision.sampling: the detector's bilinear samples are the same on every OpenCV version.

cv2.remap with float maps interpolates through 1/32 px fixed-point tables on OpenCV 4.x (the
Pi's Debian python3-opencv: 4.6 on Bookworm, 4.10 on Trixie) and almost exactly on 5.0 (what
pip installs): on the picture below the two differ at 6 of 8 points by 1-3 levels. The
detector interpolates in NumPy and gets 5.0's values (checked on 4.10 and 5.0)."""
from __future__ import annotations

import pytest

cv2 = pytest.importorskip("cv2", reason="the vision extra (OpenCV, NumPy) is not installed")
np = pytest.importorskip("numpy")

from vision.detect import HoleSampler  # noqa: E402
from vision.layout import standard_layout  # noqa: E402
from vision.sampling import Bilinear, sample_linear  # noqa: E402

# OpenCV 5.0's cv2.remap (4.10's: [169, 108, 161], [157, 97, 126], [233, 70, 88], ... at points 1-3)
EXPECTED = [[96, 149, 202], [170, 107, 160], [157, 96, 124], [232, 71, 88], [169, 102, 155],
            [189, 106, 159], [103, 156, 161], [155, 208, 186]]


def _picture_and_points():
    i, j, c = np.meshgrid(np.arange(32), np.arange(32), np.arange(3), indexing="ij")
    img = ((i * 37 + j * 101 + c * 53 + (i * j) % 7 * 19) % 256).astype(np.uint8)
    k = np.arange(8, dtype=np.float64)
    xs = (2 + (k * 3.6123) % 27).astype(np.float32)[None]
    ys = (2 + (k * 5.2871) % 27).astype(np.float32)[None]
    return img, xs, ys


def test_bilinear_samples_are_the_same_on_every_opencv_version():
    img, xs, ys = _picture_and_points()
    assert sample_linear(img, xs, ys).reshape(-1, 3).tolist() == EXPECTED
    assert Bilinear(xs, ys, (32, 32))(img).shape == (1, 8, 3)


def test_points_outside_the_picture_take_its_edge_as_cv2_border_replicate_does():
    img, _, _ = _picture_and_points()
    xs = np.array([[-3.0, 31.0, 40.5, 10.25]], np.float32)
    ys = np.array([[5.5, -0.75, 12.0, 35.0]], np.float32)
    want = cv2.remap(img, xs, ys, cv2.INTER_NEAREST, borderMode=cv2.BORDER_REPLICATE)
    got = sample_linear(img, xs, ys)
    assert got[0, 1].tolist() == want[0, 1].tolist() and got[0, 2].tolist() == img[12, 31].tolist()
    assert got[0, 0].tolist() == np.rint((img[5, 0].astype(float) + img[6, 0]) / 2).astype(int).tolist()


def test_the_hole_sampler_reads_5_0s_samples():
    layout = standard_layout(4)
    H = np.array([[2.0, 0.0, 40.0], [0.0, 2.0, 30.0], [0.0, 0.0, 1.0]])
    sampler = HoleSampler(layout, H, (1280, 720))
    rng = np.random.default_rng(5)
    frame = rng.integers(0, 256, (720, 1280, 3), dtype=np.uint8)
    vals = sampler.bilinear(frame)
    assert vals.shape == sampler.map_x.shape + (3,) and vals.dtype == np.uint8
    if cv2.__version__.startswith("5."):
        ref = cv2.remap(frame, sampler.map_x, sampler.map_y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
        assert np.abs(ref.astype(int) - vals.astype(int)).max() <= 1
        assert (ref != vals).mean() < 1e-4          # rounding ties only


def test_a_holes_ring_leaves_out_where_its_own_peg_is_seen_and_the_points_opposite():
    """Camera model: a peg is seen from its hole out to where parallax puts its head (head height /
    (camera height - head height) x the distance from the point under the camera); the ring round
    the hole, which divides the head's colour, leaves those points out, and the points opposite
    them, so it stays balanced round the hole. Straight under the camera nothing is left out."""
    import math
    from types import SimpleNamespace

    layout = standard_layout(4)
    peg_r = layout.peg_diameter / 2
    ring_r = 2 * peg_r + 1.5
    ring = np.array([(r * math.cos(2 * math.pi * (k + 0.5 * j) / 24), r * math.sin(2 * math.pi * (k + 0.5 * j) / 24))
                     for j, r in enumerate((ring_r, ring_r + 1, ring_r + 2)) for k in range(24)])
    centres = np.array([[0.0, 0.0], [400.0, 0.0]])          # under the camera; 40 cm out along +x
    around = centres[:, None, :] + ring[None]
    fake = SimpleNamespace(camera=SimpleNamespace(centre=np.array([0.0, 0.0, -500.0])), head_height=15.0,
                           layout=layout)
    out = HoleSampler._under_own_peg(fake, around, centres)
    assert not out[0].any()
    seen = 400.0 * 15.0 / (500.0 - 15.0)                     # 12.4 mm further out: beyond the ring's inside
    assert seen > ring_r - peg_r
    toward = np.abs(np.arctan2(ring[:, 1], ring[:, 0])) < math.radians(15)
    away = np.abs(np.arctan2(ring[:, 1], -ring[:, 0])) < math.radians(15)
    across = np.abs(np.abs(np.arctan2(ring[:, 1], ring[:, 0])) - math.pi / 2) < math.radians(15)
    assert out[1][toward].all() and out[1][away].all() and not out[1][across].any()
    assert out[1].reshape(3, 24).tolist() == np.roll(out[1].reshape(3, 24), 12, axis=1).tolist()
    assert 12 <= (~out[1]).sum() < len(ring)
