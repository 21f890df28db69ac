"""Peg colours the host can give each seat, to match the physical pegs.

Every colour has a name that is always shown beside it (colour is never the
only cue), and the text colour that reads on it.
"""
from __future__ import annotations

# key, name, fill, text on the fill
PALETTE = (
    ("red", "Red", "#d62728", "#ffffff"),
    ("blue", "Blue", "#1f5fbf", "#ffffff"),
    ("green", "Green", "#2e9e3e", "#ffffff"),
    ("yellow", "Yellow", "#f5c800", "#111111"),
    ("black", "Black", "#222222", "#ffffff"),
    ("white", "White", "#f7f7f7", "#111111"),
    ("orange", "Orange", "#ff7f0e", "#111111"),
    ("purple", "Purple", "#7b3fa0", "#ffffff"),
    ("pink", "Pink", "#f27db5", "#111111"),
    ("teal", "Teal", "#139a9a", "#ffffff"),
    ("brown", "Brown", "#8c564b", "#ffffff"),
    ("grey", "Grey", "#8a8a8a", "#111111"),
)
BY_KEY = {key: {"key": key, "name": name, "hex": fill, "ink": ink} for key, name, fill, ink in PALETTE}
DEFAULTS = [key for key, *_ in PALETTE[:10]]  # seat s gets DEFAULTS[s]
# Tock, Carbles, Jackaroo (RELATED-GAMES.md RG-B4): side k's colour marks its start hole,
# home and start area; partners opposite on 4 sides are red + yellow against green + blue.
# 12 sections need 12 colours: after pink, the palette's others.
SIDE_DEFAULTS = ["red", "green", "yellow", "blue", "orange", "purple", "white", "pink",
                 "teal", "brown", "grey", "black"]
