"""Pure rules engine: standard library only."""
# The related games (RELATED-GAMES.md) register their Position and Game
# subclasses on import, so Position(...) and Game(...) can pick them.
from . import related, related_game  # noqa: E402,F401
