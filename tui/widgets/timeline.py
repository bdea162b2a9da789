"""A session's events in order: prompts, tool calls and results, failures, file
changes, subagents, compactions, each with a mark and a colour for its kind.

Rows are keyed by ``seq`` so that jumps (next prompt, next change), search hits and
live follow all address events the way the journal does. New events are appended as
rows; the table is never rebuilt while the session is open.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar

from auditlog.tui.display import Display
from auditlog.tui.palette import Palette
from rich.text import Text
from textual.binding import Binding, BindingType
from textual.widgets import DataTable

from auditlog.models import Change, Event

MARKS = {
    "session_start": "●", "prompt": "❯", "tool_call": "→", "tool_result": "✓", "tool_error": "✗",
    "tool_batch": "·", "permission": "?", "notification": "!", "assistant": "◆", "subagent_start": "⑂",
    "subagent_stop": "⑃", "compact": "⇣", "session_end": "■", "other": "…",
}
CHANGE_MARK = "±"


class Timeline(DataTable):
    """One row per event; ``events`` and ``changed`` mirror the rows for jumping."""

    # Home and End move between the first and last rows (DataTable's own move sideways).
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("home", "scroll_top", "First row", show=False),
        Binding("end", "scroll_bottom", "Last row", show=False),
    ]

    def __init__(self, display: Display, *, id: str | None = None) -> None:
        super().__init__(id=id, cursor_type="row", zebra_stripes=False)
        self.display_format = display
        self.events: list[Event] = []
        self.changed: dict[int, list[Change]] = {}

    def on_mount(self) -> None:
        self.watch(self.app, "theme", self._recolour, init=False)

    def _recolour(self) -> None:
        """Cells carry colours taken from the theme when they were made: redo them."""
        row = self.cursor_row
        self.load(list(self.events), [c for changes in self.changed.values() for c in changes])
        self.move_cursor(row=row, animate=False, scroll=True)

    def load(self, events: list[Event], changes: list[Change]) -> None:
        """Fill the table. Column widths are set here from the data, not measured later:
        DataTable measures new rows only when its queue goes idle, and a frame drawn
        before that (a first paint, a screenshot) would show label-wide columns."""
        last = events[-1].seq if events else 1
        when = max((len(self.display_format.clock(e.ts)) for e in events[:1]), default=8)
        widest = max((len(e.summary or e.event) for e in events), default=20) + 4
        self.clear(columns=True)
        self.add_column("#", key="seq", width=max(3, len(str(last)) + 1))  # room for live events
        self.add_column("Time", key="time", width=when)
        self.add_column("Event", key="what", width=min(max(widest, 40), 240))
        self.events = []
        self.append(events, changes)

    def append(self, events: list[Event], changes: list[Change]) -> None:
        """Add rows for ``events``; ``changes`` is the session's full list as it stands."""
        self.changed = {}
        for c in changes:
            self.changed.setdefault(c.seq, []).append(c)
        palette = Palette.from_app(self.app)
        for event in events:
            self.events.append(event)
            self.add_row(*self._row(event, palette), key=str(event.seq))

    def _row(self, e: Event, p: Palette) -> list[Text]:
        d = self.display_format
        changes = self.changed.get(e.seq)
        if changes:
            mark, style = CHANGE_MARK, p.warning
        else:
            mark = MARKS.get(e.kind, "…")
            style = (p.error if e.failed or e.kind == "tool_error" else p.accent if e.kind == "prompt"
                     else p.primary if e.kind in ("assistant", "subagent_start", "subagent_stop", "compact")
                     else p.muted if e.kind in ("tool_call", "tool_batch", "session_start", "session_end")
                     else p.text)
        summary = (e.summary or e.event).replace("\n", " ")
        what = Text.assemble((mark + " ", style), ("↳ " if e.subagent else "", p.muted),
                             (d.text(summary), style if e.kind != "tool_result" or changes else p.text), end="")
        return [Text(str(e.seq), style=p.muted, justify="right"), Text(d.clock(e.ts), style=p.muted), what]

    @property
    def current(self) -> Event | None:
        if not self.events or self.cursor_row >= len(self.events):
            return None
        return self.events[self.cursor_row]

    def row_of(self, seq: int) -> int | None:
        """The row showing event ``seq`` (events are in seq order with no gaps, usually)."""
        guess = seq - (self.events[0].seq if self.events else 0)
        if 0 <= guess < len(self.events) and self.events[guess].seq == seq:
            return guess
        return next((i for i, e in enumerate(self.events) if e.seq == seq), None)

    def show_seq(self, seq: int) -> None:
        row = self.row_of(seq)
        if row is None:  # not an event we have: the nearest one after it
            row = next((i for i, e in enumerate(self.events) if e.seq >= seq), len(self.events) - 1)
        if row is not None and row >= 0:
            self.move_cursor(row=row, animate=False, scroll=True)

    def jump(self, wanted: Callable[[Event], bool], direction: int) -> bool:
        """Move to the next (1) or previous (-1) event for which ``wanted`` is true."""
        rows = range(self.cursor_row + 1, len(self.events)) if direction > 0 else range(self.cursor_row - 1, -1, -1)
        for row in rows:
            if wanted(self.events[row]):
                self.move_cursor(row=row, animate=False, scroll=True)
                return True
        return False

    def is_change(self, event: Event) -> bool:
        return event.seq in self.changed
