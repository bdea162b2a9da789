"""How the CLI prints: rich on a terminal (colour, tables, a pager for long output),
plain text when piped or when ``NO_COLOR`` is set, JSON with ``--json``."""

from __future__ import annotations

import json
import os
import sys

from rich.console import Console
from rich.syntax import Syntax
from rich.text import Text

console = Console(highlight=False)
if not console.is_terminal:  # piped: no colour, and lines as long as they are
    console = Console(highlight=False, width=max(console.width, 240), soft_wrap=True)
PAGER_LINES = 60


def print_json(value: object) -> None:
    sys.stdout.write(json.dumps(value, indent=2, ensure_ascii=False) + "\n")


def one_line(text: str | None, width: int = 60) -> str:
    first = " ".join((text or "").split())
    return first if len(first) <= width else first[: width - 1] + "…"


def token_count(n: int | None) -> str:
    """``1234567`` → ``1.2M``: token counts are read for their size, not their digits."""
    if n is None:
        return ""
    for limit, unit in ((1_000_000_000, "G"), (1_000_000, "M"), (1_000, "k")):
        if n >= limit:
            return f"{n / limit:.1f}{unit}"
    return str(n)


def cost_text(cost: float | None, unpriced: int = 0) -> str:
    """An estimated cost: ``$0.42``; ``≥$0.42`` when some model calls had no price;
    ``?`` when none had one."""
    if cost is None:
        return "?" if unpriced else ""
    mark = "≥" if unpriced else ""
    return f"{mark}${cost:.2f}" if cost >= 0.01 or cost == 0 else f"{mark}${cost:.4f}"


def highlighted_snippet(snippet: str) -> Text:
    """An FTS snippet with its ``[[match]]`` marks shown in bold."""
    text = Text()
    rest = " ".join(snippet.split())
    while "[[" in rest:
        before, _, tail = rest.partition("[[")
        match, _, rest = tail.partition("]]")
        text.append(before)
        text.append(match, style="bold yellow")
    text.append(rest)
    return text


def diff_renderable(patch_text: str) -> Syntax | Text:
    if console.is_terminal and not os.environ.get("NO_COLOR"):
        return Syntax(patch_text, "diff", theme="ansi_dark", word_wrap=False, background_color="default")
    return Text(patch_text)


def emit(renderables: list, *, plain_text: str | None = None) -> None:
    """Print, through a pager when a long output goes to a terminal; raw text when piped."""
    if not console.is_terminal and plain_text is not None:
        sys.stdout.write(plain_text if plain_text.endswith("\n") or not plain_text else plain_text + "\n")
        return
    lines = sum(str(r).count("\n") + 1 for r in renderables)
    if console.is_terminal and lines > PAGER_LINES and os.environ.get("AUDITLOG_PAGER", "1") != "0":
        with console.pager(styles=True):
            for r in renderables:
                console.print(r)
        return
    for r in renderables:
        console.print(r)
