"""The referee on a camera that misreads holes (issue 16.3): games replayed through
`companion.referee.Referee` with noisy per-hole readings (tests/companion/camerakit.py).
No wrong move is ever taken; most are taken without asking; when the camera can't tell, the
phone is asked with the true move among the choices and the doubtful holes named."""
from __future__ import annotations

from tests.companion.camerakit import replay


def test_no_wrong_move_is_taken_from_a_camera_that_misreads_holes():
    counts = replay("basic", seed=1, moves=120, noise_seed=1, err=0.0275, sure_err=0.002)
    assert counts["moves"] >= 100
    assert counts["wrong"] == 0 and counts["asked_without"] == 0, counts
    assert counts["taken"] >= 0.6 * counts["moves"], counts
    assert counts["asked"] == counts["asked_doubtful_named"], counts


def test_most_moves_are_taken_without_asking_when_misreads_are_unsure():
    counts = replay("north_carolina", seed=2, moves=120, noise_seed=2, err=0.0275)
    assert counts["wrong"] == 0 and counts["not_ready"] == 0, counts
    assert counts["taken"] >= 0.85 * counts["moves"], counts
    assert counts["taken"] + counts["asked"] == counts["moves"], counts
