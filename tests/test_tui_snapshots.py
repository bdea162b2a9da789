"""Snapshot tests (pytest-textual-snapshot) of every screen, at 80x24 and larger, in
the dark and light themes, on the demo store written through the real hook.

The app is given ``MaskedDisplay`` (see ``test_tui_support``): times, durations, random
tool and prompt ids and the temporary folder are drawn as fixed text, so the SVGs compare
equal from run to run. Update them with ``pytest tests/test_tui_snapshots.py
--snapshot-update`` after a deliberate change, and look at the report it writes.
"""

from __future__ import annotations

from auditlog.tui.screens.help import HelpScreen
from auditlog.tui.screens.replay import ReplayScreen
from auditlog.tui.screens.search import SearchScreen
from auditlog.tui.screens.session import SessionScreen
from auditlog.tui.screens.sessions import SessionsScreen
from auditlog.tui.widgets.code_view import CodeView
from auditlog.tui.widgets.sessions_table import SessionsTable
from auditlog.tui.widgets.timeline import Timeline
from test_tui_support import (
    SESSION_A,
    DemoStore,
    demo_store_fixture,  # noqa: F401 (registers the demo_store fixture)
    settle,
    wait_for,
)

SMALL, MEDIUM, LARGE = (80, 24), (110, 32), (160, 44)


async def sessions_ready(pilot) -> None:
    await wait_for(pilot, lambda: isinstance(pilot.app.screen, SessionsScreen)
                   and pilot.app.screen.query_one(SessionsTable).row_count > 0, what="sessions")
    await settle(pilot)


async def session_ready(pilot) -> None:
    await wait_for(pilot, lambda: isinstance(pilot.app.screen, SessionScreen)
                   and pilot.app.screen.query_one(Timeline).row_count > 0, what="the session")
    await settle(pilot)
    markdown = pilot.app.screen.query_one("#conversation")
    await wait_for(pilot, lambda: bool(markdown.source), what="the conversation")
    await settle(pilot)


async def detail_ready(pilot, tab: str) -> None:
    await pilot.press("c", "c", tab)  # the second change: src/server.py
    view = pilot.app.screen.query_one("#record" if tab == "2" else "#patch", CodeView)
    seq = pilot.app.screen.query_one(Timeline).current.seq
    if tab == "2":
        await wait_for(pilot, lambda: any(f'"seq": {seq},' in ln.text for ln in view.lines), what="the record")
    else:
        await wait_for(pilot, lambda: bool(view.lines) and view.lines[0].kind == "file", what="the patch")
    await settle(pilot)


async def replay_ready(pilot, *keys: str) -> None:
    await session_ready(pilot)
    await pilot.press("d")
    await wait_for(pilot, lambda: isinstance(pilot.app.screen, ReplayScreen)
                   and bool(pilot.app.screen.query_one(CodeView).lines), what="the replay")
    for key in keys:
        before = pilot.app.screen.query_one(CodeView).lines
        await pilot.press(key)
        await wait_for(pilot, lambda before=before: pilot.app.screen.query_one(CodeView).lines is not before,
                       what=f"the replay after {key}")
    await settle(pilot)


def test_sessions_80x24(snap_compare, demo_store: DemoStore) -> None:
    assert snap_compare(demo_store.app(), terminal_size=SMALL, run_before=sessions_ready)


def test_sessions_light_theme(snap_compare, demo_store: DemoStore) -> None:
    assert snap_compare(demo_store.app(theme="textual-light"), terminal_size=SMALL, run_before=sessions_ready)


def test_sessions_large_terminal(snap_compare, demo_store: DemoStore) -> None:
    assert snap_compare(demo_store.app(), terminal_size=LARGE, run_before=sessions_ready)


def test_sessions_filtered_by_file(snap_compare, demo_store: DemoStore) -> None:
    async def run_before(pilot) -> None:
        await sessions_ready(pilot)
        await pilot.press("F", *"config.ini")
        await wait_for(pilot, lambda: pilot.app.screen.matching == 1, what="the file filter")
        await pilot.press("enter")
        await settle(pilot)

    assert snap_compare(demo_store.app(), terminal_size=SMALL, run_before=run_before)


def test_session_conversation_80x24(snap_compare, demo_store: DemoStore) -> None:
    assert snap_compare(demo_store.app(session=SESSION_A), terminal_size=SMALL, run_before=session_ready)


def test_session_event_record(snap_compare, demo_store: DemoStore) -> None:
    async def run_before(pilot) -> None:
        await session_ready(pilot)
        await detail_ready(pilot, "2")

    assert snap_compare(demo_store.app(session=SESSION_A), terminal_size=MEDIUM, run_before=run_before)


def test_session_patch_large(snap_compare, demo_store: DemoStore) -> None:
    async def run_before(pilot) -> None:
        await session_ready(pilot)
        await detail_ready(pilot, "3")

    assert snap_compare(demo_store.app(session=SESSION_A), terminal_size=LARGE, run_before=run_before)


def test_replay_80x24(snap_compare, demo_store: DemoStore) -> None:
    async def run_before(pilot) -> None:
        await replay_ready(pilot, "right")

    assert snap_compare(demo_store.app(session=SESSION_A), terminal_size=SMALL, run_before=run_before)


def test_replay_whole_file_light(snap_compare, demo_store: DemoStore) -> None:
    async def run_before(pilot) -> None:
        await replay_ready(pilot, "right", "w")

    app = demo_store.app(session=SESSION_A, theme="textual-light")
    assert snap_compare(app, terminal_size=MEDIUM, run_before=run_before)


def test_search_80x24(snap_compare, demo_store: DemoStore) -> None:
    async def run_before(pilot) -> None:
        await sessions_ready(pilot)
        await pilot.press("slash", *"port")
        await wait_for(pilot, lambda: isinstance(pilot.app.screen, SearchScreen) and len(pilot.app.screen.hits) >= 3,
                       what="hits")
        await settle(pilot)

    assert snap_compare(demo_store.app(), terminal_size=SMALL, run_before=run_before)


def test_help_80x24(snap_compare, demo_store: DemoStore) -> None:
    async def run_before(pilot) -> None:
        await sessions_ready(pilot)
        await pilot.press("question_mark")
        await wait_for(pilot, lambda: isinstance(pilot.app.screen, HelpScreen), what="help")
        await settle(pilot)

    assert snap_compare(demo_store.app(), terminal_size=SMALL, run_before=run_before)
