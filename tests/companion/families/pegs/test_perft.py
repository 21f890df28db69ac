"""Perft-style counts: the number of legal moves (distinct end positions,
NOTATION.md `moves`, R4) of every rank for stored positions.

The data in data/perft/*.json was made by make_perft_data.py: counts from
the independent reference generator, hand-counted where the entry's note
says so, and equal to the engine's when written. A change here is either an
engine regression or a rules change that needs the data regenerated.
"""
from __future__ import annotations

import glob
import json
import os

from companion.notation import moves_report, position_from_json

DATA = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "data", "perft")
RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "JK")


def load_entries():
    entries = []
    for path in sorted(glob.glob(os.path.join(DATA, "*.json"))):
        with open(path) as f:
            for entry in json.load(f):
                entries.append((os.path.basename(path), entry))
    return entries


def test_perft_counts():
    entries = load_entries()
    assert len(entries) >= 30
    names = [(f, e["name"]) for f, e in entries]
    assert len(set(names)) == len(names), "perft entry names must be unique"
    failures = []
    for fname, entry in entries:
        assert set(entry) == {"name", "position", "counts", "note"}, entry["name"]
        assert set(entry["counts"]) <= set(RANKS), entry["name"]
        report = moves_report(position_from_json(entry["position"]))
        got = {rank: 0 for rank in RANKS}
        for move in report["moves"]:
            got[move["card"]] += 1
        for rank, want in entry["counts"].items():
            if got[rank] != want:
                failures.append(f"{fname} / {entry['name']}: rank {rank}: expected {want}, "
                                f"engine lists {got[rank]}\n  {json.dumps(entry['position'])}")
    assert not failures, "\n".join(failures)
