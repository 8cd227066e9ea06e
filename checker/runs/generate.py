"""Make each read-the-run drill's log, `drills/<id>/run.json`, from its `drill.yaml` (seed, the
settings that differ from the healthy run's, and the planted cause, which is the trainer's bug).

`python -m checker.runs` writes every log; `--check` only compares (exit 1 when a log differs from
what its seed gives now, as the tests do). Values are kept to 6 significant digits, so a log is the
same on every machine whose floating point agrees to that precision.
"""
from __future__ import annotations

import json
import math
import sys
from dataclasses import asdict
from pathlib import Path

import yaml

from checker.runs.trainer import RunConfig, run
from drills import DEFAULT_ROOT

SIGNIFICANT = 6


def _round(x):
    if isinstance(x, bool) or x is None or isinstance(x, (int, str)):
        return x
    if isinstance(x, float):
        return None if not math.isfinite(x) else float(f"{x:.{SIGNIFICANT}g}")
    if isinstance(x, dict):
        return {k: _round(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [_round(v) for v in x]
    return x


def make_log(seed: int, config: dict, bug: str) -> dict:
    """The log of the run with these settings: {"config": every setting, "iterations": [...]}."""
    cfg = RunConfig(**{**config, "seed": seed, "bug": bug})
    return {"config": cfg.to_json(), "iterations": _round([asdict(s) for s in run(cfg)])}


def run_drill_folders(root: Path | None = None) -> list[Path]:
    """The folders of the read-the-run drills `drills/index.yaml` lists."""
    root = Path(root) if root is not None else DEFAULT_ROOT
    index = yaml.safe_load((root / "index.yaml").read_text(encoding="utf-8"))
    return [root / drill_id for drill_id in index.get("run", [])]


def log_for_folder(folder: Path) -> dict:
    spec = yaml.safe_load((folder / "drill.yaml").read_text(encoding="utf-8"))
    return make_log(spec["run"]["seed"], spec["run"]["config"], spec["answer"])


def dumps(log: dict) -> str:
    """The file's text: one iteration per line block, stable key order."""
    return json.dumps(log, indent=1, ensure_ascii=False) + "\n"


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    check = "--check" in args
    wanted = [a for a in args if not a.startswith("--")]
    differs = []
    for folder in run_drill_folders():
        if wanted and folder.name not in wanted:
            continue
        text = dumps(log_for_folder(folder))
        path = folder / "run.json"
        old = path.read_text(encoding="utf-8") if path.exists() else None
        if old == text:
            print(f"{folder.name}: up to date")
        elif check:
            differs.append(folder.name)
            print(f"{folder.name}: run.json differs from what its seed gives now")
        else:
            path.write_text(text, encoding="utf-8")
            print(f"{folder.name}: wrote run.json")
    return 1 if differs else 0
