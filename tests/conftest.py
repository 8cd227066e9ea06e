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


@pytest.fixture(scope="session", autouse=True)
def _shared_example_cache(tmp_path_factory):
    """One cache of drawn examples for the whole run, every worker and every process a test starts (the
    `ppo-drill` command, the app's checker worker): what is cached there is drawn from the specs' code
    alone, never from a test's data, so sharing it changes nothing a test sees, only how often hypothesis
    draws the same examples. A test about the cache itself sets its own."""
    base = tmp_path_factory.getbasetemp()
    folder = (base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base) / "drawn-examples"
    before = os.environ.get("PPO_DRILL_CACHE")
    os.environ["PPO_DRILL_CACHE"] = str(folder)
    yield folder
    if before is None:
        os.environ.pop("PPO_DRILL_CACHE", None)
    else:
        os.environ["PPO_DRILL_CACHE"] = before


@pytest.fixture(autouse=True)
def _private_data_dir(tmp_path, monkeypatch):
    """Point PPO_DRILL_HOME at a temp folder for every test."""
    home = tmp_path / "ppo-drill-home"
    monkeypatch.setenv("PPO_DRILL_HOME", str(home))
    return home
