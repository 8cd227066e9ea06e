"""Code editors share one compiled highlight query per language (tui/widgets/highlight_queries.py),
and an editor opened after another highlights its code exactly as a first one does."""
from __future__ import annotations

import pytest
from textual.app import App, ComposeResult
from textual.widgets import TextArea

import tui.app  # noqa: F401 - installs the shared queries, as running the app does
from tui.widgets import highlight_queries

pytestmark = pytest.mark.anyio
CODE = "def f(x):\n    # a comment\n    return x + 1.0  # and 'text'\n"


@pytest.fixture
def anyio_backend():
    return "asyncio"


def spans(editor: TextArea) -> dict[int, list]:
    """The highlighted spans per line, for the lines that have any."""
    return {line: sorted(found) for line, found in editor._highlights.items() if found}


class Editors(App):
    def compose(self) -> ComposeResult:
        yield TextArea.code_editor(CODE, language="python", id="a")
        yield TextArea.code_editor(CODE, language="python", id="b")


async def test_two_editors_share_the_query_and_highlight_the_same():
    app = Editors()
    async with app.run_test(size=(60, 12)) as pilot:
        await pilot.pause()
        a, b = app.query_one("#a", TextArea), app.query_one("#b", TextArea)
        assert a._highlight_query is not None and a._highlight_query is b._highlight_query
        assert spans(a) and spans(a) == spans(b)
        b.load_text(CODE + "y = 'two'\n")  # a new document reuses the compiled query too
        await pilot.pause()
        assert b._highlight_query is a._highlight_query
        assert spans(b)[3] == [(0, 1, "variable"), (2, 3, "operator"), (4, 9, "string")]


async def test_the_shared_query_is_the_one_textual_compiles():
    """The cached query captures what a freshly compiled one captures on the same tree."""
    from textual.document._syntax_aware_document import SyntaxAwareDocument
    from tree_sitter import Query

    app = Editors()
    async with app.run_test(size=(60, 12)) as pilot:
        await pilot.pause()
        a = app.query_one("#a", TextArea)
        doc = a.document
        assert isinstance(doc, SyntaxAwareDocument)
        query_text = a._get_builtin_highlight_query("python")
        fresh = Query(doc.language, query_text)
        got = {k: [n.byte_range for n in v] for k, v in doc.query_syntax_tree(a._highlight_query).items()}
        want = {k: [n.byte_range for n in v] for k, v in doc.query_syntax_tree(fresh).items()}
        assert got == want and got
    assert highlight_queries._installed
