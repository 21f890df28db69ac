"""The related games' notation reads back what it writes (RG-N1..N6): every
legal move of positions met in seeded games of each preset is written, read
back, checked as legal and played to the same result; positions round-trip
through JSON."""
import json
import random

import pytest

from companion.game import Game
from companion.moves import Move
from companion.notation import pegs_to_json, position_from_json, position_to_json

CASES = [("tock", 4, None), ({"preset": "tock", "options": {"reverse_four": True,
                                                          "ten_swap": True, "forced_five": True}}, 4, None),
         ("tock_partnership", 4, None), ("tock3", 3, None), ("jackaroo", 4, None),
         ("jackaroo_individual", 4, None), ("carbles", 3, 6), ("carbles_partnership", 4, None)]


def _positions(rules, players, sides, seed, every=25):
    g = Game(rules, players=players, seed=seed, sides=sides)
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
