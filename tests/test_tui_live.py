"""Live follow: events the hook writes while a session is open appear within a second,
appended to the open screen (no reload), and paging of a large sessions table."""

from __future__ import annotations

import asyncio
import sys
import time
from pathlib import Path

from auditlog.tui.app import AuditlogApp
from auditlog.tui.screens.replay import ReplayScreen
from auditlog.tui.screens.session import SessionScreen
from auditlog.tui.screens.sessions import FIRST_PAGE, SessionsScreen
from auditlog.tui.widgets.detail_pane import DetailPane
from auditlog.tui.widgets.sessions_table import SessionsTable
from auditlog.tui.widgets.timeline import Timeline
from store_builder import ClaudeSession, make_repo
from test_tui_support import async_test, wait_for

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
from tui_first_paint import write_store

LIVE = "11ee0000-0000-4000-8000-000000000001"


async def open_live(pilot) -> tuple[SessionScreen, Timeline]:
    await wait_for(pilot, lambda: isinstance(pilot.app.screen, SessionScreen)
                   and pilot.app.screen.query_one(Timeline).row_count > 0, what="the live session")
    screen = pilot.app.screen
    return screen, screen.query_one(Timeline)


@async_test
async def test_new_events_appear_within_a_second_without_reloading(store: Path, tmp_path: Path) -> None:
    project = make_repo(tmp_path / "proj", {"notes.txt": "one\n"})
    session = ClaudeSession(project, session_id=LIVE)
    session.start()
    session.prompt("Start the notes")
    async with AuditlogApp(session=LIVE).run_test(size=(100, 30)) as pilot:
        screen, timeline = await open_live(pilot)
        assert timeline.row_count == 2 and screen.follow, "a session that has not ended opens in follow mode"
        await pilot.press("1")
        first_rows = list(timeline.ordered_rows)
        await asyncio.to_thread(session.edit, "notes.txt", "one", "two")  # PreToolUse, PostToolUse, PostToolBatch
        written = time.perf_counter()
        await wait_for(pilot, lambda: timeline.row_count == 5, timeout=1.0, what="the three new events")
        latency = time.perf_counter() - written
        assert latency < 1.0
        assert pilot.app.screen is screen and screen.query_one(Timeline) is timeline, "the screen was not replaced"
        assert list(timeline.ordered_rows)[:2] == first_rows, "the rows already shown were kept, not rebuilt"
        assert timeline.current.seq == 5, "following: the cursor is on the newest event"
        assert timeline.is_change(timeline.events[3]), "the new change is marked as one"
        assert screen.query_one(DetailPane).tab == "conversation"
        markdown = screen.query_one("#conversation")
        await wait_for(pilot, lambda: "notes.txt" in markdown.source, timeout=2.0, what="the conversation to grow")


@async_test
async def test_follow_off_keeps_the_cursor_and_replay_grows(store: Path, tmp_path: Path) -> None:
    project = make_repo(tmp_path / "proj", {"a.txt": "a\n", "b.txt": "b\n"})
    session = ClaudeSession(project, session_id=LIVE)
    session.start()
    session.prompt("Edit both files")
    session.edit("a.txt", "a", "A")
    async with AuditlogApp(session=LIVE).run_test(size=(100, 30)) as pilot:
        screen, timeline = await open_live(pilot)
        await pilot.press("f")  # follow off
        assert not screen.follow
        await pilot.press("p")
        cursor = timeline.cursor_row
        await pilot.press("d")
        await wait_for(pilot, lambda: isinstance(pilot.app.screen, ReplayScreen)
                       and pilot.app.screen.state is not None, what="the replay")
        replay = pilot.app.screen
        assert replay.state.count == 1
        await asyncio.to_thread(session.edit, "b.txt", "b", "B")
        await wait_for(pilot, lambda: replay.state.count == 2, timeout=3.0, what="the replay to see the new change")
        assert replay.state.position == 0, "the step on screen stays put"
        assert "Step 1 of 2" in str(replay.query_one("#step-title").render())
        await pilot.press("escape")
        await wait_for(pilot, lambda: timeline.row_count == 8, timeout=3.0, what="the timeline to hold every event")
        assert timeline.cursor_row == cursor, "follow is off: the cursor stays where it was"


@async_test
async def test_session_end_arriving_live_updates_the_title(store: Path, tmp_path: Path) -> None:
    project = make_repo(tmp_path / "proj", {"a.txt": "a\n"})
    session = ClaudeSession(project, session_id=LIVE)
    session.start()
    session.prompt("Say hello")
    async with AuditlogApp(session=LIVE).run_test(size=(100, 30)) as pilot:
        screen, _timeline = await open_live(pilot)
        title = screen.query_one("#session-title")
        assert "● live · following" in str(title.render())
        await asyncio.to_thread(session.end)
        await wait_for(pilot, lambda: "ended (other)" in str(title.render()), timeout=3.0, what="the ended state")


@async_test
async def test_large_store_loads_a_page_first_and_more_on_scroll(store: Path) -> None:
    write_store(store, FIRST_PAGE + 150)
    async with AuditlogApp().run_test(size=(100, 30)) as pilot:
        await wait_for(pilot, lambda: isinstance(pilot.app.screen, SessionsScreen)
                       and pilot.app.screen.query_one(SessionsTable).row_count > 0, what="the first page")
        screen = pilot.app.screen
        table = screen.query_one(SessionsTable)
        assert table.row_count == FIRST_PAGE and screen.matching == FIRST_PAGE + 150
        assert "100 loaded, more as you scroll" in str(screen.query_one("#sessions-status").render())
        await pilot.press("end")
        await wait_for(pilot, lambda: table.row_count == FIRST_PAGE + 150, what="the rest")
        ids = [str(row.key.value) for row in table.ordered_rows]
        assert len(set(ids)) == len(ids) and ids[0] > ids[-1], "newest first, no row twice"
        assert str(screen.query_one("#sessions-status").render()) == "250 sessions"
