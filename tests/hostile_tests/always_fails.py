# Fails every implementation: catches every bug, and rejects every right answer.
from solution import compute_gae


def test_everything_is_wrong():
    assert compute_gae is None
