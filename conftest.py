"""Root conftest: marks the repository root as pytest's rootdir.

Test directories have no __init__.py, so with pytest's default import mode two
test files must not share a basename (name them e.g. test_web_cards.py).
"""
