"""How long a candidate waits for a verdict, per core drill, for a right and a wrong answer.

- cold: a fresh `ppo-drill check FILE` process (what a one-off CLI check costs), against a baseline
  measured in the same run: a fresh `python -c "import torch"`. Target: cold <= 1.5x baseline. Both
  run as an installed tool does, with Python's bytecode cache on (PYTHONDONTWRITEBYTECODE is dropped
  from their environment; torch's own cache is written when it is installed), after one untimed check
  of the same file, as a user who has checked before. Each cold run follows a baseline run of its own,
  and a case's ratio is the median of its cold runs over the median of the baselines beside them, so
  that the machine's slow and fast spells fall on both.
- warm: a check through the pre-forked checker worker (`checker.service.CheckerClient`, as the app and
  `watch` use it), also as a ratio against a baseline measured in the same run: the warm check of an
  answer that does not compile (one sandboxed run: fork, confine, report). Targets on a 2-core machine:
  right answer < 100 ms median, wrong answer (with shrinking and naming the mistake) < 250 ms median.
  Each warm check starts after the worker has idled `--pause` seconds (0.2 by default), as between a
  person's checks: the worker forks its spare sandbox child in that time (`--pause 0` times checks
  sent back to back, each then also waiting for the previous one's spare to be forked).
  The warm runs of each answer are taken in `--passes` rounds over every answer (each round first
  re-warms the answer with one untimed check, as a person coming back to a drill would), so that a
  spell when the shared machine is slow falls on a few runs of many answers, not on all the runs of
  one; medians and p95s are over every run, and the medians of the rounds are printed beside them.

Every core (implement-it) drill is timed, in each of its frameworks, with its model answer and one
catalogued mistake.

Usage: python bench/check_latency.py [--cold-runs 5] [--warm-runs 20] [--passes 4] [--drills ID ...]
       [--framework FW]
Prints medians and p95s; figures are for the machine at hand, so compare ratios, not absolutes.
"""
from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

# the wrong answer timed per drill: this catalogued mistake where listed, else the drill's first one
WRONG = {"gae": "gae-forward-scan", "policy-loss": "policy-max-instead-of-min", "value-loss": "value-no-clip",
         "total-loss": "entropy-sign", "actor-loss": "mask-ignored",
         "grpo-advantages": "grpo-sample-major", "loss-aggregation": "agg-seq-sum-as-seq-mean",
         "policy-loss-full": "policy-dual-clip-positive", "explained-variance": "ev-var-values",
         "bt-loss": "bt-chosen-rejected-swapped", "dpo-loss": "dpo-reference-sign", "rloo": "rloo-divides-by-k",
         "trajectory-is": "is-padding-included", "kl-penalty": "klpen-per-minibatch",
         "token-logprobs": "logprob-no-shift", "token-kl": "kl-direction-swapped",
         "kl-reward": "reward-score-last-column", "token-gae": "tgae-bootstrap-padding",
         "masked-whiten": "whiten-stats-over-padding", "ppo-update": "old-logp-in-loop"}
# the warm baseline: one sandboxed run that stops at once (an answer that does not compile: fork, confine,
# report), measured in the same process, so the ratios compare the checks with the fixed cost of isolation
BASELINE_SOURCE = "def ppo_policy_loss(\n"


#: Drills whose warm check gets its own figure: what the answer itself costs, and why.
OWN_FIGURE = {"ppo-update": "each of its 20 examples is a whole update loop (epochs x minibatches of "
                            "optimiser steps)"}


def answer_own_ms(drill_id: str, framework: str, runs: int = 5) -> float:
    """The model answer over the check's calls in this process, with no sandbox: the floor of a warm check."""
    import copy
    import types

    from checker.engine import Checker
    from drills import get_drill

    d = get_drill(drill_id)
    plan = Checker().plan(d.base or d.id, framework, 0)
    module = types.ModuleType("model_answer")
    exec(compile(d.solution(framework), "model_answer.py", "exec"), module.__dict__)
    fn = getattr(module, plan.spec.function)
    calls = plan.distinct
    from checker.sandbox.child import _fresh_inputs, _shared_ids, _signature

    names = _signature(fn)[1]
    times = []
    for _ in range(runs):
        fresh = copy.deepcopy(calls)
        t = time.perf_counter()
        shared = _shared_ids(fresh)
        for call in fresh:
            args, kwargs, _ = _fresh_inputs(call, names, shared)  # as the sandbox hands them over
            try:
                fn(*args, **kwargs)
            except Exception:
                if not call.expect_error:  # only the contract probes raise
                    raise
        times.append((time.perf_counter() - t) * 1e3)
    return statistics.median(times)


def p95(xs):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(0.95 * (len(xs) - 1))))]


def timed_process(argv) -> float:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    t = time.perf_counter()
    subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    return (time.perf_counter() - t) * 1e3


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cold-runs", type=int, default=5)
    ap.add_argument("--warm-runs", type=int, default=20)
    ap.add_argument("--drills", nargs="*", help="only these drills (default: every core drill)")
    ap.add_argument("--framework", choices=["numpy", "torch"], help="only this framework (default: both)")
    ap.add_argument("--pause", type=float, default=0.2, help="seconds the worker idles before each warm check")
    ap.add_argument("--passes", type=int, default=4,
                    help="rounds over every answer that the warm runs are split into (default 4)")
    args = ap.parse_args()

    from checker.service import CheckerClient

    exe = Path(sys.executable).with_name("ppo-drill")
    cases = []
    tmp = Path(tempfile.mkdtemp(prefix="ppo-drill-bench-"))
    from drills import load_drills, typed_drill_id

    only = {typed_drill_id(i) for i in args.drills or ()}
    for d in load_drills():  # every implement-it drill, in both frameworks
        if d.kind != "core" or (only and d.id not in only):
            continue
        mistake = next((m for m in d.mistakes if m.id == WRONG.get(d.id)), d.mistakes[0] if d.mistakes else None)
        for fw in d.frameworks:
            if args.framework and fw != args.framework:
                continue
            answers = [("right", d.solution(fw))]
            if mistake is not None and fw in mistake.frameworks:
                answers.append(("wrong", mistake.source(fw)))
            for kind, source in answers:
                path = tmp / f"{d.id.replace('-', '_')}_{fw}_{kind}.py"  # a Python file name keeps _
                path.write_text(source)
                cases.append((d.id, fw, kind, path))

    baseline = [timed_process([sys.executable, "-c", "import torch"]) for _ in range(args.cold_runs)]  # the figure printed; a case's ratio uses the runs beside its own
    base_med = statistics.median(baseline) if baseline else float("nan")  # --cold-runs 0: warm figures only
    if baseline:
        print(f"baseline: python -c 'import torch'      median {base_med:7.0f} ms   p95 {p95(baseline):7.0f} ms")
    header = (f"{'drill':<20} {'fw':<6} {'answer':<6} {'cold median':>12} {'x base':>7} {'warm median':>12} "
              f"{'x base':>7} {'warm p95':>9} {'target':>7}")

    client = CheckerClient(env={**os.environ, "PPO_DRILL_HOME": str(tmp / "home")})
    client.wait_ready(120)
    client.wait_warm()  # every drill warmed (the worker warms them one at a time between requests)
    for drill_id, fw, _kind, path in cases:  # warm-up: examples, references and catalogue loaded once
        client.check(path.read_text(), drill_id, fw)
    warm_base = []
    for _ in range(args.warm_runs):
        time.sleep(args.pause)
        t = time.perf_counter()
        client.check(BASELINE_SOURCE, "policy-loss", "numpy")
        warm_base.append((time.perf_counter() - t) * 1e3)
    warm_base_med = statistics.median(warm_base)
    print(f"baseline: warm sandboxed run that stops at once median {warm_base_med:5.1f} ms   p95 {p95(warm_base):5.1f} ms")
    print()
    worst = {"right": 0.0, "wrong": 0.0}
    medians: dict = {}
    cold_ratio = 0.0
    cold, beside = {}, {}
    base_argv = [sys.executable, "-c", "import torch"]
    for case in cases:
        argv = [str(exe), "--data-dir", str(tmp / "home"), "check", str(case[3]), "--drill", case[0],
                "--framework", case[1]]
        if args.cold_runs:
            timed_process(argv)  # untimed: bytecode and drawn examples cached, as after a user's first check
        pairs = [(timed_process(base_argv), timed_process(argv)) for _ in range(args.cold_runs)]
        beside[case] = [b for b, _ in pairs]
        cold[case] = [c for _, c in pairs]
    passes = max(1, min(args.passes, args.warm_runs))
    warm: dict = {case: [] for case in cases}
    rounds: dict = {case: [] for case in cases}
    for k in range(passes):
        runs = args.warm_runs // passes + (1 if k < args.warm_runs % passes else 0)
        for case in cases:
            drill_id, fw, _, path = case
            source = path.read_text()
            time.sleep(args.pause)
            client.check(source, drill_id, fw)  # untimed: back on this drill, its spare and caches warm again
            times = []
            for _ in range(runs):
                time.sleep(args.pause)
                t = time.perf_counter()
                client.check(source, drill_id, fw)
                times.append((time.perf_counter() - t) * 1e3)
            warm[case] += times
            rounds[case].append(statistics.median(times))
    print(header + f"  {'medians by round':>16}")
    for case in cases:
        drill_id, fw, kind, _ = case
        cm, wm = (statistics.median(cold[case]) if cold[case] else float("nan")), statistics.median(warm[case])
        medians[(drill_id, fw, kind)] = wm
        target = 100 if kind == "right" else 250
        worst[kind] = max(worst[kind], wm)
        ratio = cm / statistics.median(beside[case]) if cold[case] else float("nan")
        cold_ratio = max(cold_ratio, ratio) if cold[case] else cold_ratio
        by_round = "/".join(f"{m:.0f}" for m in rounds[case])
        print(f"{drill_id:<20} {fw:<6} {kind:<6} {cm:10.0f} ms {ratio:6.2f}x {wm:9.0f} ms "
              f"{wm / warm_base_med:6.2f}x {p95(warm[case]):6.0f} ms {'<' + str(target):>7}  {by_round:>16}")
    client.close()
    for drill_id in OWN_FIGURE:
        for fw in ("numpy", "torch"):
            if any(c[0] == drill_id and c[1] == fw for c in cases):
                own = answer_own_ms(drill_id, fw)
                right = medians.get((drill_id, fw, "right"), float("nan"))
                print(f"{drill_id} {fw}: {OWN_FIGURE[drill_id]}; the model answer's own work, in this process "
                      f"with no sandbox, is {own:.0f} ms (median of 5), {own / right:.0%} of its warm median")
    print()
    print(f"worst warm median: right {worst['right']:.0f} ms (target < 100), wrong {worst['wrong']:.0f} ms "
          f"(target < 250); worst cold ratio {cold_ratio:.2f}x (target <= 1.5x)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
