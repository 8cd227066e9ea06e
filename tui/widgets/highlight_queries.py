"""One compiled syntax-highlighting query per language for every code editor of the app.

Textual's `TextArea` compiles its tree-sitter highlight query (`SyntaxAwareDocument.prepare_query`)
each time it gets a document: every drill, paste, mock question and code view that opens paid about
40 ms for the same Python query. A compiled `tree_sitter.Query` is immutable (running it takes a
`QueryCursor` of its own), so one per (language, query text) serves every document. `install()`
puts that cache in place; it is idempotent.
"""
from __future__ import annotations

_installed = False
_compiled: dict = {}


def install() -> None:
    global _installed
    if _installed:
        return
    try:
        from textual.document._syntax_aware_document import SyntaxAwareDocument
    except ImportError:  # no tree-sitter: the editors show plain text and compile nothing
        return
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
