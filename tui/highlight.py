"""Syntax colours for one line at a time.

The code view highlights only the lines on screen, so a 5,000-line patch costs what a
screenful costs. Pygments' first lexer lookup scans installed plugins (over half a second
here), so the app warms it in a worker at start, and lookups are cached per file name
ending; after that a lookup is a dictionary hit. Token colours drop the style's own
background, so the diff's green and red backgrounds (and the theme's) show through.
"""

from __future__ import annotations

import os
import threading
from functools import lru_cache

from pygments.lexer import Lexer
from pygments.lexers import find_lexer_class_for_filename
from pygments.styles import get_style_by_name
from pygments.token import _TokenType
from rich.style import Style

DARK_STYLE, LIGHT_STYLE = "monokai", "default"
_lock = threading.Lock()
_CONTROL = {c: 0x2400 + c for c in range(32) if c != 9} | {127: 0x2421}


def _key(path: str) -> str:
    base = os.path.basename(path)
    _, ext = os.path.splitext(base)
    return ext.lower() if ext else base


@lru_cache(maxsize=256)
def _lexer_for_key(key: str) -> Lexer | None:
    name = key if not key.startswith(".") else "x" + key
    with _lock:  # pygments' lazy loading is not meant to run twice at once
        cls = find_lexer_class_for_filename(name)
    return cls(stripnl=False, ensurenl=False, tabsize=4) if cls else None


def lexer_for(path: str | None) -> Lexer | None:
    """The lexer for a file name, or None for text pygments does not know."""
    return _lexer_for_key(_key(path)) if path else None


def warm() -> None:
    """Do pygments' one slow lookup now (call from a worker, not the UI thread)."""
    lexer_for("warm.py")
    lexer_for("record.json")
    token_styles(True)
    token_styles(False)


@lru_cache(maxsize=4)
def token_styles(dark: bool) -> dict[_TokenType, Style]:
    """Rich styles per token type for the dark or light pygments style, no backgrounds."""
    style = get_style_by_name(DARK_STYLE if dark else LIGHT_STYLE)
    out: dict[_TokenType, Style] = {}
    for ttype, spec in style:
        out[ttype] = Style(color=f"#{spec['color']}" if spec["color"] else None, bold=spec["bold"] or None,
                           italic=spec["italic"] or None, underline=spec["underline"] or None)
    return out


def clean(text: str) -> str:
    """Tabs expanded and control characters made visible (they would move the cursor)."""
    return text.expandtabs(4).translate(_CONTROL)


@lru_cache(maxsize=2048)
def style_for(ttype: _TokenType, dark: bool) -> Style | None:
    """The style of a token type, falling back to its parents (``Name.Function`` → ``Name``)."""
    styles = token_styles(dark)
    while ttype is not None:
        style = styles.get(ttype)
        if style is not None and style:
            return style
        ttype = ttype.parent
    return None


def tokens(text: str, path: str | None) -> list[tuple[_TokenType | None, str]]:
    """One line split into (token type, text) pairs; one untyped pair when the language
    is unknown. ``get_tokens_unprocessed`` skips pygments' per-call preprocessing, which
    the line has already had (``clean``)."""
    text = clean(text)
    lexer = lexer_for(path)
    if lexer is None or not text:
        return [(None, text)]
    return [(ttype, value) for _pos, ttype, value in lexer.get_tokens_unprocessed(text) if value]
