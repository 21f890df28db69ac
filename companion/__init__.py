"""Pure rules engine: standard library only."""
