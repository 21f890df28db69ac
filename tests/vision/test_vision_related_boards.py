"""The Tock, Jackaroo and Carbles boards (RELATED-GAMES.md RG-B1 to RG-B3): hole counts,
hole ids that match the engine's tokens, the start hole and home where TK-G3/G4 put
them, the wiring's default order, the printed template and ``pegs board print --preset``.
Pure Python (no OpenCV): the camera round trip is in test_vision_related_camera.py."""
from __future__ import annotations

import math
import re

import pytest

from companion.families import new_game
from companion.game import Game
from companion.matching import all_holes
from companion.rules import RELATED_PRESETS
from hardware.config import default_hole_order, load_wiring
from vision.cli import board_command
from vision.layout import LayoutError, layout_from_spec, load_layout, preset_layout
from vision.template import led_numbers, template_svg

# RG-B2: board -> (track, home, start, total)
RG_B2 = {"tock": (72, 16, 16, 104), "carbles4": (72, 16, 16, 104), "carbles6": (108, 24, 24, 156),
         "carbles8": (144, 32, 32, 208), "carbles12": (216, 48, 48, 312)}

# every related preset with a full board of players: (preset, players, teams)
FULL = [("tock", 4, None), ("tock_partnership", 4, 2), ("tock3", 3, None), ("jackaroo", 4, 2),
        ("jackaroo_individual", 4, None), ("carbles", 4, None), ("carbles", 6, None),
        ("carbles_partnership", 8, 4), ("carbles_partnership", 12, 6)]


def _count(layout):
    kinds = {"M": 0, "H": 0, "S": 0}
    for h in layout.holes:
        kinds[h[0]] += 1
    return kinds["M"], kinds["H"], kinds["S"], len(layout.holes)


@pytest.mark.parametrize("spec", list(RG_B2))
def test_rg_b2_hole_totals(spec):
    layout = layout_from_spec(spec)
    assert _count(layout) == RG_B2[spec]
    assert sorted(layout.holes) == sorted(layout.hole_ids())


def test_every_related_preset_names_its_board():
    assert _count(layout_from_spec("jackaroo")) == RG_B2["tock"]
    assert _count(layout_from_spec("carbles")) == RG_B2["carbles6"]     # the standard Carbles board
    assert _count(layout_from_spec("carbles_partnership:8")) == RG_B2["carbles8"]
    assert _count(layout_from_spec("basic")) == (72, 20, 20, 112)     # Pegs and Jokers unchanged
    for preset in RELATED_PRESETS:
        layout = preset_layout(preset, 4)
        assert (layout.home_holes, layout.start_holes, layout.come_out_offset) == (4, 4, 17)
    with pytest.raises(LayoutError, match="4-sided board"):
        preset_layout("tock", 6)
    with pytest.raises(LayoutError, match="4, 6, 8, 12 sections"):
        preset_layout("carbles", 10)


@pytest.mark.parametrize("preset,players,teams", FULL)
def test_rg_b3_hole_ids_are_the_engines_tokens(preset, players, teams):
    """The engine's tokens (M<n>, H<k> of a side, S for its start area) are the board's ids."""
    game = new_game(rules=preset, players=players, teams=teams, dealer=0)
    geo = game.position.geo
    layout = preset_layout(preset, geo.sides)
    tokens = [geo.token(x) for x in range(geo.length + geo.home_size)]
    ids = set()
    for side in range(geo.sides):   # a board has every side's holes, occupied or not (TK-V5)
        for tok in tokens:
            ids.add(tok if tok[0] == "M" else f"{tok}-s{side}")
        ids.update(layout.start_ids(side))
    assert ids == set(layout.holes)
    assert len(layout.start_ids(0)) == game.rules.pegs_per_side
    # the board referee's list of holes (occupied sides only) is the same set
    occupied = set(all_holes(geo, game.seat_side, game.rules.pegs_per_side))
    assert occupied == {h for h in layout.holes if h[0] == "M" or layout.side_of(h) in game.seat_side}
    h, d = layout.holes_per_side, layout.pitch
    for side in game.seat_side:
        start = geo.come_out[side]
        assert geo.token(start) == f"M{side * h + 17}"          # TK-G3: seed hole 18
        assert start == side * h + layout.come_out_offset == side * h + layout.in_spot_offset
        sx, sy = layout.holes[f"M{start}"]
        # TK-G4: H1 one hole in from the start hole, H4 deepest; the start area beside it
        dist = [math.dist((sx, sy), layout.holes[f"H{k}-s{side}"]) for k in range(1, 5)]
        assert dist == pytest.approx([d, 2 * d, 3 * d, 4 * d])
        assert all(math.dist((sx, sy), layout.holes[s]) < 6 * d for s in layout.start_ids(side))


@pytest.mark.parametrize("spec", ["tock", "carbles6", "carbles12"])
def test_wiring_default_order_covers_every_hole_once(spec):
    layout = layout_from_spec(spec)
    order = default_hole_order(layout.sides, layout.holes_per_side, start_holes=layout.start_holes,
                               home_holes=layout.home_holes)
    assert len(order) == len(set(order)) == RG_B2[spec][3]
    assert set(order) == set(layout.holes)
    wiring = load_wiring({"board": {"sides": layout.sides, "start_holes": 4, "home_holes": 4},
                          "leds": {"driver": "mock"}, "sensors": {"backend": "none"}})
    assert sorted(wiring.leds.map) == sorted(layout.holes)
    assert sorted(wiring.leds.map.values()) == list(range(len(layout.holes)))
    assert wiring.board.holes() == order
    # the printed template labels every hole with its LED number
    assert sorted(led_numbers(layout)) == sorted(layout.holes)


def test_board_print_preset_without_opencv(tmp_path, monkeypatch, capsys):
    import vision.cli as cli
    monkeypatch.setattr(cli, "_has_opencv", lambda: False)
    assert board_command(["print", "--preset", "tock", "--out", str(tmp_path)]) == 0
    svg = (tmp_path / "board.svg").read_text()
    assert "Tock: 4 sides x 18 holes" in svg
    holes = set(re.findall(r'<g id="([MHS][^"]*)"', svg)) & set(preset_layout("tock").holes)
    assert holes == set(preset_layout("tock").holes)
    assert (tmp_path / "board.pdf").read_bytes().startswith(b"%PDF")
    back = load_layout(tmp_path / "board-layout.json")
    tock = preset_layout("tock").holes
    assert back.holes.keys() == tock.keys() and back.params["preset"] == "tock"
    assert max(math.dist(back.holes[h], tock[h]) for h in tock) < 0.01
    (tmp_path / "c").mkdir()
    assert board_command(["print", "--preset", "carbles", "--sides", "6", "--formats", "svg",
                          "--out", str(tmp_path / "c")]) == 0
    assert "Carbles: 6 sides" in (tmp_path / "c" / "board.svg").read_text()
    capsys.readouterr()
    assert board_command(["print", "--preset", "carbles", "--sides", "10", "--out", str(tmp_path)]) == 2
    assert "4, 6, 8, 12 sections" in capsys.readouterr().err
    assert board_command(["print", "--preset", "chess", "--out", str(tmp_path)]) == 2
    assert "unknown preset 'chess'" in capsys.readouterr().err


def test_template_svg_draws_every_hole_of_a_tock_board():
    layout = preset_layout("tock")
    svg = template_svg(layout)
    for hole in layout.holes:
        assert f'id="{hole}"' in svg
