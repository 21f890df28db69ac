"""NOTATION.md positions: JSON in and out, with one-line error messages."""
from __future__ import annotations

import json

from typing import Any

from .board import geometry
from .errors import PositionError, RulesError
from .families import find_family
from .moves import FORCE
from .rules import rules_from_json
from .state import FORMAT, PegState

_KEYS = {"format", "rules", "sides", "teams", "pegs", "to_move", "counting"}


def _int(value: object, what: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise PositionError(f"{what} must be a whole number, not {value!r}")
    return value


def _side_key(key: object, what: str) -> int:
    if not isinstance(key, str) or not key.isdigit() or (len(key) > 1 and key[0] == "0"):
        raise PositionError(f"{what} key {key!r} must be a side number as a string, e.g. \"0\"")
    return int(key)


def position_from_json(data: Any) -> PegState:
    """A position of the rules' family from NOTATION.md JSON (text or parsed); PositionError
    on any problem.

    >>> pos = position_from_json({"format": "pegs-and-jokers/position/1", "rules": "basic",
    ...     "sides": 4, "teams": [[0, 2], [1, 3]], "pegs": {str(s): ["S"] * 5 for s in range(4)},
    ...     "to_move": 0})
    >>> type(pos).__name__, sorted(m.text(pos.geo) for m in pos.legal_moves(["A"]))
    ('Position', ['A 0:S-M8'])
    """
    if isinstance(data, (str, bytes)):
        try:
            data = json.loads(data)
        except json.JSONDecodeError as exc:
            raise PositionError(f"not JSON: {exc.msg} at line {exc.lineno} column {exc.colno}") from None
    if not isinstance(data, dict):
        raise PositionError("a position must be a JSON object")
    keys = _KEYS
    if isinstance(data.get("rules"), (str, dict)):
        try:
            keys = _KEYS | find_family(data["rules"]).position_keys
        except RulesError:
            pass
    unknown = sorted(set(data) - keys)
    if unknown:
        raise PositionError(f"unknown key(s) {unknown}; a position has {sorted(keys)}")
    for key in ("format", "rules", "sides", "teams", "pegs", "to_move"):
        if key not in data:
            raise PositionError(f"missing key {key!r}")
    if data["format"] != FORMAT:
        raise PositionError(f"format is {data['format']!r}; expected {FORMAT!r}")
    try:
        rules = rules_from_json(data["rules"])
    except RulesError as exc:
        raise PositionError(str(exc)) from None
    family = find_family(rules)
    sides = _int(data["sides"], "sides")
    if sides not in family.board_sides:
        raise PositionError(family.sides_error.format(sides=sides))
    teams = data["teams"]
    if not isinstance(teams, list) or not teams or not all(isinstance(t, list) and t for t in teams):
        raise PositionError("teams must be a list of non-empty lists of sides")
    teams = [[_int(c, "a side in teams") for c in t] for t in teams]
    if len(teams) < 2:
        raise PositionError("teams must list at least two teams")
    pegs_in = data["pegs"]
    if not isinstance(pegs_in, dict):
        raise PositionError("pegs must be an object {side: [holes]}")
    geo = geometry(sides, rules.holes_per_side, rules.in_spot_offset, rules.come_out_offset,
                   rules.must_turn_in, rules.home_size)
    pegs = {}
    for key, tokens in pegs_in.items():
        side = _side_key(key, "pegs")
        if not 0 <= side < sides:
            raise PositionError(f"pegs names side {side}, but the board has sides 0-{sides - 1}")
        if not isinstance(tokens, list) or not all(isinstance(t, str) for t in tokens):
            raise PositionError(f"pegs of side {side} must be a list of hole tokens")
        try:
            pegs[side] = [geo.parse_token(t) for t in tokens]
        except ValueError as exc:
            raise PositionError(f"side {side}: {exc}") from None
    to_move = _int(data["to_move"], "to_move")
    counting = None
    if "counting" in data:
        if not isinstance(data["counting"], dict):
            raise PositionError("counting must be an object {side: turns}")
        counting = {_side_key(k, "counting"): v for k, v in data["counting"].items()}
    cls = family.position_cls
    if family.position_keys:  # RG-N4, RG-N5: the Tock family's skips, hand sizes, waiting
        extra: dict[str, Any] = {}
        for key in ("skips", "hand_sizes"):
            if key in data:
                if not isinstance(data[key], dict):
                    raise PositionError(f"{key} must be an object {{side: count}}")
                extra[key] = {_side_key(k, key): v for k, v in data[key].items()}
        if "waiting" in data:
            w = data["waiting"]
            if not isinstance(w, list):
                raise PositionError("waiting must be a list of sides")
            extra["waiting"] = [_int(c, "a side in waiting") for c in w]
        return cls.from_pegs(rules, sides, teams, pegs, to_move, counting, **extra)  # type: ignore[no-any-return]
    return cls.from_pegs(rules, sides, teams, pegs, to_move, counting)  # type: ignore[no-any-return]


def pegs_to_json(pos: PegState, pegs: dict[int, list[int]] | None = None) -> dict[str, list[str]]:
    """{"side": [tokens]} in canonical order."""
    token = pos.geo.token
    pegs = pos.pegs() if pegs is None else pegs
    return {str(c): [token(loc) for loc in locs] for c, locs in pegs.items()}


def position_to_json(pos: PegState) -> dict[str, Any]:
    """NOTATION.md JSON of a position of either family (`PegState.to_json`)."""
    return pos.to_json()


def moves_report(pos: Any, ranks: Any = None) -> dict[str, Any]:
    """The `pegs moves` output object (NOTATION.md)."""
    geo = pos.geo
    moves = []
    for move in pos.legal_moves(ranks):
        entry = {"card": move.rank, "move": move.text(geo),
                 "result": pegs_to_json(pos, pos.result_of(move))}
        if move.kind == FORCE:  # RG-N6: what the pegs can't show
            target = move.steps[0]
            entry["effects"] = {"skip": target, "steal" if move.rank == "Qr" else "discard": target}
        moves.append(entry)
    return {"to_move": pos.to_move, "discard_allowed": pos.discard_allowed(ranks), "moves": moves}
