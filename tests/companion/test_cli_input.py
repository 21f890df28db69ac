"""`pegs moves` and `pegs replay` on hostile files: one line on stderr and exit 2, never a traceback."""
from __future__ import annotations

import json

import pytest

from companion.cli import main
from companion.game import GAME_FORMAT


def run(capsys, argv):
    code = main(argv)
    err = capsys.readouterr().err
    return code, err


def one_line(err: str) -> str:
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in err, err
    return lines[0]


@pytest.mark.parametrize("command", ["moves", "replay"])
def test_deeply_nested_arrays(tmp_path, capsys, command):
    path = tmp_path / "deep.json"
    path.write_text("[" * 100_000 + "]" * 100_000)
    code, err = run(capsys, [command, str(path)])
    assert code == 2
    assert "nested too deeply" in one_line(err)


@pytest.mark.parametrize("fields, words", [
    ({"seed": [1]}, "'seed'"),
    ({"seed": 1, "dealer": "0"}, "'dealer'"),
    ({"seed": 1, "players": 4.0}, "'players'"),
    ({"seed": True}, "'seed'"),
    ({"shuffles": 5}, "'shuffles'"),
    ({"shuffles": [[1, 2]]}, "shuffle"),
    ({"seed": 1, "moves": 5}, "'moves'"),
    ({"seed": 1, "moves": {"a": 1}}, "'moves'"),
    ({"seed": 1, "moves": [5]}, "'moves'"),
    ({"seed": 1, "rules": [[[]]]}, "rules"),
])
def test_replay_fields_of_the_wrong_type(tmp_path, capsys, fields, words):
    path = tmp_path / "rec.json"
    path.write_text(json.dumps({"format": GAME_FORMAT, **fields}))
    code, err = run(capsys, ["replay", str(path)])
    assert code == 2
    assert words in one_line(err)


@pytest.mark.parametrize("upto, words", [("-5", "must be 0 or more"), ("x", "not a whole number")])
def test_replay_upto_must_be_a_count(tmp_path, capsys, upto, words):
    path = tmp_path / "rec.json"
    path.write_text(json.dumps({"format": GAME_FORMAT, "seed": 1}))
    with pytest.raises(SystemExit) as exit_:
        main(["replay", str(path), "--upto", upto])
    assert exit_.value.code == 2
    assert words in one_line(capsys.readouterr().err)


def test_replay_upto_zero_still_works(tmp_path, capsys):
    path = tmp_path / "rec.json"
    path.write_text(json.dumps({"format": GAME_FORMAT, "seed": 1}))
    assert main(["replay", str(path), "--upto", "0"]) == 0
    assert "replayed 0 moves" in capsys.readouterr().out


@pytest.mark.parametrize("command", ["moves", "replay"])
def test_a_number_too_long_to_read(tmp_path, capsys, command):
    path = tmp_path / "long.json"
    path.write_text('{"format": "x", "seed": 1' + "0" * 5000 + "}")
    code, err = run(capsys, [command, str(path)])
    assert code == 2 and "not usable JSON" in one_line(err)


def test_a_very_long_bad_move_is_shown_short(tmp_path, capsys):
    path = tmp_path / "rec.json"
    path.write_text(json.dumps({"format": GAME_FORMAT, "seed": 1, "moves": [{"move": "A " * 50_000}]}))
    code, err = run(capsys, ["replay", str(path)])
    assert code == 2 and len(one_line(err)) < 400
