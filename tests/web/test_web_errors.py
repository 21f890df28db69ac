"""The one table of HTTP statuses (web.errors.STATUS)."""
import pytest

from companion.moves import AmbiguousMoveError, IllegalMoveError, MoveSyntaxError
from companion.setup import SetupError
from hardware.virtual import VirtualBoardError
from web.errors import STATUS, ApiError, api_error, status_of
from web.store import DamagedGame, StoreError


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


def _subclasses(cls):
    for sub in cls.__subclasses__():
        yield sub
        yield from _subclasses(sub)


def test_every_error_of_the_engine_has_its_status_or_is_a_fault():
    import companion.families  # noqa: F401 - every family's module, so its errors are defined
    import companion.simulate  # noqa: F401
    from companion.errors import CompanionError
    from web.errors import NOT_A_REQUEST
    for cls in _subclasses(CompanionError):
        assert (status_of(cls("x") if cls is not IllegalMoveError else cls("x", "P8")) is not None) \
            != issubclass(cls, NOT_A_REQUEST), cls
