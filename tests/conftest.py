"""Puts tests/ on sys.path (pytest's default "prepend" import mode adds a conftest's folder), so
test folders share helper modules such as livekit.py without importing each other's conftest."""
