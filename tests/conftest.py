"""Test-wide settings: hypothesis is derandomized (same examples every run), no example database,
and every test gets a private data folder so no test touches a user's progress."""
from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile(
    "default",
    derandomize=True,
    database=None,
    deadline=None,
    print_blob=False,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))


def _no_local_constants() -> None:
    """Derandomized is not enough: hypothesis also mixes in literals from whichever local modules happen to
    be imported, so a test would draw different examples alone than in the full suite. Empty that pool
    (a hypothesis without the internals this takes is named in a warning, and tests/test_private_apis.py fails)."""
    from checker.private_apis import check_private_apis

    if check_private_apis():
        from hypothesis.internal.conjecture import providers

        providers._get_local_constants = providers.Constants


_no_local_constants()


@pytest.fixture(autouse=True)
def _private_data_dir(tmp_path, monkeypatch):
    """Point PPO_DRILL_HOME at a temp folder for every test."""
    home = tmp_path / "ppo-drill-home"
    monkeypatch.setenv("PPO_DRILL_HOME", str(home))
    return home
