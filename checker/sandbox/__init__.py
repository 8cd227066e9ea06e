"""Run a candidate's answer in isolation: `run_candidate(source, function, calls, limits=...)`.

The trusted process (checker worker or CLI) calls `prepare_parent()` first thing, which starts its zygote
(a process holding numpy, torch and the sandbox, and nothing of the checker's content), then
`run_candidate` per check. Each run has the zygote fork a child that confines itself (own session and pid
namespace, no network, rlimits, an unused uid when the parent is root, no inherited descriptors, a seccomp
filter), loads `source` as a module compiled with `filename`, calls `function` once per `Call` on its own
copies of the inputs, and streams results back as JSON plus raw array bytes (never pickles). The parent
enforces the wall-clock limit and the output cap, kills every process the child started, and classifies
the ending.

Knows nothing about drills: the caller decides what the values mean. See docs/isolation.md for
what this does and does not protect against.
"""
from checker.sandbox.model import (
    ERROR_KINDS,
    Call,
    CallError,
    CallResult,
    Limits,
    Opaque,
    ReturnedArray,
    RunResult,
    SandboxError,
)
from checker.sandbox.runner import (
    discard_spare,
    fork_spare,
    prepare_parent,
    run_candidate,
    settle,
    spare_age,
)

__all__ = [
    "ERROR_KINDS", "Call", "CallError", "CallResult", "Limits", "Opaque", "ReturnedArray",
    "RunResult", "SandboxError", "discard_spare", "fork_spare", "prepare_parent",
    "run_candidate", "settle", "spare_age",
]
