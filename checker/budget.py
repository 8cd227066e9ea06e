"""`CheckBudget`: one wall-clock limit for a whole check, however many sandbox runs it makes.

A check runs the answer more than once: a code check shrinks a counterexample with further runs, a
test-writing check runs the test file once per implementation. Each run alone is bounded by its limits;
together they would not be (an answer slow only on some inputs, a test file that sleeps on every run but
the first, would make each run spend a limit of its own). So every run after the first gets only what is
left of the check's `limits.wall_s`, and the report says when the limit cut the check short.
"""
from __future__ import annotations

import time
from dataclasses import replace

from checker.sandbox import Limits


class CheckBudget:
    """One wall-clock limit for a whole check (`limits.wall_s` from its start, `t0`): every sandbox run
    after the first gets what is left of it, so an answer that is slow only on some inputs cannot make
    each of the check's runs spend a limit of its own. `spent` says a run was cut short, or not started,
    for want of time."""

    #: below this much time left, no further run is started
    MIN_RUN_S = 0.05

    def __init__(self, limits, t0: float) -> None:
        self.limits = limits if limits is not None else Limits()
        self.wall_s = self.limits.wall_s
        self.deadline = t0 + self.wall_s
        self.spent = False

    def next_run(self):
        """The limits for the next run (None, and `spent`, when too little time is left for one)."""
        left = self.deadline - time.perf_counter()
        if left < self.MIN_RUN_S:
            self.spent = True
            return None
        return replace(self.limits, wall_s=left)

    def saw(self, result) -> None:
        """Take note of a run's ending: a run stopped by the clock spent the budget."""
        if result.error is not None and result.error.kind == "timeout":
            self.spent = True
