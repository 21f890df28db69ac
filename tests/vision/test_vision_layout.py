"""The physical layout: hole counts, spacing and landmarks per board size (RULES G1-G5),
markers clear of the holes, and layout files (JSON and TOML) for home-made boards."""
from __future__ import annotations

import json
import math
import subprocess
import sys

import pytest

from hardware.config import default_hole_order
from vision.layout import Layout, LayoutError, expected_ids, load_layout, standard_layout

SIZES = [(n, h) for n in (4, 6, 8, 10) for h in (18, 20)]


def dist(a, b):
    return math.hypot(a[0] - b[0], a[1] - b[1])


@pytest.mark.parametrize("sides,hps", SIZES)
def test_counts_and_ids_match_the_hardware_order(sides, hps):
    lay = standard_layout(sides, hps)
    assert len(lay.holes) == sides * hps + sides * (5 + 5)
    assert set(lay.holes) == set(default_hole_order(sides, hps)) == set(expected_ids(sides, hps))
    assert len(lay.markers) == 4 and sorted(m.id for m in lay.markers) == [0, 1, 2, 3]


@pytest.mark.parametrize("sides,hps", SIZES)
def test_spacing_landmarks_and_direction(sides, hps):
    pitch = 25.0
    lay = standard_layout(sides, hps, pitch=pitch)
    L = sides * hps
    H = lay.holes
    # main track: neighbours exactly one pitch apart, all the way round (G2)
    for i in range(L):
        assert dist(H[f"M{i}"], H[f"M{(i + 1) % L}"]) == pytest.approx(pitch, abs=1e-6)
    # every pair of holes at least a pitch apart
    pts = list(H.values())
    assert min(dist(a, b) for i, a in enumerate(pts) for b in pts[i + 1:]) >= pitch - 1e-6
    # clockwise seen from above: with y down, the shoelace sum is positive
    area = sum(H[f"M{i}"][0] * H[f"M{(i + 1) % L}"][1] - H[f"M{(i + 1) % L}"][0] * H[f"M{i}"][1]
               for i in range(L))
    assert area > 0
    cx, cy = lay.width / 2, lay.height / 2
    for k in range(sides):
        in_spot = H[f"M{k * hps + 3}"]
        # home H1..H5 leaves the in-spot toward the centre, one pitch apart (G4)
        chain = [in_spot] + [H[f"H{j}-s{k}"] for j in range(1, 6)]
        for a, b in zip(chain, chain[1:]):
            assert dist(a, b) == pytest.approx(pitch, abs=1e-6)
        # ... square to the side, toward the centre
        a, b = H[f"M{k * hps}"], H[f"M{k * hps + 1}"]
        along = (b[0] - a[0], b[1] - a[1])
        home = (chain[-1][0] - in_spot[0], chain[-1][1] - in_spot[1])
        assert along[0] * home[0] + along[1] * home[1] == pytest.approx(0, abs=1e-6)
        assert home[0] * (cx - in_spot[0]) + home[1] * (cy - in_spot[1]) > 0
        # the start row: 5 holes a pitch apart, inside the track, near the come-out hole (G5)
        starts = [H[f"S-s{k}-{j}"] for j in range(1, 6)]
        for a, b in zip(starts, starts[1:]):
            assert dist(a, b) == pytest.approx(pitch, abs=1e-6)
        come_out = H[f"M{k * hps + 8}"]
        assert min(dist(s, come_out) for s in starts) < 2 * pitch
        assert dist(starts[2], (cx, cy)) < dist(come_out, (cx, cy))
    # side 0 is at the bottom of the sheet
    assert H["M9"][1] > cy
    # everything on the sheet
    for x, y in pts:
        assert 0 < x < lay.width and 0 < y < lay.height


@pytest.mark.parametrize("sides", [4, 6, 8, 10])
def test_markers_sit_clear_of_every_peg_and_spread_out(sides):
    lay = standard_layout(sides)
    keep = lay.peg_diameter / 2
    for m in lay.markers:
        half = m.size / 2 + m.quiet
        for hole, (x, y) in lay.holes.items():
            dx, dy = max(abs(x - m.x) - half, 0), max(abs(y - m.y) - half, 0)
            assert math.hypot(dx, dy) >= keep, (m.id, hole)
        assert 20 <= m.size <= 40
    xs = [m.x for m in lay.markers]
    ys = [m.y for m in lay.markers]
    assert max(xs) - min(xs) > 0.5 * lay.width and max(ys) - min(ys) > 0.5 * lay.height
    assert len(lay.manual_reference_holes()) == 4


def test_parameters_move_the_holes():
    a = standard_layout(4, pitch=25)
    b = standard_layout(4, pitch=30, hole_diameter=10, peg_diameter=14, start_inset=2.0)
    assert dist(b.holes["M0"], b.holes["M1"]) == pytest.approx(30)
    assert b.width > a.width
    assert a.fingerprint() != b.fingerprint()


def test_round_trip_json_and_toml(tmp_path):
    lay = standard_layout(6, 20, pitch=28)
    path = tmp_path / "board.json"
    lay.save(path)
    back = load_layout(path)
    assert back.holes.keys() == lay.holes.keys()
    for h, (x, y) in lay.holes.items():
        assert back.holes[h] == pytest.approx((x, y), abs=1e-3)
    assert [m.to_json() for m in back.markers] == [m.to_json() for m in lay.markers]
    # a home-made board in TOML: the standard parameters, two holes drilled elsewhere
    toml = tmp_path / "mine.toml"
    x, y = lay.holes["M5"]
    toml.write_text(f"sides = 6\nholes_per_side = 20\npitch = 28\n\n[holes]\nM5 = [{x + 1.5}, {y}]\n")
    mine = load_layout(toml)
    assert mine.holes["M5"] == pytest.approx((x + 1.5, y))
    assert mine.holes["M6"] == pytest.approx(lay.holes["M6"])


def test_every_hole_given_explicitly(tmp_path):
    lay = standard_layout(4)
    data = {"sides": 4, "holes": {h: [x + 10, y + 10] for h, (x, y) in lay.holes.items()}}
    path = tmp_path / "explicit.json"
    path.write_text(json.dumps(data))
    back = load_layout(path)
    assert back.holes["M0"] == pytest.approx((lay.holes["M0"][0] + 10, lay.holes["M0"][1] + 10))
    assert len(back.markers) == 4


@pytest.mark.parametrize("data,words", [
    ({"sides": 5}, "4, 6, 8, 10 or 12"),
    ({}, "missing key 'sides'"),
    ({"sides": 4, "colour": "red"}, "unknown key"),
    ({"sides": 4, "holes": {"M99": [1, 2]}}, "M99"),
    ({"sides": 4, "holes": {"Q1": [1, 2]}}, "not a hole id"),
    ({"sides": 4, "holes": {"M1": "here"}}, "[x, y]"),
    ({"sides": 4, "pitch": -3}, "pitch"),
    ({"sides": 4, "holes": {"M1": [0, 0], "M2": [1, 0]}}, "closer than a peg"),
])
def test_bad_layout_files_say_what_is_wrong(tmp_path, data, words):
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data))
    with pytest.raises(LayoutError) as err:
        load_layout(path)
    assert words in str(err.value) and "\n" not in str(err.value)


def test_missing_and_broken_files(tmp_path):
    with pytest.raises(LayoutError, match="no such file"):
        load_layout(tmp_path / "nope.json")
    (tmp_path / "b.toml").write_text("sides = ")
    with pytest.raises(LayoutError, match="not valid TOML"):
        load_layout(tmp_path / "b.toml")


def test_parse_ids():
    assert Layout.parse_id("M12") == ("M", None, 12)
    assert Layout.parse_id("H3-s2") == ("H", 2, 3)
    assert Layout.parse_id("S-s2-1") == ("S", 2, 1)
    with pytest.raises(ValueError):
        Layout.parse_id("M012")


def test_companion_and_layout_never_import_opencv():
    code = ("import sys, companion.cli, companion.notation, companion.board, vision.layout; "
            "assert 'cv2' not in sys.modules and 'numpy' not in sys.modules, sorted(sys.modules)")
    subprocess.run([sys.executable, "-c", code], check=True)
