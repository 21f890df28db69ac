"""RG-D1 (docs/related-reference-notes.md): a related game in which no peg moves for
STILL_DEALS_TO_DRAW deals in a row ends drawn instead of being dealt forever; one peg
moved starts the count again. The games below would otherwise loop."""
import json

from companion.families import new_game
from companion.cli import main as pegs
from companion.game import Game
from companion.moves import DISCARD, HAND
from companion.families.tock.game import STILL_DEALS_TO_DRAW
from companion.simulate import format_summary, simulate
from companion.words import Names, after_play, before_play

COME_OUT = {"A", "K", "JK"}


def give_up_every_hand(game, limit=10_000):
    """JR-P10: every player discards his whole hand at every turn (legal in Jackaroo)."""
    for _ in range(limit):
        if game.is_over():
            return
        plays = game.legal_plays()
        game._push(next((p for p in plays if p.move.kind == HAND), plays[0]))
    raise AssertionError("the game did not end")


def test_RG_D1_jackaroo_everyone_giving_up_the_hand_is_drawn():
    g = new_game("jackaroo", players=4, seed=3)
    give_up_every_hand(g)
    assert g.drawn and g.winner is None and g.is_over()
    assert g.deals == STILL_DEALS_TO_DRAW and g.still_deals == STILL_DEALS_TO_DRAW
    assert not g.legal_plays()
    view = g.player_view(0)
    assert view["phase"] == "over" and view["winner"] is None and "drawn" in view["drawn"]
    # a game is a seed plus its moves: the record replays to the same draw
    again = Game.from_record(json.loads(json.dumps(g.record())))
    assert again.drawn and again.is_over() and len(again.history) == len(g.history)
    # the last give-up ended the deal and the game; undoing it reopens the game
    g.pop()
    assert not g.drawn and not g.is_over() and g.still_deals == STILL_DEALS_TO_DRAW - 1


def test_RG_D1_a_peg_moved_starts_the_count_again():
    g = new_game("jackaroo", players=4, seed=3)
    moved_in = set()
    while not g.is_over():
        plays = g.legal_plays()
        # deal 5 (counting from 1): the first player who can move a peg does
        moving = [p for p in plays if p.move.kind not in (HAND, DISCARD) and p.move.kind != "force"]
        if g.deals == 5 and moving and not moved_in:
            moved_in.add(g.deals)
            g._push(moving[0])
            continue
        g._push(next((p for p in plays if p.move.kind == HAND), plays[0]))
    assert moved_in == {5} and g.drawn
    assert g.deals == 5 + STILL_DEALS_TO_DRAW


def test_RG_D1_carbles_burning_forever_is_drawn():
    """No come-out card left in the deck: with every marble in its lot, every player
    burns (CB-P4) at every turn, deal after deal, reshuffle after reshuffle."""
    g = new_game("carbles", players=2, seed=5)
    keep = [c for c in g.shoe.stock + g.shoe.discard if (c if c == "JK" else c[:-1]) not in COME_OUT]
    g.shoe.stock[:] = keep[8:]
    g.shoe.discard.clear()
    g.hands = [keep[:4], keep[4:8]]
    names = Names([("Ann", "Red"), ("Bob", "Yellow")], g.seat_side)
    said = None
    while not g.is_over():
        plays = g.legal_plays()
        assert {p.move.kind for p in plays} == {DISCARD}
        said = before_play(g, plays[0], names)
        g._push(plays[0])
    assert g.drawn and g.winner is None and g.deals == STILL_DEALS_TO_DRAW
    assert g.shoe.reshuffles >= 1
    assert "drawn" in after_play(g, said, names)


def test_RG_D1_replay_and_simulate_report_a_draw(tmp_path, capsys):
    g = new_game("jackaroo", players=4, seed=11)
    give_up_every_hand(g)
    f = tmp_path / "rec.json"
    f.write_text(json.dumps(g.record()))
    assert pegs(["replay", str(f), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["drawn"] is True and out["winner_seats"] is None and out["phase"] == "over"
    assert pegs(["replay", str(f)]) == 0
    assert "drawn" in capsys.readouterr().out
    summary = simulate("jackaroo", players=4, games=2, seed=1)
    assert summary["draws"] == 0 and sum(summary["wins"]) == 2  # bots that play do finish
    assert "drawn" in format_summary(dict(summary, draws=1))


def test_RG_D1_pegs_and_jokers_games_have_no_draw():
    g = new_game("basic", players=4, seed=1)
    assert not hasattr(g, "drawn") and "drawn" not in g.player_view(0)
