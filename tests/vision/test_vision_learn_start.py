"""Start holes learn their own empty look once the referee knows they are empty (issue 23).

Calibration sees every start hole with a peg in it, so a start hole's empty look comes from its
neighbours; on bench2's s4-wood-bw (45 cm, tilt 18) and s8-wood one empty start hole read like a
black head for a whole game. The referee knows how many pegs each start area holds, the camera
which start holes hold them surely: the rest are empty, and their look is learnt from that
picture unless it plainly shows a peg. Read on the committed path-traced set.
"""
from __future__ import annotations

import pytest

pytest.importorskip("cv2", reason="the vision extra (OpenCV, NumPy) is not installed")

from .pathtracekit import COMMITTED, PathTracedSetUp, start_counts  # noqa: E402

from vision.detect import EMPTY, BoardReading, read_holes, start_holes_empty  # noqa: E402
from vision.watch import BoardVision  # noqa: E402


@pytest.fixture(scope="module")
def wood_bw():
    su = PathTracedSetUp(COMMITTED / "s4-wood-bw")
    return su, {p.kind: p for p in su.pictures}


def _starts(layout):
    return [h for s in range(layout.sides) for h in layout.start_ids(s)]


def test_the_start_holes_that_must_be_empty_need_the_count_and_sure_readings(wood_bw):
    su, _ = wood_bw
    ids = su.layout.start_ids(0)
    labels = {h: EMPTY for h in su.layout.holes}
    conf = {h: 1.0 for h in su.layout.holes}
    for h in ids[:3]:
        labels[h] = 0
    labels[ids[3]], conf[ids[3]] = 2, 0.5           # an empty start hole read like a black head, unsure
    reading = BoardReading(labels, conf)
    assert start_holes_empty(su.layout, reading, {0: 3}) == ids[3:]
    assert start_holes_empty(su.layout, reading, {0: 4}) == []      # one of the 4 pegs not read surely
    conf[ids[0]] = 0.6
    assert start_holes_empty(su.layout, reading, {0: 3}) == []
    assert start_holes_empty(su.layout, reading, {1: 0}) == su.layout.start_ids(1)


def test_start_holes_learnt_empty_read_empty_and_their_pegs_still_read(wood_bw):
    su, pics = wood_bw
    starts = _starts(su.layout)
    clf, took = su.classifier.learned_empty(su.sampler.sample(pics["empty"].image()), starts)
    assert sorted(took) == sorted(starts)
    assert all(h in clf.model.hole_empty and h not in su.classifier.model.hole_empty for h in starts)
    empty = read_holes(pics["empty"].image(), su.sampler, clf)
    assert all(empty.labels[h] == EMPTY and empty.confidence[h] >= 0.8 for h in starts)
    full = read_holes(pics["calibration"].image(), su.sampler, clf)
    assert all(full.labels[h] == int(h[3]) and full.confidence[h] >= 0.8 for h in starts)
    pos = pics["position"]
    got = read_holes(pos.image(), su.sampler, clf)
    assert not [h for h in su.layout.holes if got.confidence[h] >= 0.8 and got.labels[h] != pos.pegs.get(h, EMPTY)]


def test_a_start_hole_with_a_peg_in_it_is_not_learnt_as_empty(wood_bw):
    """Told wrongly that every start hole is empty (a wrong move taken), the picture with every peg
    in start, black and white ones too, breaks their empty patterns: nothing is learnt."""
    su, pics = wood_bw
    clf, took = su.classifier.learned_empty(su.sampler.sample(pics["calibration"].image()), _starts(su.layout))
    assert took == [] and clf is su.classifier


def test_the_watcher_learns_from_the_still_board_the_referee_judged(wood_bw):
    su, pics = wood_bw
    vision = BoardVision(su.layout, su.calibration)
    img = pics["empty"].image()
    samples = vision.sampler.sample(img)
    reading = read_holes(img, vision.sampler, vision.classifier)
    vision.still = (7, reading, samples)
    counts = start_counts(pics["empty"].pegs, su.layout)
    assert counts == {s: 0 for s in range(4)}
    assert vision.learn_start_empties(counts, stamp=6) == []        # another still board since
    took = vision.learn_start_empties(counts, stamp=7)
    assert sorted(took) == sorted(_starts(su.layout))
    assert vision.calibration.colours is vision.classifier.model
    assert all(h in vision.calibration.colours.hole_empty for h in took)
    assert vision.learn_start_empties(counts, stamp=7) == []        # learnt once


def test_an_empty_read_with_the_spot_lighter_than_its_empty_look_is_not_sure(wood_bw):
    """A white head seen beside its hole (bench2's s6-paper, tilt 16) kept the hole's pattern at
    0.78 and lightened its spot by 10 L: read "empty" at 0.997, a false position. A shadow only
    darkens an empty hole's spot: lighter by more than 1.5 spreads, "empty" is not sure."""
    from vision.detect import LIGHTER_SPREADS
    su, pics = wood_bw
    clf = su.classifier
    hole = "M10"
    i = su.sampler.holes.index(hole)

    def read(lighten):
        f = clf.features(su.sampler.sample(pics["empty"].image()))
        f.structure = f.structure.copy()
        f.structure[i] = 0.78                              # in between: neither intact nor broken
        f.spot_lab = f.head_empty_lab.copy()
        f.spot_lab[i, 0, 0] += lighten
        d, _ = clf.distances(f)
        labels, conf, _, _ = clf.classify(f, d=d)
        return labels[i], clf.check_picture(f, labels, conf, su.sampler.covered)[i]
    assert read(0.0) == (EMPTY, pytest.approx(1.0, abs=0.01))
    label, conf = read(LIGHTER_SPREADS * clf.tau + 3.0)
    assert label == EMPTY and conf <= 0.5
    label, conf = read(-10.0)                           # darker: a shadow may be all it is
    assert label == EMPTY and conf >= 0.8
