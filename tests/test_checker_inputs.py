"""The examples behind every verdict: the same seed gives the same examples, a different seed others, and
the on-disk cache returns exactly what was drawn, survives being damaged, and lives where the settings say
(a shared cache folder, else the data folder's)."""
from __future__ import annotations

import numpy as np

from checker import inputs
from checker.specs import spec_for


def same(a, b) -> bool:
    return len(a) == len(b) and all(
        x.label == y.label and x.hyper == y.hyper and x.arrays.keys() == y.arrays.keys()
        and all(np.array_equal(x.arrays[k], y.arrays[k]) and x.arrays[k].dtype == y.arrays[k].dtype for k in x.arrays)
        for x, y in zip(a, b))


def test_seeded_draws_are_reproducible_and_cached_on_disk(tmp_path, monkeypatch):
    monkeypatch.delenv("PPO_DRILL_CACHE", raising=False)
    monkeypatch.setenv("PPO_DRILL_HOME", str(tmp_path))
    spec = spec_for("value-loss")
    first = inputs.drawn_examples(spec, "torch", 7)
    files = list((tmp_path / "cache").glob("examples-value-loss-torch-7-*.json"))
    assert len(files) == 1
    assert same(first, inputs.drawn_examples(spec, "torch", 7))  # from disk
    assert same(first, inputs._draw(spec, "torch", 7, inputs.DEFAULT_RANDOM))  # = a fresh draw
    assert not same(first, inputs._draw(spec, "torch", 8, inputs.DEFAULT_RANDOM))


def test_a_shared_cache_folder_wins_over_the_data_folders(tmp_path, monkeypatch):
    monkeypatch.setenv("PPO_DRILL_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("PPO_DRILL_CACHE", str(tmp_path / "shared"))
    inputs.drawn_examples(spec_for("gae"), "numpy", 5)
    assert len(list((tmp_path / "shared").glob("examples-gae-numpy-5-*.json"))) == 1
    assert not (tmp_path / "home" / "cache").exists()


def test_a_damaged_cache_file_is_ignored_and_rewritten(tmp_path, monkeypatch):
    monkeypatch.delenv("PPO_DRILL_CACHE", raising=False)
    monkeypatch.setenv("PPO_DRILL_HOME", str(tmp_path))
    spec = spec_for("gae")
    first = inputs.drawn_examples(spec, "numpy", 1)
    (path,) = (tmp_path / "cache").glob("examples-gae-numpy-1-*.json")
    path.write_text("{not json")
    assert same(first, inputs.drawn_examples(spec, "numpy", 1))
    assert path.read_text().startswith("[")


def test_another_hypothesis_release_draws_afresh(tmp_path, monkeypatch):
    """Another hypothesis release may draw other examples from the same seed: what one release cached is
    not used under another, so a seed gives what a fresh machine with that release draws."""
    monkeypatch.delenv("PPO_DRILL_CACHE", raising=False)
    monkeypatch.setenv("PPO_DRILL_HOME", str(tmp_path))
    spec = spec_for("gae")
    inputs.drawn_examples(spec, "numpy", 3)
    try:
        monkeypatch.setattr(inputs, "installed_version", lambda name: "0.0.1")
        inputs._specs_fingerprint.cache_clear()
        inputs.drawn_examples(spec, "numpy", 3)
    finally:
        monkeypatch.undo()
        inputs._specs_fingerprint.cache_clear()
    assert len(list((tmp_path / "cache").glob("examples-gae-numpy-3-*.json"))) == 2


def test_gae_examples_cover_the_edge_cases():
    labels = " | ".join(ex.label for ex in inputs.examples_for(spec_for("gae"), "numpy"))
    for needle in ("T = 1", "done at the first step", "done at the last step", "consecutive dones",
                   "gamma = 0", "lam = 0", "lam = 1"):
        assert needle in labels
    labels = " | ".join(ex.label for ex in inputs.examples_for(spec_for("policy-loss"), "torch"))
    for needle in ("inside the band", "above the band", "below the band", "A = 0", "-1000", "single-token rows"):
        assert needle in labels
    assert any("fully masked" in ex.label or ex.invalid == "a response with no valid token"
               for ex in inputs.examples_for(spec_for("actor-loss"), "torch"))
