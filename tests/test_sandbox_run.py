"""run_candidate on ordinary answers: values come back decoded and labelled, gradients reach (or do
not reach) the inputs they should, expect_error calls report their exception, a failing call stops
the run with the results so far, output is captured, and the signature is read before any call."""
from __future__ import annotations

import math
import os
import platform
import select
import signal

import numpy as np
import pytest
import torch

from checker.sandbox import Call, CallError, Limits, Opaque, ReturnedArray, run_candidate

LIM = Limits(wall_s=5)

PPO = '''
import torch


def ppo_policy_loss(new_logp, old_logp, advantages, clip_eps=0.2):
    ratio = torch.exp(new_logp - old_logp)
    clipped = torch.clamp(ratio, 1 - clip_eps, 1 + clip_eps)
    return -torch.min(ratio * advantages, clipped * advantages).mean()
'''


def run(source, calls, function="answer", limits=LIM, **kw):
    return run_candidate(source, function, calls, limits=limits, **kw)


def test_many_calls_come_back_in_order_with_their_values():
    source = "def answer(i, scale=1):\n    return i * scale\n"
    result = run(source, [Call((i,), {"scale": 3}) for i in range(200)])
    assert result.ok and result.error is None
    if os.geteuid() == 0:
        assert result.notes == []  # as root every protection is available; elsewhere notes say what is not
    assert [r.index for r in result.results] == list(range(200))
    assert [r.value for r in result.results] == [3 * i for i in range(200)]
    assert result.elapsed_ms > 0 and {"setup_ms", "calls_ms", "total_ms"} <= set(result.timings)


def test_numpy_and_torch_returns_are_told_apart():
    source = ("import numpy as np, torch\n"
              "def answer(x):\n"
              "    return x.mean(), np.mean(x), float(x.mean()), torch.as_tensor(x).mean(), x\n")
    (value,) = [r.value for r in run(source, [Call((np.arange(4.0),))]).results]
    arr0, npscalar, pyfloat, tensor0, arr = value
    assert (arr0.origin, arr0.shape) == ("numpy-scalar", ())
    assert npscalar.origin == "numpy-scalar" and type(pyfloat) is float
    assert tensor0.is_torch and tensor0.source_dtype == "torch.float64" and tensor0.shape == ()
    assert isinstance(arr, ReturnedArray) and arr.origin == "numpy" and arr.shape == (4,)


def test_gradients_reach_the_trainable_input_and_not_the_constants():
    new, old, adv = torch.randn(2, 5), torch.randn(2, 5), torch.randn(2, 5)
    call = Call((new, old), {"advantages": adv}, grad_of="", grad_wrt=("new_logp", "arg1", "advantages"))
    result = run(PPO, [call], function="ppo_policy_loss")
    (r,) = result.results
    assert r.value.shape == () and r.value.requires_grad and r.value.grad_fn == "NegBackward0"
    # The same computation in the trusted process gives the same value and gradients.
    n = new.clone().requires_grad_(True)
    o = old.clone().requires_grad_(True)
    a = adv.clone().requires_grad_(True)
    ratio = torch.exp(n - o)
    loss = -torch.min(ratio * a, torch.clamp(ratio, 0.8, 1.2) * a).mean()
    loss.backward()
    np.testing.assert_allclose(r.value, loss.item(), rtol=1e-6)
    np.testing.assert_allclose(r.grads["new_logp"], n.grad.numpy(), rtol=1e-6)
    np.testing.assert_allclose(r.grads["arg1"], o.grad.numpy(), rtol=1e-6)
    np.testing.assert_allclose(r.grads["advantages"], a.grad.numpy(), rtol=1e-6)


def test_detached_inputs_report_no_gradient():
    source = ("def answer(new, old):\n"
              "    return ((new - old.detach()) ** 2).sum(), {'note': 'detached old'}\n")
    call = Call((torch.ones(3), torch.zeros(3, requires_grad=True)), grad_of="0", grad_wrt=("new", "old"))
    (r,) = run(source, [call]).results
    assert r.grad_error is None and r.grads["old"] is None
    np.testing.assert_array_equal(r.grads["new"], [2.0, 2.0, 2.0])
    assert r.value[1] == {"note": "detached old"}


def test_gradient_paths_into_nested_outputs_and_non_scalars():
    source = "def answer(x):\n    return (x.sum(), {'loss': x * 3})\n"
    (r,) = run(source, [Call((torch.ones(2),), grad_of="1.loss", grad_wrt=("x",))]).results
    np.testing.assert_array_equal(r.grads["x"], [3.0, 3.0])  # a non-scalar output is summed


def test_an_output_without_grad_fn_is_explained_not_fatal():
    source = "def answer(x):\n    return float(x.sum())\n"
    (r,) = run(source, [Call((torch.ones(2),), grad_of="", grad_wrt=("x",))]).results
    assert r.ok and r.value == 2.0 and r.grads == {"x": None} and "float" in r.grad_error
    (r,) = run(source, [Call((torch.ones(2),), grad_of="3", grad_wrt=("x",))]).results
    assert "no element" in r.grad_error


def test_expected_errors_are_results_and_the_run_goes_on():
    source = ("def answer(x):\n"
              "    if x < 0:\n"
              "        raise ValueError(f'x must be >= 0, got {x}')\n"
              "    return x\n")
    result = run(source, [Call((-1,), expect_error=True), Call((2,), expect_error=True), Call((3,))])
    assert result.ok
    first, second, third = result.results
    assert not first.ok and first.error == CallError("ValueError", "x must be >= 0, got -1", 3)
    assert second.ok and second.value == 2 and third.value == 3


def test_an_unexpected_exception_stops_the_run_and_keeps_earlier_results():
    source = "def answer(x):\n    return 10 // x\n"
    result = run(source, [Call((5,)), Call((0,)), Call((1,))], filename="mine.py")
    assert not result.ok and result.error.kind == "exception"
    assert result.error.call_index == 1 and result.error.exc_type == "ZeroDivisionError"
    assert result.error.line == 2 and 'File "mine.py", line 2' in result.error.detail
    assert "call 2" in result.error.message
    assert [r.value for r in result.results] == [2]


def test_memory_errors_are_memory_even_when_an_error_was_expected():
    source = "def answer(x):\n    return bytearray(1 << 40)\n"
    result = run(source, [Call((1,), expect_error=True)], limits=Limits(wall_s=5, memory_mb=256))
    assert result.error.kind == "memory" and result.error.line == 2


def test_stdout_and_stderr_are_captured():
    source = ("import sys\nprint('loading')\n"
              "def answer(x):\n    print('x is', x)\n    print('warn', file=sys.stderr)\n    return x\n")
    result = run(source, [Call((1,))])
    assert result.stdout == "loading\nx is 1\nwarn\n" and not result.stdout_truncated


def test_signature_is_read_before_any_call():
    source = ("def answer(a, b=(1, 2), *rest, c=None, d=0.5, **kw):\n    return a\n")
    result = run(source, [])
    assert result.ok and result.results == []
    assert result.signature == [
        {"name": "a", "kind": "POSITIONAL_OR_KEYWORD", "default": None, "has_default": False},
        {"name": "b", "kind": "POSITIONAL_OR_KEYWORD", "default": "(1, 2)", "has_default": True},
        {"name": "rest", "kind": "VAR_POSITIONAL", "default": None, "has_default": False},
        {"name": "c", "kind": "KEYWORD_ONLY", "default": None, "has_default": True},
        {"name": "d", "kind": "KEYWORD_ONLY", "default": 0.5, "has_default": True},
        {"name": "kw", "kind": "VAR_KEYWORD", "default": None, "has_default": False},
    ]


def test_a_non_function_name_is_a_missing_function():
    result = run("answer = 3\n", [Call((1,))])
    assert result.error.kind == "missing-function" and "int" in result.error.message


def test_heavy_but_legitimate_numpy_and_torch_work_inside_the_limits():
    source = '''
import math
from collections import deque
import numpy as np
import torch
import torch.nn.functional as F


def answer(x):
    a = np.linalg.inv(x @ x.T + np.eye(len(x)))
    t = torch.randn(300, 300, requires_grad=True)
    loss = F.softmax(t @ t, dim=-1).logsumexp(-1).mean()
    loss.backward()
    dist = torch.distributions.Categorical(logits=torch.zeros(4))
    return float(a.trace()), float(t.grad.abs().sum()), float(dist.entropy()), math.pi, len(deque([1]))
'''
    x = np.random.default_rng(0).random((200, 200))
    result = run(source, [Call((x,))])
    assert result.ok, result.error
    assert np.isclose(result.results[0].value[2], math.log(4))


def test_opening_files_is_refused_with_an_explanation(tmp_path):
    path = tmp_path / "data.txt"
    path.write_text("secret")
    source = f"def answer():\n    return open({str(path)!r}).read()\n"
    result = run(source, [Call(())])
    assert result.error.kind == "exception" and "open no files" in result.error.message


def test_a_parent_that_ran_multithreaded_torch_ops_still_has_working_children():
    """Fork safety: children set one thread, so a parent that entered an OpenMP region is harmless.
    The multi-threaded parent is a fork of this test process, which stays single-threaded (tests/conftest.py
    keeps its torch to one thread: a fork of a process that entered a parallel region hangs in its own
    matrix product, before it reaches what this test is about)."""
    source = ("import torch\ndef answer():\n    a = torch.randn(512, 512, requires_grad=True)\n"
              "    (a @ a).exp().sum().backward()\n    return torch.get_num_threads()\n")
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the multi-threaded parent
        try:
            torch.set_num_threads(2)
            big = torch.randn(1024, 1024)
            (big @ big).exp().sum()
            result = run(source, [Call(())])
            os.write(w, repr((result.ok, result.results[0].value if result.ok else result.error.kind)).encode())
        finally:
            os._exit(0)
    os.close(w)
    try:
        assert select.select([r], [], [], 30)[0], "the multi-threaded parent hung"
        report = os.read(r, 1000).decode()
    finally:
        os.close(r)
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
    assert report == "(True, 1)"


def test_the_child_runs_without_the_parents_environment(monkeypatch):
    monkeypatch.setenv("PPO_DRILL_SECRET_TOKEN", "hunter2")
    source = "import os\ndef answer():\n    return os.environ.get('PPO_DRILL_SECRET_TOKEN'), os.getcwd()\n"
    (r,) = run(source, [Call(())]).results
    assert r.value == (None, "/")
    assert os.environ["PPO_DRILL_SECRET_TOKEN"] == "hunter2"


def test_a_huge_result_is_an_output_error():
    source = "import numpy as np\ndef answer():\n    return np.zeros(1 << 20)\n"
    result = run(source, [Call(())], limits=Limits(wall_s=5, max_result_bytes=1 << 20))
    assert result.error.kind == "output" and "MiB" in result.error.message


def test_values_the_sandbox_cannot_decode_are_opaque():
    source = "import torch\ndef answer():\n    return torch.nn.Linear(2, 2), torch.ones(2).to_sparse()\n"
    linear, sparse = run(source, [Call(())]).results[0].value
    assert isinstance(linear, Opaque) and linear.type_name == "torch.nn.modules.linear.Linear"
    assert isinstance(sparse, Opaque) and sparse.type_name == "torch.Tensor"


def test_importing_a_module_the_checker_has_not_loaded_is_explained():
    result = run("from __future__ import annotations\nimport numpy.typing as npt\nimport wave\n"
                 "def answer():\n    return 1\n", [Call(())])
    assert result.error.kind == "exception" and result.error.line == 3
    assert result.error.message.startswith("`import wave` at line 3 of answer.py imports a module")


def test_a_hang_names_the_call_and_keeps_the_results_before_it():
    source = "import time\ndef answer(i):\n    if i == 3:\n        time.sleep(60)\n    return i\n"
    result = run(source, [Call((i,)) for i in range(5)], limits=Limits(wall_s=0.3))
    assert result.error.kind == "timeout" and result.error.call_index == 3
    assert "during call 4" in result.error.message
    assert [r.value for r in result.results] == [0, 1, 2]


@pytest.mark.skipif(platform.machine() != "x86_64", reason="the seccomp filter is built for x86_64 only")
def test_the_seccomp_filter_refuses_signals_and_namespaces_but_not_threads_or_fork():
    """Threads and fork stay allowed by the filter, as root and as an ordinary user."""
    source = '''
import ctypes, os, threading


def answer():
    out = {}
    try:
        os.kill(os.getpid(), 0)
        out["kill"] = "sent"
    except OSError as exc:
        out["kill"] = type(exc).__name__
    libc = ctypes.CDLL(None, use_errno=True)
    out["unshare"] = (libc.unshare(0x40000000), ctypes.get_errno())
    seen = []
    thread = threading.Thread(target=lambda: seen.append(1))
    try:
        thread.start()
        thread.join()
        out["thread"] = seen
    except RuntimeError:  # can't start new thread: the ordinary user's pid namespace
        out["thread"] = "refused"
    pid = os.fork()
    if pid == 0:
        os._exit(7)
    out["fork"] = os.waitpid(pid, 0)[1] >> 8
    return out
'''
    result = run(source, [Call(())])
    (r,) = result.results
    # The answer's process is the first process of its own pid namespace, which may start threads.
    assert r.value == {"kill": "PermissionError", "unshare": (-1, 1), "thread": [1], "fork": 7}
