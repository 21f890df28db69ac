"""The engine's recorded behaviour (make_golden.py, written before the issue-24 refactor):
`pegs moves` prints byte-identical output on every perft position and on the seeded
position x hand cases of every preset, and the easy, medium and hard bots make the same
decisions for fixed seeds (hashes of their decision traces)."""
from __future__ import annotations

import gzip
import json
import os

import pytest

from tests.companion import make_golden

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "golden")


def _cases():
    with gzip.open(os.path.join(DATA, "moves_cases.jsonl.gz"), "rt") as f:
        return [json.loads(line) for line in f]


def test_the_recorded_cases_cover_every_preset():
    from companion.rules import ALL_PRESETS
    cases = _CASES
    assert sum(1 for c in cases if c["hand"] is not None) >= 2000
    presets = {c["source"].split("/")[1] for c in cases if c["source"].split("/")[0] in ("game", "synthetic")}
    assert presets == set(ALL_PRESETS)
    assert sum(1 for c in cases if c["source"].startswith("perft/")) >= 30


def _group(case) -> str:
    """perft, error, or the preset a case was drawn for."""
    kind, _, rest = case["source"].partition("/")
    return kind if kind in ("perft", "error") else rest.split("/")[0]


_CASES = _cases()
GROUPS = sorted({_group(c) for c in _CASES})
EVERY = 8  # the fast suite replays every 8th case of each group; `-m slow` replays all


def _replay(cases) -> list[str]:
    failures = []
    for case in cases:
        code, stdout, stderr = make_golden.run_moves(case["position"], case["hand"])
        if (code, stdout, stderr) != (case["status"], case["stdout"], case["stderr"]):
            failures.append(f"{case['source']} --hand {case['hand']}: status {code} "
                            f"(recorded {case['status']})\n  now:      {stdout[:300]}{stderr[:300]}"
                            f"\n  recorded: {case['stdout'][:300]}{case['stderr'][:300]}")
    return failures


@pytest.mark.parametrize("group", GROUPS)
def test_pegs_moves_output_is_byte_identical_sample(group):
    cases = [c for c in _CASES if _group(c) == group]
    sample = cases[::EVERY] if group not in ("perft", "error") else cases
    failures = _replay(sample)
    assert not failures, f"{len(failures)} of {len(sample)} cases differ:\n" + "\n".join(failures[:5])


@pytest.mark.slow
@pytest.mark.parametrize("group", GROUPS)
def test_pegs_moves_output_is_byte_identical_all(group):
    cases = [c for c in _CASES if _group(c) == group]
    failures = _replay(cases)
    assert not failures, f"{len(failures)} of {len(cases)} cases differ:\n" + "\n".join(failures[:5])


with open(os.path.join(DATA, "decisions.json")) as _f:
    DECISIONS = json.load(_f)


def _decision_params():
    """Every preset and level in the fast suite with its first recorded seed; the other seed
    (the hard bot's search is most of the cost) in .ci/run's slow part."""
    seen, params = set(), []
    for key in sorted(DECISIONS, key=lambda k: (k.rsplit("/", 1)[0], int(k.rsplit("/", 1)[1]))):
        group = key.rsplit("/", 1)[0]
        params.append(key if group not in seen else pytest.param(key, marks=pytest.mark.slow))
        seen.add(group)
    return params


@pytest.mark.parametrize("key", _decision_params())
def test_the_bots_decide_as_recorded(key):
    import hashlib
    preset, level, seed = key.split("/")
    max_actions = {"easy": 400, "medium": 400, "hard": 40}[level]
    trace = make_golden.decision_trace(preset, level, int(seed), max_actions)
    got = {"actions": len(trace) - 1, "sha256": hashlib.sha256("\n".join(trace).encode()).hexdigest()}
    assert got == DECISIONS[key]
