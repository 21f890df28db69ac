"""The one table of HTTP statuses (web.errors.STATUS), and the layers below it stay HTTP-free."""
import re
from pathlib import Path

import pytest

from companion.moves import AmbiguousMoveError, IllegalMoveError, MoveSyntaxError
from companion.setup import SetupError
from hardware.virtual import VirtualBoardError
from web.errors import STATUS, ApiError, api_error, status_of
from web.store import DamagedGame, StoreError

ROOT = Path(__file__).resolve().parents[2]


def test_each_error_gets_the_status_of_its_most_specific_class():
    assert status_of(SetupError("x")) == 400
    assert status_of(MoveSyntaxError("x")) == 400
    assert status_of(AmbiguousMoveError("x")) == 422
    assert status_of(IllegalMoveError("x", "P8")) == 422
    assert status_of(VirtualBoardError("x")) == 409
    assert status_of(DamagedGame("g1", "x")) == 503 and status_of(StoreError("x")) == 503
    assert status_of(KeyError("x")) is None
    assert all(100 <= s < 600 for s in STATUS.values())


def test_an_error_becomes_an_answer_with_its_words():
    e = api_error(SetupError("names must be a list of 4 names"))
    assert isinstance(e, ApiError) and e.status == 400 and e.body() == {"error": "names must be a list of 4 names"}
    e = api_error(IllegalMoveError("that's Ben's peg", "P8"), "not allowed: that's Ben's peg", rule="P8")
    assert e.status == 422 and e.body() == {"error": "not allowed: that's Ben's peg", "rule": "P8"}
    with pytest.raises(TypeError, match="no HTTP status"):
        api_error(KeyError("x"))


def test_an_engine_error_reaching_the_app_is_answered_from_the_table(app):
    @app.route("/api/raise-setup-error")
    def _raise():
        raise SetupError("a set-up problem")
    r = app.test_client().get("/api/raise-setup-error")
    assert r.status_code == 400 and r.get_json() == {"error": "a set-up problem"}


def test_no_layer_below_web_raises_http_errors_and_web_pushes_only_through_the_game():
    for pkg in ("companion", "hardware", "vision"):
        for path in (ROOT / pkg).rglob("*.py"):
            assert "ApiError" not in path.read_text(), path
    for path in (ROOT / "web").rglob("*.py"):
        text = path.read_text()
        assert not re.search(r"\._push\(|\._make\(", text), f"{path}: web/ calls the engine's private push"
