"""How long a candidate waits for a verdict, per core drill, for a right and a wrong answer.

- cold: a fresh `ppo-drill check FILE` process (what a one-off CLI check costs), against a baseline
  measured in the same run: a fresh `python -c "import torch"`. Target: cold <= 1.5x baseline.
- warm: a check through the pre-forked checker worker (`checker.service.CheckerClient`, as the app and
  `watch` use it), also as a ratio against a baseline measured in the same run: the warm check of an
  answer that does not compile (one sandboxed run: fork, confine, report). Targets on a 2-core machine:
  right answer < 100 ms median, wrong answer (with shrinking and naming the mistake) < 250 ms median.
  Each warm check starts after the worker has idled `--pause` seconds (0.2 by default), as between a
  person's checks: the worker forks its spare sandbox child in that time (`--pause 0` times checks
  sent back to back, each then also waiting for the previous one's spare to be forked).

Every core (implement-it) drill is timed, in each of its frameworks, with its model answer and one
catalogued mistake.

Usage: python bench/check_latency.py [--cold-runs 5] [--warm-runs 20] [--drills ID ...] [--framework FW]
Prints medians and p95s; figures are for the machine at hand, so compare ratios, not absolutes.
"""
from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

# the wrong answer timed per drill: this catalogued mistake where listed, else the drill's first one
WRONG = {"gae": "gae-forward-scan", "policy_loss": "policy-max-instead-of-min", "value_loss": "value-no-clip",
         "total_loss": "entropy-sign", "actor_loss": "mask-ignored",
         "grpo_advantages": "grpo-sample-major", "loss_aggregation": "agg-seq-sum-as-seq-mean",
         "policy_loss_full": "policy-dual-clip-positive", "explained_variance": "ev-var-values",
         "bt_loss": "bt-chosen-rejected-swapped", "dpo_loss": "dpo-reference-sign", "rloo": "rloo-divides-by-k",
         "trajectory_is": "is-padding-included", "kl_penalty": "klpen-per-minibatch",
         "token_logprobs": "logprob-no-shift", "token_kl": "kl-direction-swapped",
         "kl_reward": "reward-score-last-column", "token_gae": "tgae-bootstrap-padding",
         "masked_whiten": "whiten-stats-over-padding", "ppo_update": "old-logp-in-loop"}
# the warm baseline: one sandboxed run that stops at once (an answer that does not compile: fork, confine,
# report), measured in the same process, so the ratios compare the checks with the fixed cost of isolation
BASELINE_SOURCE = "def ppo_policy_loss(\n"


#: Drills whose warm check gets its own figure: what the answer itself costs, and why.
OWN_FIGURE = {"ppo_update": "each of its 20 examples is a whole update loop (epochs x minibatches of "
                            "optimiser steps)"}


def answer_own_ms(drill_id: str, framework: str, runs: int = 5) -> float:
    """The model answer over the check's calls in this process, with no sandbox: the floor of a warm check."""
    import copy
    import types

    from checker.engine import _distinct_calls_for
    from checker.specs import spec_for
    from drills import get_drill

    d = get_drill(drill_id)
    spec = spec_for(d.base or d.id)
    module = types.ModuleType("model_answer")
    exec(compile(d.solution(framework), "model_answer.py", "exec"), module.__dict__)
    fn = getattr(module, spec.function)
    calls, _ = _distinct_calls_for(spec.drill_id, framework, 0)
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
    t = time.perf_counter()
    subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return (time.perf_counter() - t) * 1e3


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cold-runs", type=int, default=5)
    ap.add_argument("--warm-runs", type=int, default=20)
    ap.add_argument("--drills", nargs="*", help="only these drills (default: every core drill)")
    ap.add_argument("--framework", choices=["numpy", "torch"], help="only this framework (default: both)")
    ap.add_argument("--pause", type=float, default=0.2, help="seconds the worker idles before each warm check")
    args = ap.parse_args()

    from checker.service import CheckerClient
    from drills import get_drill

    exe = Path(sys.executable).with_name("ppo-drill")
    cases = []
    tmp = Path(tempfile.mkdtemp(prefix="ppo-drill-bench-"))
    from drills import load_drills

    for d in load_drills():  # every implement-it drill, in both frameworks
        if d.kind != "core" or (args.drills and d.id not in args.drills):
            continue
        mistake = next((m for m in d.mistakes if m.id == WRONG.get(d.id)), d.mistakes[0] if d.mistakes else None)
        for fw in d.frameworks:
            if args.framework and fw != args.framework:
                continue
            answers = [("right", d.solution(fw))]
            if mistake is not None and fw in mistake.frameworks:
                answers.append(("wrong", mistake.source(fw)))
            for kind, source in answers:
                path = tmp / f"{d.id}_{fw}_{kind}.py"
                path.write_text(source)
                cases.append((d.id, fw, kind, path))

    baseline = [timed_process([sys.executable, "-c", "import torch"]) for _ in range(args.cold_runs)]
    base_med = statistics.median(baseline) if baseline else float("nan")  # --cold-runs 0: warm figures only
    if baseline:
        print(f"baseline: python -c 'import torch'      median {base_med:7.0f} ms   p95 {p95(baseline):7.0f} ms")
    header = (f"{'drill':<20} {'fw':<6} {'answer':<6} {'cold median':>12} {'x base':>7} {'warm median':>12} "
              f"{'x base':>7} {'warm p95':>9} {'target':>7}")

    client = CheckerClient(env={**__import__("os").environ, "PPO_DRILL_HOME": str(tmp / "home")})
    client.wait_ready(120)
    for drill_id, fw, kind, path in cases:  # warm-up: examples, references and catalogue loaded once
        client.check(path.read_text(), drill_id, fw)
    warm_base = []
    for _ in range(args.warm_runs):
        time.sleep(args.pause)
        t = time.perf_counter()
        client.check(BASELINE_SOURCE, "policy_loss", "numpy")
        warm_base.append((time.perf_counter() - t) * 1e3)
    warm_base_med = statistics.median(warm_base)
    print(f"baseline: warm sandboxed run that stops at once median {warm_base_med:5.1f} ms   p95 {p95(warm_base):5.1f} ms")
    print()
    worst = {"right": 0.0, "wrong": 0.0}
    medians: dict = {}
    cold_ratio = 0.0
    print(header)
    for drill_id, fw, kind, path in cases:
        cold = [timed_process([str(exe), "--data-dir", str(tmp / "home"), "check", str(path), "--drill", drill_id,
                               "--framework", fw]) for _ in range(args.cold_runs)]
        source = path.read_text()
        warm = []
        for _ in range(args.warm_runs):
            time.sleep(args.pause)
            t = time.perf_counter()
            client.check(source, drill_id, fw)
            warm.append((time.perf_counter() - t) * 1e3)
        cm, wm = (statistics.median(cold) if cold else float("nan")), statistics.median(warm)
        medians[(drill_id, fw, kind)] = wm
        target = 100 if kind == "right" else 250
        worst[kind] = max(worst[kind], wm)
        cold_ratio = max(cold_ratio, cm / base_med) if cold else cold_ratio
        print(f"{drill_id:<20} {fw:<6} {kind:<6} {cm:10.0f} ms {cm / base_med:6.2f}x {wm:9.0f} ms "
              f"{wm / warm_base_med:6.2f}x {p95(warm):6.0f} ms {'<' + str(target):>7}")
    client.close()
    for drill_id in OWN_FIGURE:
        for fw in ("numpy", "torch"):
            if any(c[0] == drill_id and c[1] == fw for c in cases):
                own = answer_own_ms(drill_id, fw)
                warm = medians.get((drill_id, fw, "right"), float("nan"))
                print(f"{drill_id} {fw}: {OWN_FIGURE[drill_id]}; the model answer's own work, in this process "
                      f"with no sandbox, is {own:.0f} ms (median of 5), {own / warm:.0%} of its warm median")
    print()
    print(f"worst warm median: right {worst['right']:.0f} ms (target < 100), wrong {worst['wrong']:.0f} ms "
          f"(target < 250); worst cold ratio {cold_ratio:.2f}x (target <= 1.5x)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
