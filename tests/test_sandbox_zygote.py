"""The zygote every sandboxed child is forked from: it never holds what an answer must not read.

An answer's process is a copy of the zygote's, so the zygote's memory is what an answer can reach with
ctypes. These tests read that memory from outside (as root), check the zygote is forked only from a
process that holds nothing secret (else started afresh), that the CLI and the worker fork it that way,
and that a run's inputs reach it unchanged.
"""
from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest
import torch

from checker.sandbox.calls import CallsError, decode_calls, encode_calls
from checker.sandbox.model import Call
from checker.sandbox.zygote import holds_secrets, zygote

ROOT = os.geteuid() == 0
PROJECT = Path(__file__).resolve().parents[1]


def _same(a, b) -> bool:
    if isinstance(a, torch.Tensor):
        if not (isinstance(b, torch.Tensor) and a.dtype == b.dtype and a.shape == b.shape
                and a.requires_grad == b.requires_grad and b.is_leaf):
            return False
        torch.testing.assert_close(b.detach(), a.detach(), rtol=0, atol=0, equal_nan=True)
        return True
    if isinstance(a, np.ndarray):
        return (isinstance(b, np.ndarray) and a.dtype == b.dtype and a.shape == b.shape
                and a.tobytes() == b.tobytes() and a.flags.writeable == b.flags.writeable)
    if isinstance(a, np.generic):
        return type(a) is type(b) and a.tobytes() == b.tobytes()
    if isinstance(a, (tuple, list)):
        return type(a) is type(b) and len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    if isinstance(a, dict):
        return type(b) is dict and list(a) == list(b) and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, float) and a != a:
        return isinstance(b, float) and b != b
    return type(a) is type(b) and (a is b or a == b)


def _drills():
    from drills import load_drills

    return [(d.id, fw) for d in load_drills() if d.kind == "core" for fw in d.frameworks]


@pytest.mark.parametrize("drill,framework", _drills())
def test_every_drills_calls_reach_the_zygote_unchanged(drill, framework):
    from tests.warm_checker import CHECKER

    calls = CHECKER.plan(drill, framework).distinct
    back = decode_calls(encode_calls(calls))
    assert len(back) == len(calls)
    for a, b in zip(calls, back):
        assert (a.grad_of, a.grad_wrt, a.expect_error) == (b.grad_of, b.grad_wrt, b.expect_error)
        assert _same(a.args, b.args) and _same(a.kwargs, b.kwargs), (a, b)


# torch warns that complex32 is experimental when the refused complex32 tensor below is made
@pytest.mark.filterwarnings("ignore:ComplexHalf support is experimental:UserWarning")
def test_inputs_of_every_kind_cross_and_nothing_else_does():
    from checker.handouts import TORCH_PROBLEM

    x = np.arange(6.0).reshape(2, 3)[:, ::2]  # not contiguous
    ro = np.ones(2)
    ro.flags.writeable = False
    call = Call((x, ro, torch.tensor([1.5, -2.0], dtype=torch.bfloat16), torch.ones(2, requires_grad=True),
                 np.float32(0.25), np.bool_(True), float("nan"), float("-inf"), None, "s", [1, (2, 3)],
                 TORCH_PROBLEM), {"k": {"m": torch.tensor([True, False])}}, grad_of="0", grad_wrt=("arg3",),
                expect_error=True)
    back = decode_calls(encode_calls([call]))[0]
    assert _same(call.args[:-1], back.args[:-1]) and back.args[-1] is TORCH_PROBLEM
    assert _same(call.kwargs, back.kwargs) and back.grad_wrt == ("arg3",) and back.expect_error
    for bad in (object(), {1: 2}, np.array(["a"]), torch.ones(2, dtype=torch.complex32)):
        with pytest.raises(CallsError):
            encode_calls([Call((bad,))])
    payload = encode_calls([call])
    for broken in (payload[:-1], payload[:12] + b"[{]" + payload[15:], b""):
        with pytest.raises(CallsError):
            decode_calls(broken)


def _run(code: str, **env) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                          env={**os.environ, **env}, cwd=PROJECT)


def test_a_process_that_loaded_the_checkers_content_starts_its_zygote_afresh():
    """Forking is for a process that holds nothing secret; once the reference core (or the drills, or
    the engine) is loaded, the zygote is a fresh interpreter, and asking for a fork is refused."""
    done = _run("import checker.sandbox.zygote as z\n"
                "print(z.holds_secrets())\n"
                "import checker.reference, drills.catalog\n"
                "print(z.holds_secrets())\n"
                "try:\n"
                "    z.zygote().start()\n"
                "except z.ZygoteError as exc:\n"
                "    print('refused:', exc)\n", PPO_DRILL_ZYGOTE="fork")
    lines = done.stdout.splitlines()
    assert done.returncode == 0, done.stderr
    assert lines[0] == "[]" and "checker.reference" in lines[1] and "drills.catalog" in lines[1]
    assert lines[2].startswith("refused:") and "checker.reference" in lines[2]
    assert "checker.reference" in holds_secrets()  # this test process: its zygote was started afresh
    assert zygote().pid is None or not zygote().forked_from_here


def test_ppo_drill_check_forks_its_zygote_before_loading_anything(tmp_path):
    """The command line starts the sandbox first thing: with forking required, a check still runs."""
    from drills import get_drill

    answer = tmp_path / "gae.py"
    answer.write_text(get_drill("gae").solution("numpy"))
    done = subprocess.run([sys.executable, "-m", "tui", "--data-dir", str(tmp_path / "d"), "check", str(answer)],
                          capture_output=True, text=True, timeout=120, cwd=tmp_path,
                          env={**os.environ, "PPO_DRILL_ZYGOTE": "fork"})
    assert done.returncode == 0 and done.stdout.startswith("PASS"), done.stdout + done.stderr


def test_the_checker_worker_forks_its_zygote_before_loading_anything():
    from checker.service import CheckerClient
    from drills import get_drill

    with CheckerClient(env={**os.environ, "PPO_DRILL_ZYGOTE": "fork"}) as client:
        # sent at once: a check waiting when the worker is ready goes before its warm-up of every drill
        report = client.check(get_drill("gae").solution("torch"), "gae", "torch", timeout=120)
    assert report.passed, report.render()


def _without_zero_runs(chunk: bytes) -> bytes:
    """`chunk` (whole pages) with each run of all-zero pages cut to one zero page: about half a process's
    memory is such pages (reserved, never written), and searching them made most of this test's time. A
    pattern shorter than a page that is not all zeros occurs in the result wherever it occurs in `chunk`
    (it reaches at most into the first or the last page of a run, and both are the one kept)."""
    pages = np.frombuffer(chunk, dtype=np.uint8)
    if pages.size % 4096:
        return chunk
    pages = pages.reshape(-1, 4096)
    zero = ~pages.view(np.uint64).any(axis=1)
    keep = ~zero | np.concatenate(([True], ~zero[:-1]))
    return chunk if keep.all() else pages[keep].tobytes()


def _memory_chunks(pid: int):
    """Each mapping of `pid` that data can be in (root reads another uid's memory): writable ones (the heap,
    anonymous memory, the data of libraries) and anonymous ones; a library's code and read-only data are
    the same in every process and hold nothing a check computed. Runs of zero pages are cut to one page
    (`_without_zero_runs`): the patterns searched for are shorter than a page and never all zeros."""
    with open(f"/proc/{pid}/maps") as maps, open(f"/proc/{pid}/mem", "rb", buffering=0) as mem:
        for line in maps:
            fields = line.split()
            start, end = (int(x, 16) for x in fields[0].split("-"))
            named = fields[5] if len(fields) > 5 else ""
            if "r" not in fields[1] or named in ("[vvar]", "[vsyscall]", "[vvar_vclock]") or \
                    ("w" not in fields[1] and named.startswith("/")):
                continue
            try:
                mem.seek(start)
                chunk = mem.read(end - start)
            except OSError:
                continue
            yield _without_zero_runs(chunk)


def _readable_memory(pid: int) -> bytes:
    """`_memory_chunks(pid)`, one string (a pattern across two mappings is found too)."""
    return b"".join(_memory_chunks(pid))


def _holds_some(pid: int, lines: list[bytes], results: list[bytes]) -> bool:
    """Some line and some result are in a mapping of `pid`: read until both are found (the checker's own
    heap is large, and the search only has to be shown to work)."""
    line = result = False
    for chunk in _memory_chunks(pid):
        line = line or any(x in chunk for x in lines)
        result = result or any(x in chunk for x in results)
        if line and result:
            return True
    return False


def _secrets() -> tuple[list[bytes], list[bytes]]:
    """Lines only model answers have (never in a starter, prompt or hint), and expected results' bytes."""
    from drills import get_drill
    from tests.warm_checker import CHECKER

    lines, results = [], []
    for drill_id, framework in (("gae", "numpy"), ("policy-loss", "torch"), ("masked-whiten", "numpy"),
                                ("value-loss", "numpy")):
        d = get_drill(drill_id)
        public = d.starter(framework) + d.prompt + "".join(d.hints)
        for line in d.solution(framework).splitlines():
            text = line.strip()
            if len(text) >= 30 and text not in public and not text.startswith(("def ", "#", '"""', "import ")):
                lines.append(text.encode())
        for exp in CHECKER.plan(drill_id, framework).expected:
            for value in exp.outputs.values():
                arr = np.asarray(value, dtype=np.float64).ravel()
                if arr.size >= 3 and len(set(arr[:3].tolist())) == 3 and np.all(np.isfinite(arr[:3])) \
                        and not np.any(arr[:3] == np.round(arr[:3])):
                    results.append(arr[:3].tobytes())
    # a sample is enough, spread over the drills and their examples (each pattern is a search of ~100 MB)
    return lines[::max(1, len(lines) // 10)], results[::max(1, len(results) // 16)]


@pytest.mark.skipif(not ROOT, reason="reading another process's memory needs root")
def test_no_model_answer_or_expected_result_is_in_the_memory_of_the_zygote_or_a_spare():
    """After checks of several drills in a checker as warm as the app's (every expected result computed
    here), neither the zygote nor a spare child waiting for its source holds a model answer's line or
    three consecutive expected values, in any mapping; the checker itself holds both (the search works)."""
    from checker.engine import Checker
    from checker.sandbox import discard_spare
    from drills import get_drill

    lines, results = _secrets()
    assert len(lines) >= 8 and len(results) >= 12
    assert all(len(p) < 4096 and p.strip(b"\0") for p in lines + results)  # what the cut zero runs assume
    checker = Checker()
    for drill_id, framework in (("gae", "numpy"), ("policy-loss", "torch"), ("masked-whiten", "numpy")):
        checker.check(get_drill(drill_id).solution(framework), drill_id, framework)
    checker.keep_warm()
    try:
        import checker.sandbox.runner as runner

        spare = runner._spare
        assert spare is not None
        pids = [zygote().pid] + [c.pid for c in spare.children]
        answers: list[int] = []
        deadline = time.monotonic() + 10
        while len(answers) < len(pids) - 1 and time.monotonic() < deadline:  # each keeper's child, once forked
            answers = [int(c) for keeper in pids[1:]
                       for c in Path(f"/proc/{keeper}/task/{keeper}/children").read_text().split()]
            time.sleep(0.01)
        assert len(answers) == len(pids) - 1, "the spare's answer process was not found"
        assert _holds_some(os.getpid(), lines, results)  # the checker holds both: the search finds them
        for pid in [pids[0]] + answers:
            memory = _readable_memory(pid)
            assert len(memory) > 20_000_000  # the heap of a process with torch loaded was read
            found = [line for line in lines if line in memory] + [r.hex() for r in results if r in memory]
            assert found == [], (pid, found[:5])
    finally:
        discard_spare()


def test_a_forked_process_never_uses_its_parents_zygote():
    """A process forked from a checker (a test's fake checker, say) gets a zygote of its own: two
    processes on one socket would read each other's replies."""
    zygote().start()
    mine = zygote().pid
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover
        try:
            os.write(w, str(zygote().sock is None and zygote().pid is None).encode())
        finally:
            os._exit(0)
    os.close(w)
    assert os.read(r, 16) == b"True"
    os.waitpid(pid, 0)
    os.close(r)
    assert zygote().pid == mine and re.match(r"\d+", str(mine))


def test_the_zygotes_code_imports_nothing_of_the_checkers_content():
    """The zygote loads the sandbox and the handed-over objects: neither may import any other part of the
    checker (nor the drills, cards or the app), lazily inside a function included."""
    import ast

    for folder in ("checker/sandbox", "checker/handouts"):
        for path in sorted((PROJECT / folder).glob("*.py")):
            for node in ast.walk(ast.parse(path.read_text())):
                names = ([a.name for a in node.names] if isinstance(node, ast.Import) else
                         [node.module or ""] if isinstance(node, ast.ImportFrom) and node.level == 0 else [])
                for name in names:
                    top = name.split(".")[0]
                    assert top not in ("drills", "cards", "tui"), (path.name, name)
                    if top == "checker":
                        assert name.startswith(("checker.sandbox", "checker.handouts")), (path.name, name)
