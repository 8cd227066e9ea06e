"""Making untrusted text safe to show: `visible(text)`.

Whatever an answer prints, raises or names (an exception message, a class name, a repr) reaches the
candidate's terminal and the app's results panel. Raw, an escape sequence there could clear the
screen and draw "PASS", set the window title, hide the real verdict or reorder text (bidirectional
overrides). So every control and format character except newline and tab is shown as an escape
(`\\x1b`, `\\x07`, `\\u202e`); printable text, non-ASCII letters included, is left as it is. The
result contains no such character, so cleaning twice changes nothing.
"""
from __future__ import annotations

import re

# C0 controls but \t and \n, DEL, C1 controls, and the invisible format / direction / separator
# characters of Unicode (soft hyphen, ALM, zero-width and bidi marks, line and paragraph separators,
# word joiners and invisible operators, isolates, BOM, interlinear annotation marks).
_UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u00ad\u061c\u180e\u200b-\u200f\u2028-\u202e"
                     "\u2060-\u206f\ufeff\ufff9-\ufffb]")


def _escape(match: re.Match) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def visible(text: str) -> str:
    """`text` with every control and invisible format character shown as an escape (CRLF -> LF)."""
    if not isinstance(text, str):
        text = str(text)
    text = text.replace("\r\n", "\n")
    return text if _UNSAFE.search(text) is None else _UNSAFE.sub(_escape, text)
