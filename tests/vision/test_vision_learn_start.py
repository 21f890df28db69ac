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
    darkens an empty hole's spot: lighter by more than 1.5 spreads, "empty" is not sure, unless the
    hole's own half is all but intact (no shaft in it: 0.86 at most under the path-traced pegs)."""
    from vision.detect import DEEP_OWN_INTACT, LIGHTER_SPREADS
    su, pics = wood_bw
    clf = su.classifier
    hole = "M10"
    i = su.sampler.holes.index(hole)

    def read(lighten, own=0.78):
        f = clf.features(su.sampler.sample(pics["empty"].image()))
        f.structure = f.structure.copy()
        f.structure[i] = 0.78                              # in between: neither intact nor broken
        f.structure_hole = f.structure_hole.copy()
        f.structure_hole[i] = own                          # the hole's own half, as a shaft leaves it
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
    label, conf = read(LIGHTER_SPREADS * clf.tau + 3.0, own=DEEP_OWN_INTACT + 0.02)   # nothing stands in it
    assert label == EMPTY and conf >= 0.8


def _fresh_calibration(su):
    """The set-up's calibration as its file gives it at start (before anything was learnt)."""
    from vision.calibration import Calibration
    from vision.detect import ColourModel
    cal = Calibration.from_json(su.calibration.to_json())
    cal.colours = ColourModel.from_json(su.classifier.model.to_json())
    return cal


def _learn_from_the_empty_board(su, pics, learned):
    vision = BoardVision(su.layout, _fresh_calibration(su), learned=learned)
    img = pics["empty"].image()
    vision.still = (3, read_holes(img, vision.sampler, vision.classifier), vision.sampler.sample(img))
    took = vision.learn_start_empties(start_counts(pics["empty"].pegs, su.layout), stamp=3)
    assert took
    return vision, took


def test_what_the_camera_learnt_survives_a_restart(wood_bw, tmp_path):
    import json
    su, pics = wood_bw
    learned = tmp_path / "camera-learned.json"
    vision, took = _learn_from_the_empty_board(su, pics, learned)
    data = json.loads(learned.read_text())
    assert sorted(data["holes"]) == sorted(took) and data["calibration"] == vision.calibration_key
    assert not list(tmp_path.glob(".*tmp"))                       # no temporary file left behind
    again = BoardVision(su.layout, _fresh_calibration(su), learned=learned)   # the service restarted
    assert sorted(again.learned) == sorted(took)
    for h in took:
        assert again.classifier.model.hole_empty[h] == pytest.approx(vision.classifier.model.hole_empty[h], abs=0.01)
        assert again.classifier.model.hole_patch[h] == pytest.approx(vision.classifier.model.hole_patch[h], abs=1e-3)
    img = pics["empty"].image()
    got = read_holes(img, again.sampler, again.classifier)
    want = read_holes(img, vision.sampler, vision.classifier)
    assert all(got.labels[h] == want.labels[h] == EMPTY and got.confidence[h] >= 0.8 for h in took)
    cold = BoardVision(su.layout, _fresh_calibration(su))          # no file: nothing learnt yet
    assert not any(h in cold.classifier.model.hole_empty for h in took)


def test_a_torn_or_foreign_learned_file_is_ignored_with_a_log_line(wood_bw, tmp_path, caplog):
    import json
    su, pics = wood_bw
    learned = tmp_path / "camera-learned.json"
    _, took = _learn_from_the_empty_board(su, pics, learned)
    whole = learned.read_bytes()

    def start():
        caplog.clear()
        vision = BoardVision(su.layout, _fresh_calibration(su), learned=learned)
        assert vision.learned == {} and not any(h in vision.classifier.model.hole_empty for h in took)
        return " ".join(r.getMessage() for r in caplog.records)
    with caplog.at_level("WARNING", logger="vision.learned"):
        learned.write_bytes(whole[: len(whole) // 2])               # a torn file
        assert "can't be read" in start()
        data = json.loads(whole)
        data["calibration"] = "0" * 32                             # learnt under another calibration
        learned.write_text(json.dumps(data))
        assert "another calibration" in start()
        other = _fresh_calibration(su)
        other.created += 60                                        # calibrated again: a new key
        learned.write_bytes(whole)
        caplog.clear()
        assert BoardVision(su.layout, other, learned=learned).learned == {}
        assert "another calibration" in caplog.text
        data = json.loads(whole)
        data["holes"][took[0]]["hole_patch"] = data["holes"][took[0]]["hole_patch"][:-1]   # a damaged entry
        learned.write_text(json.dumps(data))
        caplog.clear()
        vision = BoardVision(su.layout, _fresh_calibration(su), learned=learned)
        assert sorted(vision.learned) == sorted(took[1:]) and "not used" in caplog.text


def test_learning_goes_on_when_the_file_cant_be_written(wood_bw, tmp_path, caplog):
    su, pics = wood_bw
    with caplog.at_level("WARNING", logger="vision.watch"):
        vision, took = _learn_from_the_empty_board(su, pics, tmp_path / "no-such-folder" / "learned.json")
    assert all(h in vision.classifier.model.hole_empty for h in took) and "can't keep" in caplog.text


def test_the_camera_sensor_writes_what_it_learnt_outside_the_lock_its_frames_take(wood_bw, tmp_path, monkeypatch):
    """The file is written and fsynced (file and folder) while the camera's frames go
    on: the sensor's lock, which every frame's readings take, is free during the write."""
    import json
    import vision.watch as watch
    from vision.sensor import CameraSensor

    su, pics = wood_bw
    learned = tmp_path / "camera-learned.json"
    vision = BoardVision(su.layout, _fresh_calibration(su), learned=learned)
    sensor = CameraSensor(None, vision, su.layout.hole_ids(), threaded=False)
    img = pics["empty"].image()
    vision.still = (3, read_holes(img, vision.sampler, vision.classifier), vision.sampler.sample(img))
    held = []
    real = watch.save_learned

    def save(path, key, entries):
        held.append(sensor.lock.locked())
        real(path, key, entries)
    monkeypatch.setattr(watch, "save_learned", save)
    took = sensor.board_known(start_counts(pics["empty"].pegs, su.layout), stamp=3)
    assert took and held == [False]
    assert sorted(json.loads(learned.read_text())["holes"]) == sorted(took)
