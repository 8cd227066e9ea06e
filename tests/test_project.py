"""The project's shape: top-level layout, one-way layering between the packages and between the rooms
inside `cards/`, a light `ppo-drill --help`, and the README's test command being exactly what CI runs."""
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


# the rooms of `cards/` (its subpackages) -> the rooms and modules of `cards/` each must never import:
# the plan uses the schedule, the schedule uses the decks and the progress store, and the progress
# store and the decks use nothing of the others; `cards.cli` (with `cards.review_cli`, the terminal review
# loops it runs) is the face over all of them
CARDS_ROOMS = {
    "progress": {"decks", "schedule", "plan", "cli", "review_cli"},
    "decks": {"progress", "schedule", "plan", "cli", "review_cli"},
    "schedule": {"plan", "cli", "review_cli"},
    "plan": {"cli", "review_cli"},
}
CARDS_TOP_MODULES = {"__init__.py", "cli.py", "review_cli.py"}

# module -> modules it must never import: scoring reads a finished session, the session knows nothing
# of scoring (nor of `cards.plan.mock`, which imports the scorer)
MODULE_FORBIDDEN = {
    "cards.plan.mock_session": {"cards.plan.mock_score", "cards.plan.mock"},
}


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imported_names(path: Path, module: str | None = None) -> set[str]:
    """Every dotted name a file imports, at any depth (lazy imports in functions count too); for
    `from a.b import c` both `a.b` and `a.b.c` (c may be a module); relative imports resolved
    against `module` (by default the file's own module name)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    module = module or module_name(path)
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                base = ".".join([*anchor, base] if base else anchor)
            names.add(base)
            names.update(f"{base}.{alias.name}" for alias in node.names)
    return names


def imported_modules(path: Path) -> set[str]:
    return {name.split(".")[0] for name in imported_names(path)}


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


def test_cards_is_made_of_rooms():
    cards = ROOT / "cards"
    flat = sorted(p.name for p in cards.glob("*.py") if p.name not in CARDS_TOP_MODULES)
    assert not flat, f"cards/ keeps its code in its rooms ({', '.join(sorted(CARDS_ROOMS))}), not in {flat}"
    for room in CARDS_ROOMS:
        assert (cards / room / "__init__.py").exists(), f"cards/{room} must be a package"
    rooms = {p.parent.name for p in cards.rglob("*.py") if p.parent != cards}
    assert rooms <= set(CARDS_ROOMS), f"rooms missing from the layering rules: {sorted(rooms - set(CARDS_ROOMS))}"


@pytest.mark.parametrize("room", sorted(CARDS_ROOMS))
def test_rooms_inside_cards_depend_one_way(room):
    offenders = []
    for path in sorted((ROOT / "cards" / room).rglob("*.py")):
        for name in sorted(imported_names(path)):
            parts = name.split(".")
            if parts[0] == "cards" and len(parts) > 1 and parts[1] in CARDS_ROOMS[room]:
                offenders.append(f"{path.relative_to(ROOT)} imports {name}")
    assert not offenders, f"cards/{room} must not use {sorted(CARDS_ROOMS[room])}:\n" + "\n".join(offenders)


@pytest.mark.parametrize("module", sorted(MODULE_FORBIDDEN))
def test_untied_modules_stay_untied(module):
    path = ROOT.joinpath(*module.split(".")).with_suffix(".py")
    bad = {name for name in imported_names(path)
           if any(name == f or name.startswith(f + ".") for f in MODULE_FORBIDDEN[module])}
    assert not bad, f"{module} imports {sorted(bad)}"


# The start-up boundaries: the only modules whose imports wait until a function of theirs runs, and why.
LAZY_BOUNDARIES = {
    "tui/cli.py": "`ppo-drill --help` loads no sub-command's libraries: each handler imports what it runs",
    "tui/commands.py": "sub-commands registered by `ppo-drill --help`",
    "tui/mock_command.py": "sub-commands registered by `ppo-drill --help`",
    "checker/cli.py": "sub-commands registered by `ppo-drill --help`; `check` and `watch` start the sandbox's "
                      "zygote before the drills or the engine load",
    "cards/cli.py": "sub-commands registered by `ppo-drill --help`",
    "cards/plan/cli.py": "sub-commands registered by `ppo-drill --help`",
    "tui/app.py": "the first paint: each screen but the dashboard, and the checker's client, load when first used",
    "checker/answer_check.py": "imported by the command line before `check` starts the zygote, which must be "
                               "forked before the drills or the engine load",
    "checker/service.py": "the app's side (the client) stays light; the worker starts its zygote before the "
                          "engine loads",
    "checker/report.py": "the app reads reports from its first screen: not the sandbox package (numpy)",
    "checker/private_apis.py": "checked at the app's start: importlib.metadata only when a check runs",
    "tui/widgets/highlight_queries.py": "a private Textual module, imported only once its attributes are checked",
}
# The sandbox's own processes (the zygote, the answer's child) load only what an answer may use.
LAZY_BOUNDARY_FOLDERS = ("checker/sandbox/", "checker/handouts/")
# Libraries imported where they are used, wherever that is, and why.
ON_DEMAND = {
    "hypothesis": "draws examples; a check whose examples are cached on disk never loads it",
    "watchfiles": "`ppo-drill watch` only",
    "genanki": "the Anki export only",
    "markdown_it": "the Anki export only",
}


def _function_imports(path: Path) -> list[tuple[int, str]]:
    """(line, the top-level module imported) of every import inside a function of `path`, in line order."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for sub in ast.walk(node):
                if isinstance(sub, ast.Import):
                    found.update((sub.lineno, a.name.split(".")[0]) for a in sub.names)
                elif isinstance(sub, ast.ImportFrom) and not sub.level:
                    found.add((sub.lineno, (sub.module or "").split(".")[0]))
    return sorted(found)


def test_imports_wait_only_at_the_start_up_boundaries():
    """Elsewhere every import is at the top of its module, so the import graph (and the layering tests above)
    reads off the top of each file; a boundary says why it waits."""
    offenders = []
    for package in PACKAGES:
        for path in package_sources(package):
            rel = path.relative_to(ROOT).as_posix()
            if rel in LAZY_BOUNDARIES or rel.startswith(LAZY_BOUNDARY_FOLDERS):
                continue
            offenders += [f"{rel}:{line} imports {module} inside a function"
                          for line, module in _function_imports(path) if module not in ON_DEMAND]
    assert not offenders, "\n".join(offenders)
    assert all((ROOT / rel).is_file() for rel in LAZY_BOUNDARIES), "a boundary listed here no longer exists"


def test_the_function_import_scan_sees_methods_and_nested_functions(tmp_path):
    probe = tmp_path / "probe.py"
    probe.write_text("import os\n\ndef f():\n    def g():\n        import numpy.linalg\n\n"
                     "class C:\n    def m(self):\n        from cards.plan import stats\n", encoding="utf-8")
    assert _function_imports(probe) == [(5, "numpy"), (9, "cards")]


def test_import_scanner_sees_lazy_relative_and_from_imports(tmp_path):
    """The layering rules are only as good as the scanner: it must not miss an import."""
    probe = tmp_path / "probe.py"
    probe.write_text("import cards.plan.mock_score\n"
                     "def f():\n    from cards.plan import mock\n    from . import stats\n"
                     "    from ..schedule import scheduler\n", encoding="utf-8")
    names = imported_names(probe, module="cards.plan.mock_session")
    assert {"cards.plan.mock_score", "cards.plan.mock", "cards.plan.stats", "cards.schedule.scheduler"} <= names


@pytest.mark.parametrize("package", PACKAGES)
def test_every_module_says_what_it_holds(package):
    bare = [str(p.relative_to(ROOT)) for p in package_sources(package)
            if len((ast.get_docstring(ast.parse(p.read_text(encoding="utf-8"))) or "").split()) < 8]
    assert not bare, "modules without a docstring saying what they hold and why: " + ", ".join(bare)


def test_architecture_page_names_real_paths_and_is_linked():
    page = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    named = {m for m in re.findall(r"`([\w./-]+/[\w./-]*)`", page) if not m.startswith("$")}
    missing = sorted(m for m in named if not (ROOT / m).exists())
    assert not missing, f"docs/architecture.md names paths that do not exist: {missing}"
    for room in CARDS_ROOMS:
        assert f"{room}/" in page, f"docs/architecture.md must describe cards/{room}/"
    assert "docs/architecture.md" in (ROOT / "README.md").read_text(encoding="utf-8")


def _screen_classes(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    return [node.name for node in tree.body if isinstance(node, ast.ClassDef)
            and any((b.attr if isinstance(b, ast.Attribute) else getattr(b, "id", "")).endswith("Screen")
                    or isinstance(b, ast.Subscript) and getattr(b.value, "id", "").endswith("Screen")
                    for b in node.bases)]


def test_screens_import_each_other_in_one_direction_only():
    """No two screen modules import each other, directly or through others: a screen opens another through
    the app (`PpoDrillApp.open_drill`, `open_cards`, `open_screen`), so the screens' imports form no cycle."""
    screens = {module_name(p): p for p in sorted((ROOT / "tui" / "screens").glob("*.py")) if p.name != "__init__.py"}
    graph = {m: {n for n in imported_names(p) if n in screens and n != m} for m, p in screens.items()}

    def reaches(start: str, goal: str, seen: set[str]) -> bool:
        for nxt in graph[start]:
            if nxt == goal or (nxt not in seen and (seen.add(nxt) or reaches(nxt, goal, seen))):
                return True
        return False

    cycles = sorted(m for m in graph if reaches(m, m, set()))
    assert not cycles, f"screen modules in an import cycle: {cycles}"


def test_one_screen_per_screen_module_and_no_screens_among_widgets():
    crowded = {p.name: names for p in sorted((ROOT / "tui" / "screens").glob("*.py"))
               if len(names := _screen_classes(p)) > 1}
    assert not crowded, f"one screen's wiring per module in tui/screens/: {crowded}"
    stray = {p.name: names for p in sorted((ROOT / "tui" / "widgets").glob("*.py")) if (names := _screen_classes(p))}
    assert not stray, f"tui/widgets/ holds widgets, not screens: {stray}"
    assert _screen_classes(ROOT / "tui" / "screens" / "confirm.py") == ["ConfirmScreen"]  # the scanner sees one


def _run(code: str) -> str:
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    return out.stdout


def test_core_packages_import_without_textual():
    out = _run("import sys, checker, cards, drills, checker.cli, cards.cli, cards.progress.paths\n"
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
