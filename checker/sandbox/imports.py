"""The modules an answer may import in the sandbox: `ALLOWED_IMPORTS`, one list for the whole project.

The child cannot open files (RLIMIT_NOFILE and the seccomp filter), so an `import` works only for a
module the trusted process has already loaded. `prepare_parent` loads every module listed here, the
sandbox's refusal message names them (`allowed_imports_text`), docs/isolation.md lists them, and a
test imports each one in a right answer in a fresh process (nothing else loaded that could hide a
missing preload) and checks the three agree.

Beyond the imports themselves, a few things those modules do on first use open files lazily; the
parent does them once (`prepare_parent`'s warm-up) or the child makes them unnecessary (a
`torch.optim` optimiser's step imports torch's compiler, which the child replaces with an eager-only
stand-in: see `child.py`).
"""
from __future__ import annotations

#: group -> modules, in the order the message and the docs name them
ALLOWED_IMPORTS: dict[str, tuple[str, ...]] = {
    "numpy": ("numpy", "numpy.linalg", "numpy.random", "numpy.fft", "numpy.ma", "numpy.polynomial",
              "numpy.testing", "numpy.typing"),
    "torch": ("torch", "torch.nn", "torch.nn.functional", "torch.nn.init", "torch.nn.utils",
              "torch.distributions", "torch.autograd", "torch.optim", "torch.optim.lr_scheduler",
              "torch.testing"),
    "the standard library": ("__future__", "abc", "bisect", "cmath", "collections", "collections.abc",
                             "contextlib", "copy", "dataclasses", "decimal", "enum", "fractions",
                             "functools", "heapq", "itertools", "json", "math", "numbers", "operator",
                             "random", "re", "statistics", "string", "types", "typing", "warnings"),
}

#: What a test file (test-writing drills) may import besides: the implementation under test, and the
#: part of pytest the sandbox provides (approx, raises, mark.parametrize).
TEST_FILE_IMPORTS: tuple[str, ...] = ("solution", "pytest")


def allowed_imports() -> tuple[str, ...]:
    """Every module of `ALLOWED_IMPORTS`, flattened in order."""
    return tuple(name for names in ALLOWED_IMPORTS.values() for name in names)


def allowed_imports_text() -> str:
    """The list in words, for a message: "numpy (numpy.linalg, ...), torch (...) and, from the
    standard library, __future__, abc, ..."."""
    parts = []
    for group, names in ALLOWED_IMPORTS.items():
        if group.startswith("the "):
            parts.append(f"from {group}: " + ", ".join(names))
        else:
            parts.append(f"{names[0]} (with " + ", ".join(names[1:]) + ")")
    return "; ".join(parts)


__all__ = ["ALLOWED_IMPORTS", "TEST_FILE_IMPORTS", "allowed_imports", "allowed_imports_text"]
