"""What the sandbox costs per check, beside baselines measured in the same run.

Prints medians and p95 (ms) over repeated runs of:
  - in-process: compiling the answer and calling it 200 times with no isolation at all;
  - raw fork: fork + _exit + waitpid of this process (torch loaded), the floor of any forked check;
  - run_candidate with one call of an empty function, and with 200 PPO-loss calls (64-element
    tensors), with and without gradients, split into the fork (the zygote's fork of the keeper and the
    keeper's of the answer's process, to its first instruction), the child's setup (all isolation
    steps), module load, calls, the parent's cleanup (kill and wait) and the total;
  - one sweep of the process table (what a sweep pays per pass where no pid namespace could be made);
  - the runs above from a zygote whose memory is collapsed into huge pages (the default) against one
    left in 4 KiB pages (`PPO_DRILL_HUGE_PAGES=0`), the two zygotes taken in turn, with the kernel time
    of the whole machine per run;
  - the same 200 PPO calls in a checker as warm as the app's worker (every drill's examples, expected
    results and variants loaded) against the cold checker above: the child comes from the zygote either
    way, so what the checker holds costs it nothing.
Ratios are against the in-process and raw-fork baselines of this run. Usage:
    .venv/bin/python bench/sandbox_overhead.py [--repeats N]
"""
from __future__ import annotations

import argparse
import os
import statistics
import time

import torch

from checker.sandbox import Call, Limits, prepare_parent, run_candidate
from checker.sandbox.pages import anonymous_huge_kb
from checker.sandbox.sweep import processes_of_uid

PPO = '''
import torch


def ppo_policy_loss(new_logp, old_logp, advantages, clip_eps=0.2):
    ratio = torch.exp(new_logp - old_logp)
    clipped = torch.clamp(ratio, 1 - clip_eps, 1 + clip_eps)
    return -torch.min(ratio * advantages, clipped * advantages).mean()
'''
EMPTY = "def ppo_policy_loss(*args, **kwargs):\n    return None\n"


def stats(samples: list[float]) -> tuple[float, float]:
    ordered = sorted(samples)
    return statistics.median(ordered), ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]


def row(name: str, samples: list[float], base: float | None = None, fork: float | None = None) -> None:
    med, p95 = stats(samples)
    extra = ""
    if base:
        extra += f"  {med / base:6.1f}x in-process"
    if fork:
        extra += f"  {med / fork:5.1f}x raw fork"
    print(f"{name:<44} median {med:7.2f}  p95 {p95:7.2f}{extra}")


def in_process(calls: list[Call]) -> float:
    t0 = time.perf_counter()
    namespace: dict = {}
    exec(compile(PPO, "answer.py", "exec"), namespace)
    fn = namespace["ppo_policy_loss"]
    for call in calls:
        fn(*[a.clone() for a in call.args])
    return (time.perf_counter() - t0) * 1e3


def raw_fork() -> float:
    t0 = time.perf_counter()
    pid = os.fork()
    if pid == 0:
        os._exit(0)
    os.waitpid(pid, 0)
    return (time.perf_counter() - t0) * 1e3


def machine_cpu_s() -> tuple[float, float]:
    """User and kernel CPU seconds of the whole machine so far (the children's exits included)."""
    with open("/proc/stat") as f:
        fields = f.readline().split()
    tick = os.sysconf("SC_CLK_TCK")
    return int(fields[1]) / tick, int(fields[3]) / tick


def huge_pages(n: int, calls: list[Call], limits: Limits) -> None:
    """Runs from a zygote in huge pages and from one in 4 KiB pages, in turn, after each has settled."""
    from checker.sandbox import discard_spare
    from checker.sandbox.zygote import zygote

    samples: dict[str, dict[str, list[float]]] = {}
    for _ in range(4):
        for label, setting in (("huge pages", None), ("4 KiB pages", "0")):
            discard_spare()
            zygote().close()
            if setting is None:
                os.environ.pop("PPO_DRILL_HUGE_PAGES", None)
            else:
                os.environ["PPO_DRILL_HUGE_PAGES"] = setting
            zygote().start()
            run_candidate(EMPTY, "ppo_policy_loss", calls[:1], limits=limits)
            before = -1
            for _ in range(100):  # until the zygote's collapse has ended
                time.sleep(0.05)
                now = anonymous_huge_kb(zygote().pid)
                if now == before:
                    break
                before = now
            got = samples.setdefault(label, {"empty": [], "ppo": [], "kernel": [], "huge": []})
            got["huge"].append(before / 1024)
            cpu0 = machine_cpu_s()
            for _ in range(max(1, n // 4)):
                got["empty"].append(run_candidate(EMPTY, "ppo_policy_loss", calls[:1], limits=limits).elapsed_ms)
                got["ppo"].append(run_candidate(PPO, "ppo_policy_loss", calls, limits=limits).elapsed_ms)
            cpu1 = machine_cpu_s()
            got["kernel"].append((cpu1[1] - cpu0[1]) * 1e3 / (2 * max(1, n // 4)))
    os.environ.pop("PPO_DRILL_HUGE_PAGES", None)
    discard_spare()
    zygote().close()
    zygote().start()
    print("-- the zygote's memory in huge pages vs in 4 KiB pages (taken in turn)")
    for label, got in samples.items():
        print(f"   {label}: {statistics.median(got['huge']):.0f} MiB of the zygote in huge pages")
        row(f"   {label}: empty function, 1 call", got["empty"])
        row(f"   {label}: 200 PPO calls", got["ppo"])
        row(f"   {label}: machine kernel ms per run", got["kernel"])
    for key in ("empty", "ppo", "kernel"):
        ratio = statistics.median(samples["huge pages"][key]) / statistics.median(samples["4 KiB pages"][key])
        print(f"   ratio huge / 4 KiB, {key}: {ratio:.2f}x")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=30)
    n = parser.parse_args().repeats
    prepare_parent()
    g = torch.Generator().manual_seed(0)
    new, old, adv = (torch.randn(64, generator=g) for _ in range(3))
    plain = [Call((new, old, adv)) for _ in range(200)]
    grads = [Call((new, old, adv), grad_of="", grad_wrt=("new_logp", "old_logp")) for _ in range(200)]
    limits = Limits(wall_s=10)
    print(f"pid {os.getpid()}, uid {os.geteuid()}, {os.cpu_count()} CPUs, torch {torch.__version__}, "
          f"{n} repeats; times in ms")

    base = [in_process(plain) for _ in range(n)]
    fork = [raw_fork() for _ in range(n)]
    base_med, fork_med = stats(base)[0], stats(fork)[0]
    row("in-process: exec + 200 PPO calls", base)
    row("raw fork + _exit + waitpid", fork)

    for label, source, calls in (("empty function, 1 call", EMPTY, plain[:1]),
                                 ("200 PPO calls", PPO, plain),
                                 ("200 PPO calls + backward, 2 grads", PPO, grads)):
        runs = []
        for _ in range(n):
            result = run_candidate(source, "ppo_policy_loss", calls, limits=limits)
            assert result.ok, result.error
            runs.append(result)
        print(f"-- run_candidate, {label}" + (f"  (notes: {runs[0].notes})" if runs[0].notes else ""))
        for key in ("fork_ms", "setup_ms", "load_ms", "calls_ms", "to_result_ms", "cleanup_ms", "total_ms"):
            samples = [r.timings[key] for r in runs if key in r.timings]
            if samples:
                full = key in ("to_result_ms", "total_ms")
                row(f"   {key[:-3]}", samples, base_med if full else None, fork_med if full else None)

    huge_pages(n, plain, limits)

    # The same calls once the checker is as warm as the app's worker, interleaved with none of it: the
    # zygote forked before any of it was loaded, so its children are the same size.
    cold = [run_candidate(PPO, "ppo_policy_loss", plain, limits=limits).elapsed_ms for _ in range(n)]
    from checker.engine import Checker

    Checker().warm()  # what the app's worker loads before its first check
    warm = [run_candidate(PPO, "ppo_policy_loss", plain, limits=limits).elapsed_ms for _ in range(n)]
    print("-- 200 PPO calls: a checker holding every drill's results vs one holding none")
    row("   cold checker", cold)
    row("   warm checker", warm)
    print(f"   ratio warm / cold: {stats(warm)[0] / stats(cold)[0]:.3f}x")

    sweep = []
    for _ in range(n):
        t0 = time.perf_counter()
        processes_of_uid(1)
        sweep.append((time.perf_counter() - t0) * 1e3)
    row(f"one process-table sweep ({len(os.listdir('/proc'))} /proc entries)", sweep)


if __name__ == "__main__":
    main()
