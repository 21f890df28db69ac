"""companion.words: what players read, in words with names and colours (issue 14 points 4, 5).
Refusals keep their RULES id; the doubt outcome says who won, what happened to the move,
whose peg goes back and who plays next."""
from __future__ import annotations

import random
import re

import pytest

from companion.families import new_game
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
    said = refusal(p, NAMES, exc.value)    # the error's own message (issue 25.1), not its English
    assert said == words
    assert str(exc.value).startswith(text)  # the engine's English (the pegs command's) is untouched
    assert not NOTATION.search(said.rsplit(" (", 1)[0])  # the rule id stays in brackets


def play_with_words(game, play):
    said = before_play(game, play, NAMES)
    game._push(play)
    return after_play(game, said, NAMES)


def on_track(game, seat):
    pos = game.position
    return bool(pos.occ[game.seat_side[seat]] & pos.geo.main_mask)


def bluff_then_doubt(seed, bluff, pegs_out=False):
    """Bluffing Joker from a seeded deal: honest turns (no doubts) until the player to move
    can bluff (or play its real card) and, with ``pegs_out``, it and the first opponent to
    decide both have a peg on the track (so the doubt ends in a penalty choice); then that
    play, and the first opponent doubts at once."""
    g = new_game("bluffing_joker", players=4, seed=seed)
    for _ in range(80):
        if g.is_over():
            return None
        plays = g.legal_plays()
        if g.phase != "play":
            play_with_words(g, next(p for p in plays if p.move.kind in (PASS, "penalty")))
            continue
        wanted = [p for p in plays if p.move.kind == "move" and (rank_of(p.card) != p.move.rank) == bluff]
        if wanted and (not pegs_out or (on_track(g, g.actor) and on_track(g, (g.actor + 1) % 4))):
            break
        honest = [p for p in plays if rank_of(p.card) == p.move.rank] or plays
        play_with_words(g, honest[0])
    else:
        return None
    bluffer = g.actor
    play_with_words(g, wanted[0])
    assert declared_words(g, NAMES).startswith(f"{NAMES.seat(bluffer)} played a card face down as")
    doubter = g.actor
    text = play_with_words(g, next(p for p in g.legal_plays() if p.move.kind == DOUBT))
    return g, bluffer, doubter, text, wanted[0]


def first_seed(bluff, pegs_out=False):
    return next(s for s in range(100) if bluff_then_doubt(s, bluff, pegs_out))


@pytest.mark.parametrize("pegs_out", [False, True])
def test_a_caught_bluff_is_told_and_its_move_cancelled(pegs_out):
    g, bluffer, doubter, text, play = bluff_then_doubt(first_seed(True, pegs_out), True, pegs_out)
    b, d = NAMES.names[bluffer], NAMES.names[doubter]
    assert text.startswith(f"{NAMES.seat(doubter)} doubted {b}'s ")
    assert f"it was {card_words(play.card)}, a bluff. {b}'s move is cancelled" in text
    if pegs_out:
        assert g.phase == "penalty" and f"{NAMES.seat(doubter)} chooses one of {b}'s pegs on the track" in text
    else:
        assert f"{b} has no peg on the track to send back, so {d} gets an extra turn" in text
    assert cancelled(g.history) == {len(g.history) - 2}
    assert told(g.history) == text
    if g.phase == "penalty":  # the penalty says whose peg went back and who plays next
        doubt = text
        text = play_with_words(g, g.legal_plays()[0])
        assert f"{NAMES.seat(doubter)} sent {b}'s " in text and "back to start" in text
        assert told(g.history) == f"{doubt}. {text}"
    assert text.endswith(f"{NAMES.seat(g.seat)} plays next")


def test_a_true_card_is_told_and_its_move_kept():
    g, bluffer, doubter, text, play = bluff_then_doubt(first_seed(False, True), False, True)
    b, d = NAMES.names[bluffer], NAMES.names[doubter]
    assert text.endswith(f"the card was true. {b}'s move stands; {NAMES.seat(bluffer)} chooses one of "
                         f"{d}'s pegs on the track to send back to start")
    assert cancelled(g.history) == set()
    text = play_with_words(g, g.legal_plays()[0])
    assert text.startswith(f"{NAMES.seat(bluffer)} sent {d}'s ") and text.endswith("plays next")


def test_undoing_a_doubt_uncancels_the_move():
    g, *_ = bluff_then_doubt(first_seed(True), True)
    g.pop()
    assert cancelled(g.history) == set() and told(g.history) is None


@pytest.mark.parametrize("preset, seed", [("basic", 1), ("north_carolina", 2), ("bluffing_joker", 3)])
def test_every_play_of_a_game_is_said_without_notation(preset, seed):
    g = new_game(preset, players=4, seed=seed)
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


# ------------------------------------------------------------------ refusals as messages
def _mutations(game, move):
    """Moves near a legal one that are mostly not legal: another rank, other holes, another
    side's peg, another target."""
    rank, kind, steps = move
    pos = game.position
    ranks = getattr(pos, "ranks", None) or ("A", "2", "4", "5", "7", "8", "JK")
    out = [Move(r, kind, steps) for r in ranks if r != rank]
    if not steps or not isinstance(steps[0], tuple):
        return out + [Move(rank, kind, ((steps[0] + k) % pos.sides,)) for k in (1, 2)] if steps else out
    length = pos.geo.length
    for i, (c, s, d) in enumerate(steps):
        for shift in (1, 3, 7):
            if d < length:
                moved = list(steps)
                moved[i] = (c, s, (d + shift) % length)
                out.append(Move(rank, kind, tuple(moved)))
        moved = list(steps)
        moved[i] = ((c + 1) % pos.sides, s, d)
        out.append(Move(rank, kind, tuple(moved)))
    return out


def _ids(message):
    yield (message.ctx, message.id)
    for value in message.params.values():
        if hasattr(value, "params"):
            yield from _ids(value)


@pytest.mark.parametrize("preset", ["basic", "north_carolina", "pegoo", "arizona", "bluffing_joker", "tock",
                                    "carbles", "jackaroo", "jackaroo_individual", "tock_partnership"])
def test_every_refusal_carries_a_message_the_catalogs_know(preset):
    """Issue 25.1: the engine's refusals carry a message id and parameters (no English parsed
    back): every one met while playing near the legal moves is named for the table without
    notation, and each of its messages is in the French and Arabic catalogs."""
    import gettext
    from pathlib import Path
    root = Path(__file__).resolve().parents[2] / "web" / "translations"
    catalogs = {lang: gettext.GNUTranslations(open(root / lang / "LC_MESSAGES" / "messages.mo", "rb"))._catalog
                for lang in ("fr_CA", "ar")}
    g = new_game(preset, players=4, seed=11)
    bot = make_bot("greedy", random.Random(11))
    refusals, rules = set(), set()
    for _ in range(60):
        if g.is_over():
            break
        for play in g.legal_plays()[:6]:
            for wrong in _mutations(g, play.move):
                try:
                    g.check(wrong)
                except IllegalMoveError as exc:
                    assert exc.reason is not None, (preset, str(exc))
                    said = refusal(g.position, NAMES, exc)
                    assert not NOTATION.search(str(said).rsplit(" (", 1)[0]), (str(exc), said)
                    for ctx, mid in _ids(exc.reason):
                        key = f"{ctx}\x04{mid}" if ctx else mid
                        for lang, cat in catalogs.items():
                            assert key in cat or (key, 0) in cat, (lang, mid)
                    refusals.add(exc.reason.id)
                    rules.add(exc.rule)
        g._push(bot.choose(g, g.legal_plays()))
    assert len(refusals) >= 3, refusals   # the walk met refusals of several kinds


def test_no_refusal_of_the_engine_is_english_only():
    """Every `IllegalMoveError` the engine raises gives players a message: a third argument,
    or a sentence made by `said` (directly or through a helper), or `explain_illegal`'s."""
    import ast
    from pathlib import Path
    import companion
    bare = []
    for path in Path(companion.__file__).parent.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                    and node.func.id == "IllegalMoveError"):
                first = node.args[0] if node.args else None
                if not (len(node.args) >= 3 or any(k.arg == "reason" for k in node.keywords)
                        or isinstance(first, (ast.Call, ast.Starred))):
                    bare.append(f"{path.name}:{node.lineno}")
    assert not bare, bare
