"""One session: its timeline beside the conversation, the selected event's record and
its patch; jumps between prompts and changes; live follow; export; diff replay.

Live follow: a timer ticks twice a second; each tick a worker checks the journal's size
and, when it moved (see ``data.follow``), asks the index for events past the last one
shown. New rows are appended — the screen is never reloaded — so the cursor, the open tab
and the scroll position stay where the user left them (unless following the tail).
"""

from __future__ import annotations

import os
from dataclasses import replace
from typing import ClassVar

from auditlog.tui.data.follow import JournalWatch
from auditlog.tui.data.lines import json_lines, note_lines, patch_lines
from auditlog.tui.data.reader import Reader, SessionData, journal_size
from auditlog.tui.display import Display, count
from auditlog.tui.highlight import lexer_for
from auditlog.tui.messages import ConversationLoaded, EventDetailLoaded, EventsArrived, LoadFailed, SessionLoaded
from auditlog.tui.widgets.detail_pane import DetailPane
from auditlog.tui.widgets.timeline import Timeline
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Header, Static

from auditlog.models import Change

POLL_SECONDS = 0.25  # a stat of the journal: cheap enough to leave headroom within the 1 s promise


class SessionScreen(Screen):
    """A session's timeline and details."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "app.pop_screen", "Back", show=True),
        Binding("p", "next_prompt", "Next prompt", show=True),
        Binding("P", "previous_prompt", "Prev prompt", show=False),
        Binding("c", "next_change", "Next change", show=True),
        Binding("C", "previous_change", "Prev change", show=False),
        Binding("d", "replay", "Replay diffs", show=True),
        Binding("f", "toggle_follow", "Follow", show=True),
        Binding("1", "tab('conversation')", "Conversation", show=False),
        Binding("2", "tab('event')", "Event", show=False),
        Binding("3", "tab('patch')", "Patch", show=False),
        Binding("e", "export('md')", "Export .md", show=True),
        Binding("E", "export('html')", "Export .html", show=False),
    ]
    HELP = "Session: the timeline on the left; Enter on a change opens diff replay there."

    def __init__(self, reader: Reader, display: Display, session_id: str, seq: int | None = None) -> None:
        super().__init__()
        self.reader = reader
        self.display_format = display
        self.session_id = session_id
        self.start_seq = seq
        self.data: SessionData | None = None
        self.follow = False
        self.watch_state = JournalWatch()
        self.journal = ""
        self._polling = False
        self._conversation_stale = True
        self.detail_seq: int | None = None

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static("loading…", id="session-title", markup=False)
        with Horizontal(id="session-body"):
            yield Timeline(self.display_format, id="timeline")
            yield DetailPane(id="detail", initial="event" if self.start_seq else "conversation")
        yield Footer()

    def on_mount(self) -> None:
        self.sub_title = f"session {self.session_id[:8]}"
        self.query_one(Timeline).focus()
        self._load()
        self.set_interval(POLL_SECONDS, self._tick)

    # -- loading -----------------------------------------------------------------------
    @work(thread=True, exclusive=True, group="session")
    def _load(self) -> None:
        try:
            self.post_message(SessionLoaded(self.reader.session(self.session_id)))
        except (OSError, ValueError) as exc:
            self.post_message(LoadFailed("session", str(exc)))

    @on(SessionLoaded)
    def _loaded(self, message: SessionLoaded) -> None:
        data = self.data = message.data
        self.session_id = data.summary.id
        self.journal = data.journal
        self.watch_state = JournalWatch(size=data.journal_size)
        self.follow = not data.summary.end_reason and self.start_seq is None
        timeline = self.query_one(Timeline)
        timeline.load(data.events, data.changes)
        if self.start_seq is not None:
            timeline.show_seq(self.start_seq)
        elif self.follow and data.events:
            timeline.show_seq(data.events[-1].seq)
        self._title()
        self._load_conversation()
        self._load_detail()

    @on(LoadFailed)
    def _failed(self, message: LoadFailed) -> None:
        self.query_one("#session-title", Static).update(f"can't read this session: {message.error}")
        self.query_one("#session-title", Static).add_class("-error")

    def _title(self) -> None:
        if self.data is None:
            return
        s, d = self.data.summary, self.display_format
        events = self.query_one(Timeline).events
        prompts = sum(1 for e in events if e.kind == "prompt")
        failures = sum(1 for e in events if e.failed or e.kind == "tool_error")
        files = len({c.path for c in self.data.changes})
        added = sum(c.added for c in self.data.changes)
        removed = sum(c.removed for c in self.data.changes)
        state = ("● live · following" if self.follow else "● live") if not s.end_reason else f"ended ({s.end_reason})"
        line1 = " · ".join(p for p in (f"Session {s.id[:8]}", s.agent, d.path(s.project or s.cwd or ""),
                                       f"{s.branch}" if s.branch else "", d.when(s.started), state) if p)
        line2 = " · ".join((count(len(events), "event"), count(prompts, "prompt"),
                            f"{count(files, 'file')} +{added} −{removed}", count(failures, "failure")))
        self.query_one("#session-title", Static).update(f"{line1}\n{line2}")

    # -- conversation and detail ---------------------------------------------------------
    @work(thread=True, exclusive=True, group="conversation")
    def _load_conversation(self) -> None:
        try:
            self.post_message(ConversationLoaded(self.display_format.text(self.reader.conversation(self.session_id))))
        except OSError as exc:
            self.post_message(ConversationLoaded(f"*No conversation.md for this session ({exc.strerror}).*"))

    @on(ConversationLoaded)
    async def _conversation(self, message: ConversationLoaded) -> None:
        self._conversation_stale = False
        await self.query_one(DetailPane).show_conversation(message.markdown)

    @on(DataTable.RowHighlighted, "#timeline")
    def _highlighted(self) -> None:
        self._load_detail()

    def _load_detail(self) -> None:
        event = self.query_one(Timeline).current
        if event is None:
            return
        self.detail_seq = event.seq
        self._fetch_detail(event.seq, list(self.query_one(Timeline).changed.get(event.seq, [])))

    @work(thread=True, exclusive=True, group="detail")
    def _fetch_detail(self, seq: int, changes: list[Change]) -> None:
        try:
            record = json_lines(self.reader.record(self.session_id, seq))
        except (OSError, ValueError) as exc:
            record = note_lines(f"can't read event {seq}: {exc}")
        patch = []
        for change in changes:
            lexer_for(change.path)  # warm here, in the worker, not when the lines are drawn
            try:
                patch += patch_lines(self.reader.patch(change))
            except OSError as exc:
                patch += note_lines(f"{change.path}: patch missing ({exc.strerror})")
        record = [line._replace(text=self.display_format.text(line.text)) for line in record]
        self.post_message(EventDetailLoaded(seq, record, patch))

    @on(EventDetailLoaded)
    def _detail(self, message: EventDetailLoaded) -> None:
        if message.seq == self.detail_seq:
            self.query_one(DetailPane).show_event(message.record, message.patch)

    # -- live follow -------------------------------------------------------------------
    def _tick(self) -> None:
        if self.data is None or self._polling:
            return
        events = self.query_one(Timeline).events
        self._polling = True
        self._poll(events[-1].seq if events else 0)

    @work(thread=True, group="follow")
    def _poll(self, last_seq: int) -> None:
        try:
            if self.watch_state.should_fetch(journal_size(self.journal)):
                events, changes = self.reader.events_after(self.session_id, last_seq)
                if events:
                    self.post_message(EventsArrived(events, changes))
        except (OSError, ValueError):
            pass  # the next tick tries again; a transient lock or a rename is not an error
        finally:
            self._polling = False

    @on(EventsArrived)
    def _arrived(self, message: EventsArrived) -> None:
        timeline = self.query_one(Timeline)
        known = timeline.events[-1].seq if timeline.events else 0
        fresh = [e for e in message.events if e.seq > known]
        if not fresh or self.data is None:
            return
        at_end = timeline.cursor_row >= len(timeline.events) - 1
        timeline.append(fresh, message.changes)
        self.data = replace(self.data, events=timeline.events, changes=message.changes)
        if any(e.kind == "session_end" for e in fresh):
            self._refresh_summary()
        if self.follow and at_end:
            timeline.show_seq(fresh[-1].seq)
        self._title()
        self._load_conversation()
        from auditlog.tui.screens.replay import ReplayScreen

        for screen in self.app.screen_stack:
            if isinstance(screen, ReplayScreen) and screen.session_id == self.session_id:
                screen.changes_updated(message.changes)

    @work(thread=True, group="summary")
    def _refresh_summary(self) -> None:
        try:
            summary = self.reader.summary(self.session_id)
        except (OSError, ValueError):
            return
        self.app.call_from_thread(self._set_summary, summary)

    def _set_summary(self, summary) -> None:
        if self.data is not None:
            self.data = replace(self.data, summary=summary)
            self.follow = False
            self._title()

    # -- actions -----------------------------------------------------------------------
    def action_next_prompt(self) -> None:
        self.query_one(Timeline).jump(lambda e: e.kind == "prompt", 1)

    def action_previous_prompt(self) -> None:
        self.query_one(Timeline).jump(lambda e: e.kind == "prompt", -1)

    def action_next_change(self) -> None:
        timeline = self.query_one(Timeline)
        timeline.jump(timeline.is_change, 1)

    def action_previous_change(self) -> None:
        timeline = self.query_one(Timeline)
        timeline.jump(timeline.is_change, -1)

    def action_tab(self, name: str) -> None:
        self.query_one(DetailPane).show_tab(name)
        if name == "conversation":
            self._scroll_conversation()

    def _scroll_conversation(self) -> None:
        timeline = self.query_one(Timeline)
        event = timeline.current
        if event is not None:
            before = sum(1 for e in timeline.events[: timeline.cursor_row + 1] if e.kind == "prompt")
            self.query_one(DetailPane).scroll_to_prompt(max(0, before - 1))

    def action_toggle_follow(self) -> None:
        self.follow = not self.follow
        timeline = self.query_one(Timeline)
        if self.follow and timeline.events:
            timeline.show_seq(timeline.events[-1].seq)
        self._title()
        self.notify("following new events" if self.follow else "follow off", timeout=2)

    def action_replay(self) -> None:
        from auditlog.tui.screens.replay import ReplayScreen

        event = self.query_one(Timeline).current
        self.app.push_screen(ReplayScreen(self.reader, self.display_format, self.session_id,
                                          event.seq if event is not None else None))

    @on(DataTable.RowSelected, "#timeline")
    def _selected(self, message: DataTable.RowSelected) -> None:
        """Enter on a change opens the replay there; on any other event, its record."""
        timeline = self.query_one(Timeline)
        event = timeline.current
        if event is not None and timeline.is_change(event):
            self.action_replay()
        else:
            self.action_tab("conversation" if event is not None and event.kind == "prompt" else "event")

    def action_export(self, fmt: str) -> None:
        self._export(fmt, os.getcwd())

    @work(thread=True, group="export")
    def _export(self, fmt: str, directory: str) -> None:
        try:
            path = self.reader.export(self.session_id, fmt, directory)
        except (OSError, ValueError) as exc:
            self.app.call_from_thread(self.notify, f"export failed: {exc}", severity="error")
            return
        self.app.call_from_thread(self.notify, f"exported to {path}", title="Export", timeout=8)
