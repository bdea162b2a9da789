"""The sessions table: one row per session, newest first, filled a page at a time.

A store can hold tens of thousands of sessions; building all their rows before the first
paint would make the first paint grow with the store. The table takes the first page,
and tells its screen (``NearEnd``) when the cursor gets close to the last loaded row.
"""

from __future__ import annotations

from typing import ClassVar

from auditlog.tui.display import Display
from auditlog.tui.messages import NearEnd
from auditlog.tui.palette import Palette
from rich.text import Text
from textual.binding import Binding, BindingType
from textual.widgets import DataTable

from auditlog.models import SessionSummary

NEAR_END_ROWS = 20
# label, width (None: the prompt's, which depends on the terminal). Fixed widths rather
# than measured ones: DataTable measures rows only when idle, after the first paint.
COLUMNS = (("Started", 16), ("Project", 18), ("First prompt", None), ("Agent", 11), ("Dur", 7), ("P", 3),
           ("F", 3), ("+/−", 11))


def first_line(text: str | None, width: int) -> str:
    """The first line of a prompt, cut to ``width`` with an ellipsis."""
    line = (text or "").strip().split("\n", 1)[0].strip()
    return line if len(line) <= width else line[: width - 1] + "…"


def short_project(path: str) -> str:
    """The project's last two folders: enough to tell projects apart in a narrow column."""
    parts = [p for p in path.split("/") if p]
    tail = "/".join(parts[-2:]) if len(parts) > 1 and parts[0] != "~" else path
    return tail if len(tail) <= 18 else "…" + tail[-17:]


class SessionsTable(DataTable):
    """Rows keyed by session id; ``Enter`` (or a second click) selects a row."""

    # Home and End move between the first and last rows (DataTable's own move sideways).
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("home", "scroll_top", "First row", show=False),
        Binding("end", "scroll_bottom", "Last row", show=False),
    ]

    def __init__(self, display: Display, *, id: str | None = None) -> None:
        super().__init__(id=id, cursor_type="row", zebra_stripes=True)
        self.display_format = display
        self._prompt_width = 40
        self._asked_for_more = False
        self._shown: list[SessionSummary] = []

    def on_mount(self) -> None:
        self._ensure_columns()
        self.watch(self.app, "theme", self._recolour, init=False)

    def _recolour(self) -> None:
        """Cells carry colours taken from the theme when they were made: redo them."""
        row = self.cursor_row
        self.show(self._shown, append=False)
        self.move_cursor(row=row, animate=False)

    def _ensure_columns(self) -> None:
        """Columns first (the first page can arrive before this widget's own Mount). At
        80 columns start, project and prompt fit; the rest scrolls into view."""
        if self.columns:
            return
        self._prompt_width = max(28, min(90, self.app.size.width - 44))
        for label, width in COLUMNS:
            self.add_column(label, key=label, width=width or self._prompt_width)

    def show(self, sessions: list[SessionSummary], *, append: bool) -> None:
        """Fill with ``sessions``; with ``append`` only rows past the loaded ones are added."""
        self._ensure_columns()
        palette = Palette.from_app(self.app)
        if not append:
            self.clear()
        start = self.row_count if append else 0
        rows = [self._row(s, palette) for s in sessions[start:]]
        keys = [s.id for s in sessions[start:]]
        for key, row in zip(keys, rows, strict=True):
            self.add_row(*row, key=key)
        self._shown = list(sessions)
        self._asked_for_more = False

    def _row(self, s: SessionSummary, p: Palette) -> list[Text]:
        d = self.display_format
        live = not s.end_reason
        prompt = first_line(s.title or s.first_prompt, self._prompt_width) or "(no prompt)"
        changes = Text.assemble((f"+{s.added}", p.success), " ", (f"−{s.removed}", p.error)) if s.files_changed \
            else Text("", end="")
        return [
            Text(d.when(s.started), style=p.text),
            Text(short_project(d.path(s.project or s.cwd or "")), style=p.primary),
            Text(prompt, style=p.text if s.first_prompt else p.muted),
            Text(s.agent, style=p.muted),
            Text(d.duration(s.duration_seconds) + (" ●" if live else ""), style=p.warning if live else p.text),
            Text(str(s.prompts), justify="right"),
            Text(str(s.files_changed), justify="right"),
            changes,
        ]

    def selected_id(self) -> str | None:
        if not self.row_count:
            return None
        key = self.coordinate_to_cell_key(self.cursor_coordinate).row_key
        return str(key.value)

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        """Ask once per page for more rows when the cursor nears the last loaded one."""
        if not self._asked_for_more and event.cursor_row >= self.row_count - NEAR_END_ROWS:
            self._asked_for_more = True
            self.post_message(NearEnd())
