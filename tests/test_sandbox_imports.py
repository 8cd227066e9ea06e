"""What an answer may import: every module of `ALLOWED_IMPORTS` really imports (and its lazily opened
parts work) in right answers checked in a fresh checker process, where nothing pytest loaded can hide a
missing preload; docs/isolation.md's list, the code's list and the refusal message agree."""
from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

from checker.sandbox import Call, Limits, run_candidate
from checker.sandbox.imports import ALLOWED_IMPORTS, TEST_FILE_IMPORTS, allowed_imports
from checker.sandbox.parent import PRELOADED_MODULES

ROOT = Path(__file__).parents[1]
STDLIB = ALLOWED_IMPORTS["the standard library"]

#: Module-level code that uses what each group's modules open lazily on first use.
USES = {
    "numpy": """
_masked = numpy.ma.masked_array([1.0, 2.0], mask=[False, True]).mean()
numpy.testing.assert_allclose(numpy.fft.irfft(numpy.fft.rfft([1.0, 2.0, 3.0, 4.0]), 4), [1, 2, 3, 4])
assert numpy.polynomial.Polynomial([1, 2])(3) == 7 and numpy.linalg.norm([3.0, 4.0]) == 5.0
_noise = numpy.random.default_rng(0).normal(size=3) + numpy.random.rand(3)
_shape: numpy.typing.NDArray[numpy.float64] = numpy.zeros(2)
""",
    "torch": """
torch.manual_seed(0)
_model = torch.nn.Sequential(torch.nn.Linear(3, 4), torch.nn.Tanh(), torch.nn.Linear(4, 2))
torch.nn.init.orthogonal_(_model[0].weight)
for _opt_cls in (torch.optim.Adam, torch.optim.AdamW, torch.optim.SGD):
    _opt = _opt_cls(_model.parameters(), lr=1e-3)
    _sched = torch.optim.lr_scheduler.LambdaLR(_opt, lambda epoch: 0.99 ** epoch)
    _dist = torch.distributions.Categorical(logits=_model(torch.randn(5, 3)))
    _loss = -(_dist.log_prob(_dist.sample()) + 0.01 * _dist.entropy()).mean()
    _opt.zero_grad()
    _loss.backward()
    torch.nn.utils.clip_grad_norm_(_model.parameters(), 0.5)
    _opt.step()
    _sched.step()
_x = torch.ones(2, requires_grad=True)
torch.testing.assert_close(torch.autograd.grad((_x ** 2).sum(), _x)[0], torch.full((2,), 2.0))
torch.testing.assert_close(torch.nn.functional.softmax(torch.zeros(2), -1), torch.full((2,), 0.5))
""",
    "the standard library": """
assert statistics.fmean([1, 2]) == 1.5 and fractions.Fraction(1, 3) * 3 == 1 and math.isclose(cmath.phase(1j), math.pi / 2)
assert str(decimal.Decimal("1.5") + 1) == "2.5" and json.loads(json.dumps({"a": [1]})) == {"a": [1]}
assert re.compile("a+").fullmatch("aa") and random.Random(0).random() < 1 and heapq.nsmallest(1, [3, 1]) == [1]
assert list(itertools.accumulate([1, 2])) == [1, 3] and functools.reduce(operator.add, [1, 2]) == 3
assert bisect.bisect([1, 3], 2) == 1 and copy.deepcopy([[1]]) == [[1]] and string.ascii_lowercase[0] == "a"
assert collections.Counter("aab")["a"] == 2 and isinstance([], collections.abc.Sequence)
assert dataclasses.is_dataclass(dataclasses.make_dataclass("P", ["x"])) and enum.Enum("E", "A").A.value == 1
assert isinstance(1, numbers.Number) and isinstance(abc.ABC, type) and types.SimpleNamespace(a=1).a == 1
with contextlib.suppress(ValueError), warnings.catch_warnings():
    warnings.simplefilter("ignore")
    warnings.warn("checked")
_hint: typing.Optional[int] = None
""",
}


def header(groups: list[str]) -> str:
    """`from __future__ import annotations`, an import of every module of `groups`, then their uses."""
    names = [n for g in groups for n in ALLOWED_IMPORTS[g] if n != "__future__"]
    return ("from __future__ import annotations\n" + "".join(f"import {n}\n" for n in names)
            + "".join(USES[g] for g in groups) + "\n\n")


def without_future(source: str) -> str:
    return re.sub(r"^from __future__ import .*\n", "", source, flags=re.M)


FRESH_CHECKER = r"""
import json, sys
from checker.engine import Checker
from checker.sandbox import prepare_parent
from checker.sandbox.imports import allowed_imports
from drills import get_drill

prepare_parent()
out = {"not_loaded": [m for m in allowed_imports() if m not in sys.modules]}
checker = Checker()
for name, (source, drill, framework) in json.loads(sys.stdin.read()).items():
    report = checker.check(source, drill=drill, framework=framework)
    out[name] = {"passed": report.passed, "error": report.error and report.error.message, "stdout": report.stdout[-2000:],
                 "failed": [c.message for c in report.checks if not c.passed][:3]}
print(json.dumps(out))
"""


def test_every_allowed_module_imports_and_works_in_right_answers_of_a_fresh_checker():
    from drills import get_drill

    gae, test_gae = get_drill("gae"), get_drill("test-gae")
    answers = {
        "gae-numpy": (header(["the standard library", "numpy"]) + without_future(gae.solution("numpy")),
                      "gae", "numpy"),
        "gae-torch": (header(["the standard library", "numpy", "torch"]) + without_future(gae.solution("torch")),
                      "gae", "torch"),
        "test-gae-numpy": (header(["the standard library", "numpy", "torch"])
                           + without_future(test_gae.solution("numpy")), "test-gae", "numpy"),
    }
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST", "COV_"))}
    proc = subprocess.run([sys.executable, "-c", FRESH_CHECKER], input=json.dumps(answers), cwd=ROOT,
                          capture_output=True, text=True, timeout=300, env=env)
    assert proc.returncode == 0, proc.stderr[-3000:]
    out = json.loads(proc.stdout.strip().splitlines()[-1])
    assert out.pop("not_loaded") == [], "prepare_parent did not load these"
    for name, result in out.items():
        assert result["passed"], (name, result)
        assert "Traceback" not in result["stdout"] and "error" not in result["stdout"].lower(), (name, result)


def test_the_preloads_are_the_allowed_list():
    assert PRELOADED_MODULES == allowed_imports()
    assert len(set(allowed_imports())) == len(allowed_imports())


def test_the_docs_list_is_the_allowed_list():
    text = (ROOT / "docs" / "isolation.md").read_text(encoding="utf-8")
    section = text.split("## What an answer may import", 1)[1].split("\n## ", 1)[0]
    listed = {}
    for line in section.splitlines():
        match = re.match(r"- ([^:]+): (.*)", line)
        if match:
            listed[match.group(1)] = tuple(re.findall(r"`([\w.]+)`", match.group(2).split(" (")[0]))
    test_file = listed.pop("a test file (test-writing drills), also")
    assert listed == ALLOWED_IMPORTS
    assert test_file == TEST_FILE_IMPORTS


def test_the_refusal_message_names_exactly_the_allowed_modules():
    result = run_candidate("import numpy\nimport wave\ndef answer():\n    return 1\n", "answer", [Call()],
                           limits=Limits(wall_s=10))
    message = result.error.message
    assert message.startswith("`import wave` at line 2 of answer.py imports a module the checker has not loaded")
    named = message.split("only what is already loaded:", 1)[1].split("(and a test file:", 1)[0]
    assert set(re.findall(r"[a-z_][\w.]*[a-z_]", named)) - {"with", "from", "the", "standard", "library"} \
        == set(allowed_imports())
    files = message.split("(and a test file:", 1)[1].split(")", 1)[0]
    assert tuple(n.strip() for n in files.split(",")) == TEST_FILE_IMPORTS


def test_torch_compile_is_refused_with_a_reason_rather_than_a_file_error():
    source = "import torch\ndef answer():\n    return torch.compile(lambda x: x + 1)(torch.ones(1))\n"
    result = run_candidate(source, "answer", [Call()], limits=Limits(wall_s=20))
    assert result.error.kind == "exception" and "torch.compile cannot run" in result.error.message, result.error


def test_torch_compile_is_refused_even_where_the_checker_process_loaded_the_compiler():
    """An optimiser step in the checker's own process (a test's, a library's) loads torch._dynamo halfway;
    the child still refuses torch.compile with its reason instead of failing on a file it may not open."""
    import torch

    p = torch.zeros(1, requires_grad=True)
    (p * p).sum().backward()
    torch.optim.SGD([p], lr=0.1).step()
    assert "torch._dynamo" in sys.modules
    test_torch_compile_is_refused_with_a_reason_rather_than_a_file_error()


def test_an_optimiser_step_in_the_checkers_process_does_not_load_the_real_compiler():
    """The catalogue runs optimiser loops in the checker's own process: after `prepare_parent` they use the
    eager-only stand-in for torch._dynamo (seconds and ~70 MB less for a cold check of the update-loop
    drill), and step exactly as with the real one."""
    import subprocess

    code = ("import sys\nsys.path.insert(0, '.')\nfrom checker.sandbox import prepare_parent\nprepare_parent()\n"
            "import torch\np = torch.ones(2, requires_grad=True)\nopt = torch.optim.Adam([p], lr=0.1)\n"
            "(p * p).sum().backward()\nopt.step()\n"
            "print('torch._dynamo.convert_frame' in sys.modules, [round(x, 6) for x in p.tolist()])\n")
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=root, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split(None, 1) == ["False", "[0.9, 0.9]\n"]
