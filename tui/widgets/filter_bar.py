"""The sessions screen's filter bar: free text (all text or prompts only), file,
since/until, agent and project, applied as the user types.

Typing fires a change per key; querying per key would queue work the user has already
moved past, so changes are debounced: the bar waits until the fields have been still for
``DEBOUNCE`` seconds, then posts one ``FiltersChanged``. Enter applies at once.
"""

from __future__ import annotations

from auditlog.tui.data.filters import AGENTS, SCOPES, FilterState
from auditlog.tui.messages import FiltersChanged
from textual import on
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.timer import Timer
from textual.widgets import Input, Label, Select

DEBOUNCE = 0.25
FIELDS = ("text", "file", "since", "until", "project")


class FilterBar(Vertical):
    """Two compact rows of fields; ``state`` is what they hold now."""

    def __init__(self, state: FilterState, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._initial = state
        self._fixed = state
        self._last = state  # what the table shows: a change back to it needs no query
        self._timer: Timer | None = None

    def compose(self) -> ComposeResult:
        s = self._initial
        with Horizontal(classes="filter-row"):
            yield Label("Text", classes="filter-label")
            yield Input(s.text, placeholder="words in prompts, answers, commands, paths", id="f-text",
                        compact=True, classes="filter-wide")
            yield Select([(scope, scope) for scope in SCOPES], value=s.scope, allow_blank=False, id="f-scope",
                         compact=True)
            yield Label("File", classes="filter-label")
            yield Input(s.file, placeholder="name, path or glob", id="f-file", compact=True, classes="filter-wide")
        with Horizontal(classes="filter-row"):
            yield Label("Since", classes="filter-label")
            yield Input(s.since, placeholder="3d, last week, 2026-11-01", id="f-since", compact=True)
            yield Label("Until", classes="filter-label")
            yield Input(s.until, placeholder="today", id="f-until", compact=True)
            yield Label("Agent", classes="filter-label")
            yield Select([(a, a) for a in AGENTS], value=s.agent or Select.NULL, prompt="any agent",
                         id="f-agent", compact=True)
            yield Label("Project", classes="filter-label")
            yield Input(s.project, placeholder="folder or path", id="f-project", compact=True)

    @property
    def state(self) -> FilterState:
        values = {name: self.query_one(f"#f-{name}", Input).value for name in FIELDS}
        scope = self.query_one("#f-scope", Select).value
        agent = self.query_one("#f-agent", Select).value
        return FilterState(**values, scope=str(scope) if scope != Select.NULL else "all text",
                           agent="" if agent == Select.NULL else str(agent), tool=self._fixed.tool,
                           failed=self._fixed.failed, limit=self._fixed.limit)

    def set_state(self, state: FilterState) -> None:
        """Fill the fields (clearing, or a palette action); posts one change afterwards."""
        for name in FIELDS:
            self.query_one(f"#f-{name}", Input).value = getattr(state, name)
        self.query_one("#f-scope", Select).value = state.scope
        self.query_one("#f-agent", Select).value = state.agent or Select.NULL
        self._schedule()

    def mark_invalid(self, field: str | None) -> None:
        """Show which field the last error came from (None: all fields are fine)."""
        for name in FIELDS:
            self.query_one(f"#f-{name}", Input).set_class(name == field, "-invalid")

    def focus_field(self, name: str = "text") -> None:
        self.query_one(f"#f-{name}", Input).focus()

    def _schedule(self) -> None:
        if self._timer is not None:
            self._timer.stop()
        self._timer = self.set_timer(DEBOUNCE, self._emit)

    def _emit(self, *, force: bool = False) -> None:
        self._timer = None
        state = self.state
        if force or state != self._last:
            self._last = state
            self.post_message(FiltersChanged(state))

    @on(Input.Changed)
    @on(Select.Changed)
    def _changed(self, event: Input.Changed | Select.Changed) -> None:
        event.stop()
        self._schedule()

    @on(Input.Submitted)
    def _submitted(self, event: Input.Submitted) -> None:
        """Enter: apply now, and let the screen move to the table."""
        if self._timer is not None:
            self._timer.stop()
        self._emit(force=True)
