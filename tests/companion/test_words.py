"""companion.words: what players read, in words with names and colours (issue 14 points 4, 5).
Refusals keep their RULES id; the doubt outcome says who won, what happened to the move,
whose peg goes back and who plays next."""
from __future__ import annotations

import random
import re

import pytest

from companion.bots import make_bot
from companion.cards import rank_of
from companion.game import Game
from companion.moves import DOUBT, IllegalMoveError, Move, PASS
from companion.notation import position_from_json
from companion.words import (Names, a_rank, after_play, before_play, cancelled, card_words,
                             declared_words, move_words, refusal, told)

NAMES = Names([("Ann", "Red"), ("Ben", "Blue"), ("Cat", "Green"), ("Dan", "Yellow")], [0, 1, 2, 3])
NOTATION = re.compile(r"\b[MH]\d+\b|\d+:[SMH]|\bside \d")


def pos(pegs, to_move=0, rules="basic"):
    full = {str(s): ["S"] * 5 for s in range(4)}
    full.update({str(k): v + ["S"] * (5 - len(v)) for k, v in pegs.items()})
    return position_from_json({"format": "pegs-and-jokers/position/1", "rules": rules, "sides": 4,
                               "teams": [[0, 2], [1, 3]], "pegs": full, "to_move": to_move})


def say(p, text, **kw):
    return move_words(p, Move.from_text(text, p.geo, p.sides), NAMES, **kw)


def test_articles_and_cards():
    assert [a_rank(r) for r in ("A", "8", "7", "J", "JK")] == ["an ace", "an 8", "a 7", "a jack", "a joker"]
    assert card_words("8D") == "the 8 of diamonds" and card_words("KS") == "the king of spades"


def test_moves_in_words():
    p = pos({"0": ["M21"], "1": ["M26"]})
    assert say(p, "J 0:S-M8") == "Ann (Red) brought a peg out with a jack, onto hole 8"
    assert say(p, "8 0:M21-M13") == "Ann (Red) moved a peg 8 backward with an 8, from hole 21 to hole 13"
    assert say(p, "5 0:M21-M26") == ("Ann (Red) moved a peg 5 forward with a 5, from hole 21 to hole 26; "
                                     "Ben's blue peg on hole 26 goes back to start")
    assert say(p, "K 0:S-M8", declared=True) == \
        "Ann (Red) played a card face down as a king: brought a peg out, onto hole 8"
    home = pos({"0": ["M70", "M10"]})
    assert say(home, "7 0:M70-H1 0:M10-M11") == ("Ann (Red) split a 7: a peg 6 forward, from hole 70 to "
                                                 "Ann's home hole 1, and a peg 1 forward, from hole 10 to hole 11")
    assert say(home, "7 0:M70-H2") == "Ann (Red) moved a peg 7 forward with a 7, from hole 70 to Ann's home hole 2"


def test_a_hit_to_the_in_spot_names_it():
    p = pos({"0": ["M10"], "2": ["M14"]})  # Cat is Ann's partner: a hit sends her to her in-spot (M7)
    assert say(p, "4 0:M10-M14").endswith("Cat's green peg on hole 14 goes to its in-spot, hole 39")


@pytest.mark.parametrize("text, rules, words", [
    ("8 1:M30-M22", "basic", "that's Ben's peg: you may move only your own (P8)"),
    ("8 0:M21-M26", "basic", "an 8 moves a peg 8 backward, and the whole count must be used (M1)"),
    ("5 0:S-M8", "basic", "only an ace, jack, queen, king or joker brings a peg out of start (M6)"),
    ("5 0:M3-M8", "basic", "Ann (Red) has no peg on hole 3 (M1)"),
])
def test_refusals_in_words_keep_the_rule(text, rules, words):
    p = pos({"0": ["M21"], "1": ["M30"]}, rules=rules)
    with pytest.raises(IllegalMoveError) as exc:
        p.parse_move(text)
    said = refusal(p, NAMES, str(exc.value), exc.value.rule)
    assert said == words
    assert not NOTATION.search(said.rsplit(" (", 1)[0])  # the rule id stays in brackets


def play_with_words(game, play):
    said = before_play(game, play, NAMES)
    game._push(play)
    return after_play(game, said, NAMES)


def bluff_then_doubt(seed, bluff):
    """Bluffing Joker from a seeded deal: seat 0 plays a bluff (or its real card) and the
    first opponent in the queue doubts at once."""
    g = Game("bluffing_joker", players=4, seed=seed)
    hand = g.hands[g.actor]
    plays = [p for p in g.legal_plays() if p.move.kind == "move"
             and (rank_of(p.card) != p.move.rank) == bluff]
    if not plays:
        return None
    bluffer = g.actor
    play_with_words(g, plays[0])
    assert declared_words(g, NAMES).startswith(f"{NAMES.seat(bluffer)} played a card face down as")
    doubter = g.actor
    text = play_with_words(g, next(p for p in g.legal_plays() if p.move.kind == DOUBT))
    return g, bluffer, doubter, text, plays[0], hand


def first_seed(bluff):
    return next(s for s in range(100) if bluff_then_doubt(s, bluff))


def test_a_caught_bluff_is_told_and_its_move_cancelled():
    g, bluffer, doubter, text, play, _ = bluff_then_doubt(first_seed(True), True)
    b, d = NAMES.names[bluffer], NAMES.names[doubter]
    assert text.startswith(f"{NAMES.seat(doubter)} doubted {b}'s ")
    assert f"it was {card_words(play.card)}, a bluff. {b}'s move is cancelled" in text
    assert ("chooses one of" in text and f"{d} chooses" in text) or f"so {d} gets an extra turn" in text
    assert cancelled(g.history) == {len(g.history) - 2}
    assert told(g.history) == text
    if g.phase == "penalty":  # the penalty says whose peg went back and who plays next
        text = play_with_words(g, g.legal_plays()[0])
        assert f"{NAMES.seat(doubter)} sent {b}'s " in text and "back to start" in text
    assert text.endswith(f"{NAMES.seat(g.seat)} plays next")


def test_a_true_card_is_told_and_its_move_kept():
    g, bluffer, doubter, text, play, _ = bluff_then_doubt(first_seed(False), False)
    b = NAMES.names[bluffer]
    assert f"the card was true. {b}'s move stands" in text
    assert cancelled(g.history) == set()
    assert text.endswith("plays next") or text.endswith("is choosing the peg")


def test_undoing_a_doubt_uncancels_the_move():
    g, *_ = bluff_then_doubt(first_seed(True), True)
    g.pop()
    assert cancelled(g.history) == set() and told(g.history) is None


@pytest.mark.parametrize("preset, seed", [("basic", 1), ("north_carolina", 2), ("bluffing_joker", 3)])
def test_every_play_of_a_game_is_said_without_notation(preset, seed):
    g = Game(preset, players=4, seed=seed)
    bot = make_bot("greedy", random.Random(seed))
    for _ in range(300):
        if g.is_over():
            break
        text = play_with_words(g, bot.choose(g, g.legal_plays()))
        assert text and not NOTATION.search(text), text
        assert re.match(r"(Ann|Ben|Cat|Dan) \((Red|Blue|Green|Yellow)\) ", text), text
    kinds = {h["move"].kind for h in g.history}
    assert "move" in kinds
    if preset == "bluffing_joker":
        assert PASS in kinds
