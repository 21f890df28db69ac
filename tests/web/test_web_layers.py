"""web/ is thin: no game rules, no engine internals, no HTTP errors below it, small modules."""
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
MAX_LINES = 600


def test_no_layer_below_web_raises_http_errors_and_web_pushes_only_through_the_game():
    for pkg in ("companion", "hardware", "vision"):
        for path in (ROOT / pkg).rglob("*.py"):
            assert "ApiError" not in path.read_text(), path
    for path in (ROOT / "web").rglob("*.py"):
        text = path.read_text()
        assert not re.search(r"\._push\(|\._make\(", text), f"{path}: web/ calls the engine's private push"


def test_no_web_module_passes_600_lines():
    long = {str(p.relative_to(ROOT)): n for p in (ROOT / "web").rglob("*.py")
            if (n := len(p.read_text().splitlines())) > MAX_LINES}
    assert not long, long


def test_web_has_no_game_rules_of_its_own():
    """Set-up, plays, undo and hits are the engine's: web/ asks companion.setup and the game."""
    text = "\n".join(p.read_text() for p in (ROOT / "web").rglob("*.py"))
    for rule in ("def _seat_lists", "def _hits", "two_players_no_jokers", "make_shoe(", "def _related_plays"):
        assert rule not in text, rule


def test_real_or_emulated_hardware_is_chosen_in_the_composition_root_only():
    makers = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "web").rglob("*.py")
                    if re.search(r"\bHardware\(|__dict__\[\"sensor\"\]|mock=True", p.read_text()))
    assert makers == ["web/main.py"], makers
