"""One warm `Checker` per test process, as a long-lived caller (the app's worker, `watch`) keeps one: the
tests that check answers share it, so each drill's examples, reference results and mistake catalogue are
made once per process rather than once per test. A test about what a fresh checker does (a cold start, a
spare child, a runner of its own) builds its own `Checker`."""
from __future__ import annotations

from checker.engine import Checker

CHECKER = Checker()


def check(source: str, drill: str | None = None, framework: str | None = None, seed: int = 0, **kwargs):
    """`CHECKER.check`: the report of `source` for `drill` in `framework`."""
    return CHECKER.check(source, drill, framework, seed, **kwargs)


def main(argv: list[str]) -> int:
    """`ppo-drill ARGV` in this process (`tui.cli.main`), its checks made by the warm `CHECKER`."""
    from tui.cli import main as ppo_drill

    return ppo_drill(argv, checker=CHECKER)
