"""Issue 23 on the committed path-traced pictures (tests/vision/data/pathtraced/, made with
Blender Cycles by tests/vision/pathtrace/render_set.py; format in that folder's README).

The truth is checked against the pictures (the markers and holes are where the recorded
camera and lens put them), then the detector reads every set-up as a user would: calibrate
from the calibration picture with the named colours, read the positions and the hand
pictures. The asserted figures are what the detector achieves on this set today, with a
margin; raise them as it improves. The big evaluation is tests/benchmarks/bench_vision_real.py.
"""
from __future__ import annotations

import json
import shutil
from collections import Counter

import pytest

pytest.importorskip("cv2", reason="the vision extra (OpenCV, NumPy) is not installed")

import cv2  # noqa: E402
import numpy as np  # noqa: E402

from .pathtracekit import COMMITTED, PathTracedSetUp, evaluate, pictures, rates, replay_game, set_ups  # noqa: E402

from vision.layout import load_layout  # noqa: E402
from vision.markers import detect_markers  # noqa: E402

KINDS = {"s4-wood", "s4-paper-bw", "s4-wood-bw", "s6-wood", "s6-paper", "s8-wood"}


def _project(truth, pts):
    c = truth["camera"]
    img, _ = cv2.projectPoints(np.asarray(pts, np.float64), np.array(c["rvec"]), np.array(c["tvec_mm"]),
                               np.array(c["K"]), np.array(c["dist"], np.float64))
    return img.reshape(-1, 2)


def test_the_committed_set_has_every_kind_of_set_up_and_picture():
    folders = set_ups(COMMITTED)
    assert {f.name for f in folders} == KINDS
    sides = set()
    for folder in folders:
        layout = load_layout(folder / "layout.json")
        pics = pictures(folder)
        kinds = Counter(p.kind for p in pics)
        assert kinds["calibration"] == 1 and kinds["empty"] == 1 and kinds["position"] >= 1 and kinds["hand"] >= 1
        for p in pics:
            t = p.truth
            assert t["format"] == "pegs-and-jokers/pathtraced-truth/1"
            assert t["layout_fingerprint"] == layout.fingerprint()
            assert set(t["pegs"]) <= set(layout.holes)
            assert 12.5 <= t["peg"]["head_height_mm"] <= 15.5
            assert 400 <= t["camera"]["height_mm"] <= 750 and 0 <= t["camera"]["tilt_deg"] <= 25
            assert -0.2 <= t["camera"]["k1"] < 0 and t["render"]["denoiser"] is None
            assert (t["hand"] is not None) == (p.kind == "hand")
            assert p.image().shape == (720, 1280, 3)
        cal = next(p for p in pics if p.kind == "calibration").pegs
        assert cal == {h: s for s in range(layout.sides) for h in layout.start_ids(s)}
        assert next(p for p in pics if p.kind == "empty").pegs == {}
        sides.add(layout.sides)
        colours = set(json.loads((folder / "calibration.json").read_text())["colours"].values())
        assert len(colours) == layout.sides
    assert sides == {4, 6, 8}
    allc = {c for f in folders for c in json.loads((f / "calibration.json").read_text())["colours"].values()}
    assert {"black", "white"} <= allc


@pytest.mark.parametrize("name", sorted(KINDS))
def test_the_truths_camera_puts_the_markers_where_the_picture_shows_them(name):
    """The recorded pose, intrinsics and k1, k2 project the markers' corners onto the corners
    OpenCV finds in the calibration picture (sub-pixel detection: within a pixel or so)."""
    folder = COMMITTED / name
    layout = load_layout(folder / "layout.json")
    pic = next(p for p in pictures(folder) if p.kind == "calibration")
    found = detect_markers(pic.image())
    assert len(found) >= 3, sorted(found)
    errors = []
    for m in layout.markers:
        if m.id in found:
            proj = _project(pic.truth, [(x, y, 0.0) for x, y in m.corners()])
            errors += list(np.linalg.norm(np.asarray(found[m.id]).reshape(-1, 2) - proj, axis=1))
    assert np.median(errors) < 1.0 and max(errors) < 2.0, np.round(errors, 2)


def test_every_marker_of_every_committed_picture_without_a_hand_is_found():
    """All four markers in every calibration, empty-board and position picture, on OpenCV 4.x and
    5.0 alike (5.0's default check of uncertain bits lost s6-wood's marker 0 in its calibration
    picture, which 4.10 finds: vision.markers sets it to 0.6), and no id outside the layout's."""
    missing = []
    for folder in set_ups(COMMITTED):
        layout = load_layout(folder / "layout.json")
        want = sorted(m.id for m in layout.markers)
        for p in pictures(folder):
            if p.kind == "hand":
                continue
            found = detect_markers(p.image())
            if sorted(found) != want:
                missing.append((folder.name, p.name, sorted(found)))
    assert not missing, missing


@pytest.mark.parametrize("name", sorted(KINDS))
def test_the_truths_camera_puts_the_holes_where_the_empty_board_shows_them(name):
    """Each hole of the empty board, with the printed disc round it, is a dark round patch on
    the surface centred (within a pixel: its outline is print, unlike the shaded inside of
    the hole) where the truth projects the hole's centre."""
    folder = COMMITTED / name
    pic = next(p for p in pictures(folder) if p.kind == "empty")
    layout = load_layout(folder / "layout.json")
    grey = cv2.cvtColor(pic.image(), cv2.COLOR_BGR2GRAY).astype(np.float32)
    centres = _project(pic.truth, [(x, y, 0.0) for x, y in layout.holes.values()])
    ones = _project(pic.truth, [(x + 1.0, y, 0.0) for x, y in layout.holes.values()])   # px per mm
    errors = []
    for (cx, cy), (ox, oy) in zip(centres, ones):
        k = float(np.hypot(ox - cx, oy - cy))
        r = int(np.ceil(7.5 * k))
        x0, y0 = int(round(cx)) - r, int(round(cy)) - r
        win = grey[max(0, y0):y0 + 2 * r + 1, max(0, x0):x0 + 2 * r + 1]
        if win.shape != (2 * r + 1, 2 * r + 1):
            continue
        board = np.percentile(win, 90)
        dark = (win < 0.8 * board).astype(np.uint8)
        n, lab = cv2.connectedComponents(dark)
        label = lab[r, r]
        if label == 0:
            continue
        yy, xx = np.nonzero(lab == label)
        errors.append(float(np.hypot(xx.mean() + x0 - cx, yy.mean() + y0 - cy)))
    assert len(errors) >= 0.8 * len(layout.holes)      # some lie in the lamp's reflection
    assert np.median(errors) < 0.8 and np.percentile(errors, 90) < 1.5, (np.median(errors), max(errors))


@pytest.fixture(scope="module")
def measured():
    out = {}
    for folder in set_ups(COMMITTED):
        su = PathTracedSetUp(folder)
        out[su.name] = (su, evaluate(su))
    return out


def test_the_detector_on_the_committed_set_never_reads_a_false_position_or_a_hand(measured):
    total = Counter()
    for su, c in measured.values():
        total.update(c)
    assert total["pictures"] == len(KINDS) and total["hand_pictures"] == len(KINDS)
    assert total["false_positions"] == 0, total
    assert total["hand_positions_read"] == 0, total
    # with the peg count (pegs vision detect): no false position and no hand either
    assert total["false_counted"] == 0 and total["hand_positions_counted"] == 0, total


# What the detector reads on this set (figures in docs/CAMERA.md), with a margin on the per-hole
# error. The detector before issue 23 (df28af1) refused all six calibrations, read 6.03 % of the
# holes wrong and no position; when the set was rendered (h23r fb7d260, h23d's camera model at
# 747b915) 3 accepted, 4.02 %, 1 position; session 8 (s8-23d, the same at 9a67f5c) 5 accepted
# (s6-paper refused: no camera model fits it), 2.68 % (24 of 896 holes), 3 of 6 positions; main at
# d3e91cd 2.46 %; s9-23f (the camera judged on the printed discs too) 6 accepted, 0.56 % (5 of 896);
# session 9 (shadows over empty holes read empty) 0.45 % (4 of 896), 4 of 6 positions; then 0.22 %
# (2 of 896: s8-wood's M92, an empty hole in a shadow, read black, and M116, orange read yellow);
# session 10 (rings told by their neighbours) 0.11 % (1 of 896, M92); then (shadows over holes whose
# own half is 0.78 or more, or whose spot's half is 0.8 or more) 0.00 %, 5 of 6 positions; session 11
# 4 of 6: a shadow told only by a nearly intact own half with the spot's half a little less intact is
# read empty unsurely (s8-wood's H3-s7, own 0.75, spot's 0.72), for a black peg of bench6 looked just
# so (own 0.71, spot's 0.67) and was read empty at 1.00.
ACCEPTED_AT_LEAST = 6
HOLE_ERROR_AT_MOST = 0.002
POSITIONS_READ_AT_LEAST = 4      # s4-paper-bw, s4-wood, s4-wood-bw, s6-wood
# session 13: with the peg count (vision.position.settle_by_count) s6-paper's M62 (a black peg left
# unsure) and s8-wood's H3-s7 (empty, in a shadow) are settled, the only holes unsure in their pictures
POSITIONS_COUNTED_AT_LEAST = 6


def test_the_detector_on_the_committed_set_reads_what_it_read_when_the_set_was_made(measured):
    total = Counter()
    accepted = []
    for su, c in measured.values():
        total.update(c)
        if su.refused is None:
            accepted.append(su.name)
    r = rates(total)
    assert len(accepted) >= ACCEPTED_AT_LEAST, {n: su.refused for n, (su, _) in measured.items()}
    assert r["hole_error"] <= HOLE_ERROR_AT_MOST, r
    assert total["positions_read"] >= POSITIONS_READ_AT_LEAST, r
    assert total["positions_counted"] >= POSITIONS_COUNTED_AT_LEAST, r


def test_the_committed_s6_paper_gets_its_camera_within_a_few_cm_and_a_degree_and_reads_right(measured):
    """Its holes' dark centroids, moved about a pixel by the lamp and the view into the hole, fit
    a homography (0.49 px) better than a camera (0.63 px; the true camera 1.05 px), so the camera
    was refused and the holes read through a homography (10.1 % wrong, calibration refused); on
    the printed discs round the holes the camera is the better fit and is kept."""
    from vision.calibration import _camera_fits
    su, c = measured["s6-paper"]
    cam, fit = su.calibration.camera, su.calibration.fit
    assert cam is not None and fit["used"], fit
    assert not _camera_fits(fit, "rms_px", "homography_rms_px", "points", "homography_points"), fit
    assert _camera_fits(fit, "discs_camera_rms_px", "discs_homography_rms_px", "discs_camera_points",
                        "discs_homography_points"), fit
    assert abs(cam.height_mm - su.camera["height_mm"]) <= 40, (cam.height_mm, su.camera["height_mm"])
    assert abs(cam.tilt_deg - su.camera["tilt_deg"]) <= 1.0, (cam.tilt_deg, su.camera["tilt_deg"])
    assert su.refused is None, su.refused
    assert c["hole_errors"] == 0 and c["false_positions"] == 0, c


def _read_through_rings_as_seen(su, p):
    """``su.read(p)``'s reading with no ring told by its neighbours' (``Classifier._ring_told`` off)."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(su.classifier, "_ring_told", lambda samples, ring, *a: (samples, np.zeros(len(ring), bool)))
        reading, _ = su.read(p)
    return reading


def test_a_head_whose_hue_as_the_camera_sees_it_is_another_sides_is_not_read_surely(measured):
    """Committed s8-wood (75 cm, tilt 13): the orange peg in M116, its colour divided by the board
    round it, looks like yellow's (1.9 spreads from yellow, 3.1 from orange; read yellow at 0.95
    before s8-23d), but its hue as the camera sees it is orange's start heads' (3 degrees off, 23
    from yellow's): not sure, and the referee gets no reading there (its ring as seen, which its own
    head is over: since session 10 the ring is told by its neighbours and M116 reads orange). No hole
    of a set-up read through the camera model is read surely as another coloured side's peg."""
    su, _ = measured["s8-wood"]
    assert su.classifier.raw_hue is not None
    p = next(p for p in su.pictures if p.kind == "position")
    orange = next(s for s, name in su.colours.items() if name == "orange")
    assert p.pegs["M116"] == orange
    reading = _read_through_rings_as_seen(su, p)
    assert reading.confidence["M116"] < 0.8 and "M116" not in reading.readings
    for su, _ in measured.values():
        if su.calibration is None or su.calibration.camera is None:
            continue
        coloured = {s for s, name in su.colours.items() if name not in ("black", "white")}
        for p in su.pictures:
            if p.kind != "position":
                continue
            reading, _ = su.read(p)
            for h, side in reading.labels.items():
                want = p.pegs.get(h, -1)
                if side in coloured and want in coloured and side != want:
                    assert reading.confidence[h] < 0.8, (su.name, p.name, h, su.colours[want], su.colours[side])


def _a_head_read_as(su, side):
    """The first position picture's first hole holding ``side``'s peg, its features, and distances
    that make ``side`` its nearest side: (classifier, hole index, features, d_sides, where)."""
    cl = su.classifier
    p = next(p for p in su.pictures if p.kind == "position")
    i = next(i for i, h in enumerate(su.sampler.holes) if p.pegs.get(h) == side)
    f = cl.features(su.sampler.sample(p.image()))
    n = len(su.sampler.holes)
    d_sides = np.full((n, len(cl.sides)), 100.0)
    d_sides[i, list(cl.sides).index(side)] = 1.0
    return cl, i, f, d_sides, np.zeros((n, len(cl.sides)), int)


def test_a_head_read_as_a_side_whose_hue_as_seen_is_not_clearly_that_sides_is_not_sure(measured):
    """The old bench's s8-wood (accepted) read two yellow heads orange at 1.00: their hue as seen
    was 9.5 and 11.8 degrees from yellow's start heads, 15.2 and 13.0 from orange's; an earlier rule
    left a head unsure only 10 degrees nearer another side's. Now the side read must be
    ``RAW_HUE_CLEAR`` (5) degrees nearer. On the committed s8-wood, a head read orange whose hue as
    seen lies between orange's and yellow's start heads, a little nearer either, is a conflict; at
    orange's own hue it is not."""
    from vision.detect import RAW_HUE_CLEAR, lab_to_bgr_unclipped

    su, _ = measured["s8-wood"]
    side = {name: s for s, name in su.colours.items()}
    orange, yellow = side["orange"], side["yellow"]
    cl, i, f, d_sides, where = _a_head_read_as(su, orange)
    n = len(d_sides)
    o, y = np.array(cl.model.raw_heads[orange], float), np.array(cl.model.raw_heads[yellow], float)
    ho, hy = (np.degrees(np.arctan2(v[2], v[1])) for v in (o, y))
    assert abs(hy - ho) > 2 * RAW_HUE_CLEAR + 4
    chroma = np.hypot(o[1], o[2])
    mid = 0.5 * (ho + hy)
    toward_yellow = np.sign(hy - ho)
    for hue, conflict in ((mid + 2 * toward_yellow, True), (mid - 2 * toward_yellow, True), (ho, False)):
        lab = [o[0], chroma * np.cos(np.radians(hue)), chroma * np.sin(np.radians(hue))]
        f.head_raw = f.head_raw.copy()
        f.head_raw[i, 0] = lab_to_bgr_unclipped(lab)
        assert bool(cl.raw_hue_disagrees(f, d_sides, where, np.full(n, 50.0))[i]) is conflict, hue


def test_a_head_read_as_a_coloured_side_but_seen_grey_and_no_lighter_is_not_sure(measured):
    """bench3's s8-wood-k1-0.2 read a black head blue at 0.99: (62, 58, 56) as seen, a black dome's
    sheen, divided by a dark warm ring. A head read as a coloured side whose chroma as seen is under
    ``RAW_COLOURLESS`` of that side's start heads', and no lighter than they are, is a conflict; the
    same grey head lighter than them (a lamp's sheen washing a blue head out: 2D `hard` 1007) is
    not, nor is the side's own colour a little darker. On the committed s8-wood, a head read blue."""
    from vision.detect import RAW_COLOURLESS, lab_to_bgr_unclipped

    su, _ = measured["s8-wood"]
    blue = next(s for s, name in su.colours.items() if name == "blue")
    cl, i, f, d_sides, where = _a_head_read_as(su, blue)
    n = len(d_sides)
    start = np.array(cl.model.raw_heads[blue], float)
    chroma = np.hypot(start[1], start[2])
    assert chroma > 2 * 20.0
    for lab, conflict in (([start[0] - 10, 3.0, -4.0], True),                      # grey, darker
                          ([start[0] + 15, 3.0, -4.0], False),                     # grey, lighter: sheen
                          (start * [0.7, 0.7, 0.7], False),                        # blue in shadow
                          (start * [1.0, RAW_COLOURLESS + 0.05, RAW_COLOURLESS + 0.05], False),
                          (start * [1.0, RAW_COLOURLESS - 0.05, RAW_COLOURLESS - 0.05], True)):
        f.head_raw = f.head_raw.copy()
        f.head_raw[i, 0] = lab_to_bgr_unclipped(lab)
        assert bool(cl.raw_hue_disagrees(f, d_sides, where, np.full(n, 50.0))[i]) is conflict, lab


def test_a_shadow_over_an_empty_hole_whose_own_pattern_is_intact_is_read_empty(measured):
    """A neighbour's shadow darkens an empty hole's head spot like a black head would, and its soft
    edge breaks the whole patch's pattern half-way; the hole's own half of the patch (on the board)
    stays intact, where a peg's shaft breaks it (or nearly intact, with the spot's half no less so:
    a black head breaks the spot's half; or with the spot's half itself intact). On the committed
    set: every hole the rule names is empty, s6-wood's M98 (unreadable before it) and s8-wood's M26,
    H3-s7 and M92 (read black, own halves 0.83, 0.75 and 0.81) are read empty, and no black peg's
    hole passes for a shadow's: its own half under ``SHADOW_OWN_INTACT`` (0.74 at most under the
    670 black pegs of the four path-traced sets' positions and games), its spot's half under
    ``SPOT_HALF_INTACT`` (0.74 at most)."""
    from vision.detect import EMPTY, HOLE_NEARLY_INTACT, SHADOW_OWN_INTACT, SPOT_HALF_INTACT

    named = []
    for su, _ in measured.values():
        if su.calibration.camera is None:
            continue
        black = {s for s, name in su.colours.items() if name == "black"}
        for p in su.pictures:
            if p.kind != "position":
                continue
            f = su.classifier.features(su.sampler.sample(p.image()))
            d, _ = su.classifier.distances(f)
            assert f.structure_hole is not None and f.shadow is not None
            # a shadow with the board round the hole as it was is no hand or card either
            assert (d[f.shadow & f.ring_clear, -1] >= 1e3).all()
            for i, h in enumerate(su.sampler.holes):
                if p.pegs.get(h) in black:
                    assert f.structure_hole[i] < SHADOW_OWN_INTACT, (su.name, h, f.structure_hole[i])
                    assert f.structure_spot[i] < SPOT_HALF_INTACT, (su.name, h, f.structure_spot[i])
                    assert f.structure_hole[i] < HOLE_NEARLY_INTACT or \
                        f.structure_spot[i] < f.structure_hole[i] - 0.05, (su.name, h)
                if f.shadow[i]:
                    assert h not in p.pegs, (su.name, p.name, h)
                    named.append((su.name, h))
    assert {("s6-wood", "M98"), ("s8-wood", "M26"), ("s8-wood", "H3-s7"), ("s8-wood", "M92")} <= set(named)
    su, _ = measured["s6-wood"]
    reading, _ = su.read(next(p for p in su.pictures if p.kind == "position"))
    # read empty, and surely: the darkening is a shadow's, so "unlike its own empty look" is no doubt
    assert reading.labels["M98"] == EMPTY and reading.confidence["M98"] >= 0.8
    su, _ = measured["s8-wood"]
    reading, _ = su.read(next(p for p in su.pictures if p.kind == "position"))
    assert reading.labels["M26"] == reading.labels["H3-s7"] == reading.labels["M92"] == EMPTY
    assert reading.confidence["M92"] >= 0.8
    # H3-s7 is told only by its nearly intact own half (0.75), its spot's half a little less intact
    # (0.72): so was a black peg of bench6 (0.71, 0.67), so not surely
    i = su.sampler.holes.index("H3-s7")
    f = su.classifier.features(su.sampler.sample(next(p for p in su.pictures if p.kind == "position").image()))
    su.classifier.distances(f)
    assert f.unsure_shadow[i] and reading.confidence["H3-s7"] == 0.5


def test_a_shadow_darker_than_a_shadows_usual_over_an_intact_hole_is_empty_but_not_sure(measured):
    """A peg's shadow near a warm lamp can leave an empty hole's head spot at a third of its empty
    look's lightness (bench4's s8-wood: H1-s7 read black at 1.00), past what ``SHADOW_SPREADS``
    allows a shadow and breaking the whole patch. The hole's own half all but intact
    (``DEEP_OWN_INTACT``: a black shaft in the dark hole left it at 0.79 under bench5's H4-s4) and no
    neighbour's peg seen over it: empty, unsure. Here such a shadow is painted over the spot of the
    empty hole seen furthest from its head spot in three set-ups."""
    from vision.detect import DEEP_OWN_INTACT, EMPTY

    tried = 0
    for name in ("s4-wood", "s6-paper", "s6-wood"):
        su, _ = measured[name]
        sm, cl = su.sampler, su.classifier
        p = next(p for p in su.pictures if p.kind == "position")
        img = p.image()
        f = cl.features(sm.sample(img))
        cl.distances(f)
        off = np.linalg.norm(sm.head_centres - sm.centres, axis=1)
        px_mm = np.linalg.norm(sm.board_to_image(np.array(su.layout.holes[sm.holes[0]]) + [1.0, 0.0])[0]
                               - sm.centres[0])
        r = su.layout.peg_diameter / 2 * px_mm
        free = [i for i, h in enumerate(sm.holes) if h not in p.pegs and not f.covered[i] and not f.overlooked[i]
                and f.structure_hole[i] >= 0.9 and f.structure[i] >= 0.85]
        i = max(free, key=lambda k: off[k])
        assert off[i] > r
        mask = np.zeros(img.shape[:2], np.uint8)
        at = sm.head_centres[i] + (sm.head_centres[i] - sm.centres[i]) / off[i] * 0.4 * r
        cv2.circle(mask, tuple(int(round(v)) for v in at), int(round(0.7 * r)), 255, -1)
        dark = img.copy()
        dark[mask > 0] = (dark[mask > 0] * 0.35).astype(np.uint8)
        f = cl.features(sm.sample(dark))
        d, _ = cl.distances(f)
        labels, conf, _, _ = cl.classify(f, d=d)
        conf = cl.check_picture(f, labels, conf, sm.covered)
        assert f.structure[i] < 0.5 and f.structure_hole[i] >= DEEP_OWN_INTACT
        assert f.unsure_shadow[i] and labels[i] == EMPTY and conf[i] == 0.5, (name, sm.holes[i], labels[i], conf[i])
        # nowhere else than in the picture as it was
        f0 = cl.features(sm.sample(img))
        cl.distances(f0)
        assert not f0.unsure_shadow[i] and (np.delete(f.unsure_shadow, i) == np.delete(f0.unsure_shadow, i)).all()
        tried += 1
    assert tried == 3


def test_an_empty_hole_washed_out_at_calibration_does_not_widen_every_spread(measured, monkeypatch):
    """A lamp's hot spot over a few empty holes at calibration (bench5's s4-wood-bw: two holes 67 and
    103 from their neighbours' look, the median 4) had made the empty holes' spread, and with it every
    class's (tau), twice as wide: its black pegs then read 20 %. Such a hole (``WILD_SPREADS``) is
    left out of the spread and never read surely. Here one empty hole of the committed s4-wood's set-up
    picture is washed half way to the lamp's white: tau stays within 15 %, the hole is unsure; counted
    in, tau more than doubles."""
    import vision.calibration as calibration
    from vision.calibration import calibrate

    su, _ = measured["s4-wood"]
    pic = next(p for p in su.pictures if p.kind == "calibration")
    img = pic.image()
    sm = su.sampler
    hole = "M60"
    i = sm.holes.index(hole)
    assert hole not in pic.pegs and hole not in su.calibration.colours.unsure
    lit = np.zeros(img.shape[:2], np.uint8)
    for at in (sm.centres[i], sm.head_centres[i]):
        cv2.circle(lit, tuple(int(round(v)) for v in at), 9, 255, -1)
    washed = img.copy()
    washed[lit > 0] = (0.5 * washed[lit > 0] + 0.5 * np.array([235, 250, 252])).astype(np.uint8)
    cal = calibrate(washed, su.layout, names=su.colours)
    tau = su.calibration.colours.tau
    assert abs(cal.colours.tau - tau) < 0.15 * tau and hole in cal.colours.unsure, (tau, cal.colours.tau)
    monkeypatch.setattr(calibration, "WILD_SPREADS", float("inf"))
    assert calibrate(washed, su.layout, names=su.colours).colours.tau > 2 * tau


def test_another_sides_peg_in_a_start_hole_never_seen_empty_is_not_sure(measured):
    """The only pegs calibration saw in a start hole are its side's; without the empty-board picture
    its empty look and pattern are borrowed from a neighbour and may be unlike its own (bench6's
    s4-wood-bw: white's empty start holes read black at 1.00). A peg of another side read there is
    not sure; its own side's is as sure as before."""
    su, _ = measured["s4-wood"]
    cl, sm = su.classifier, su.sampler
    p = next(p for p in su.pictures if p.kind == "position")
    f = cl.features(sm.sample(p.image()))
    d, _ = cl.distances(f)
    labels, conf, _, _ = cl.classify(f, d=d)
    sure = cl.check_picture(f, labels, conf, sm.covered)
    starts = [i for i, h in enumerate(sm.holes) if h.startswith("S-") and h in p.pegs and sure[i] >= 0.8]
    assert starts and not cl.empty_seen[starts].any()
    for i in starts:
        own = int(cl.start_side[i])
        assert labels[i] == own == p.pegs[sm.holes[i]]
        other = labels.copy()
        other[i] = next(s for s in cl.sides if s != own)
        assert cl.check_picture(f, other, conf, sm.covered)[i] == 0.5


def test_a_side_the_set_up_picture_itself_does_not_read_surely_is_refused_by_name(measured, monkeypatch):
    """Calibration reads its own set-up picture with what it learnt: a side whose pegs are read surely
    in fewer than half of their start holes there is refused by name, with the light's advice and the
    empty-board picture's (bench6's s4-paper-bw: its black pegs sure in none of 5, then unsure in
    every position picture). Here the committed s4-paper-bw's reading of its black start pegs is made
    unsure; with a hand over the board (the whole reading unsure) nothing is said."""
    import vision.calibration as calibration
    from vision.calibration import calibrate
    from vision.foreground import PATCH_POINTS

    su, _ = measured["s4-paper-bw"]
    assert not su.calibration.weak
    black = next(s for s, name in su.colours.items() if name == "black")
    pic = next(p for p in su.pictures if p.kind == "calibration")
    real = calibration.read_holes

    def unsure_black(frame, sampler, classifier, foreground=0):
        reading = real(frame, sampler, classifier)
        for h in su.layout.start_ids(black)[:3]:
            reading.confidence[h] = 0.5
        reading.foreground = foreground
        return reading
    monkeypatch.setattr(calibration, "read_holes", unsure_black)
    cal = calibrate(pic.image(), su.layout, names=su.colours)
    assert [(w["side"], w["like"], w["distance"], w["needed"]) for w in cal.weak] == [(black, "unsure", 2, 3)]
    text = str(cal.weak[0]["message"])
    assert "black pegs are read surely in only 2 of their 5 start holes" in text and "empty board" in text
    # where the board is washed out the light's advice names the empty-board picture too: said once
    clip = calibration.CLIP_LEVEL
    monkeypatch.setattr(calibration, "CLIP_LEVEL", 0)
    text = str(calibrate(pic.image(), su.layout, names=su.colours).weak[0]["message"])
    assert "washed out" in text and text.count("empty board") == 1, text
    monkeypatch.setattr(calibration, "read_holes", lambda *a: unsure_black(*a, foreground=PATCH_POINTS))
    monkeypatch.setattr(calibration, "CLIP_LEVEL", clip)
    assert not calibrate(pic.image(), su.layout, names=su.colours).weak


def test_a_dark_spot_over_a_hole_whose_own_pattern_is_broken_is_no_shadow(measured):
    """A black head's spot over the dark hole looks like a shadow there (darker, the same hue, the
    whole patch in between), so a black peg read there was left unsure. Where the hole's own half of
    the patch is broken (``STRUCTURE_PEG``), or no more than half intact (below ``OWN_HALF_INTACT``:
    a shadow over an empty hole leaves the hole itself as it was), something stands in the hole: the
    reading stands. The committed s6-paper's M62 (its own half at 0.56) is sure since session 14; the
    same hole with that half intact is not, and with it broken is again."""
    from vision.detect import OWN_HALF_INTACT, STRUCTURE_PEG

    su, _ = measured["s6-paper"]
    cl, sm = su.classifier, su.sampler
    p = next(p for p in su.pictures if p.kind == "position")
    i = sm.holes.index("M62")
    black = next(s for s, name in su.colours.items() if name == "black")
    assert p.pegs["M62"] == black
    f = cl.features(sm.sample(p.image()))
    d, _ = cl.distances(f)
    labels, conf, _, _ = cl.classify(f, d=d)
    assert labels[i] == black and conf[i] >= 0.8 and STRUCTURE_PEG < f.structure_hole[i] < OWN_HALF_INTACT
    assert cl.check_picture(f, labels, conf, sm.covered)[i] >= 0.8
    f.structure_hole = f.structure_hole.copy()
    f.structure_hole[i] = OWN_HALF_INTACT + 0.05
    assert cl.check_picture(f, labels, conf, sm.covered)[i] == 0.5
    f.structure_hole[i] = STRUCTURE_PEG - 0.05
    assert cl.check_picture(f, labels, conf, sm.covered)[i] >= 0.8


def test_a_peg_whose_hole_looks_empty_in_colour_is_sure_where_its_own_pattern_is_broken(measured):
    """A peg read at a hole whose own disc looks as it does empty is not sure ("its shaft must show
    there"), unless the hole's own half of the patch is broken: the shaft shows in the pattern (the
    old bench's s6-wood: two blue pegs, their discs 18-22 from empty, their own halves at 0.12-0.18).
    On the committed set, a peg read surely with the whole patch in between and its disc made to
    look empty: unsure with its own half intact, sure with it broken."""
    from vision.detect import LAB_WEIGHT, STRUCTURE_EMPTY, STRUCTURE_PEG

    tried = 0
    for su, _ in measured.values():
        cl, sm = su.classifier, su.sampler
        if su.refused is not None or cl.empty_means is None or not cl.model.bodies:
            continue
        p = next(p for p in su.pictures if p.kind == "position")
        f = cl.features(sm.sample(p.image()))
        d, _ = cl.distances(f)
        labels, conf, _, _ = cl.classify(f, d=d)
        intact, broken = cl.structure_says(f)
        for i, h in enumerate(sm.holes):
            if not (labels[i] >= 0 and labels[i] == p.pegs.get(h) and conf[i] >= 0.8 and not intact[i]
                    and not broken[i] and i not in sm.covered and labels[i] in cl.model.bodies):
                continue
            f.hole_lab = f.hole_lab.copy()
            f.hole_lab[i] = cl.empty_means[i] / LAB_WEIGHT     # (weighted Lab back to Lab)
            f.structure_hole = f.structure_hole.copy()
            f.structure_hole[i] = STRUCTURE_EMPTY
            if cl.check_picture(f, labels, conf, sm.covered)[i] != 0.5:
                continue        # the rule doesn't apply there (the side's body is near its empty look)
            f.structure_hole[i] = STRUCTURE_PEG - 0.1
            assert cl.check_picture(f, labels, conf, sm.covered)[i] >= 0.8, (su.name, h)
            tried += 1
            break
    assert tried >= 2


def test_a_calibrations_unsure_hole_is_settled_by_its_own_pattern(measured):
    """The calibration's unsure holes (a side's peg there may look like the hole empty) stay unsure
    until a frame settles them. The hole's own half of the patch does: broken under a peg read
    there (bench3's s4-wood-bw-40cm: a black peg, its own half at 0.46, unsure before), or a
    shadow's darkening over an intact one under "empty". On the committed s8-wood, an unsure hole
    with the whole patch in between and colours that settle nothing."""
    from vision.detect import EMPTY, STRUCTURE_EMPTY, STRUCTURE_PEG

    su, _ = measured["s8-wood"]
    cl = su.classifier
    assert cl.unsure is not None and cl.unsure.sum() > 0
    p = next(p for p in su.pictures if p.kind == "position")
    f = cl.features(su.sampler.sample(p.image()))
    cl.distances(f)
    i = int(np.nonzero(cl.unsure)[0][0])
    n = len(cl.unsure)
    f.structure = np.full(n, 0.7, np.float32)            # neither intact nor broken
    f.structure_hole = np.full(n, 0.7, np.float32)
    f.shadow = np.zeros(n, bool)
    side = int(cl.sides[0])
    peg = np.full(n, side)
    d_empty = np.full(n, 5.0 * cl.tau)                   # more than 2 spreads, less than a shadow's 8
    assert cl.still_unsure(f, peg, d_empty)[i]
    f.structure_hole[i] = STRUCTURE_PEG - 0.05
    assert not cl.still_unsure(f, peg, d_empty)[i]
    empty = np.full(n, EMPTY)
    f.structure_hole[i] = STRUCTURE_EMPTY
    assert cl.still_unsure(f, empty, d_empty)[i]
    f.shadow[i] = True
    assert not cl.still_unsure(f, empty, d_empty)[i]


def test_a_coloured_head_unlike_anything_learnt_is_read_by_its_hue_as_the_camera_sees_it(measured):
    """Committed s8-wood: the purple heads in M81 and M91, their colour divided by the board round
    them, are over 5 spreads from purple's and about as far from blue's (5.2 against 5.5 and 5.3):
    "unlike anything learnt" before s8-23d. Their holes' patterns are broken, the board round them is
    as at calibration, and their hue as seen is 3 and 0 degrees from purple's start heads, 26 and 28
    from any other side's: read purple, surely, and the referee gets purple there."""
    su, _ = measured["s8-wood"]
    p = next(p for p in su.pictures if p.kind == "position")
    purple = next(s for s, name in su.colours.items() if name == "purple")
    reading, _ = su.read(p)
    for h in ("M81", "M91"):
        assert p.pegs[h] == purple
        assert reading.labels[h] == purple and reading.confidence[h] >= 0.8, (h, reading.labels[h])
        assert reading.readings[h][1] == purple and reading.readings[h][0] > 0.9


def test_a_heads_hue_as_seen_is_also_read_where_it_is_most_colourful(measured):
    """A yellow head's shaded side looks orange as the camera sees it (the old bench's s8-wood M21:
    hue 91 where orange found its best match, against yellow's start heads' 100 and orange's 76; its
    lit side 100), so the hue was read where the nearest side's head was found and was "between":
    not sure. The hue is now also read where the head is most colourful, and names the side when
    that look is clear and the head is at least half as colourful as that side's start heads (2,730
    coloured pegs in view on the four path-traced sets: 0.76 or more; bench2's warm white head in
    s6-paper M18, whose most colourful spot has nearly yellow's hue, 0.29: it read yellow, a false
    position, before that guard). On the committed s8-wood, a yellow peg's head given orange's look
    at the nearest side's place and yellow's at another is read yellow; made a third as colourful
    there, it is not."""
    from vision.detect import lab_to_bgr_unclipped

    su, _ = measured["s8-wood"]
    yellow = next(s for s, name in su.colours.items() if name == "yellow")
    orange = next(s for s, name in su.colours.items() if name == "orange")
    cl, i, f, d_sides, where = _a_head_read_as(su, orange)
    n = len(d_sides)
    ky, ko = list(cl.sides).index(yellow), list(cl.sides).index(orange)
    d_sides[i, ky] = 8.0 * cl.tau                  # yellow far by the divided colour, orange nearest
    broken = np.zeros(n, bool)
    broken[i] = True
    f.ring_clear = np.ones(n, bool)
    seen_y, seen_o = np.array(cl.model.raw_heads[yellow], float), np.array(cl.model.raw_heads[orange], float)
    # elsewhere the head is shaded: between the two hues and greyer (clear for neither)
    shaded = 0.5 * (seen_y + seen_o) * [1.0, 0.25, 0.25]
    f.head_raw = f.head_raw.copy()
    f.head_raw[i, :] = lab_to_bgr_unclipped(shaded)
    f.head_raw[i, 3] = lab_to_bgr_unclipped(seen_y)
    assert cl.sides_by_raw_hue(f, d_sides, where, broken)[i].argmin() == ky
    faint = seen_y * [1.0, 0.35, 0.35]              # still the most colourful spot, yellow's hue
    assert 20.0 < np.hypot(*faint[1:]) < 0.5 * np.hypot(*seen_y[1:])
    f.head_raw[i, 3] = lab_to_bgr_unclipped(faint)
    assert cl.sides_by_raw_hue(f, d_sides, where, broken)[i].argmin() == ko


def test_a_dark_head_is_not_read_where_the_spot_is_lighter_than_empty(measured):
    """A black head darkens its spot; bench2's s4-wood-bw read an empty start hole (its empty look
    only estimated) black at 1.00 with core and rim 2 spreads lighter than that look. On the
    committed s4-wood-bw: every black peg read there keeps its reading, and the same empty hole's
    spot made 3 spreads lighter than its empty look, with black nearest, is a conflict (not sure,
    no reading); 3 spreads darker it is not."""
    su, _ = measured["s4-wood-bw"]
    cl = su.classifier
    p = next(p for p in su.pictures if p.kind == "position")
    f = cl.features(su.sampler.sample(p.image()))
    black = next(s for s, name in su.colours.items() if name == "black")
    k = list(cl.sides).index(black)
    i = next(i for i, h in enumerate(su.sampler.holes) if h not in p.pegs)
    d_sides = np.full((len(su.sampler.holes), len(cl.sides)), 100.0)
    d_sides[i, k] = 1.0
    d_rest = np.full(len(d_sides), 50.0)
    for change, conflict in ((3.0, True), (-3.0, False)):
        f.spot_lab = f.head_empty_lab.copy()
        f.spot_lab[i, :, 0] += change * cl.tau
        assert bool(cl.lighter_than_a_dark_head(f, d_sides, d_rest)[i]) is conflict
    reading, _ = su.read(p)
    for h, side in p.pegs.items():
        if side == black:
            assert reading.labels[h] == black and reading.confidence[h] >= 0.8, h


def test_a_plain_head_warmer_than_its_side_as_seen_and_divided_is_not_read_surely(measured):
    """Skin lit by the lamp passes for a white head (bench2's s6-wood ``move-06-hand``: an empty hole
    under a finger read white at 1.00, +10.4 in Lab b as seen against white's start heads and +13.6
    divided by the board). On the committed s6-wood: a white peg's head made 10 warmer in both looks
    is a conflict (not sure, no reading); warmer only as seen (the lamp, which the division takes
    out) or only divided, it is not. Every white and black peg of the committed positions read
    surely through an accepted camera model without the rule keeps its sure reading with it."""
    from vision.detect import WARMER, bgr_to_lab, lab_to_bgr_unclipped

    su, _ = measured["s6-wood"]
    white = next(s for s, name in su.colours.items() if name == "white")
    cl, i, f, d_sides, where = _a_head_read_as(su, white)
    assert cl.raw_hue is not None
    d_rest = np.full(len(d_sides), 50.0)
    seen, divided = np.array(cl.model.raw_heads[white], float), np.array(cl.model.pegs[white], float)
    warm = WARMER + 3.0
    for raw_b, div_b, conflict in ((warm, warm, True), (warm, 0.0, False), (0.0, warm, False)):
        f.head_raw = f.head_raw.copy()
        f.head_raw[i, 0] = lab_to_bgr_unclipped(seen + [0.0, 0.0, raw_b])
        f.head_lab = f.head_lab.copy()
        f.head_lab[i, 0] = divided + [0.0, 0.0, div_b]
        assert abs(bgr_to_lab(f.head_raw[i, 0][None].astype(np.float32))[0, 2] - seen[2] - raw_b) < 1.0
        assert bool(cl.warmer_than_a_plain_head(f, d_sides, where, d_rest)[i]) is conflict, (raw_b, div_b)
    plain = 0
    for su, _ in measured.values():
        if su.refused is not None or su.calibration.camera is None:
            continue
        ours = {s for s, name in su.colours.items() if name in ("black", "white")}
        for p in su.pictures:
            if p.kind != "position":
                continue
            reading, _ = su.read(p)
            rule = su.classifier.warmer_than_a_plain_head
            su.classifier.warmer_than_a_plain_head = lambda *a: None   # the reading without the rule
            try:
                without, _ = su.read(p)
            finally:
                su.classifier.warmer_than_a_plain_head = rule
            for h, side in p.pegs.items():
                if side in ours and without.labels[h] == side and without.confidence[h] >= 0.8:
                    plain += 1   # (s6-paper's M62 is read black at 0.5 for another reason)
                    assert reading.confidence[h] >= 0.8 and h in reading.readings, (su.name, p.name, h)
    assert plain >= 10


def test_a_ring_a_head_is_seen_over_is_told_by_its_clear_neighbours(measured):
    """At a tilted camera's far corners a peg's head, its own or a neighbour's, is seen over the ring
    of bare board that divides its colour. Where something stands in the hole and its ring isn't as
    at calibration, the ring is its calibration look times the light its clear neighbours' rings
    show. On the committed s8-wood: M116's orange head, read yellow through its own ring, is read
    right and surely through a told ring, and every told hole of the committed positions is read
    right; without telling, M116 is not read orange surely. (M117's white head was told too until the
    calibration took its ring clear of the start pegs seen over it: its ring is clear now.)"""
    told_holes = 0
    for su, _ in measured.values():
        for p in su.pictures:
            if p.kind != "position":
                continue
            f = su.classifier.features(su.sampler.sample(p.image()))
            if f.ring_told is None:
                continue
            reading, _ = su.read(p)
            for i in np.nonzero(f.ring_told)[0]:
                h = su.sampler.holes[i]
                assert h in p.pegs, (su.name, h)            # only where something stands
                assert reading.labels[h] == p.pegs[h] and reading.confidence[h] >= 0.8, (su.name, h)
                told_holes += 1
    assert told_holes >= 8
    su, _ = measured["s8-wood"]
    p = next(p for p in su.pictures if p.kind == "position")
    f = su.classifier.features(su.sampler.sample(p.image()))
    assert f.ring_told[su.sampler.holes.index("M116")]
    reading, _ = su.read(p)
    assert reading.labels["M117"] == p.pegs["M117"] and reading.confidence["M117"] >= 0.8
    orange = next(s for s, name in su.colours.items() if name == "orange")
    assert p.pegs["M116"] == orange
    without = _read_through_rings_as_seen(su, p)
    assert not (without.labels["M116"] == orange and without.confidence["M116"] >= 0.8)


def test_a_light_hand_over_a_told_ring_is_not_a_sure_white_head(measured):
    """A told ring divides whatever stands over the hole as if it were lit like the board at
    calibration, and a lamp-lit finger over an empty hole came out white at 1.00 (bench2's s8-wood
    ``move-06-hand``, bench3's s8-wood-k1-0.2 ``hand-01``). So a white head read through a told ring
    must look white as the camera sees it too (``RAW_PLAIN_AB``). On the committed s8-wood: M117's
    white head, its ring taken as told, passes; the same head given the finger's look as seen
    (Lab a +13.3, b +6.5 against the start heads) is a conflict; a coloured head seen grey is too."""
    from vision.detect import lab_to_bgr_unclipped

    su, _ = measured["s8-wood"]
    cl = su.classifier
    p = next(p for p in su.pictures if p.kind == "position")
    white = next(s for s, name in su.colours.items() if name == "white")
    i = su.sampler.holes.index("M117")
    assert p.pegs["M117"] == white
    f = cl.features(su.sampler.sample(p.image()))
    n = len(su.sampler.holes)
    f.ring_told = np.zeros(n, bool)
    f.ring_told[i] = True
    d_sides = np.full((n, len(cl.sides)), 100.0)
    d_sides[i, list(cl.sides).index(white)] = 1.0
    where = np.zeros((n, len(cl.sides)), int)
    d_rest = np.full(n, 50.0)
    seen = np.array(cl.model.raw_heads[white], float)
    f.head_raw = f.head_raw.copy()
    f.head_raw[i, 0] = lab_to_bgr_unclipped(seen)
    assert not cl.unlike_its_side_as_seen(f, d_sides, where, d_rest)[i]
    f.head_raw[i, 0] = lab_to_bgr_unclipped(seen + [-10.0, 13.3, 6.5])
    assert cl.unlike_its_side_as_seen(f, d_sides, where, d_rest)[i]
    f.ring_told = np.zeros(n, bool)          # the rule is the told rings' only
    untold = cl.unlike_its_side_as_seen(f, d_sides, where, d_rest)
    assert untold is None or not untold.any()
    f.ring_told = np.zeros(n, bool)
    f.ring_told[i] = True
    orange = next(s for s, name in su.colours.items() if name == "orange")
    d_sides[i] = 100.0
    d_sides[i, list(cl.sides).index(orange)] = 1.0
    f.head_raw[i, 0] = lab_to_bgr_unclipped([70.0, 3.0, 5.0])
    assert cl.unlike_its_side_as_seen(f, d_sides, where, d_rest)[i]
    f.head_raw[i, 0] = lab_to_bgr_unclipped(np.array(cl.model.raw_heads[orange], float))
    assert not cl.unlike_its_side_as_seen(f, d_sides, where, d_rest)[i]


def test_a_shaft_seen_in_its_hole_makes_it_not_empty_unless_a_neighbours_peg_may_be_seen_there(measured):
    """A peg whose head is seen beside its hole leaves the whole patch in between, but its shaft
    breaks the hole's own half: then the hole is not empty, unless a neighbour that may hold a
    peg can be seen over it (far-corner empty holes' own halves broke to 0.39-0.48 beside pegs), a
    hand lies over its ring, or its empty look was only borrowed. On the committed set every hole
    so named holds a peg; an empty hole given a broken own half is named, and not where its ring
    isn't clear, its empty look wasn't measured, or a neighbour whose pattern isn't intact may be
    seen over it."""
    from vision.detect import STRUCTURE_EMPTY

    named = 0
    for su, _ in measured.values():
        for p in su.pictures:
            if p.kind != "position":
                continue
            f = su.classifier.features(su.sampler.sample(p.image()))
            su.classifier.distances(f)
            if f.shaft is None:
                continue
            for i in np.nonzero(f.shaft)[0]:
                assert su.sampler.holes[i] in p.pegs, (su.name, su.sampler.holes[i])
                named += 1
    assert named >= 5
    # an empty hole whose empty look was measured, a neighbour it may see a peg of (empty now)
    found = None
    for su, _ in measured.values():
        cl, sm = su.classifier, su.sampler
        p = next(p for p in su.pictures if p.kind == "position")
        samples = sm.sample(p.image())
        f = cl.features(samples)
        if samples.seen_over is None:
            continue
        found = next(((su, cl, sm, p, samples, f, i) for i, h in enumerate(sm.holes)
                      if h not in p.pegs and h in cl.model.hole_empty and not f.overlooked[i] and f.ring_clear[i]
                      and not (f.covered is not None and f.covered[i]) and samples.seen_over[i].any()), None)
        if found:
            break
    assert found
    su, cl, sm, p, samples, f, i = found
    intact, broken = cl.structure_says(f)
    f.structure_hole = f.structure_hole.copy()
    f.structure_hole[i] = 0.2
    f.structure_spot = f.structure_spot.copy()
    f.structure_spot[i] = 0.8            # (and a head at the spot: test_no_shaft_is_seen_where_...)
    intact[i] = broken[i] = False
    assert cl.shaft_seen(f, intact, broken)[i]
    f.ring_clear = f.ring_clear.copy()
    f.ring_clear[i] = False
    assert not cl.shaft_seen(f, intact, broken)[i]
    f.ring_clear[i] = True
    seen = cl.empty_seen[i]
    cl.empty_seen[i] = False
    try:
        assert not cl.shaft_seen(f, intact, broken)[i]
    finally:
        cl.empty_seen[i] = seen
    k = next(k for k in range(samples.neighbours.shape[1]) if samples.seen_over[i, k])
    structure = f.structure.copy()
    structure[samples.neighbours[i, k]] = STRUCTURE_EMPTY - 0.3
    f.overlooked = (samples.seen_over & (structure < STRUCTURE_EMPTY)[samples.neighbours]).any(axis=1)
    assert not cl.shaft_seen(f, intact, broken)[i]


# s4-wood's short game (game.json): the detector at 47d4a70 took all 4 moves without asking
GAME_TAKEN_AT_LEAST = 3


def test_the_committed_game_replays_through_the_referees_matching_without_a_wrong_move(measured):
    """The engine plays the recorded moves from the game's seed, each move picture's truth is
    the board after that move, and read the way the referee matches pictures no move is
    taken wrongly (bench_vision_real.py --games measures the big set)."""
    su, _ = measured["s4-wood"]
    c = Counter()
    record = replay_game(su, c)
    assert record["moves_with_pegs"] == len(record["moves"]) == 4
    assert c["moves_missing"] == 0 and c["pictures"] == 4
    assert c["taken"] + c["asked"] + c["wrong"] == 4
    assert c["wrong"] == 0 and c["false_positions"] == 0, c
    assert c["taken"] >= GAME_TAKEN_AT_LEAST, c


def test_a_game_record_the_engine_does_not_play_is_refused(tmp_path):
    """A move list that the game's seed doesn't give (another engine, an edited file) is an
    error, not pictures scored against the wrong boards."""
    folder = tmp_path / "s4-wood"
    shutil.copytree(COMMITTED / "s4-wood", folder)
    record = json.loads((folder / "game.json").read_text())
    record["moves"][1]["text"] = record["moves"][0]["text"]
    (folder / "game.json").write_text(json.dumps(record))
    with pytest.raises(ValueError, match="another game"):
        replay_game(PathTracedSetUp(folder), Counter())


def test_a_hand_over_the_bare_board_is_seen_and_no_position_picture_looks_like_one(measured):
    """vision.foreground on the committed set: the bare board between the holes changes in a patch
    larger than PATCH_POINTS under a hand (4 of the 6 hand pictures when this was written, when
    s4-paper-bw's fingers lay beside M47 over no hole; 6 of 6 since the hands were placed over
    holes, 112-2,198 points), and in no position picture."""
    from vision.foreground import PATCH_POINTS
    seen = 0
    for su, _ in measured.values():
        if su.calibration is None:
            continue
        for p in su.pictures:
            if p.kind not in ("position", "hand"):
                continue
            reading, _ = su.read(p)
            if p.kind == "position":
                assert reading.foreground < PATCH_POINTS, (su.name, p.name, reading.foreground)
            else:
                seen += reading.foreground >= PATCH_POINTS
    assert seen >= 3, seen


def test_a_rings_ratios_are_learnt_clear_of_the_start_pegs_seen_over_it(measured):
    """The ring round a hole keeps out of the other holes on the board, not of their heads as the
    camera sees them beside their holes: in the set-up picture a start peg's head over part of a
    neighbour's ring tinted that hole's every ratio to its ring (bench6's s8-wood, M64's spot 22 Lab
    b off its every later look). On the committed s8-wood, the rings the calibration takes again
    without those points move towards what the empty-board picture shows there, each one that
    moves by more than 5 levels, and none moves where no start peg is seen over it."""
    su, _ = measured["s8-wood"]
    sm = su.sampler
    setup = next(p for p in su.pictures if p.kind == "calibration").image()
    empty = sm.sample(next(p for p in su.pictures if p.kind == "empty").image()).ring.astype(float)
    starts = [i for i, h in enumerate(sm.holes) if h.startswith("S-")]
    plain = sm.sample(setup)
    clear = sm.ring_clear_of(setup, plain, starts)
    moved = np.abs(clear.ring.astype(float) - plain.ring.astype(float)).max(axis=1)
    assert (moved > 5).sum() >= 5, moved
    for i in np.nonzero(moved > 5)[0]:
        assert np.linalg.norm(clear.ring[i] - empty[i]) < np.linalg.norm(plain.ring[i] - empty[i]), sm.holes[i]
    assert sm.ring_clear_of(setup, plain, []) is plain
    far = [i for i, h in enumerate(sm.holes) if h.startswith("S-s0-")]      # one side's start pegs only
    some = sm.ring_clear_of(setup, plain, far).ring.astype(float)
    near = {sm.holes[i] for i in np.nonzero(np.abs(some - plain.ring.astype(float)).max(axis=1) > 0)[0]}
    assert near and all(h.startswith("M") or h.endswith("-s0") or h.startswith("S-s0-") for h in near), near


def test_a_peg_read_where_its_heads_spot_keeps_its_empty_pattern_is_not_sure(measured):
    """A head seen at a hole's spot breaks the spot's half of the structure patch (at most 0.88 under
    the 6,570 pegs of the seven path-traced sets); bench6's s8-wood read an empty home hole white at
    0.95 with that half at 0.97 (a neighbour's black peg seen over its disc). On the committed set:
    no peg keeps that half at SPOT_NO_HEAD, and a hole read as a peg where it does is not sure."""
    from vision.detect import SPOT_NO_HEAD
    su, _ = measured["s8-wood"]
    cl = su.classifier
    for s, _ in measured.values():
        for p in s.pictures:
            if p.kind != "position":
                continue
            f = s.classifier.features(s.sampler.sample(p.image()))
            pegs = [i for i, h in enumerate(s.sampler.holes) if h in p.pegs]
            assert (f.structure_spot[pegs] < SPOT_NO_HEAD).all(), (s.name, p.name)
    p = next(p for p in su.pictures if p.kind == "position")
    f = cl.features(su.sampler.sample(p.image()))
    d, _ = cl.distances(f)
    labels, conf, _, _ = cl.classify(f, d=d)
    # (a peg whose shaft breaks its hole's own half with colours far from empty, a shaded dome, is
    # exempt where no neighbour's head is seen over it: test_vision_pathtraced_cases.py)
    i, h = next((i, h) for i, h in enumerate(su.sampler.holes) if h in p.pegs and not f.dome[i])
    assert cl.check_picture(f, labels, conf, su.sampler.covered)[i] >= 0.8
    f.structure_spot = f.structure_spot.copy()
    f.structure_spot[i] = SPOT_NO_HEAD
    assert cl.check_picture(f, labels, conf, su.sampler.covered)[i] <= 0.5
    j = next(j for j, h in enumerate(su.sampler.holes) if h in p.pegs and f.dome[j])
    f.structure_spot[j] = SPOT_NO_HEAD
    assert cl.check_picture(f, labels, conf, su.sampler.covered)[j] >= 0.8
    f.covered = np.asarray(f.covered, bool).copy()
    f.covered[j] = True
    assert cl.check_picture(f, labels, conf, su.sampler.covered)[j] <= 0.5


def test_a_calibrations_unsure_hole_read_as_a_peg_far_from_its_empty_look_is_settled(measured):
    """A calibration's unsure hole is one where a side's peg (black) may look like the hole empty:
    its pattern in between leaves it unsure. A peg read there with colours further from the empty
    look than FAR_FROM_EMPTY spreads is not that confusion (bench2's s8-wood: orange start pegs
    8.6-14 spreads off, pattern 0.60-0.71, left unsure in every picture and the set-up refused; pegs
    read wrongly in unsure holes were 3.7 spreads off at most). On the committed s8-wood: an unsure
    hole read as a side with the pattern in between stays unsure 9 spreads off and is settled 11 off."""
    from vision.detect import FAR_FROM_EMPTY, SHADOW_SPREADS
    su, _ = measured["s8-wood"]
    cl = su.classifier
    p = next(p for p in su.pictures if p.kind == "position")
    f = cl.features(su.sampler.sample(p.image()))
    d, _ = cl.distances(f)
    labels, _, _, _ = cl.classify(f, d=d)
    i = next(i for i, h in enumerate(su.sampler.holes) if h in cl.model.unsure and h not in p.pegs)
    labels = labels.copy()
    labels[i] = next(iter(cl.sides))
    f.structure = f.structure.copy()
    f.structure[i] = 0.7                      # in between: neither intact nor broken
    f.structure_hole = f.structure_hole.copy()
    f.structure_hole[i] = 0.7
    d_empty = d[:, 0].copy()
    for spreads, unsure in ((SHADOW_SPREADS + 1, True), (FAR_FROM_EMPTY + 1, False)):
        d_empty[i] = spreads * cl.tau
        assert bool(cl.still_unsure(f, labels, d_empty)[i]) is unsure, spreads


def test_the_live_path_passes_no_readings_on_while_a_hand_rests_on_the_board(measured, monkeypatch):
    """The watcher reads through read_holes, the hand check included: a hand held still over the
    board passes no still board to the referee and no hole surely to the tracker, even where it
    hides no hole (``max_covered`` raised so the hidden holes can't be the reason); a position
    passes. The check runs on the first still frame and every FOREGROUND_EVERY frames after."""
    import copy

    import vision.detect as detect
    from vision.watch import FOREGROUND_EVERY, BoardVision

    calls = []
    real = detect.largest_patch
    monkeypatch.setattr(detect, "largest_patch", lambda *a, **k: calls.append(1) or real(*a, **k))
    for name, (su, _) in sorted(measured.items()):
        pics = {p.kind: p for p in su.pictures}
        vision = BoardVision(su.layout, copy.deepcopy(su.calibration), max_covered=len(su.layout.holes))
        hand, position = pics["hand"].image(), pics["position"].image()
        calls.clear()
        frames = 2 * FOREGROUND_EVERY + 1
        results = [vision.process(hand) for _ in range(frames)]
        events = [e.kind for r in results for e in r.events]
        assert "readings" not in events and "board" not in events, name
        assert max(vision.last_reading.confidence.values()) <= 0.5, name
        still = [i for i, r in enumerate(results) if not r.moving]
        assert still == list(range(still[0], frames)), name
        assert len(calls) == len(range(still[0], frames, FOREGROUND_EVERY)), (name, len(calls))
        events = [e.kind for _ in range(frames) for e in vision.process(position).events]
        assert "readings" in events, name


def test_no_shaft_is_seen_where_the_spot_keeps_its_empty_pattern(measured):
    """shaft_seen: a hole's own half broken, the whole patch in between, says a peg's shaft stands
    there with its head seen beside the hole, over the board: at the spot. A spot whose half keeps
    its empty pattern (SPOT_BARE) has no head, so no shaft is seen (bench11's s6-wood: the own half
    of empty holes, low in contrast, fell to 0.44-0.53 in some pictures while their spot kept 0.96-
    0.98; read unreadable, 8 of them). An empty hole of the committed s4-wood, its own half set
    broken: a shaft with the spot's half at 0.85, none at SPOT_BARE."""
    from vision.detect import SPOT_BARE, STRUCTURE_PEG

    su, _ = measured["s4-wood"]
    cl, sm = su.classifier, su.sampler
    p = next(p for p in su.pictures if p.kind == "position")
    f = cl.features(sm.sample(p.image()))
    cl.distances(f)
    intact, broken = cl.structure_says(f)
    ok = [i for i, h in enumerate(sm.holes) if h not in p.pegs and h.startswith("M") and not f.overlooked[i]
          and f.ring_clear[i] and cl.empty_seen[i] and not f.covered[i]]
    assert ok
    i = ok[0]
    f.structure_hole = f.structure_hole.copy()
    f.structure_spot = f.structure_spot.copy()
    f.structure_hole[i] = STRUCTURE_PEG - 0.1
    f.structure[i] = 0.7
    intact, broken = cl.structure_says(f)
    intact[i] = broken[i] = False
    f.structure_spot[i] = 0.85
    assert cl.shaft_seen(f, intact, broken)[i]
    f.structure_spot[i] = SPOT_BARE + 0.01
    assert not cl.shaft_seen(f, intact, broken)[i]


def test_a_start_hole_that_looks_empty_is_told_apart_from_a_peg_that_looks_like_one():
    """The set-up picture's start holes that look empty: a peg left out ("put every peg in start")
    or a peg there that looks like an empty hole (black pegs on s6-paper: their shafts break the
    holes' own half of the patch), where the advice is the pegs' colour or the light, not a peg
    missing. Here s6-paper as rendered (black), and with red's S-s0-3 taken out: the empty-board
    picture pasted round the hole and where its head was seen."""
    from vision.calibration import calibrate

    folder = COMMITTED / "s6-paper"
    su = PathTracedSetUp(folder)
    black = next(s for s, n in su.colours.items() if n == "black")
    said = [str(w) for w in su.calibration.warnings if "start hole" in str(w)]
    assert any(w.startswith(f"side {black}:") and "look like empty holes" in w and "colour" in w for w in said), said
    assert not any("put every peg in start" in w for w in said), said

    by = {p.kind: p for p in su.pictures}
    image, empty = by["calibration"].image().copy(), by["empty"].image()
    red = next(s for s, n in su.colours.items() if n == "red")
    hole = f"S-s{red}-3"
    x, y = su.layout.holes[hole]
    # the hole and its peg's head as the camera sees them: every point of the board within a pitch,
    # raised to the head's height too (the head stands up to 17 mm off its hole at this tilt)
    ring = [(x + su.layout.pitch * 0.6 * np.cos(a), y + su.layout.pitch * 0.6 * np.sin(a)) for a in np.linspace(0, 2 * np.pi, 24)]
    pts = np.array([(px, py, z) for px, py in ring + [(x, y)] for z in (0.0, -su.head_height - 3.0)], float)
    img_pts = _project(by["calibration"].truth, pts)
    mask = np.zeros(image.shape[:2], np.uint8)
    cv2.fillConvexPoly(mask, cv2.convexHull(img_pts.astype(np.int32)), 255)
    image[mask > 0] = empty[mask > 0]
    cal = calibrate(image, su.layout, names=su.colours)
    said = [str(w) for w in cal.warnings if "start hole" in str(w)]
    assert f"side {red}: start hole {hole} looks empty; put every peg in start for the set-up picture" in said, said
