"""The simulated board and the phones' board (web/board.py) for Tock, Jackaroo and
Carbles (RG-B1 to RG-B3): every hole the engine can name is drawn, with the ids the
pages map the engine's tokens to (M12, H3-s2, S-s2-1), and the start hole marked."""
from __future__ import annotations

import re

import pytest

from web import colours
from web.board import render_svg
from web.tables import Table

CASES = [("tock", 4, None, 104), ("tock_partnership", 4, 2, 104), ("tock3", 3, None, 96),
         ("jackaroo", 4, 2, 104), ("jackaroo_individual", 4, None, 104), ("carbles", 6, None, 156),
         ("carbles", 3, None, 96), ("carbles_partnership", 8, 4, 208),
         ("carbles_partnership", 12, 6, 312)]


def _table(preset, players, teams):
    setup = {"rules": preset, "players": players, "teams": teams, "dealer": 0,
             "seats": [{"name": f"P{i}", "colour": c, "bot": None}
                       for i, c in enumerate(list(colours.BY_KEY)[:players])]}
    return Table("t1", setup, 0.0)


@pytest.mark.parametrize("preset,players,teams,holes", CASES)
def test_render_svg_draws_every_hole_the_engine_names(preset, players, teams, holes):
    table = _table(preset, players, teams)
    geo, game = table.geo, table.game
    svg = render_svg(table)
    ids = re.findall(r'<circle id="([^"]+)" class="hole', svg)
    assert len(ids) == len(set(ids)) == holes      # RG-B2; empty sides (tock3, CB-G2) have track only
    want = {f"M{n}" for n in range(geo.length)}
    for side in game.seat_side:     # board.js / common.js: "H3" of side 2 is H3-s2, "S" a slot S-s2-k
        want |= {f"{geo.token(geo.length + k)}-s{side}" for k in range(geo.home_size)}
        want |= {f"S-s{side}-{k}" for k in range(1, game.rules.pegs_per_side + 1)}
        start = geo.token(geo.come_out[side])
        assert re.search(f'<circle id="{start}" class="hole in-spot come-out"[^>]*data-side="{side}"', svg)
    assert set(ids) == want
    assert "H5-" not in svg


@pytest.mark.parametrize("preset,players,teams", [("basic", 4, 2), ("basic", 8, 2), ("tock", 4, None)])
def test_start_rows_and_home_lanes_carry_their_seats_letter_not_only_its_colour(preset, players, teams):
    # issue 25 §3: red and green partners look alike to a deuteranope; each seat's start row and
    # home lane has its letter beside it, as its pegs do
    table = _table(preset, players, teams)
    svg = render_svg(table)
    for seat in range(players):
        label = table.public_seats_base[seat]["label"]
        for where in ("start", "lane"):
            assert len(re.findall(rf'<text class="lane-label {where}-label"[^>]*>{re.escape(label)}</text>', svg)) >= 1, (seat, where)
    assert len(re.findall(r'class="lane-label start-label"', svg)) == players
    assert len(re.findall(r'class="lane-label lane-label"', svg)) == players
