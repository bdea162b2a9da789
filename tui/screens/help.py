"""The help screen: every key, per screen, read from the bindings themselves.

Generated rather than written so it cannot fall behind the code: a key that exists is
listed, with the description its binding gives.
"""

from __future__ import annotations

import io
from typing import ClassVar

from rich.console import Console, Group
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

KEY_NAMES = {
    "escape": "Esc", "enter": "Enter", "right": "→", "left": "←", "up": "↑", "down": "↓", "home": "Home",
    "end": "End", "pageup": "PgUp", "pagedown": "PgDn", "space": "Space", "question_mark": "?", "slash": "/",
    "f1": "F1", "shift+left": "Shift+←", "shift+right": "Shift+→", "ctrl+home": "Ctrl+Home", "ctrl+end": "Ctrl+End",
}
GENERAL = (
    ("↑ ↓ PgUp PgDn Home End", "move in tables and lists"),
    ("Tab / Shift+Tab", "move between the filter fields, the table and the panes"),
    ("mouse", "click to focus or pick a row, click a highlighted row again to open it; the wheel scrolls; "
              "click a tab to switch"),
)


def key_label(keys: str) -> str:
    """``right,l`` → ``→ / l``; ``ctrl+t`` → ``Ctrl+t``."""
    names = []
    for key in keys.split(","):
        key = key.strip()
        names.append(KEY_NAMES.get(key, key.replace("ctrl+", "Ctrl+").replace("shift+", "Shift+")))
    return " / ".join(names)


def bindings_of(owner: type) -> list[Binding]:
    out: list[Binding] = []
    for item in getattr(owner, "BINDINGS", []):
        if isinstance(item, Binding):
            out.append(item)
        elif isinstance(item, tuple):
            out.append(Binding(*item))
    return out


def key_table(title: str, owner: type, note: str = "") -> Table:
    table = Table(title=title, title_justify="left", title_style="bold", show_header=False, box=None,
                  padding=(0, 2, 0, 0), expand=True, caption=note or None, caption_justify="left")
    table.add_column("key", style="bold", no_wrap=True, min_width=12)
    table.add_column("does", ratio=1)
    for binding in bindings_of(owner):
        table.add_row(key_label(binding.key), binding.description or binding.action)
    return table


class HelpScreen(ModalScreen[None]):
    """A scrollable list of every key; any of Esc, ?, q or F1 closes it."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,question_mark,q,f1", "app.pop_screen", "Close help", show=True),
    ]

    def __init__(self, sections: list[tuple[str, type, str]]) -> None:
        super().__init__()
        self.sections = sections

    def compose(self) -> ComposeResult:
        general = Table(title="Moving around", title_justify="left", title_style="bold", show_header=False, box=None,
                        padding=(0, 2, 0, 0), expand=True)
        general.add_column("key", style="bold", no_wrap=True, min_width=12)
        general.add_column("does", ratio=1)
        for keys, what in GENERAL:
            general.add_row(keys, what)
        parts: list = [Text("auditlog browse — keys", style="bold"), Text(""), general, Text("")]
        for title, owner, note in self.sections:
            parts += [key_table(title, owner, note), Text("")]
        with VerticalScroll(id="help-body"):
            yield Static(Group(*parts), id="help-text")

    def on_mount(self) -> None:
        self.query_one("#help-body").focus()  # so the arrow and page keys scroll the list

    def text(self) -> str:
        """The help as plain text (what the tests read)."""
        console = Console(width=100, record=True, file=io.StringIO())
        for title, owner, note in self.sections:
            console.print(key_table(title, owner, note))
        for keys, what in GENERAL:
            console.print(f"{keys}  {what}")
        return console.export_text()
