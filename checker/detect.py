"""Which drill and framework a pasted answer is for: the function it defines and the library it uses."""
from __future__ import annotations

import ast
import re

from drills import load_drills

#: The first line of a read-the-run answer sheet: `# <title> (<drill id>)`.
_RUN_SHEET = re.compile(r"^#.*\(([a-z0-9-]+)\)\s*$", re.M)


class DetectError(ValueError):
    """The drill or framework could not be inferred; the message says what to pass."""


def defined_functions(source: str) -> list[str]:
    try:
        tree = ast.parse(source)
        return [n.name for n in tree.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]
    except SyntaxError:  # still find `def name(` so a syntax error is reported against the right drill
        return re.findall(r"^\s*def\s+([A-Za-z_]\w*)\s*\(", source, re.M)


def detect_framework(source: str) -> str:
    torch_uses = len(re.findall(r"^\s*(?:import|from)\s+torch\b", source, re.M))
    numpy_uses = len(re.findall(r"^\s*(?:import|from)\s+numpy\b", source, re.M))
    if torch_uses and not numpy_uses:
        return "torch"
    if numpy_uses and not torch_uses:
        return "numpy"
    if torch_uses and numpy_uses:
        return "torch" if source.count("torch.") >= source.count("np.") + source.count("numpy.") else "numpy"
    return "numpy"


def detect(source: str, drill: str | None = None, framework: str | None = None) -> tuple[str, str]:
    """(drill id, framework). A given drill or framework wins; otherwise inferred from the code."""
    drills = load_drills()
    if drill is None and (sheet := _RUN_SHEET.search("\n".join(source.splitlines()[:3]))):
        if sheet.group(1) in {d.id for d in drills if d.kind == "run"}:
            drill = sheet.group(1)  # a read-the-run answer sheet: its first line names the drill
    if drill is None:
        names = defined_functions(source)
        core = [d for d in drills if d.kind == "core"]
        found = [d.id for d in core if d.function in names]
        if not found and any(n.startswith("test") for n in names):
            # A test file: it calls a drill's function without defining it.
            found = [d.id for d in drills if d.kind == "test" and re.search(rf"\b{d.function}\b", source)]
        if not found:
            known = ", ".join(sorted({d.function for d in core}))
            raise DetectError(f"no drill function found in the code (expected one of: {known}); "
                              "name it as the drill asks or pass --drill ID")
        if len(found) > 1:
            raise DetectError(f"the code defines functions of several drills ({', '.join(found)}); pass --drill ID")
        drill = found[0]
    by_id = {d.id: d for d in drills}
    if drill not in by_id:
        raise DetectError(f"unknown drill {drill!r}; see `ppo-drill drills`")
    frameworks = by_id[drill].frameworks
    if framework is None:
        framework = frameworks[0] if len(frameworks) == 1 else detect_framework(source)
    if framework not in frameworks:
        raise DetectError(f"drill {drill!r} has no {framework} version (it has: {', '.join(frameworks)})")
    return drill, framework
