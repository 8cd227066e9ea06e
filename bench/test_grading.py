"""How long grading a test file takes: the reference tests of each test drill run against every right
implementation and every catalogued mistake (one sandboxed run each), through the warm checker worker
the app and `watch` use. Baseline in the same run: one warm check of the drill's model answer.

Target: under one second warm for the largest catalogue (median).

Usage: python bench/test_grading.py [--runs 7]
Prints, per test drill and framework, the number of sandboxed runs, the median and p95 grading time,
the time per run, and the ratio to the baseline answer check.
"""
from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time
from pathlib import Path


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=7)
    args = ap.parse_args()

    from checker.service import CheckerClient
    from checker.testwriting.implementations import implementations
    from drills import load_drills

    tmp = Path(tempfile.mkdtemp(prefix="ppo-drill-bench-"))
    client = CheckerClient(env={**os.environ, "PPO_DRILL_HOME": str(tmp / "home")})
    client.wait_ready(120)
    print(f"{'test drill':<18} {'fw':<6} {'runs':>4} {'median ms':>10} {'p95 ms':>8} {'ms/run':>7} "
          f"{'answer ms':>9} {'ratio':>6}")
    worst = 0.0
    for d in [d for d in load_drills() if d.is_test]:
        for fw in d.frameworks:
            tests, answer = d.solution(fw), _model(d.base, fw)
            client.check(tests, d.id, fw)
            client.check(answer, d.base, fw)
            grade_ms, answer_ms = [], []
            for _ in range(args.runs):
                t = time.perf_counter()
                client.check(tests, d.id, fw)
                grade_ms.append((time.perf_counter() - t) * 1e3)
                t = time.perf_counter()
                client.check(answer, d.base, fw)
                answer_ms.append((time.perf_counter() - t) * 1e3)
            n = len(implementations(d.id, fw))
            med, base = statistics.median(grade_ms), statistics.median(answer_ms)
            worst = max(worst, med)
            p95 = sorted(grade_ms)[min(len(grade_ms) - 1, int(round(0.95 * (len(grade_ms) - 1))))]
            print(f"{d.id:<18} {fw:<6} {n:>4} {med:>10.0f} {p95:>8.0f} {med / n:>7.1f} {base:>9.0f} "
                  f"{med / base:>6.1f}")
    client.close()
    print(f"slowest median: {worst:.0f} ms (target < 1000 ms)")
    return 0


def _model(drill_id, fw):
    from drills import get_drill

    return get_drill(drill_id).solution(fw)


if __name__ == "__main__":
    raise SystemExit(main())
