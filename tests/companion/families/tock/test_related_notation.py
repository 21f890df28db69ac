"""The related games' notation reads back what it writes (RG-N1..N6): every
legal move of positions met in seeded games of each preset is written, read
back, checked as legal and played to the same result; positions round-trip
through JSON."""
import json
import random

import pytest

from companion.families import new_game
from companion.game import Game
from companion.moves import Move
from companion.notation import pegs_to_json, position_from_json, position_to_json

CASES = [("tock", 4, None), ({"preset": "tock", "options": {"reverse_four": True,
                                                          "ten_swap": True, "forced_five": True}}, 4, None),
         ("tock_partnership", 4, None), ("tock3", 3, None), ("jackaroo", 4, None),
         ("jackaroo_individual", 4, None), ("carbles", 3, 6), ("carbles_partnership", 4, None)]


def _positions(rules, players, sides, seed, every=25):
    g = new_game(rules, players=players, seed=seed, sides=sides)
    rng = random.Random(seed)
    while not g.is_over():
        if g.phase == "play" and g.turn % every == 0:
            g._sync()
            yield g.position.copy()
        g._push(rng.choice(g.legal_plays()))


@pytest.mark.parametrize("case", CASES, ids=lambda c: c[0] if isinstance(c[0], str) else "tock+switches")
def test_every_move_reads_back_and_replays(case):
    rules, players, sides = case
    checked = 0
    for p in _positions(rules, players, sides, seed=3):
        d = position_to_json(p)
        q = position_from_json(json.dumps(d))
        assert position_to_json(q) == d
        for move in p.legal_moves():
            text = move.text(p.geo)
            back = Move.from_text(text, p.geo, p.sides, p.ranks)
            assert back.text(p.geo) == text
            q.check_move(back)  # legal as read
            assert pegs_to_json(q, q.result_of(back)) == pegs_to_json(p, p.result_of(move)), text
            checked += 1
    assert checked > 50


def test_every_move_has_words_for_players():
    """companion.words says each related move in plain words (the phones' log)."""
    from companion.words import Names, move_words
    names = Names([("Ann", "Red"), ("Ben", "Green"), ("Cat", "Yellow"), ("Dan", "Blue")],
                  [0, 1, 2, 3])
    said = set()
    for rules in ("jackaroo", "carbles", "tock_partnership"):
        for p in _positions(rules, 4, None, seed=5, every=40):
            for move in p.legal_moves():
                text = move_words(p, move, names)
                assert text.startswith(names.side(p.to_move)) and "M" not in text.split(":")[0]
                said.add(move.kind)
    assert {"move", "force"} <= said


@pytest.mark.parametrize("rules", ["tock", {"preset": "tock", "options": {"ten_swap": True, "reverse_four": True, "forced_five": True}},
                                   "jackaroo", "carbles"], ids=str)
def test_wrong_moves_are_refused_with_a_rule_id(rules):
    """Moves a step off a legal one, or with another card, are either legal or
    refused naming a TK-/CB-/JR-/RG- id: never another error (the referee's words)."""
    import re
    from companion.moves import IllegalMoveError, MoveSyntaxError
    rid = re.compile(r"^(TK|CB|JR|RG)-[A-Z]+\d+")
    rng = random.Random(9)
    refused = 0
    for p in _positions(rules, 4, None, seed=4, every=30):
        legal = [m.text(p.geo) for m in p.legal_moves()]
        for text in rng.sample(legal, min(6, len(legal))):
            words = text.split()
            for rank in p.ranks[::3]:
                variants = [" ".join([rank] + words[1:])]
                variants.append(re.sub(r"M(\d+)$", lambda m: f"M{(int(m[1]) + 1) % p.L}", text))
                variants.append(re.sub(r"^(\S+) (\d+):", lambda m: f"{m[1]} {(int(m[2]) + 1) % 4}:", text))
                for v in variants:
                    try:
                        p.parse_move(v)
                    except MoveSyntaxError:
                        pass
                    except IllegalMoveError as exc:
                        assert exc.rule and rid.match(exc.rule), (v, str(exc), exc.rule)
                        refused += 1
    assert refused > 20


# ------------------------------------------------- one scenario per RG-N id
def _rg(rules, pegs, **kw):
    from tests.companion.rg_helpers import pos
    return pos(rules, pegs, **kw)


JR_TEAMS = {"teams": [[0, 2], [1, 3]]}


def test_RG_N1_hole_tokens_are_the_boards_own():
    from companion.errors import PositionError
    from tests.companion.rg_helpers import data
    p = _rg("tock", {0: ["H4", "M71"]})
    assert position_to_json(p)["pegs"]["0"] == ["S", "S", "M71", "H4"]
    for bad in (["H5"], ["M72"]):  # a 4-hole home; 4 sides of 18 holes
        with pytest.raises(PositionError):
            position_from_json(json.dumps(data("tock", {0: bad})))
    six = _rg("carbles", {0: ["M107"]}, sides=6, occupied=[0, 3], teams=[[0], [3]])
    assert six.L == 108 and "3 0:M107-M2" in {m.text(six.geo) for m in six.legal_moves(["3"])}


def test_RG_N2_each_game_reads_only_its_own_ranks():
    from companion.moves import MoveSyntaxError
    jr = _rg("jackaroo", {0: ["M5"], 2: ["M30"]}, **JR_TEAMS)
    for text in ("J 0:M5-M16", "Q 0:M5-M17", "JK 0:S-M17"):
        with pytest.raises(MoveSyntaxError, match="not a rank"):
            jr.parse_move(text)
    assert jr.parse_move("qb 0:M5-M17").text(jr.geo) == "Qb 0:M5-M17"  # any case, written as RG-N2
    with pytest.raises(MoveSyntaxError):
        _rg("tock", {}).parse_move("JK 0:S-M17")
    cb = _rg("carbles", {}, occupied=[0, 2], teams=[[0], [2]])
    assert cb.parse_move("JK 0:S-M17").text(cb.geo) == "JK 0:S-M17"


def test_RG_N3_every_new_move_form_reads_and_writes_back():
    forms = [
        (("jackaroo", {0: ["M5", "M20"], 2: ["M30"]}, JR_TEAMS),
         ["5 2:M30-M35", "Jb 0:M5<>2:M30", "10 force 3", "Qr force 3", "discard hand",
          "7 0:M5-M8 0:M20-M24"]),
        (("tock", {0: ["M5"], 2: ["M30"]}, {}), []),
        (({"preset": "tock", "options": {"ten_swap": True}}, {0: ["M5"], 2: ["M30"]}, {}),
         ["10 0:M5<>2:M30"]),
        (("carbles", {0: ["M10", "M40"], 2: ["M30"]}, {"occupied": [0, 2], "teams": [[0], [2]]}),
         ["7 0:M10-M12 0:M40-M43 0:M12-M14", "J 0:M10<>2:M30"]),
    ]
    for (rules, pegs, kw), texts_ in forms:
        p = _rg(rules, pegs, **kw)
        for text in texts_:
            move = p.parse_move(text)
            assert move.text(p.geo) == text
            assert Move.from_text(text, p.geo, p.sides, p.ranks) == move
    # the burn is written `9 discard`: legal only with nothing else to play (JR-P9)
    stuck = _rg("jackaroo", {}, **JR_TEAMS)
    assert stuck.parse_move("9 discard", ["9", "3"]).text(stuck.geo) == "9 discard"


def test_RG_N4_skips_are_validated_not_applied():
    from companion.errors import PositionError
    from tests.companion.rg_helpers import data
    p = _rg("jackaroo", {0: ["M5"]}, skips={"0": 2, "1": 1}, **JR_TEAMS)
    assert p.to_move == 0 and {m.text(p.geo) for m in p.legal_moves(["2"])} == {"2 0:M5-M7"}
    assert position_to_json(p)["skips"] == {"0": 2, "1": 1}
    for bad in ({"1": -1}, {"1": "x"}, {"5": 1}):
        with pytest.raises(PositionError, match="skips"):
            position_from_json(json.dumps(data("jackaroo", {}, skips=bad, **JR_TEAMS)))


def test_RG_N5_the_extra_fields_and_the_presets_switches():
    from companion.errors import PositionError
    from tests.companion.rg_helpers import data
    p = _rg({"preset": "tock", "options": {"reverse_four": True}}, {0: ["M20"]})
    assert {m.text(p.geo) for m in p.legal_moves(["4"])} == {"4 0:M20-M16"}
    q = _rg("jackaroo", {0: ["M5"]}, hand_sizes={"3": 0}, waiting=[1], **JR_TEAMS)
    assert not [m for m in q.legal_moves(["10", "Qr"]) if m.kind == "force"]  # side 3 holds none
    assert position_to_json(q)["waiting"] == [1] and position_to_json(q)["hand_sizes"] == {"3": 0}
    for bad in (dict(rules={"preset": "jackaroo", "options": {"ten_swap": True}}),
                dict(waiting=[3], hand_sizes={"3": 1}),
                dict(teams=[[0], [1], [2], [3]])):
        d = dict(data("jackaroo", {}, **JR_TEAMS), **bad)
        with pytest.raises(PositionError):
            position_from_json(json.dumps(d))


def test_RG_N6_moves_entries_effects_and_discard_allowed():
    from companion.notation import moves_report
    p = _rg("jackaroo", {0: ["M20"]}, hand_sizes={"3": 2}, **JR_TEAMS)
    rep = moves_report(p, ["10", "Qr", "9"])
    by = {m["move"]: m for m in rep["moves"]}
    assert by["10 force 3"]["effects"] == {"skip": 3, "discard": 3}
    assert by["Qr force 3"]["effects"] == {"skip": 3, "steal": 3}
    assert by["10 force 3"]["result"] == position_to_json(p)["pegs"]
    assert [m for m in rep["moves"] if "effects" in m] == [by["10 force 3"], by["Qr force 3"]]
    assert rep["discard_allowed"] is False
    assert not [m for m in rep["moves"] if m["move"] in ("discard hand", "9 discard")]
    # only a force can move: still no burn allowed; with the next player out of cards, allowed
    assert moves_report(_rg("jackaroo", {}, **JR_TEAMS), ["10"])["discard_allowed"] is False
    assert moves_report(_rg("jackaroo", {}, hand_sizes={"3": 0}, **JR_TEAMS),
                        ["10"])["discard_allowed"] is True
    g = new_game("jackaroo", players=4, seed=3)
    g._push(next(pl for pl in g.legal_plays() if pl.move.kind == "hand"))
    assert g.record()["moves"][0] == {"move": "discard hand", "card": None}


def test_RG_B1_one_side_design_of_26_holes_for_all_three_games():
    """18 track holes a side (the start hole the 18th, M(18k+17)), a 4-hole home run in
    from it, 4 start holes: 26 a side on every board (RG-B1, RG-B2)."""
    from companion.matching import all_holes, hole_id
    for rules, sides, occupied, teams in (("tock", 4, [0, 1, 2, 3], None),
                                          ("jackaroo", 4, [0, 1, 2, 3], [[0, 2], [1, 3]]),
                                          ("carbles", 6, [0, 2, 4], None),
                                          ("carbles_partnership", 12, list(range(12)),
                                           [[i, i + 6] for i in range(6)])):
        kw = {"teams": teams} if teams else {}
        p = _rg(rules, {}, sides=sides, occupied=occupied, **kw)
        holes = all_holes(p.geo, range(sides), p.rules.pegs_per_side)
        assert len(holes) == 26 * sides and p.L == 18 * sides
        for k in range(sides):
            assert p.sh[k] == 18 * k + 17  # the 18th hole of side k, next to the far corner
            assert [hole_id(p.geo, k, p.L + j) for j in range(4)] == [f"H{j}-s{k}" for j in range(1, 5)]
    p = _rg("tock", {0: ["M15"]})
    assert "5 0:M15-H3" in {m.text(p.geo) for m in p.legal_moves(["5"])}  # M16, M17, H1, H2, H3
