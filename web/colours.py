"""Peg colours: the palette lives in `companion.colours` (the set-up checks them there)."""
from companion.colours import BY_KEY, DEFAULTS, PALETTE, SIDE_DEFAULTS  # noqa: F401 - re-exported

__all__ = ["PALETTE", "BY_KEY", "DEFAULTS", "SIDE_DEFAULTS"]
