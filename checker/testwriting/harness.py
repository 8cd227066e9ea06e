"""What runs in the sandboxed child when a test file is graded: `run_tests(module)` calls every
`test_*` function the candidate's file defines (expanding `pytest.mark.parametrize`) and returns one
plain row per test: (name, outcome, message, line). Outcomes: "passed", "failed" (an assertion),
"error" (any other exception). Anything stronger than an exception (os._exit, a signal) ends the run,
and the grader then counts that implementation as neither caught nor passed.
"""
from __future__ import annotations

import types

MAX_TESTS = 200


def _line(exc: BaseException, filename: str) -> int:
    tb, line = exc.__traceback__, -1
    while tb is not None:
        if tb.tb_frame.f_code.co_filename == filename:
            line = tb.tb_lineno
        tb = tb.tb_next
    return line


def _text(exc: BaseException) -> str:
    try:
        text = str(exc)
    except BaseException:  # noqa: BLE001 - a hostile __str__
        text = ""
    return text[:400]


def run_tests(module) -> list:
    filename = getattr(module, "__file__", "")
    rows = []
    for name, fn in list(vars(module).items()):
        if not name.startswith("test") or not isinstance(fn, types.FunctionType):
            continue
        if fn.__code__.co_filename != filename:  # imported from elsewhere, not the candidate's test
            continue
        cases = getattr(fn, "_ppo_drill_params", None) or [((), "")]
        for args, label in cases:
            test = name + label
            if len(rows) >= MAX_TESTS:
                return rows
            if not args and fn.__code__.co_argcount:
                rows.append((test, "error", "a test must take no arguments (fixtures are not available; "
                             "use pytest.mark.parametrize or plain loops)", fn.__code__.co_firstlineno))
                continue
            try:
                fn(*args)
            except AssertionError as exc:
                rows.append((test, "failed", _text(exc), _line(exc, filename)))
            except Exception as exc:  # noqa: BLE001 - a test that raises has failed
                rows.append((test, "error", f"{type(exc).__name__}: {_text(exc)}", _line(exc, filename)))
            else:
                rows.append((test, "passed", "", -1))
    return rows
