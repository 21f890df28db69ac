"""The path-traced sets' hands cover holes in the camera's view (issue 23's "0 hands read" means
something only if the hand is over the board where the detector looks). No Blender: the hands
are placed and checked by tests/vision/pathtrace/hand.py (NumPy), which the renderer uses too.

A hole counts as covered when every line of sight from the camera's centre to its 8 mm disc
(centre and 8 points round the rim) passes through the hand's solids (fingers, thumb, palm,
forearm), the capsules taken at their smaller radius.
"""
from __future__ import annotations

import json
import math
import sys
from pathlib import Path

import pytest

pytest.importorskip("cv2", reason="the vision extra (OpenCV, NumPy) is not installed")

import numpy as np  # noqa: E402

PATHTRACE = Path(__file__).resolve().parent / "pathtrace"
sys.path.insert(0, str(PATHTRACE))

import hand  # noqa: E402
import render_set  # noqa: E402
import rig  # noqa: E402

from .pathtracekit import COMMITTED, pictures, set_ups  # noqa: E402

from vision.layout import load_layout  # noqa: E402
from vision.render import random_position  # noqa: E402


# The generator's own checks over every set and the whole envelope (about 5 s of CPU) are test
# data, not the companion: .ci/run's slow part; the fast suite keeps the committed pictures' check.
@pytest.mark.slow
@pytest.mark.parametrize("which", sorted(render_set.SETS))
def test_every_hand_picture_a_set_plans_hides_holes_near_its_peg(which):
    """Every hand picture of every set (committed, bench, bench2, bench3: what render_set.py
    renders, drawn the same way) hides at least MIN_COVERED holes from its camera, one of them
    near the hole the hand takes a peg from or puts one in; a game's hand is over the hole its
    move filled."""
    hands = render_set.planned_hands(which)
    assert hands, which
    for spec, setup, item, h in hands:
        covers = h["covers_holes"]
        assert len(covers) >= hand.MIN_COVERED, (spec.name, item.name, covers)
        assert len(covers) <= hand.MAX_COVERED * len(setup.layout.holes)
        target = np.asarray(setup.layout.holes[h["over_hole"]])
        assert min(math.dist(setup.layout.holes[c], target) for c in covers) <= hand.NEAR_PITCHES * setup.layout.pitch
        if item.target is not None:
            assert h["over_hole"] == item.target, (spec.name, item.name)
            assert item.pegs[item.target] == h["seat"]
        # the hand comes from the player who moves: the arm over their side of the board
        centre = np.array([setup.layout.width / 2, setup.layout.height / 2])
        side = np.mean([setup.layout.holes[f"M{k}"] for k in range(h["seat"] * setup.layout.holes_per_side,
                                                                       (h["seat"] + 1) * setup.layout.holes_per_side)], 0)
        assert np.dot(np.asarray(h["shoulder_mm"]) - centre, side - centre) > 0
        # the recorded solids are the ones the recorded parameters give
        assert h["solids"] == hand.solids_of(h)


ENVELOPE = [(sides, pitch, height, tilt)
            for sides, pitch, heights in ((4, 25.0, ((44, 46), (73, 75))), (4, 22.0, ((40, 42),)),
                                          (6, 18.0, ((55, 57), (73, 75))), (8, 16.0, ((62, 64), (73, 75))))
            for height in heights for tilt in ((0, 1), (12, 13), (24, 25))]


@pytest.mark.slow
@pytest.mark.parametrize("sides, pitch, height, tilt", ENVELOPE)
def test_hands_hide_holes_across_the_cameras_envelope(sides, pitch, height, tilt):
    """At 0-25 degrees of tilt, 40-75 cm up, 4-, 6- and 8-sided boards (the issue's envelope),
    hands over random positions are placed over holes, from the right player's side."""
    for seed in range(2):
        try:
            setup = rig.draw_setup(rig.SetUpSpec("x", sides, "wood", ["red"] * sides, 7100 + seed, pitch=pitch,
                                                 height=height, tilt=tilt))
        except RuntimeError:         # no lens sees that board from there (the generator says so)
            continue
        rng = np.random.default_rng(seed)
        pegs = random_position(setup.layout, rng)
        for _ in range(2):
            h = hand.place_hand(setup.layout, setup.camera_mm, setup.head_height, pegs, rng)
            assert len(h["covers_holes"]) >= hand.MIN_COVERED
            assert h["seat"] == (pegs[h["over_hole"]] if h["takes"] else setup.layout.side_of(h["over_hole"]))
            # the fingertips never go through a peg's head
            assert h["lift_mm"] + 3 - hand.FINGER_R >= setup.head_height


def test_the_cover_check_can_fail():
    """A hand off the board covers nothing; the same hand lying along the track covers the holes
    under it; seen from a camera far beside the board a hand 60 mm up is seen beside them."""
    layout = rig.draw_setup(rig.SetUpSpec("x", 4, "wood", ["red"] * 4, 7000)).layout
    m5, m6 = np.asarray(layout.holes["M5"]), np.asarray(layout.holes["M6"])
    along = math.degrees(math.atan2(*(m6 - m5)[::-1]))          # from M5 toward M6, M7, ...
    camera = np.array([layout.width / 2, layout.height / 2, -600.0])
    off = hand.hand_solids((-300.0, -300.0), 225.0, 25.0, 1.0, 0.3)
    assert hand.covered_holes(off, camera, layout.holes) == []
    on = hand.hand_solids(m5, along, 25.0, 1.0, 0.3)
    covered = hand.covered_holes(on, camera, layout.holes)
    assert {"M5", "M6", "M7", "M8"} <= set(covered) and "M4" not in covered, covered
    assert hand.blocked(on, camera, [(*m6, 0.0)]).all() and not hand.blocked(on, camera, [(*m5 - (m6 - m5), 0.0)]).any()
    aside = np.array([m5[0], m5[1] + 1500.0, -300.0])
    high = hand.hand_solids(m5, along, 60.0, 1.0, 0.3)
    assert not {"M5", "M6", "M7"} & set(hand.covered_holes(high, aside, layout.holes))


def _committed_hands():
    return [(folder, p) for folder in set_ups(COMMITTED) for p in pictures(folder) if p.kind == "hand"]


def test_the_committed_hand_pictures_hands_hide_holes_in_their_cameras_view():
    """Each committed hand picture's truth records the hand's solids; recomputed from the
    truth's camera and layout, they hide the holes it says, at least MIN_COVERED."""
    hands = _committed_hands()
    assert len(hands) == 6
    for folder, p in hands:
        h = p.truth["hand"]
        assert "solids" in h, f"{folder.name}/{p.name}: rendered before hands were placed over holes"
        assert h["solids"] == hand.solids_of(h)
        layout = load_layout(folder / "layout.json")
        covers = hand.covered_holes(h["solids"], p.truth["camera"]["position_mm"], layout.holes)
        assert covers == h["covers_holes"] and len(covers) >= hand.MIN_COVERED, (folder.name, covers)
        assert json.loads((folder / "setup.json").read_text())["spec"]["name"] == folder.name
