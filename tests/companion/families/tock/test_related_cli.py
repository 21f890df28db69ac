"""`pegs moves / rules / simulate / replay` for the related presets (issue 18.2),
by the same contract as for Pegs and Jokers (NOTATION.md, RG-N2..N6)."""
import json
import subprocess
import sys
from pathlib import Path

import pytest

from companion import cli
from companion.families import new_game
from companion.game import Game
from companion.rules import RELATED_PRESETS

from tests.companion.rg_helpers import data

ROOT = Path(__file__).resolve().parents[4]


def pegs(*args, stdin=None):
    return subprocess.run([sys.executable, "-m", "companion.cli", *args], cwd=ROOT, input=stdin,
                          capture_output=True, text=True, timeout=60)


def test_moves_answers_a_jackaroo_position_with_effects(tmp_path):
    f = tmp_path / "p.json"
    f.write_text(json.dumps(data("jackaroo", {0: ["M20"]}, teams=[[0, 2], [1, 3]],
                                 skips={"1": 1}, hand_sizes={"3": 2})))
    proc = pegs("moves", str(f), "--hand", "10,qr,Jb")
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert out["to_move"] == 0 and out["discard_allowed"] is False
    by = {m["move"]: m for m in out["moves"]}
    assert set(by) == {"10 0:M20-M30", "10 force 3", "Qr force 3"}
    assert by["10 force 3"]["effects"] == {"skip": 3, "discard": 3}
    assert "effects" not in by["10 0:M20-M30"]


@pytest.mark.parametrize("bad, says", [
    ({"skips": {"1": -1}}, "skips"), ({"waiting": [5]}, "waiting"),
    ({"rules": {"preset": "jackaroo", "options": {"ten_swap": True}}}, "ten_swap"),
    ({"sides": 6}, "sides"),
])
def test_moves_rejects_bad_related_positions_in_one_line(tmp_path, bad, says):
    d = data("jackaroo", {}, teams=[[0, 2], [1, 3]])
    d.update(bad)
    f = tmp_path / "p.json"
    f.write_text(json.dumps(d))
    proc = pegs("moves", str(f))
    assert proc.returncode == 2 and says in proc.stderr and proc.stderr.count("\n") == 1


@pytest.mark.parametrize("rules, occupied, teams, extra, says", [
    ("tock3", [0, 1, 2, 3], [[0], [1], [2], [3]], {},
     ["tock3 is played by 3 players on sides 0, 1, 2 (side 3 is empty)", "TK-V5"]),
    ("jackaroo", [0, 1, 2, 3], [[0], [1], [2], [3]], {},
     ["partners sit opposite, so teams are [[0, 2], [1, 3]]", "JR-G3", "jackaroo_individual"]),
    ("carbles", [0, 2], [[0], [2]], {"waiting": [2], "hand_sizes": {"2": 0}},
     ["no side waits", "CB-P4"]),
])
def test_moves_names_the_rule_a_related_layout_breaks(tmp_path, capsys, rules, occupied, teams,
                                                       extra, says):
    """Section S / RG-N5: the layouts the reference refuses, refused in one line with the rule."""
    d = dict(data(rules, {}, occupied=occupied, teams=teams), **extra)
    f = tmp_path / "p.json"
    f.write_text(json.dumps(d))
    status = cli.main(["moves", str(f)])
    err = capsys.readouterr().err
    assert status == 2 and err.count("\n") == 1
    for words in says:
        assert words in err, err


@pytest.mark.parametrize("preset", list(RELATED_PRESETS))
def test_rules_describes_each_related_preset(preset):
    proc = pegs("rules", preset, "--json")
    assert proc.returncode == 0, proc.stderr
    info = json.loads(proc.stdout)
    assert info["preset"] == preset and info["description"] and "switches" in info
    assert info["rulings"] and info["differences"]


def test_simulate_and_replay_a_related_game(tmp_path):
    proc = pegs("simulate", "--preset", "carbles", "--players", "3", "--sides", "6",
                "--games", "2", "--json")
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["games"] == 2
    g = new_game("jackaroo", players=4, seed=7)
    while not g.is_over():
        g._push(g.legal_plays()[0])
    f = tmp_path / "rec.json"
    f.write_text(json.dumps(g.record()))
    proc = pegs("replay", str(f), "--json")
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert out["moves_replayed"] == len(g.history) and out["winner_seats"] is not None
    assert out["position"]["rules"] == "jackaroo"


def test_rules_takes_the_preset_as_simulate_spells_it(capsys):
    assert cli.main(["rules", "--preset", "tock"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("tock\n") and "TK-V1 Reverse Four" in out and "RG-D1" in out
    assert cli.main(["rules", "tock", "--preset", "jackaroo"]) == 2
    assert "two presets" in capsys.readouterr().err
