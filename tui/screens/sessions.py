"""The first screen: every session, newest first, under the filter bar.

Loading is a thread worker per filter change (``exclusive`` within its group, and tagged
with a generation number so a slow, superseded query can never overwrite a newer one).
The first page is small so the first paint does not grow with the store; later pages are
asked for as the cursor nears the end.
"""

from __future__ import annotations

from typing import ClassVar

from auditlog.tui.data.filters import FilterError, FilterState
from auditlog.tui.data.reader import Reader
from auditlog.tui.display import Display, count
from auditlog.tui.messages import FiltersChanged, LoadFailed, NearEnd, OpenSession, SessionsLoaded
from auditlog.tui.widgets.filter_bar import FilterBar
from auditlog.tui.widgets.sessions_table import SessionsTable
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Header, Input, Static

from auditlog.query import QueryError

FIRST_PAGE = 100
NEXT_PAGE = 500


class SessionsScreen(Screen):
    """Filter, pick, open."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "open", "Open", show=True),
        Binding("f", "focus_filters", "Filter", show=True),
        Binding("F", "focus_file", "File filter", show=False),
        Binding("x", "clear_filters", "Clear filters", show=True),
        Binding("r", "reload", "Reload", show=True),
        Binding("escape", "leave_filters", "To the table", show=False),
    ]
    HELP = "Sessions: filter as you type, Enter opens the session under the cursor."

    def __init__(self, reader: Reader, display: Display, filters: FilterState) -> None:
        super().__init__()
        self.reader = reader
        self.display_format = display
        self.filters = filters
        self.generation = 0
        self.loaded = 0
        self.matching = 0
        self.total = 0
        self.error = ""

    def compose(self) -> ComposeResult:
        yield Header()
        yield FilterBar(self.filters, id="filters")
        yield Static("loading…", id="sessions-status", markup=False)
        yield SessionsTable(self.display_format, id="sessions")
        yield Footer()

    def on_mount(self) -> None:
        self.sub_title = "sessions"
        self.query_one(SessionsTable).focus()
        self.load()

    # -- loading -----------------------------------------------------------------------
    def load(self, *, more: bool = False) -> None:
        """Query the first page for the current filters, or (``more``) the next page."""
        try:
            flt = self.filters.to_filter()
        except FilterError as exc:
            self.error = str(exc)
            self.query_one(FilterBar).mark_invalid(exc.field)
            self._status()
            return
        self.query_one(FilterBar).mark_invalid(None)
        if not more:
            self.generation += 1
        limit = self.loaded + NEXT_PAGE if more else FIRST_PAGE
        self._fetch(flt, limit, self.generation, more)

    @work(thread=True, exclusive=True, group="sessions")
    def _fetch(self, flt, limit: int, generation: int, more: bool) -> None:
        try:
            page = self.reader.page(flt, limit)
        except (QueryError, OSError, ValueError) as exc:
            self.post_message(LoadFailed("sessions", str(exc)))
            return
        self.post_message(SessionsLoaded(page, generation, more))

    @on(SessionsLoaded)
    def _loaded(self, message: SessionsLoaded) -> None:
        if message.generation != self.generation:
            return  # a newer filter has been asked for since
        table = self.query_one(SessionsTable)
        table.show(message.page.sessions, append=message.append)
        self.loaded = len(message.page.sessions)
        self.matching = message.page.matching
        self.total = message.page.total
        self.error = ""
        self._status()

    @on(LoadFailed)
    def _failed(self, message: LoadFailed) -> None:
        self.error = message.error
        self._status()

    def _status(self) -> None:
        status = self.query_one("#sessions-status", Static)
        status.set_class(bool(self.error), "-error")
        if self.error:
            status.update(self.error)
            return
        if not self.total:
            status.update("No sessions recorded yet. Capture starts after `auditlog install --agent claude` "
                          "in a project (see `auditlog doctor`).")
            return
        shown = f"{count(self.matching, 'session')} match" + ("" if self.matching != 1 else "es")
        if self.matching == self.total and not self.filters.active:
            shown = count(self.total, "session")
        else:
            shown += f" (of {self.total:,})"
        if self.loaded < self.matching:
            shown += f" · {self.loaded:,} loaded, more as you scroll"
        fixed = self.filters.fixed()
        status.update(shown + (f" · also: {fixed}" if fixed else ""))

    @on(FiltersChanged)
    def _filters_changed(self, message: FiltersChanged) -> None:
        self.filters = message.state
        self.load()

    @on(NearEnd)
    def _near_end(self) -> None:
        if self.loaded < self.matching:
            self.load(more=True)

    # -- actions -----------------------------------------------------------------------
    @on(DataTable.RowSelected, "#sessions")
    def _row_selected(self, event: DataTable.RowSelected) -> None:
        self.post_message(OpenSession(str(event.row_key.value)))

    @on(Input.Submitted)
    def _submitted(self) -> None:
        self.query_one(SessionsTable).focus()

    def action_open(self) -> None:
        session = self.query_one(SessionsTable).selected_id()
        if session:
            self.post_message(OpenSession(session))

    def action_focus_filters(self) -> None:
        self.query_one(FilterBar).focus_field("text")

    def action_focus_file(self) -> None:
        self.query_one(FilterBar).focus_field("file")

    def action_leave_filters(self) -> None:
        self.query_one(SessionsTable).focus()

    def action_clear_filters(self) -> None:
        self.query_one(FilterBar).set_state(self.filters.cleared())

    def action_reload(self) -> None:
        self.load()

    def set_filter(self, name: str, value: str) -> None:
        """Set one field from outside the bar (the command palette, tests)."""
        self.query_one(FilterBar).set_state(self.query_one(FilterBar).state.with_field(name, value))
