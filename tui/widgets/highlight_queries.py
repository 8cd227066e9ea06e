"""One compiled syntax-highlighting query per language for every code editor of the app.

Textual's `TextArea` compiles its tree-sitter highlight query (`SyntaxAwareDocument.prepare_query`)
each time it gets a document: every drill, paste, mock question and code view that opens paid about
40 ms for the same Python query. A compiled `tree_sitter.Query` is immutable (running it takes a
`QueryCursor` of its own), so one per (language, query text) serves every document. `install()`
puts that cache in place; it is idempotent.

`SyntaxAwareDocument` lives in a private Textual module (`PRIVATE_APIS`), pinned in `pyproject.toml`
to the range tested. Where a Textual release has moved it, `install()` warns (`PrivateApiWarning`, naming
the attribute, the installed version and the tested range) and leaves the cache out: the editors still
work, each compiling its own query as Textual does, so there is no reason to refuse to start.
"""
from __future__ import annotations

from checker.private_apis import absent, warn_missing
from tui.widgets.textual_guards import TEXTUAL_TESTED

PRIVATE_APIS = ("textual.document._syntax_aware_document:SyntaxAwareDocument.prepare_query",)

_installed = False
_compiled: dict = {}


def missing_private_apis() -> list[str]:
    """The private Textual attributes the cache replaces that the installed Textual lacks."""
    return absent(PRIVATE_APIS)


def install() -> None:
    global _installed
    if _installed:
        return
    if warn_missing("textual", TEXTUAL_TESTED, PRIVATE_APIS,
                    "the highlight query cache is skipped: each code editor compiles its own (about 40 ms)"):
        return
    from textual.document._syntax_aware_document import SyntaxAwareDocument

    compile_query = SyntaxAwareDocument.prepare_query

    def prepare_query(self, query: str):
        key = (id(self.language), query)
        hit = _compiled.get(key)
        if hit is None:
            hit = compile_query(self, query)
            if hit is not None:
                _compiled[key] = (self.language, hit)  # the language is kept alive, so its id stays its own
            return hit
        return hit[1]

    SyntaxAwareDocument.prepare_query = prepare_query
    _installed = True
