"""Every screen uses the guarded `Header` (tui/widgets/textual_guards.py), never Textual's own:
Textual's header raises NoMatches from its title watchers when a screen opens and closes at once,
which ends the app. The scan reads every module under tui/ (imports of `Header` from any
`textual.widgets` module, and `textual.widgets.Header` spelled out), and every screen that shows a
header shows the guarded one.

The guards (and the highlight cache, tui/widgets/highlight_queries.py) patch private parts of Textual:
each one they name is there in the installed Textual, every private Textual import and override in the
app is among them, the pin in pyproject.toml is the tested range, and a part that is missing is named in
a warning (with the installed version and the tested range) while only its own guard is skipped."""
from __future__ import annotations

import ast
import inspect
import re
import warnings
from pathlib import Path

import pytest

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


# --- the private Textual parts the guards and the highlight cache patch (pinned in pyproject.toml) ---

def listed_private_apis() -> list[str]:
    from tui.widgets import footer, highlight_queries, textual_guards

    return [name for guard in textual_guards.PRIVATE_APIS.values() for name in guard.names] \
        + list(highlight_queries.PRIVATE_APIS) + list(footer.PRIVATE_APIS)


def test_every_private_textual_part_named_is_there():
    from tui.widgets import footer, highlight_queries, textual_guards

    assert len(listed_private_apis()) >= 9
    assert textual_guards.missing_private_apis() == []
    assert highlight_queries.missing_private_apis() == []
    assert footer.missing_private_apis() == []


def test_the_pin_is_the_tested_range_and_the_installed_textual_is_in_it():
    from importlib.metadata import version

    from packaging.specifiers import SpecifierSet

    from tui.widgets.textual_guards import TEXTUAL_TESTED

    pyproject = (Path(__file__).parents[1] / "pyproject.toml").read_text(encoding="utf-8")
    assert re.findall(r'^\s*"textual\[syntax\]([^"]*)"', pyproject, re.M) == [TEXTUAL_TESTED]
    assert version("textual") in SpecifierSet(TEXTUAL_TESTED)


def private_textual_imports(path: Path) -> set[str]:
    """`module:name` for each name imported from a private Textual module (one with a part starting `_`)."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
        if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "textual" \
                and any(part.startswith("_") for part in node.module.split(".")):
            found |= {f"{node.module}:{alias.name}" for alias in node.names}
        elif isinstance(node, ast.Import):
            found |= {f"{alias.name}:" for alias in node.names if alias.name.split(".")[0] == "textual"
                      and any(part.startswith("_") for part in alias.name.split("."))}
    return found


def test_every_private_textual_import_in_the_app_is_checked():
    listed = listed_private_apis()
    imports = {name: str(path.relative_to(TUI)) for path in sorted(TUI.rglob("*.py"))
               for name in private_textual_imports(path)}
    assert "textual.widgets._header:HeaderTitle" in imports, "the scan found the guard's own import"
    unchecked = {name: where for name, where in imports.items()
                 if not any(entry == name or entry.startswith(name.rstrip(":") + ".") or entry.startswith(name + ".")
                            for entry in listed)}
    assert unchecked == {}, f"private Textual imports no PRIVATE_APIS list names: {unchecked}"


def test_every_textual_method_the_guards_override_is_named():
    from tui.widgets import textual_guards

    listed = listed_private_apis()
    overrides = [f"{base.__module__}:{base.__qualname__}.{name}"
                 for cls in (textual_guards.CommandPalette, textual_guards.Header) for base in [cls.__mro__[1]]
                 for name, value in vars(cls).items()
                 if name.startswith("_") and not name.startswith("__") and inspect.isfunction(value)
                 and name in vars(base)]
    assert len(overrides) == 3, overrides
    assert [name for name in overrides if name not in listed] == []


def _textual_owner(cls: type, name: str) -> type | None:
    """The Textual class in `cls`'s MRO that defines `name`, when no class of the app's before it does."""
    for base in cls.__mro__:
        if name in vars(base):
            return base if base.__module__.split(".")[0] == "textual" else None
    return None


def test_every_private_textual_method_the_app_overrides_or_calls_is_named():
    """Any class of the app's that overrides a private Textual method, or calls one on itself (`self._x`,
    `super()._x`), names it in a checked list: a Textual release without it would otherwise silently stop
    calling the override, or fail on the call."""
    import importlib

    listed = listed_private_apis()
    used: dict[str, str] = {}
    for path in sorted(TUI.rglob("*.py")):
        if path.name == "__main__.py":  # runs the command line
            continue
        module = importlib.import_module(".".join(path.relative_to(TUI.parent).with_suffix("").parts))
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in [n for n in ast.walk(tree) if isinstance(n, ast.ClassDef)]:
            cls = getattr(module, node.name, None)
            if not isinstance(cls, type) or not any(b.__module__.startswith("textual") for b in cls.__mro__):
                continue
            names = {n.name for n in node.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))}
            names |= {n.attr for n in ast.walk(node) if isinstance(n, ast.Attribute)
                      and (isinstance(n.value, ast.Name) and n.value.id == "self"
                           or isinstance(n.value, ast.Call) and getattr(n.value.func, "id", "") == "super")}
            for name in names:
                if not name.startswith("_") or name.startswith("__"):
                    continue
                owner = _textual_owner(cls if name not in vars(cls) else cls.__mro__[1], name)
                if owner is not None and inspect.isroutine(vars(owner)[name]):
                    used[f"{owner.__module__}:{owner.__qualname__}.{name}"] = f"{path.name}: {cls.__name__}"
    assert "textual.widgets._text_area:TextArea._on_key" in used, "the scan found the editor's override"
    unlisted = {name: where for name, where in used.items() if name not in listed}
    assert unlisted == {}, f"private Textual methods no PRIVATE_APIS list names: {unlisted}"


def test_the_app_installs_the_checked_guards_at_start_up():
    import tui.app  # noqa: F401 - imported by `ppo-drill` before the app opens
    from tui.widgets import highlight_queries, textual_guards

    assert textual_guards._installed and highlight_queries._installed


@pytest.fixture
def guards(monkeypatch):
    """textual_guards, not yet installed; whatever install() patches or removes is put back afterwards."""
    import textual.app as textual_app
    from textual.widgets import OptionList

    from tui.widgets import code_editor, textual_guards

    monkeypatch.setattr(textual_guards, "_installed", False)
    monkeypatch.setattr(code_editor, "INDENT_KEYS", None)  # neither on nor off until install() says
    monkeypatch.setattr(OptionList, "_move_page", inspect.unwrap(OptionList._move_page))  # Textual's own
    monkeypatch.setattr(textual_app, "CommandPalette", textual_app.CommandPalette)
    for cls, names in ((textual_guards.CommandPalette, ("_watch__list_visible", "_start_no_matches_countdown")),
                       (textual_guards.Header, ("_on_mount",))):
        for name in names:
            monkeypatch.setattr(cls, name, vars(cls)[name])
    return textual_guards


def guards_in_place(textual_guards) -> dict[str, bool]:
    import textual.app as textual_app
    from textual.widgets import OptionList

    return {"page keys": hasattr(getattr(OptionList, "_move_page", None), "__wrapped__"),
            "closed palette": {"_watch__list_visible", "_start_no_matches_countdown"}
            <= set(vars(textual_guards.CommandPalette)),
            "Textual's own palettes": getattr(textual_app, "CommandPalette", None) is textual_guards.CommandPalette,
            "closed screens": hasattr(textual_app.App, "_handle_exception"),  # Textual calls the app's override
            "editor keys": textual_guards.code_editor.INDENT_KEYS is True,
            "header": "_on_mount" in vars(textual_guards.Header)}


def test_install_puts_every_guard_in_place(guards):
    from textual.widgets import OptionList

    from checker.private_apis import PrivateApiWarning

    textuals = OptionList._move_page
    assert guards_in_place(guards)["page keys"] is False
    with warnings.catch_warnings():
        warnings.simplefilter("error", PrivateApiWarning)
        guards.install()
        guards.install()  # idempotent: wrapped once
    assert guards_in_place(guards) == dict.fromkeys(guards.PRIVATE_APIS, True)
    assert OptionList._move_page.__wrapped__ is textuals


@pytest.mark.parametrize("owner, attr, guard", [
    ("textual.widgets._option_list:OptionList", "_index_to_line", "page keys"),
    ("textual.widgets._option_list:OptionList", "_move_page", "page keys"),
    ("textual.command:CommandPalette", "_start_no_matches_countdown", "closed palette"),
    ("textual.command:CommandPalette", "_watch__list_visible", "closed palette"),
    ("textual.app:", "CommandPalette", "Textual's own palettes"),
    ("textual.widgets._header:", "HeaderTitle", "header"),
    ("textual.widgets._header:Header", "_on_mount", "header"),
    ("textual.app:App", "_handle_exception", "closed screens"),
    ("textual.widgets._text_area:TextArea", "_on_key", "editor keys"),
    ("textual.widgets._text_area:TextArea", "_replace_via_keyboard", "editor keys"),
])
def test_a_missing_private_part_is_named_and_only_its_guard_skipped(guards, monkeypatch, owner, attr, guard):
    import importlib
    from importlib.metadata import version

    from checker.private_apis import PrivateApiWarning

    module_name, _, class_name = owner.partition(":")
    module = importlib.import_module(module_name)
    target = getattr(module, class_name) if class_name else module
    monkeypatch.delattr(target, attr)
    missing = f"{module_name}.{class_name + '.' if class_name else ''}{attr}"
    assert guards.missing_private_apis() == [missing]

    with pytest.warns(PrivateApiWarning) as caught:
        guards.install()
    assert len(caught) == 1, [str(w.message) for w in caught]
    message = str(caught[0].message)
    assert missing in message and f"textual {version('textual')}" in message, message
    assert guards.TEXTUAL_TESTED in message and "guard is skipped" in message, message
    assert guards_in_place(guards) == {name: name != guard for name in guards.PRIVATE_APIS}


def test_a_skipped_header_guard_leaves_textuals_own_title_updates(guards, monkeypatch):
    import textual.widgets._header as textual_header

    monkeypatch.delattr(textual_header, "HeaderTitle")
    with pytest.warns(Warning):
        guards.install()
    assert guards.Header._on_mount is textual_header.Header._on_mount


def test_a_moved_syntax_module_skips_the_highlight_cache(monkeypatch):
    import sys
    from importlib.metadata import version

    from textual.document._syntax_aware_document import SyntaxAwareDocument

    from checker.private_apis import PrivateApiWarning
    from tui.widgets import highlight_queries

    before = SyntaxAwareDocument.prepare_query
    monkeypatch.setattr(highlight_queries, "_installed", False)
    monkeypatch.setattr(SyntaxAwareDocument, "prepare_query", before)
    monkeypatch.setitem(sys.modules, "textual.document._syntax_aware_document", None)  # import fails
    assert highlight_queries.missing_private_apis() == ["textual.document._syntax_aware_document"]
    with pytest.warns(PrivateApiWarning, match="highlight query cache is skipped") as caught:
        highlight_queries.install()
    message = str(caught[0].message)
    assert "textual.document._syntax_aware_document" in message and f"textual {version('textual')}" in message
    assert SyntaxAwareDocument.prepare_query is before and not highlight_queries._installed
