"""The camera reads a Tock/Jackaroo board (RG-B1): calibrate on the set-up picture of a
rendered board, then read a mid-game Jackaroo position back into the engine's notation."""
from __future__ import annotations

import pytest

pytest.importorskip("cv2", reason="the vision extra (OpenCV, NumPy) is not installed")
pytest.importorskip("numpy")

from companion.notation import position_from_json  # noqa: E402
from vision.calibration import calibrate  # noqa: E402
from vision.detect import EMPTY  # noqa: E402
from vision.layout import preset_layout  # noqa: E402
from vision.position import labels_from_position, position_from_labels  # noqa: E402
from vision.render import coloured, make_scene, render_scene, setup_pegs  # noqa: E402
from vision.watch import detect_image  # noqa: E402

# pegs on start holes (M17, M53), in homes (H1-H4), on a corner (M0, M36) and in start areas
JACKAROO = {"format": "pegs-and-jokers/position/1", "rules": "jackaroo", "sides": 4,
            "teams": [[0, 2], [1, 3]],
            "pegs": {"0": ["S", "M0", "M17", "H4"], "1": ["S", "S", "M36", "H1"],
                     "2": ["M20", "M53", "H2", "H3"], "3": ["S", "S", "S", "M71"]},
            "to_move": 0}


def test_camera_reads_a_jackaroo_position_on_the_tock_board():
    position_from_json(JACKAROO)            # the engine takes it: a real position
    layout = preset_layout("jackaroo")
    scene = make_scene(layout, "mild", 5)
    cal = calibrate(render_scene(scene, setup_pegs(layout), 0), layout)
    assert cal.method == "markers" and cal.refined_on >= 80
    truth = labels_from_position(JACKAROO, layout)
    reading = detect_image(render_scene(scene, coloured(truth), 1), layout, cal)
    assert reading.labels == {h: truth.get(h, EMPTY) for h in layout.holes}   # all 104 holes
    data, _ = position_from_labels(reading.labels, layout, [0, 1, 2, 3], rules="jackaroo",
                                   teams=[[0, 2], [1, 3]])
    assert data["pegs"] == JACKAROO["pegs"]      # S, then track, then home: as written above


def test_detect_defaults_teams_to_the_presets_seating():
    """`pegs vision detect --rules tock` without --teams: each plays alone (TK-G3), not T1's pairs."""
    from vision.cli import _preset_teams
    assert _preset_teams("tock", 4) == 4 and _preset_teams("tock3", 3) == 3
    assert _preset_teams("jackaroo", 4) == 2 and _preset_teams("carbles_partnership", 8) == 4
    assert _preset_teams("basic", 4) is None and _preset_teams("no such rules", 4) is None
    layout = preset_layout("tock")
    tock = dict(JACKAROO, rules="tock", teams=[[0], [1], [2], [3]])
    labels = labels_from_position(tock, layout)
    data, _ = position_from_labels(labels, layout, [0, 1, 2, 3], rules="tock",
                                   teams=_preset_teams("tock", 4))
    assert data["teams"] == [[0], [1], [2], [3]]
    position_from_json(data)                # the engine takes it (pairs it would refuse, TK-G3)
