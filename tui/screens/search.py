"""Full-text search over prompts, answers, commands, errors and paths (SQLite FTS5).

Results come as the user types (debounced, one worker at a time, stale results dropped
by generation). Each hit shows its snippet with the matched words highlighted; Enter
opens the session at that event.
"""

from __future__ import annotations

import re
from typing import ClassVar

from auditlog.tui.data.reader import Reader
from auditlog.tui.display import Display, count
from auditlog.tui.messages import LoadFailed, OpenSession, SearchDone
from auditlog.tui.palette import Palette
from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.screen import Screen
from textual.timer import Timer
from textual.widgets import DataTable, Footer, Header, Input, Static

from auditlog.models import SearchHit
from auditlog.query import QueryError

DEBOUNCE = 0.3
_MARKED = re.compile(r"\[\[(.*?)\]\]", re.S)


def snippet_text(snippet: str, palette: Palette) -> Text:
    """FTS5's ``[[word]]`` marks as highlighted spans, on one line."""
    flat = " ".join(snippet.split())
    out = Text(end="")
    last = 0
    for match in _MARKED.finditer(flat):
        out.append(flat[last:match.start()], palette.text)
        out.append(match.group(1), palette.accent + palette.match)
        last = match.end()
    out.append(flat[last:], palette.text)
    return out


class SearchScreen(Screen):
    """Type a query; pick a hit."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "app.pop_screen", "Back", show=True),
        Binding("enter", "open", "Open at event", show=True),
        Binding("ctrl+l", "focus_query", "Edit query", show=True),
    ]
    HELP = ('Search: FTS5 syntax — words are all required, "a phrase", OR, NOT, prefix*. '
            "A half-typed query is searched as plain words.")

    def __init__(self, reader: Reader, display: Display, query: str = "") -> None:
        super().__init__()
        self.reader = reader
        self.display_format = display
        self.initial = query
        self.generation = 0
        self.hits: list[SearchHit] = []
        self._status = ("", False)
        self._timer: Timer | None = None

    def compose(self) -> ComposeResult:
        yield Header()
        yield Input(self.initial, placeholder='search prompts, answers, commands, errors, paths  ("a phrase", OR, '
                    "NOT, prefix*)", id="query")
        yield Static("Type to search every recorded session.", id="search-status", markup=False)
        yield DataTable(id="hits", cursor_type="row", zebra_stripes=True)
        yield Footer()

    def on_mount(self) -> None:
        self.sub_title = "search"
        table = self.query_one("#hits", DataTable)
        # Fixed widths (DataTable would measure rows only when idle, after a frame).
        table.add_column("When", key="when", width=16)
        table.add_column("Session", key="session", width=8)
        table.add_column("Kind", key="kind", width=10)
        table.add_column("Match", key="match", width=max(40, self.app.size.width - 44))
        self.query_one("#query", Input).focus()
        self.watch(self.app, "theme", lambda: self._show(self.hits, *self._status), init=False)
        if self.initial:
            self.run_search(self.initial)

    @on(Input.Changed, "#query")
    def _typed(self, event: Input.Changed) -> None:
        if self._timer is not None:
            self._timer.stop()
        self._timer = self.set_timer(DEBOUNCE, lambda: self.run_search(event.value))

    @on(Input.Submitted, "#query")
    def _submitted(self, event: Input.Submitted) -> None:
        if self._timer is not None:
            self._timer.stop()
        self.run_search(event.value)
        self.query_one("#hits", DataTable).focus()

    def run_search(self, query: str) -> None:
        self.generation += 1
        if not query.strip():
            self._show([], "Type to search every recorded session.")
            return
        self._search(query, self.generation)

    @work(thread=True, exclusive=True, group="search")
    def _search(self, query: str, generation: int) -> None:
        try:
            self.post_message(SearchDone(self.reader.search(query), generation))
        except (QueryError, OSError) as exc:
            self.post_message(LoadFailed(f"search:{generation}", str(exc)))

    @on(SearchDone)
    def _done(self, message: SearchDone) -> None:
        if message.generation != self.generation:
            return
        result = message.result
        status = count(len(result.hits), "hit") + (" (the first 200)" if len(result.hits) >= 200 else "")
        self._show(result.hits, status + (f" · {result.note}" if result.note else ""), warn=bool(result.note))

    @on(LoadFailed)
    def _failed(self, message: LoadFailed) -> None:
        if message.where == f"search:{self.generation}":
            self._show([], message.error, warn=True)

    def _show(self, hits: list[SearchHit], status: str, warn: bool = False) -> None:
        """Fill the hits table (again on a theme change: cells carry the theme's colours)."""
        self.hits = hits
        self._status = (status, warn)
        line = self.query_one("#search-status", Static)
        line.update(status)
        line.set_class(warn, "-warning")
        table = self.query_one("#hits", DataTable)
        table.clear()
        palette = Palette.from_app(self.app)
        d = self.display_format
        for i, hit in enumerate(hits):
            table.add_row(Text(d.when(hit.ts), style=palette.muted), Text(hit.session[:8], style=palette.primary),
                          Text(hit.kind, style=palette.muted), snippet_text(d.text(hit.snippet), palette), key=str(i))

    # -- actions -----------------------------------------------------------------------
    @on(DataTable.RowSelected, "#hits")
    def _selected(self, event: DataTable.RowSelected) -> None:
        self._open(int(str(event.row_key.value)))

    def action_open(self) -> None:
        table = self.query_one("#hits", DataTable)
        if self.hits:
            self._open(table.cursor_row)

    def _open(self, index: int) -> None:
        if 0 <= index < len(self.hits):
            hit = self.hits[index]
            self.post_message(OpenSession(hit.session, hit.seq))

    def action_focus_query(self) -> None:
        self.query_one("#query", Input).focus()
