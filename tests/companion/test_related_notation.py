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
