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


@pytest.fixture(autouse=True)
def _private_data_dir(tmp_path, monkeypatch):
    """Point PPO_DRILL_HOME at a temp folder for every test."""
    home = tmp_path / "ppo-drill-home"
    monkeypatch.setenv("PPO_DRILL_HOME", str(home))
    return home
