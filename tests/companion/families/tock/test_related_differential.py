"""Randomized differential test: `pegs moves` against related_reference.py.

For every related preset (§S) and seat layout (Carbles: every section count
with a few player counts), seeded random positions crowd pegs around start
holes and each other, with random switches; the engine is called only
through the `pegs moves` contract (companion.cli.main in process, stdout
captured) and its (card, result, effects) set must equal the reference's,
as must `discard_allowed`, and the move texts of one end position (but a 7's,
whose orders give one end, and a swap's peg order) must be the same.
A failure prints the position, the hand and the
difference. The reference was written from RELATED-GAMES.md alone.
"""
from __future__ import annotations

import contextlib
import io
import json
import os
import random

import pytest

from tests.companion import related_reference as ref
from companion import cli

# per layout; 33 layouts keep the file near 15 s of CPU. A long hunt:
# PEGS_RELATED_DIFF_N=1000 pytest tests/companion/families/tock/test_related_differential.py
N_POSITIONS = int(os.environ.get("PEGS_RELATED_DIFF_N", "40"))


def layouts():
    """(preset, sections, occupied sides, teams) for every preset and seat layout."""
    out = [
        ("tock", 4, [0, 1, 2, 3], [[0], [1], [2], [3]]),
        ("tock_partnership", 4, [0, 1, 2, 3], [[0, 2], [1, 3]]),
        ("tock3", 4, [0, 1, 2], [[0], [1], [2]]),
        ("jackaroo", 4, [0, 1, 2, 3], [[0, 2], [1, 3]]),
        ("jackaroo_individual", 4, [0, 1, 2, 3], [[0], [1], [2], [3]]),
    ]
    for sections in (4, 6, 8, 12):
        for n in range(2, 7):
            if n <= sections:
                seats = ref.carbles_sections(n, sections)
                out.append(("carbles", sections, seats, [[s] for s in seats]))
        for n in (4, 6, 8, 12):
            if n <= sections:
                seats = ref.carbles_sections(n, sections)
                teams = [[seats[i], seats[i + n // 2]] for i in range(n // 2)]
                out.append(("carbles_partnership", sections, seats, teams))
    return out


SWITCHES = {"tock": ["reverse_four", "ten_swap", "forced_five"],
            "carbles": ["open_hand"], "jackaroo": []}


def random_position(rng, preset, sections, sides, teams):
    game = ref.PRESETS[preset][0]
    length = 18 * sections
    # Most pegs in a window so that they meet; start holes and their
    # neighbours are favoured (blocks, turning in, pairs).
    centre = rng.randrange(length)
    hot = []
    for s in sides:
        h = ref.start_hole(s)
        hot += [h - 2, h - 1, h, h, h + 1, h + 2]
    taken = set()
    pegs = {}
    for s in sides:
        tokens = []
        home_free = [1, 2, 3, 4]
        for _ in range(4):
            r = rng.random()
            if r < 0.2:
                tokens.append("S")
            elif r < 0.35 and home_free:
                k = rng.choice(home_free)
                home_free.remove(k)
                tokens.append(f"H{k}")
            else:
                for _try in range(20):
                    if rng.random() < 0.4:
                        hole = rng.choice(hot) % length
                    else:
                        hole = (centre + rng.randrange(-14, 15)) % length
                    if hole not in taken:
                        break
                else:
                    hole = None
                if hole is None or hole in taken:
                    tokens.append("S")
                else:
                    taken.add(hole)
                    tokens.append(f"M{hole}")
        pegs[s] = tokens
    mover = rng.choice(sides)
    mates = next(t for t in teams if mover in t)
    if len(mates) > 1 and rng.random() < 0.25:
        # all own pegs home: the partner's are moved (TK-V4.2, CB-V1.1, JR-P12)
        for t in pegs[mover]:
            if t.startswith("M"):
                taken.discard(int(t[1:]))
        pegs[mover] = ["H1", "H2", "H3", "H4"]
    # no finished game: every team keeps a peg out of home
    for t in teams:
        if all(tok.startswith("H") for s in t for tok in pegs[s]):
            pegs[t[-1]][0] = "S"
    canon = {}
    for s in sides:
        toks = pegs[s]
        canon[str(s)] = (["S"] * toks.count("S")
                         + sorted((x for x in toks if x[0] == "M"), key=lambda x: int(x[1:]))
                         + sorted(x for x in toks if x[0] == "H"))
    options = {sw: True for sw in SWITCHES[game] if rng.random() < 0.5}
    rules = {"preset": preset, "options": options} if options else preset
    pos = {"format": ref.FORMAT, "rules": rules, "sides": sections,
           "teams": teams, "pegs": canon, "to_move": mover}
    if game == "jackaroo":
        nxt = (mover - 1) % 4
        r = rng.random()
        if r < 0.2:
            pos["hand_sizes"] = {str(nxt): 0}
        elif r < 0.3:
            pos["hand_sizes"] = {str(nxt): 0}
            pos["waiting"] = [nxt]
        elif r < 0.4:
            pos["skips"] = {str(nxt): 1}
    if game in ("tock", "jackaroo") and rng.random() < 0.15:
        # RG-N5: waiting sides hold no cards; not applied to to_move
        waiting = sorted(set(pos.get("waiting", [])) | {rng.choice(sides)})
        pos["waiting"] = waiting
        pos["hand_sizes"] = dict(pos.get("hand_sizes", {}), **{str(w): 0 for w in waiting})
    return pos


def random_hand(rng, game):
    ranks = ref.RANKS[game]
    if rng.random() < 0.5:
        return list(ranks)
    return rng.sample(ranks, rng.randint(1, 4))


def engine_moves(tmp_path, position, hand):
    """`pegs moves` in process; hand None means no --hand (every rank)."""
    path = tmp_path / "position.json"
    path.write_text(json.dumps(position))
    out, err = io.StringIO(), io.StringIO()
    argv = ["moves", str(path)] + ([] if hand is None else ["--hand", ",".join(hand)])
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = cli.main(argv)
    assert status in (0, None), (
        f"pegs moves exited {status}: {err.getvalue().strip()}\n"
        f"position: {json.dumps(position)}\nhand: {hand}")
    return json.loads(out.getvalue())


def describe(position, hand, mine, theirs):
    ref_set, eng_set = ref.move_set(mine), ref.move_set(theirs)
    text_of = {}
    for side, report in (("reference", mine), ("engine", theirs)):
        for m in report["moves"]:
            k = (m["card"], json.dumps(m["result"], sort_keys=True),
                 json.dumps(m.get("effects"), sort_keys=True))
            text_of.setdefault((side, k), m["move"])
    lines = [f"position: {json.dumps(position)}", f"hand: {','.join(hand)}"]
    for k in sorted(ref_set - eng_set):
        lines.append(f"  only the reference: {text_of[('reference', k)]}  -> {k[1]} {k[2]}")
    for k in sorted(eng_set - ref_set):
        lines.append(f"  only the engine:    {text_of[('engine', k)]}  -> {k[1]} {k[2]}")
    if mine["discard_allowed"] != theirs["discard_allowed"]:
        lines.append(f"  discard_allowed: reference {mine['discard_allowed']}, "
                     f"engine {theirs['discard_allowed']}")
    return "\n".join(lines)


def normal_text(move):
    """A swap's two pegs in either order are one text (RG-N3 does not fix the order)."""
    if "<>" in move:
        rank, pegs = move.split(" ", 1)
        return rank + " " + "<>".join(sorted(pegs.split("<>")))
    return move


def different_texts(position, game, mine, theirs):
    """Texts of one end position that differ, except the 7s (several orders give
    one end): each 7 the engine prints is replayed instead (CB-P2, JR-P4)."""
    key = lambda m: (m["card"], json.dumps(m["result"], sort_keys=True),
                     json.dumps(m.get("effects"), sort_keys=True))
    engine_text = {key(m): m["move"] for m in theirs["moves"]}
    out = []
    for m in theirs["moves"]:
        if m["card"] == "7" and game != "tock":
            try:
                replayed = ref.play_seven(position, m["move"])
            except ref.IllegalSeven as e:
                out.append(f"  engine's {m['move']!r} is not a legal 7: {e}")
                continue
            if replayed != m["result"]:
                out.append(f"  engine's {m['move']!r} gives {replayed}, not its result")
    for m in mine["moves"]:
        other = engine_text.get(key(m))
        if m["card"] != "7" and other is not None and normal_text(other) != normal_text(m["move"]):
            out.append(f"  text: reference {m['move']!r}, engine {other!r}")
    return "\n".join(out)


def layout_id(layout):
    preset, sections, sides, _ = layout
    return f"{preset}-S{sections}-n{len(sides)}"


# Presets or layouts the engine does not (yet) support, with what is missing.
XFAIL = {}


def _marks(layout):
    marks = [pytest.mark.xfail(reason=XFAIL[layout[0]], strict=False)] if layout[0] in XFAIL else []
    if layout[1] > 6:   # the boards of 8 and 12 sections: .ci/run's slow part (4 and 6 stay in the fast suite)
        marks.append(pytest.mark.slow)
    elif layout[1] == 6 and len(layout[2]) not in (4, 6):
        # 6 sections: the fast suite keeps 4 and 6 players (Carbles alone and with partners); 2, 3 and 5
        # players on 6 sections (empty sections between them) are as on 4 sections, and slow
        marks.append(pytest.mark.slow)
    return marks


@pytest.mark.parametrize("layout", [pytest.param(l, id=layout_id(l), marks=_marks(l)) for l in layouts()])
def test_engine_matches_reference(layout, tmp_path):
    preset, sections, sides, teams = layout
    rng = random.Random(f"related-differential {layout_id(layout)}")
    game = ref.PRESETS[preset][0]
    problems = []
    for _ in range(N_POSITIONS):
        position = random_position(rng, preset, sections, sides, teams)
        hand = random_hand(rng, game)
        mine = ref.moves(position, hand)
        no_hand = len(hand) == len(ref.RANKS[game]) and rng.random() < 0.5
        theirs = engine_moves(tmp_path, position, None if no_hand else hand)
        assert theirs["to_move"] == position["to_move"]
        # without --hand, discard_allowed answers no hand in particular (NOTATION.md)
        if (ref.move_set(mine) != ref.move_set(theirs)
                or (not no_hand and mine["discard_allowed"] != theirs["discard_allowed"])):
            problems.append(describe(position, hand, mine, theirs))
        else:
            text_problem = different_texts(position, game, mine, theirs)
            if text_problem:
                problems.append(f"position: {json.dumps(position)}\nhand: {','.join(hand)}\n{text_problem}")
        # each distinct (result, effects) of a rank once (RULES R4)
        assert len(theirs["moves"]) == len(ref.move_set(theirs)), (
            "engine lists a result twice\n" + json.dumps(position))
    assert not problems, f"{len(problems)} of {N_POSITIONS} positions differ:\n" + "\n".join(problems[:5])


def _base(preset="jackaroo", **extra):
    teams = [[0, 2], [1, 3]] if preset in ("jackaroo", "tock_partnership") else [[0], [1], [2], [3]]
    pos = {"format": ref.FORMAT, "rules": preset, "sides": 4, "teams": teams,
           "pegs": {str(s): ["S", "S", "S", "S"] for s in range(4)}, "to_move": 0}
    pos.update(extra)
    return pos


def _bad_positions():
    tock3 = _base("tock")
    tock3["rules"] = "tock3"                                       # side 3 occupied (TK-V5)
    carbles = _base("carbles")
    carbles["sides"] = 8
    carbles["pegs"] = {"0": ["S"] * 4, "1": ["S"] * 4, "2": ["S"] * 4}   # CB-G2: 0, 2, 5
    carbles["teams"] = [[0], [1], [2]]
    five = _base()
    five["pegs"]["1"] = ["S"] * 5                                  # TK-G5: 4 pegs
    home5 = _base()
    home5["pegs"]["1"] = ["S", "S", "S", "H5"]                     # TK-G4: H1-H4
    return {
        "tock3 with side 3": (tock3, "A"),
        "carbles seats not on CB-G2 sections": (carbles, "A"),
        "five pegs": (five, "A"),
        "H5 in a 4-hole home": (home5, "A"),
        "switch of another preset": (_base(rules={"preset": "jackaroo", "options": {"ten_swap": True}}), "A"),
        "waiting side holding cards": (_base(waiting=[3], hand_sizes={"3": 2}), "10"),
        "negative skips": (_base(skips={"3": -1}), "A"),
        "hand_sizes of an empty side": (dict(_base("tock3"), pegs={str(s): ["S"] * 4 for s in range(3)},
                                             teams=[[0], [1], [2]], hand_sizes={"3": 1}), "A"),
        "plain J in Jackaroo (RG-N2)": (_base(), "J"),
        "JK in Tock (RG-N2)": (_base("tock"), "JK"),
        "Jr in Carbles (RG-N2)": (dict(_base("carbles"), pegs={"0": ["S"] * 4, "2": ["S"] * 4},
                                       teams=[[0], [2]]), "Jr"),
        "carbles on 5 sections (CB-G1)": (dict(_base("carbles"), sides=5, pegs={"0": ["S"] * 4, "2": ["S"] * 4},
                                               teams=[[0], [2]]), "A"),
        "jackaroo solo teams (JR-G3)": (_base(teams=[[0], [1], [2], [3]]), "A"),
        "to_move not occupied": (dict(_base("carbles"), pegs={"0": ["S"] * 4, "2": ["S"] * 4},
                                      teams=[[0], [2]], to_move=1), "A"),
        "waiting in Carbles (RG-N5: Tock, Jackaroo)": (
            dict(_base("carbles"), pegs={"0": ["S"] * 4, "2": ["S"] * 4}, teams=[[0], [2]],
                 waiting=[2], hand_sizes={"2": 0}), "A"),
        "two pegs on one hole": (dict(_base(), pegs={"0": ["S", "S", "S", "M5"], "1": ["S", "S", "S", "M5"],
                                                     "2": ["S"] * 4, "3": ["S"] * 4}), "A"),
        # section S: each preset's board, player count and teams
        "tock on 6 sides (TK-G1)": (_layout("tock", 6, [0, 1, 3, 4]), "A"),
        "tock with 3 players (TK-G1)": (_layout("tock", 4, [0, 1, 2]), "A"),
        "tock with partners (TK-G1)": (_layout("tock", 4, [0, 1, 2, 3], [[0, 2], [1, 3]]), "A"),
        "tock_partnership partners side by side (TK-V4)": (
            _layout("tock_partnership", 4, [0, 1, 2, 3], [[0, 1], [2, 3]]), "A"),
        "jackaroo_individual in pairs (JR-V1)": (
            _layout("jackaroo_individual", 4, [0, 1, 2, 3], [[0, 2], [1, 3]]), "A"),
        "jackaroo on 8 sides (JR-G1)": (_layout("jackaroo", 8, [0, 2, 4, 6], [[0, 4], [2, 6]]), "A"),
        "carbles with 7 players (CB-G2)": (_layout("carbles", 8, [0, 1, 2, 3, 4, 5, 6]), "A"),
        "carbles on 10 sections (CB-G1)": (_layout("carbles", 10, [0, 5]), "A"),
        "carbles_partnership alone (CB-V1)": (_layout("carbles_partnership", 4, [0, 1, 2, 3]), "A"),
        "carbles_partnership side by side (CB-V1)": (
            _layout("carbles_partnership", 6, list(range(6)), [[0, 1], [2, 3], [4, 5]]), "A"),
        "waiting in carbles_partnership (RG-N5)": (
            _layout("carbles_partnership", 4, [0, 1, 2, 3], [[0, 2], [1, 3]], waiting=[1]), "A"),
    }


def _layout(preset, sides, occupied, teams=None, **extra):
    return dict(_base(preset), sides=sides, pegs={str(s): ["S"] * 4 for s in occupied},
                teams=teams or [[s] for s in occupied], **extra)


@pytest.mark.parametrize("name", list(_bad_positions()))
def test_bad_positions_refused_by_both(name, tmp_path):
    """RG-N2, RG-N5: the reference raises, `pegs moves` exits 2 with one line."""
    position, hand = _bad_positions()[name]
    with pytest.raises(ref.PositionError):
        ref.moves(position, [hand])
    path = tmp_path / "position.json"
    path.write_text(json.dumps(position))
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            status = cli.main(["moves", str(path), "--hand", hand])
        except SystemExit as e:
            status = e.code
    assert status == 2, f"{name}: exit {status}, stdout {out.getvalue()[:300]}"
    assert len(err.getvalue().strip().splitlines()) == 1, err.getvalue()


def _ruling(preset, pegs, hand, to_move=0, options=None, sections=4):
    game, partnership, _ = ref.PRESETS[preset]
    seats = [0, 1, 2] if preset == "tock3" else sorted(pegs) if game == "carbles" else [0, 1, 2, 3]
    n = len(seats)
    teams = ([[seats[i], seats[i + n // 2]] for i in range(n // 2)] if partnership
             else [[s] for s in seats])
    rules = {"preset": preset, "options": options} if options else preset
    return ({"format": ref.FORMAT, "rules": rules, "sides": sections, "teams": teams,
             "pegs": {str(s): pegs.get(s, ["S"] * 4) for s in seats}, "to_move": to_move}, hand)


# The positions behind docs/related-reference-notes.md's rulings (numbered as there).
RULINGS = {
    "1 Tock backward 4 passes and hits own": _ruling(
        "tock", {0: ["S", "S", "M16", "M20"]}, ["4"], options={"reverse_four": True}),
    "1 Carbles backward 4 passes own": _ruling(
        "carbles", {0: ["S", "S", "M8", "M10"], 2: ["S", "S", "M6", "M7"]}, ["4"]),
    "2 JR turning in past a pair on base and base+1": _ruling(
        "jackaroo", {0: ["S", "S", "S", "M14"], 2: ["S", "S", "S", "M17"], 1: ["S", "S", "S", "M18"]},
        ["6", "5", "K"]),
    "2 JR pair before the base hole": _ruling(
        "jackaroo", {0: ["S", "S", "S", "M14"], 1: ["S", "S", "S", "M16"], 2: ["S", "S", "S", "M17"]},
        ["6", "3", "K"]),
    "2 JR three in a row, landing on the middle": _ruling(
        "jackaroo", {0: ["S", "S", "S", "M10"], 1: ["S", "S", "M12", "M14"], 2: ["S", "S", "S", "M13"]},
        ["2", "3", "4", "5", "7"]),
    "3 JR king passes singles, clears them, turns in": _ruling(
        "jackaroo", {0: ["S", "S", "S", "M8"], 1: ["S", "S", "S", "M10"], 2: ["S", "S", "S", "M17"]},
        ["K", "7"]),
    "4 Forced Five from the own start hole": _ruling(
        "tock_partnership", {1: ["S", "S", "M33", "M35"], 2: ["S", "S", "M50", "M53"]}, ["5"],
        options={"forced_five": True}),
    "5 JR 5 on the controlled partner's base-hole marble": _ruling(
        "jackaroo", {0: ["H1", "H2", "H3", "H4"], 2: ["S", "S", "M50", "M53"], 1: ["S", "S", "S", "M30"]},
        ["5", "7"]),
    "6 Carbles partnership joker, own out": _ruling(
        "carbles_partnership", {0: ["S", "S", "S", "M53"], 1: ["S"] * 4, 2: ["S"] * 4, 3: ["S"] * 4},
        ["JK", "A"]),
    "6 Carbles partnership joker, own home": _ruling(
        "carbles_partnership", {0: ["H1", "H2", "H3", "H4"], 1: ["S"] * 4, 2: ["S", "S", "S", "M40"],
                                3: ["S"] * 4}, ["JK", "A", "7"]),
    "7 Carbles 7 restriction follows the marble": _ruling(
        "carbles", {0: ["S", "S", "M14", "M17"], 2: ["S"] * 4}, ["7"]),
    "7 Carbles 7 into a home-hole block": _ruling(
        "carbles", {0: ["S", "S", "S", "M50"], 2: ["S", "S", "S", "M53"]}, ["7"]),
    "8 JR 7 colours fixed at the start": _ruling(
        "jackaroo", {0: ["M15", "H2", "H3", "H4"], 2: ["S", "S", "S", "M40"]}, ["7"]),
    "8 JR 7 with a goal marble": _ruling(
        "jackaroo", {0: ["S", "S", "M10", "H1"], 1: ["S", "S", "S", "M13"]}, ["7"]),
    "12 force with skips owed": (dict(_ruling("jackaroo", {}, ["10"])[0], skips={"3": 2}), ["10", "Qr"]),
}


@pytest.mark.parametrize("name", list(RULINGS))
def test_engine_agrees_with_the_rulings(name, tmp_path):
    position, hand = RULINGS[name]
    mine = ref.moves(position, hand)
    theirs = engine_moves(tmp_path, position, hand)
    assert ref.move_set(mine) == ref.move_set(theirs) and \
        mine["discard_allowed"] == theirs["discard_allowed"], describe(position, hand, mine, theirs)
