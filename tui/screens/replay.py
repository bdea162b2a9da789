"""Diff replay: the session's file changes one at a time, in the order they were made.

Each step shows "step n of N", the prompt that led to it, the tool, the file and the
hunks (structured by unidiff, coloured per line by the code view). ``w`` swaps the hunks
for the whole file as it stood after the step (rebuilt by the store from blobs), with the
lines the step wrote marked; ``o`` limits the replay to the current file.

Steps are loaded in a worker and cached; after a step is shown its neighbours are loaded
ahead, so stepping forward or back is usually just a redraw of what is on screen.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import ClassVar

from auditlog.tui.data.lines import CodeLine, file_lines, note_lines, patch_lines, written_lines
from auditlog.tui.data.reader import Reader
from auditlog.tui.data.replay import ReplayState
from auditlog.tui.display import Display
from auditlog.tui.highlight import lexer_for
from auditlog.tui.messages import ChangesLoaded, LoadFailed, StepLoaded
from auditlog.tui.widgets.code_view import CodeView
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.screen import Screen
from textual.widgets import Footer, Header, Static

from auditlog.models import Change

CACHE_STEPS = 16
StepKey = tuple[int, str, bool]


class ReplayScreen(Screen):
    """Step through a session's changes."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("right,l,n", "step(1)", "Next", show=True, priority=True),
        Binding("left,h,b", "step(-1)", "Back", show=True, priority=True),
        Binding("home,g", "first", "First", show=True, priority=True),
        Binding("end,G", "last", "Last", show=True, priority=True),
        Binding("w", "toggle_whole", "Whole file", show=True),
        Binding("o", "toggle_only", "Only this file", show=True),
        Binding("escape", "app.pop_screen", "Back to session", show=True),
    ]
    HELP = "Diff replay: one file change per step, in order; up/down/page keys scroll the diff."

    def __init__(self, reader: Reader, display: Display, session_id: str, seq: int | None = None,
                 only: str | None = None) -> None:
        super().__init__()
        self.reader = reader
        self.display_format = display
        self.session_id = session_id
        self.start_seq = seq
        self.start_only = only
        self.state: ReplayState | None = None
        self.whole = False
        self.cache: OrderedDict[StepKey, list[CodeLine]] = OrderedDict()
        self.prefetch = True  # load the neighbouring steps ahead (the benchmark turns it off to time a cold step)
        self._pending: set[StepKey] = set()
        self._prompt_shown: str | None = None

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static("loading…", id="step-title", markup=False)
        yield Static("", id="step-prompt", markup=False)
        yield CodeView(id="diff")
        yield Footer()

    def on_mount(self) -> None:
        self.sub_title = f"replay {self.session_id[:8]}"
        self.query_one(CodeView).focus()
        self._load_changes()

    @work(thread=True, exclusive=True, group="replay-changes")
    def _load_changes(self) -> None:
        try:
            self.post_message(ChangesLoaded(self.reader.changes(self.session_id)))
        except (OSError, ValueError) as exc:
            self.post_message(LoadFailed("replay", str(exc)))

    @on(ChangesLoaded)
    def _changes(self, message: ChangesLoaded) -> None:
        self.state = ReplayState(message.changes, only=self.start_only)
        if self.start_seq is not None:
            self.state.show_change(self.start_seq)
        self.show_step()

    @on(LoadFailed)
    def _failed(self, message: LoadFailed) -> None:
        self.query_one("#step-title", Static).update(f"can't read this session: {message.error}")

    def changes_updated(self, changes: list[Change]) -> None:
        """Live follow found new changes: N grows, the step on screen stays."""
        if self.state is not None and len(changes) != len(self.state.changes):
            self.state.extend(changes)
            self._title()

    # -- one step ----------------------------------------------------------------------
    def key_for(self, change: Change) -> StepKey:
        return (change.seq, change.path, self.whole)

    def show_step(self) -> None:
        """Draw the current step from the cache, or ask a worker for it."""
        self._title()
        change = self.state.current if self.state else None
        view = self.query_one(CodeView)
        if change is None:
            view.show(note_lines("This session changed no files: there is nothing to replay."))
            return
        key = self.key_for(change)
        lines = self.cache.get(key)
        if lines is None:
            self._request(change, key)
            return
        self.cache.move_to_end(key)
        first_mark = next((i for i, ln in enumerate(lines) if ln.kind == "mark"), 0) if self.whole else 0
        view.show(lines, top=max(0, first_mark - 3))
        self._prefetch()

    def _request(self, change: Change, key: StepKey) -> None:
        if key not in self._pending:
            self._pending.add(key)
            self._load_step(change, key)

    def _prefetch(self) -> None:
        """Load the neighbours ahead, so the next key press finds them ready."""
        if self.state is None or not self.prefetch:
            return
        for offset in (1, -1):
            index = self.state.position + offset
            if 0 <= index < self.state.count:
                change = self.state.steps[index]
                key = self.key_for(change)
                if key not in self.cache:
                    self._request(change, key)

    @work(thread=True, group="replay-step")
    def _load_step(self, change: Change, key: StepKey) -> None:
        lexer_for(change.path)  # the first lookup of a file type is slow: pay it here
        try:
            lines = patch_lines(self.reader.patch(change))
            if key[2]:
                lines = file_lines(self.reader.image_after(change), change.path, written_lines(lines, change.path))
        except (OSError, ValueError) as exc:
            lines = note_lines(f"can't read this step: {exc}")
        self.post_message(StepLoaded(key, lines))

    @on(StepLoaded)
    def _step_loaded(self, message: StepLoaded) -> None:
        self._pending.discard(message.key)
        self.cache[message.key] = message.lines
        while len(self.cache) > CACHE_STEPS:
            self.cache.popitem(last=False)
        current = self.state.current if self.state else None
        if current is not None and self.key_for(current) == message.key:
            self.show_step()

    def _title(self) -> None:
        """The step line (fixed height: redrawn without a layout pass, which would cost a
        whole-screen reflow per key press) and the prompt line (laid out only when the
        prompt changes, which is rarely between neighbouring steps)."""
        change = self.state.current if self.state else None
        if self.state is None or change is None:
            self._set_lines("no changes", "")
            return
        d = self.display_format
        scope = f"only {change.path}" if self.state.only else "all files"
        view = "whole file after this step" if self.whole else "hunks"
        title = (f"Step {self.state.position + 1} of {self.state.count} · {change.tool or '?'} · {change.path} "
                 f"(+{change.added} −{change.removed}) · {d.clock(change.ts)} · #{change.seq} · {scope} · {view}")
        asked = (change.prompt or "").strip().replace("\n", " ")
        self._set_lines(title, f"❯ {d.text(asked)}" if asked else "❯ (no prompt before this change)")

    def _set_lines(self, title: str, prompt: str) -> None:
        self.query_one("#step-title", Static).update(title, layout=False)
        if prompt != self._prompt_shown:
            self._prompt_shown = prompt
            self.query_one("#step-prompt", Static).update(prompt)

    # -- actions -----------------------------------------------------------------------
    def action_step(self, delta: int) -> None:
        if self.state is not None and self.state.step(delta):
            self.show_step()

    def action_first(self) -> None:
        if self.state is not None and self.state.first():
            self.show_step()

    def action_last(self) -> None:
        if self.state is not None and self.state.last():
            self.show_step()

    def action_toggle_whole(self) -> None:
        self.whole = not self.whole
        self.show_step()

    def action_toggle_only(self) -> None:
        if self.state is not None:
            self.state.toggle_only()
            self.show_step()
