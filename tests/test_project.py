"""The project's shape: top-level layout, one-way layering, a light `ppo-drill --help`, and the README's
test command being exactly what CI runs."""
from __future__ import annotations

import ast
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("drills", "cards", "checker", "tui")

# package -> top-level modules it must never import
FORBIDDEN = {
    "checker": {"textual", "tui", "cards", "textual_plotext"},
    "cards": {"textual", "tui", "torch", "checker", "textual_plotext"},
    "drills": {"textual", "tui", "torch", "checker", "cards", "textual_plotext"},
}


def imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module.split(".")[0])
    return names


def package_sources(package: str):
    for path in sorted((ROOT / package).rglob("*.py")):
        # drill content (starters, solutions, catalogued mistakes) is candidate-side code, not the package
        if package == "drills" and path.parent != ROOT / "drills":
            continue
        yield path


def test_top_level_layout():
    for name in (*PACKAGES, "tests", "pyproject.toml", "README.md", ".ci"):
        assert (ROOT / name).exists(), f"{name} is missing from the repository root"
    for package in PACKAGES:
        assert (ROOT / package / "__init__.py").exists(), f"{package} must be an importable package"


@pytest.mark.parametrize("package", sorted(FORBIDDEN))
def test_dependencies_flow_one_way(package):
    offenders = []
    for path in package_sources(package):
        bad = imported_modules(path) & FORBIDDEN[package]
        if bad:
            offenders.append(f"{path.relative_to(ROOT)} imports {sorted(bad)}")
    assert not offenders, "layering broken:\n" + "\n".join(offenders)


def _run(code: str) -> str:
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    return out.stdout


def test_core_packages_import_without_textual():
    out = _run("import sys, checker, cards, drills, checker.cli, cards.cli, cards.paths\n"
               "print('textual' in sys.modules, 'tui' in sys.modules)")
    assert out.split() == ["False", "False"]


@pytest.mark.parametrize("flag", ["--help", "--version"])
def test_help_and_version_answer_without_importing_heavy_modules(flag):
    code = ("import sys, io, contextlib\nfrom tui.cli import main\nbuf = io.StringIO()\n"
            "with contextlib.redirect_stdout(buf):\n    try:\n"
            f"        main([{flag!r}])\n"
            "    except SystemExit as e:\n        assert e.code in (0, None)\n"
            "print(buf.getvalue())\n"
            "print('HEAVY', 'torch' in sys.modules, 'textual' in sys.modules, 'numpy' in sys.modules)")
    out = _run(code)
    assert "ppo-drill" in out
    assert "HEAVY False False False" in out


def readme_commands() -> list[str]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    block = re.search(r"<!-- setup -->\s*```(?:sh|bash|console)?\n(.*?)```", text, re.S)
    assert block, "README must hold the set-up commands in a fenced block after <!-- setup -->"
    return [line.strip() for line in block.group(1).splitlines() if line.strip() and not line.startswith("#")]


def test_readme_has_exactly_two_setup_commands_and_ci_runs_the_test_one():
    commands = readme_commands()
    assert len(commands) == 2, commands
    app, tests = commands
    assert app.endswith(".venv/bin/ppo-drill") and "pytest" in tests
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert tests in ci, "the README's test command must appear word for word in .ci/run"
