"""``pegs board`` and ``pegs vision``: the template files, render -> calibrate -> detect round
trips whose output the rules engine accepts (a start and a mid-game position), and one-line
errors with status 2 on bad input."""
from __future__ import annotations

import json
from importlib.metadata import entry_points

import pytest

pytest.importorskip("cv2", reason="the vision extra (OpenCV, NumPy) is not installed")
pytest.importorskip("numpy")

from companion.notation import position_from_json, position_to_json  # noqa: E402
from vision.cli import board_command, vision_command  # noqa: E402

START = {"format": "pegs-and-jokers/position/1", "rules": "basic", "sides": 4, "teams": [[0, 2], [1, 3]],
         "pegs": {str(s): ["S"] * 5 for s in range(4)}, "to_move": 0}
MID = {"format": "pegs-and-jokers/position/1", "rules": "basic", "sides": 4, "teams": [[0, 2], [1, 3]],
       "pegs": {"0": ["S", "S", "M8", "M40", "H5"], "1": ["S", "S", "S", "S", "S"],
                "2": ["S", "S", "S", "M47", "H3"], "3": ["S", "S", "S", "S", "M62"]},
       "to_move": 1}


def run(cmd, argv, capsys):
    status = cmd(argv)
    out, err = capsys.readouterr()
    return status, out, err


@pytest.fixture(scope="module")
def workdir(tmp_path_factory):
    return tmp_path_factory.mktemp("cli")


@pytest.fixture(scope="module")
def calibration(workdir):
    """A set-up picture rendered and calibrated through the commands (moderate distortion)."""
    (workdir / "start.json").write_text(json.dumps(START))
    assert vision_command(["render", "--position", str(workdir / "start.json"), "--out",
                           str(workdir / "start.png"), "--distortion", "moderate", "--seed", "4"]) == 0
    assert vision_command(["calibrate", str(workdir / "start.png"), "--layout", "4",
                           "--out", str(workdir / "cal.json")]) == 0
    return workdir / "cal.json"


@pytest.mark.parametrize("name,position", [("start", START), ("mid", MID)])
def test_detect_prints_a_position_the_engine_accepts(workdir, calibration, capsys, name, position):
    pos_file = workdir / f"{name}-pos.json"
    pos_file.write_text(json.dumps(position))
    img = workdir / f"{name}-seen.png"
    status, out, err = run(vision_command, ["render", "--position", str(pos_file), "--out", str(img),
                                            "--distortion", "moderate", "--seed", "4"], capsys)
    assert status == 0, err
    status, out, err = run(vision_command, ["detect", str(img), "--layout", "4", "--calibration",
                                            str(calibration), "--to-move", str(position["to_move"])], capsys)
    assert status == 0, err
    data = json.loads(out)
    pos = position_from_json(data)                 # the rules engine's own reader accepts it
    assert data["pegs"] == position["pegs"]
    assert position_to_json(pos)["pegs"] == position["pegs"]
    assert data["teams"] == [[0, 2], [1, 3]] and data["to_move"] == position["to_move"]


def test_detect_holes_and_options(workdir, calibration, capsys):
    img = workdir / "start.png"
    status, out, _ = run(vision_command, ["detect", str(img), "--calibration", str(calibration), "--holes"], capsys)
    holes = json.loads(out)
    assert status == 0 and len(holes) == 112
    assert holes["S-s2-3"]["label"] == 2 and holes["M0"]["label"] == "empty"
    p, side, q = holes["S-s2-3"]["reading"]          # the referee's per-hole reading (p_peg, side, p_side)
    assert p > 0.9 and side == 2 and q > 0.9 and holes["M0"]["reading"][0] < 0.1
    status, out, _ = run(vision_command, ["detect", str(img), "--calibration", str(calibration),
                                          "--teams", "0,1/2,3", "--rules", "arizona", "--indent", "1"], capsys)
    data = json.loads(out)
    assert status == 0 and data["teams"] == [[0, 1], [2, 3]] and data["rules"] == "arizona"


def test_detect_two_players(workdir, capsys):
    two = {"format": "pegs-and-jokers/position/1", "rules": "basic", "sides": 4, "teams": [[0], [2]],
           "pegs": {"0": ["S", "S", "S", "M3", "H1"], "2": ["S"] * 5}, "to_move": 2}
    setup = dict(two, pegs={"0": ["S"] * 5, "2": ["S"] * 5})
    (workdir / "two-setup.json").write_text(json.dumps(setup))
    (workdir / "two.json").write_text(json.dumps(two))
    for name in ("two-setup", "two"):
        assert vision_command(["render", "--position", str(workdir / f"{name}.json"), "--out",
                               str(workdir / f"{name}.png"), "--distortion", "mild", "--seed", "9"]) == 0
    assert vision_command(["calibrate", str(workdir / "two-setup.png"), "--layout", "4",
                           "--out", str(workdir / "two-cal.json")]) == 0
    capsys.readouterr()
    status, out, err = run(vision_command, ["detect", str(workdir / "two.png"), "--calibration",
                                            str(workdir / "two-cal.json"), "--to-move", "2"], capsys)
    assert status == 0, err
    data = json.loads(out)
    assert data["pegs"] == two["pegs"] and data["teams"] == [[0], [2]]
    position_from_json(data)


def test_calibrate_reports_flags(workdir, capsys):
    (workdir / "black.json").write_text(json.dumps(START))
    assert vision_command(["render", "--position", str(workdir / "black.json"), "--out",
                           str(workdir / "black.png"), "--colours", "red,blue,green,black"]) == 0
    cal = workdir / "black-cal.json"
    status, out, err = run(vision_command, ["calibrate", str(workdir / "black.png"), "--layout", "4", "--out",
                                            str(cal), "--sides", "0,1,2,3"], capsys)
    assert status == 1 and not cal.exists()       # a calibration that can't see a side never passes quietly
    assert "side 3's pegs can't be told from empty holes" in err and "--accept-weak" in err
    status, out, err = run(vision_command, ["calibrate", str(workdir / "black.png"), "--layout", "4", "--out",
                                            str(cal), "--sides", "0,1,2,3", "--accept-weak"], capsys)
    assert status == 0 and cal.exists()
    assert "warning: side 3's pegs can't be told from empty holes" in out
    assert json.loads(cal.read_text())["accepted_weak"] is True


def test_calibrate_names_sides_with_the_tables_colours(workdir, capsys):
    """The seat colours given by the user name the sides (never a guess such as "black" for a deep
    blue); a seat whose pegs can't be told from empty holes is named with its colour, and advice."""
    (workdir / "navy.json").write_text(json.dumps(START))
    assert vision_command(["render", "--position", str(workdir / "navy.json"), "--out",
                           str(workdir / "navy.png"), "--colours", "#2a2a30,#1f5fbf,green,yellow"]) == 0
    cal = workdir / "navy-cal.json"
    status, out, err = run(vision_command, ["calibrate", str(workdir / "navy.png"), "--layout", "4", "--out",
                                            str(cal), "--colours", "red,blue,green,yellow"], capsys)
    assert status == 1 and not cal.exists()
    assert "side 0's red pegs can't be told from empty holes" in err
    assert "light" in err and "brighter pegs" in err
    status, out, err = run(vision_command, ["calibrate", str(workdir / "navy.png"), "--layout", "4", "--out",
                                            str(cal), "--colours", "none,blue,green,yellow"], capsys)
    assert status == 0, err
    assert "side 1: blue pegs" in out and "black" not in out
    assert json.loads(cal.read_text())["colours"]["names"] == {"1": "blue", "2": "green", "3": "yellow"}


@pytest.mark.parametrize("argv,words", [
    (["detect", "nope.png", "--calibration", "nope.json"], "no such file"),
    (["render", "--position", "nope.json", "--out", "x.png"], "no such file"),
    (["calibrate", "x.png", "--layout", "5", "--out", "c.json"], "4, 6, 8, 10 or 12"),
    (["render", "--position", "-", "--out", "x.png", "--distortion", "extreme"], "--distortion must be one of"),
    (["frobnicate"], "invalid choice"),
    (["detect"], "required"),
])
def test_bad_input_exits_2_with_one_line(argv, words, capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    status, out, err = run(vision_command, argv, capsys)
    assert status == 2
    assert words in err and err.count("\n") == 1 and err.startswith("pegs vision")


def test_unreadable_picture_exits_1(tmp_path, capsys):
    import numpy as np
    import cv2
    cv2.imwrite(str(tmp_path / "grey.png"), np.full((720, 1280, 3), 128, np.uint8))
    status, out, err = run(vision_command, ["calibrate", str(tmp_path / "grey.png"), "--layout", "4",
                                            "--out", str(tmp_path / "c.json")], capsys)
    assert status == 1 and "no marker" in err and err.count("\n") == 1


def test_board_print_writes_the_template(tmp_path, capsys):
    status, out, err = run(board_command, ["print", "--sides", "6", "--out", str(tmp_path / "six"),
                                           "--px-per-mm", "2", "--paper", "a3"], capsys)
    assert status == 0, err
    svg = (tmp_path / "six.svg").read_text()
    assert 'id="M107"' in svg and 'id="S-s5-5"' in svg and svg.count('class="marker"') == 4
    assert (tmp_path / "six.png").read_bytes()[:4] == b"\x89PNG"
    assert (tmp_path / "six.pdf").read_bytes()[:5] == b"%PDF-"
    layout = json.loads((tmp_path / "six-layout.json").read_text())
    assert layout["sides"] == 6 and len(layout["holes"]) == 168
    status, out, err = run(board_command, ["layout", "--sides", "4", "--pitch", "30"], capsys)
    assert status == 0 and json.loads(out)["pitch"] == 30


@pytest.mark.parametrize("argv,words", [
    (["print", "--sides", "5"], "4, 6, 8, 10 or 12"),
    (["print", "--formats", "gif"], "--formats"),
    (["print", "--paper", "b5", "--formats", "pdf", "--out", "nowhere/x"], "no such folder"),
    (["print", "--layout", "4", "--pitch", "30"], "not both"),
    (["layout", "--pitch", "abc"], "invalid float"),
])
def test_board_bad_input(argv, words, capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    status, out, err = run(board_command, argv, capsys)
    assert status == 2 and words in err and err.count("\n") == 1


def test_registered_as_pegs_subcommands(capsys):
    names = {ep.name: ep.value for ep in entry_points(group="pegs.commands")}
    if "vision" not in names:
        pytest.skip("the package is not (re)installed: pip install -e . registers the entry points")
    assert names["vision"] == "vision.cli:vision_command" and names["board"] == "vision.cli:board_command"
    from companion.cli import main
    assert main(["board", "layout", "--sides", "8"]) == 0
    assert json.loads(capsys.readouterr().out)["sides"] == 8


def test_detect_settles_a_hole_the_picture_leaves_unsure_by_the_peg_count(tmp_path, capsys):
    """The committed path-traced s8-wood pos-01: every hole read surely but H3-s7 (purple's home
    hole, empty, its look off its empty one); every side shows its 5 pegs elsewhere, so H3-s7 is
    empty. ``--strict`` reads from the picture alone and refuses, naming the hole. (Until session
    14 the committed s6-paper's M62, a black peg its shadow-like spot left unsure, was the case.)"""
    from pathlib import Path
    folder = Path(__file__).resolve().parent / "data" / "pathtraced" / "s8-wood"
    truth = json.loads((folder / "pos-01.json").read_text())
    cal = tmp_path / "cal.json"
    layout = str(folder / "layout.json")
    assert run(vision_command, ["calibrate", str(folder / "calibration.jpg"), "--layout", layout, "--colours",
                                "red,blue,green,yellow,black,white,orange,purple", "--out", str(cal)], capsys)[0] == 0
    status, out, err = run(vision_command, ["detect", str(folder / "pos-01.jpg"), "--layout", layout,
                                            "--calibration", str(cal)], capsys)
    assert status == 0, err
    assert "H3-s7 read as empty by the peg count" in err, err
    seen = {(int(s), t) for s, toks in json.loads(out)["pegs"].items() for t in toks if t[0] in "MH"}
    want = {(int(v), h.split("-")[0]) for h, v in truth["pegs"].items() if h[0] in "MH"}
    assert seen == want and (7, "H3") not in seen
    status, out, err = run(vision_command, ["detect", str(folder / "pos-01.jpg"), "--layout", layout,
                                            "--calibration", str(cal), "--strict"], capsys)
    assert status == 1 and out == "" and "low confidence (H3-s7)" in err, err