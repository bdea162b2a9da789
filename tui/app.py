"""``auditlog browse``: the Textual app, its global keys and command-palette entries.

The app owns the screen stack and nothing else: each screen reads the store through
``data.reader`` in its own workers. ``cmd_browse`` checks the arguments (dates, the
``--session`` reference) before the terminal is taken over, so a typo is reported like
any other CLI error instead of inside a full-screen app.
"""

from __future__ import annotations

import argparse
import gc
from collections.abc import Iterable
from typing import ClassVar

from auditlog.tui import highlight
from auditlog.tui.data.filters import FilterState
from auditlog.tui.data.reader import Reader
from auditlog.tui.display import Display
from auditlog.tui.messages import OpenSession
from auditlog.tui.screens.help import HelpScreen
from auditlog.tui.screens.replay import ReplayScreen
from auditlog.tui.screens.search import SearchScreen
from auditlog.tui.screens.session import SessionScreen
from auditlog.tui.screens.sessions import SessionsScreen
from auditlog.tui.widgets.code_view import CodeView
from textual import on, work
from textual.app import App, SystemCommand
from textual.binding import Binding, BindingType
from textual.screen import Screen

DARK, LIGHT = "textual-dark", "textual-light"
WARM_AFTER = 1.0


class AuditlogApp(App[int]):
    """The browser. ``home`` picks a store; ``display`` decides how times and paths are
    drawn (tests pass one that masks the clock); ``session`` opens that session at once."""

    CSS_PATH = "auditlog.tcss"
    TITLE = "auditlog"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("q", "quit", "Quit", show=True),
        Binding("question_mark,f1", "help", "Keys", show=True),
        Binding("slash", "search", "Search", show=True),
        Binding("ctrl+t", "toggle_theme", "Dark / light theme", show=False),
        Binding("ctrl+p", "command_palette", "Command palette", show=False),
    ]

    def __init__(self, filters: FilterState | None = None, *, session: str | None = None, home: str | None = None,
                 display: Display | None = None, theme: str | None = None) -> None:
        super().__init__()
        self.filters = filters or FilterState()
        self.reader = Reader(home)
        self.display_format = display or Display()
        self.open_at_start = session
        self.warmed = False
        if theme:
            self.theme = theme

    def on_mount(self) -> None:
        self.push_screen(SessionsScreen(self.reader, self.display_format, self.filters))
        if self.open_at_start:
            self.push_screen(SessionScreen(self.reader, self.display_format, self.open_at_start))
        self.set_timer(WARM_AFTER, self._warm_highlighter)  # after the first paint, not competing with it

    @work(thread=True, group="warm")
    def _warm_highlighter(self) -> None:
        """Pay pygments' first lookup now, then freeze the startup heap.

        ``gc.freeze`` moves the ~170,000 objects alive after start-up (Textual, Rich, CSS,
        pygments, sqlite-utils) out of the collector's sight. Without it every full
        collection walks them all — 100-150 ms in the UI thread, often right after a
        5,000-line patch has been parsed. Those objects live as long as the app does, so
        nothing that would have been collected is kept.
        """
        highlight.warm()
        gc.freeze()
        self.warmed = True

    # -- navigation --------------------------------------------------------------------
    @on(OpenSession)
    def _open_session(self, message: OpenSession) -> None:
        self.push_screen(SessionScreen(self.reader, self.display_format, message.session_id, message.seq))

    def action_search(self) -> None:
        if not isinstance(self.screen, SearchScreen):
            self.push_screen(SearchScreen(self.reader, self.display_format))

    def action_help(self) -> None:
        if not isinstance(self.screen, HelpScreen):
            self.push_screen(HelpScreen(help_sections()))

    def action_toggle_theme(self) -> None:
        self.theme = LIGHT if self.current_theme.dark else DARK

    # -- command palette ---------------------------------------------------------------
    def get_system_commands(self, screen: Screen) -> Iterable[SystemCommand]:
        yield from super().get_system_commands(screen)
        yield from palette_commands(self, screen)


def help_sections() -> list[tuple[str, type, str]]:
    """Every binding the browser defines, grouped by where it works."""
    return [
        ("Anywhere", AuditlogApp, "ctrl+p opens the command palette; ctrl+q also quits."),
        ("Sessions", SessionsScreen, SessionsScreen.HELP),
        ("Session", SessionScreen, SessionScreen.HELP),
        ("Diff replay", ReplayScreen, ReplayScreen.HELP),
        ("Search", SearchScreen, SearchScreen.HELP),
        ("Code and diff views", CodeView, "In the Event and Patch tabs and in replay."),
        ("Help", HelpScreen, ""),
    ]


def palette_commands(app: AuditlogApp, screen: Screen) -> Iterable[SystemCommand]:
    """The main actions, for the screen the palette was opened on."""

    def run(target: Screen | App, action: str):
        async def callback() -> None:
            await target.run_action(action)
        return callback

    yield SystemCommand("Search all sessions", "Full-text search of prompts, answers, commands, errors and paths",
                        app.action_search)
    yield SystemCommand("Show keys", "Every key of every screen", app.action_help)
    yield SystemCommand("Toggle dark / light", "Switch between the dark and light themes", app.action_toggle_theme)
    if isinstance(screen, SessionsScreen):
        yield SystemCommand("Open the selected session", "Its timeline, conversation and patches", run(screen, "open"))
        yield SystemCommand("Filter by file", "Sessions that changed a path, name or glob", run(screen, "focus_file"))
        yield SystemCommand("Filter by text", "Words in prompts, answers, commands", run(screen, "focus_filters"))
        yield SystemCommand("Clear filters", "Show every session", run(screen, "clear_filters"))
        yield SystemCommand("Reload sessions", "Read the index again", run(screen, "reload"))
    if isinstance(screen, SessionScreen):
        yield SystemCommand("Replay diffs", "Step through this session's file changes", run(screen, "replay"))
        yield SystemCommand("Export session as Markdown", "Write auditlog-<id>.md in the current folder",
                            run(screen, "export('md')"))
        yield SystemCommand("Export session as HTML", "Write auditlog-<id>.html in the current folder",
                            run(screen, "export('html')"))
        yield SystemCommand("Toggle live follow", "Keep the newest event in view as it arrives",
                            run(screen, "toggle_follow"))
        yield SystemCommand("Next prompt", "Jump to the next prompt in the timeline", run(screen, "next_prompt"))
        yield SystemCommand("Next change", "Jump to the next file change", run(screen, "next_change"))
    if isinstance(screen, ReplayScreen):
        yield SystemCommand("Toggle whole file", "The file as it stood after this step", run(screen, "toggle_whole"))
        yield SystemCommand("Limit replay to this file", "Or show every file again", run(screen, "toggle_only"))
        yield SystemCommand("First step", "Go to the first change", run(screen, "first"))
        yield SystemCommand("Last step", "Go to the last change", run(screen, "last"))


def browse_limit(args: argparse.Namespace) -> int | None:
    """The cap on the sessions list: ``--limit N`` (none by default; 0 means none): the
    browser pages through every match."""
    limit = getattr(args, "limit", None)
    return limit or None


def cmd_browse(args: argparse.Namespace) -> int:
    """``auditlog browse [filters] [--session SESSION]``."""
    filters = FilterState.from_args(args, limit=browse_limit(args))
    filters.to_filter()  # a date the CLI cannot read is an error before the screen opens
    session = Reader().resolve(args.session).id if getattr(args, "session", None) else None
    app = AuditlogApp(filters, session=session)
    app.run()
    return 0
