"""Every screen uses the guarded `Header` (tui/widgets/textual_guards.py), never Textual's own:
Textual's header raises NoMatches from its title watchers when a screen opens and closes at once,
which ends the app. The scan reads every module under tui/ (imports of `Header` from any
`textual.widgets` module, and `textual.widgets.Header` spelled out), and every screen that shows a
header shows the guarded one."""
from __future__ import annotations

import ast
from pathlib import Path

TUI = Path(__file__).parents[1] / "tui"
GUARD = TUI / "widgets" / "textual_guards.py"


def textual_header_uses(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("textual.widgets"):
            found += [f"line {node.lineno}: from {node.module} import {a.name}" for a in node.names
                      if a.name in ("Header", "*")]
        elif isinstance(node, ast.Attribute) and node.attr == "Header" and isinstance(node.value, ast.Attribute) \
                and node.value.attr == "widgets":
            found.append(f"line {node.lineno}: ...widgets.Header")
    return found


def test_no_module_but_the_guard_uses_textuals_header():
    offenders = {str(p.relative_to(TUI)): uses for p in sorted(TUI.rglob("*.py"))
                 if p != GUARD and (uses := textual_header_uses(p))}
    assert offenders == {}, offenders
    assert textual_header_uses(GUARD), "the guard itself wraps Textual's Header"


def test_the_scan_sees_each_spelling(tmp_path):
    for text in ("from textual.widgets import Footer, Header\n", "from textual.widgets._header import Header\n",
                 "import textual.widgets\nx = textual.widgets.Header()\n", "from textual.widgets import *\n"):
        path = tmp_path / "screen.py"
        path.write_text(text)
        assert textual_header_uses(path), text
    path.write_text("from tui.widgets.textual_guards import Header\nfrom textual.widgets import Footer\n")
    assert textual_header_uses(path) == []


def test_every_screen_with_a_header_has_the_guarded_one():
    from tui.widgets import textual_guards

    screens = sorted((TUI / "screens").glob("*.py"))
    with_header = [p for p in screens if "Header(" in p.read_text(encoding="utf-8")]
    assert with_header, "the scan found no screen with a header"
    for path in with_header:
        module = __import__(f"tui.screens.{path.stem}", fromlist=["Header"])
        assert getattr(module, "Header", None) is textual_guards.Header, path.name
