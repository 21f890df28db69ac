"""vision.sampling: the detector's bilinear samples are the same on every OpenCV version.

cv2.remap with float maps interpolates through 1/32 px fixed-point tables on OpenCV 4.x (the
Pi's Debian python3-opencv: 4.6 on Bookworm, 4.10 on Trixie) and almost exactly on 5.0 (what
pip installs): on the picture below the two differ at 7 of 8 points by 1-3 levels. Through
fixed-point maps both give the values asserted here (checked on 4.10 and 5.0)."""
from __future__ import annotations

import pytest

cv2 = pytest.importorskip("cv2", reason="the vision extra (OpenCV, NumPy) is not installed")
np = pytest.importorskip("numpy")

from vision.detect import HoleSampler  # noqa: E402
from vision.layout import standard_layout  # noqa: E402
from vision.sampling import fixed_maps, remap_linear, sample_linear  # noqa: E402

# what OpenCV 4.10 and 5.0 both give through fixed-point maps (5.0's float remap: [170, 107, 160],
# [157, 96, 124], [232, 71, 88], ... at points 1-3)
EXPECTED = [[96, 149, 202], [169, 108, 161], [157, 97, 126], [233, 70, 88], [169, 101, 154],
            [188, 106, 159], [104, 157, 161], [155, 208, 189]]


def _picture_and_points():
    i, j, c = np.meshgrid(np.arange(32), np.arange(32), np.arange(3), indexing="ij")
    img = ((i * 37 + j * 101 + c * 53 + (i * j) % 7 * 19) % 256).astype(np.uint8)
    k = np.arange(8, dtype=np.float64)
    xs = (2 + (k * 3.6123) % 27).astype(np.float32)[None]
    ys = (2 + (k * 5.2871) % 27).astype(np.float32)[None]
    return img, xs, ys


def test_bilinear_samples_are_opencvs_fixed_point_values_on_every_version():
    img, xs, ys = _picture_and_points()
    assert sample_linear(img, xs, ys).reshape(-1, 3).tolist() == EXPECTED
    assert remap_linear(img, fixed_maps(xs, ys)).reshape(-1, 3).tolist() == EXPECTED


def test_the_hole_sampler_samples_through_fixed_point_maps():
    layout = standard_layout(4)
    H = np.array([[2.0, 0.0, 40.0], [0.0, 2.0, 30.0], [0.0, 0.0, 1.0]])
    sampler = HoleSampler(layout, H, (1280, 720))
    assert sampler.maps[0].dtype == np.int16 and sampler.maps[0].shape[-1] == 2
    rng = np.random.default_rng(5)
    frame = rng.integers(0, 256, (720, 1280, 3), dtype=np.uint8)
    got = sampler.sample(frame)
    vals = sample_linear(frame, sampler.map_x, sampler.map_y)
    assert np.array_equal(got.hole, np.median(vals[:, :sampler.n_hole].astype(np.float32), axis=1))
