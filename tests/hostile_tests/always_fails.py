# Fails every implementation: rejects every right answer, so its failures on the bugs catch nothing.
from solution import compute_gae


def test_everything_is_wrong():
    assert compute_gae is None
