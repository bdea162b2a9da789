"""Pilot tests: the main action of every screen, driven by keys as a user would."""

from __future__ import annotations

from pathlib import Path

import pytest
from auditlog.tui.app import AuditlogApp, help_sections
from auditlog.tui.screens.help import HelpScreen, bindings_of, key_label
from auditlog.tui.screens.replay import ReplayScreen
from auditlog.tui.screens.search import SearchScreen
from auditlog.tui.screens.session import SessionScreen
from auditlog.tui.screens.sessions import SessionsScreen
from auditlog.tui.widgets.code_view import CodeView
from auditlog.tui.widgets.detail_pane import DetailPane
from auditlog.tui.widgets.sessions_table import SessionsTable
from auditlog.tui.widgets.timeline import Timeline
from test_tui_support import (
    SESSION_A,
    SESSION_B,
    SESSION_C,
    DemoStore,
    async_test,
    demo_store_fixture,  # noqa: F401 (registers the demo_store fixture)
    settle,
    wait_for,
)
from textual import events
from textual.widgets import Input

SIZE = (100, 30)


def table_ids(app: AuditlogApp) -> list[str]:
    table = app.screen.query_one(SessionsTable)
    return [str(row.key.value) for row in table.ordered_rows]


async def open_sessions(pilot) -> SessionsScreen:
    await wait_for(pilot, lambda: isinstance(pilot.app.screen, SessionsScreen)
                   and pilot.app.screen.query_one(SessionsTable).row_count > 0, what="the sessions table")
    return pilot.app.screen


@async_test
async def test_sessions_lists_newest_first_with_counts(demo_store: DemoStore) -> None:
    async with demo_store.app().run_test(size=SIZE) as pilot:
        screen = await open_sessions(pilot)
        assert table_ids(pilot.app) == [SESSION_C, SESSION_B, SESSION_A]
        assert screen.total == 3 and screen.matching == 3
        assert str(screen.query_one("#sessions-status").render()) == "3 sessions"


@async_test
async def test_file_filter_debounces_typing_and_enter_opens(demo_store: DemoStore) -> None:
    async with demo_store.app().run_test(size=SIZE) as pilot:
        screen = await open_sessions(pilot)
        before = screen.generation
        await pilot.press("F")  # focus the file field
        for char in "server.py":  # nine keys as a typist sends them (pilot.press idles between keys)
            pilot.app.post_message(events.Key(char if char.isalnum() else "full_stop", char))
        await wait_for(pilot, lambda: table_ids(pilot.app) == [SESSION_A], what="the filtered table")
        assert screen.generation == before + 1, "typing a word should cost one query, not one per key"
        assert "1 session matches (of 3)" in str(screen.query_one("#sessions-status").render())
        await pilot.press("enter")  # apply now and go to the table
        assert screen.focused is screen.query_one(SessionsTable)
        await pilot.press("enter")  # open
        await wait_for(pilot, lambda: isinstance(pilot.app.screen, SessionScreen), what="the session screen")
        assert pilot.app.screen.session_id == SESSION_A


@async_test
async def test_text_prompt_scope_agent_and_project_filters(demo_store: DemoStore) -> None:
    async with demo_store.app().run_test(size=SIZE) as pilot:
        screen = await open_sessions(pilot)
        screen.set_filter("text", "port")
        await wait_for(pilot, lambda: table_ids(pilot.app) == [SESSION_C, SESSION_A], what="text filter")
        screen.set_filter("project", "other")
        await wait_for(pilot, lambda: table_ids(pilot.app) == [], what="text and project filter")
        assert "0 sessions match" in str(screen.query_one("#sessions-status").render())
        await pilot.press("x")  # clear
        await wait_for(pilot, lambda: len(table_ids(pilot.app)) == 3, what="cleared filters")
        screen.set_filter("agent", "codex")
        await wait_for(pilot, lambda: table_ids(pilot.app) == [], what="agent filter")


@async_test
async def test_bad_date_marks_the_field_and_keeps_the_table(demo_store: DemoStore) -> None:
    async with demo_store.app().run_test(size=SIZE) as pilot:
        screen = await open_sessions(pilot)
        await pilot.click("#f-since")
        await pilot.press(*"fortnight")
        await wait_for(pilot, lambda: screen.query_one("#f-since", Input).has_class("-invalid"), what="error mark")
        assert "can't read 'fortnight' as a date" in str(screen.query_one("#sessions-status").render())
        assert len(table_ids(pilot.app)) == 3
        field = screen.query_one("#f-since", Input)
        field.value = "3d"
        await wait_for(pilot, lambda: not field.has_class("-invalid"), what="the mark to clear")
        await wait_for(pilot, lambda: screen.matching == 3, what="the since filter (everything is recent)")


@async_test
async def test_session_screen_jumps_between_prompts_and_changes(demo_store: DemoStore) -> None:
    async with demo_store.app(session=SESSION_A).run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: isinstance(pilot.app.screen, SessionScreen)
                       and pilot.app.screen.query_one(Timeline).row_count > 0, what="the timeline")
        timeline = pilot.app.screen.query_one(Timeline)
        assert timeline.current.kind == "session_start"
        await pilot.press("p")
        assert timeline.current.kind == "prompt" and timeline.current.summary.startswith("Make the service")
        await pilot.press("p")
        assert timeline.current.summary == "Add a test for the port"
        await pilot.press("P")
        assert timeline.current.summary.startswith("Make the service")
        changed = []
        for _ in range(6):
            await pilot.press("c")
            changed.append(timeline.current.seq)
        assert len(set(changed)) == 5 and all(timeline.is_change(e) for e in timeline.events if e.seq in changed)
        await pilot.press("C")
        assert timeline.current.seq == changed[3]


@async_test
async def test_session_detail_shows_record_and_patch(demo_store: DemoStore) -> None:
    async with demo_store.app(session=SESSION_A).run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: isinstance(pilot.app.screen, SessionScreen)
                       and pilot.app.screen.query_one(Timeline).row_count > 0, what="the timeline")
        screen = pilot.app.screen
        await pilot.press("c", "2")
        seq = screen.query_one(Timeline).current.seq
        record = screen.query_one("#record", CodeView)
        await wait_for(pilot, lambda: any(f'"seq": {seq},' in ln.text for ln in record.lines), what="the record")
        assert screen.query_one(DetailPane).tab == "event"
        await pilot.press("3")
        patch = screen.query_one("#patch", CodeView)
        assert [ln.text for ln in patch.lines if ln.kind in ("del", "add")] == ["port = 8000", "port = 8080"]
        assert patch.lines[0].kind == "file" and patch.lines[0].text.startswith("config.ini")
        await pilot.press("1")
        assert screen.query_one(DetailPane).tab == "conversation"
        markdown = screen.query_one("#conversation")
        await wait_for(pilot, lambda: "Make the service listen on port 8080" in markdown.source, what="conversation")


@async_test
async def test_export_markdown_and_html_to_the_cwd(demo_store: DemoStore, tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    async with demo_store.app(session=SESSION_B).run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: isinstance(pilot.app.screen, SessionScreen)
                       and pilot.app.screen.data is not None, what="the session")
        await pilot.press("e")
        await wait_for(pilot, lambda: (tmp_path / "auditlog-5e55b000.md").exists(), what="the .md export")
        await pilot.press("E")
        await wait_for(pilot, lambda: (tmp_path / "auditlog-5e55b000.html").exists(), what="the .html export")
        await pilot.press("e")
        await wait_for(pilot, lambda: (tmp_path / "auditlog-5e55b000-2.md").exists(), what="a second export")
        await settle(pilot)
        messages = [n.message for n in pilot.app._notifications]
        assert f"exported to {tmp_path / 'auditlog-5e55b000.md'}" in messages
    assert "Rename the helper to compute" in (tmp_path / "auditlog-5e55b000.md").read_text()
    html = (tmp_path / "auditlog-5e55b000.html").read_text()
    assert html.startswith("<!DOCTYPE html>") and "Rename the helper to compute" in html


@async_test
async def test_replay_steps_forward_back_first_last(demo_store: DemoStore) -> None:
    async with demo_store.app(session=SESSION_A).run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: isinstance(pilot.app.screen, SessionScreen)
                       and pilot.app.screen.data is not None, what="the session")
        await pilot.press("d")
        await wait_for(pilot, lambda: isinstance(pilot.app.screen, ReplayScreen)
                       and pilot.app.screen.state is not None, what="the replay")
        replay = pilot.app.screen
        view = replay.query_one(CodeView)

        def title() -> str:
            return str(replay.query_one("#step-title").render())

        await wait_for(pilot, lambda: bool(view.lines) and view.lines[0].text.startswith("config.ini"), what="step 1")
        assert title().startswith("Step 1 of 5 · Edit · config.ini (+1 −1)")
        assert str(replay.query_one("#step-prompt").render()) == "❯ Make the service listen on port 8080"
        await pilot.press("right")
        await wait_for(pilot, lambda: view.lines[0].text.startswith("src/server.py"), what="step 2")
        assert title().startswith("Step 2 of 5 · Edit · src/server.py")
        await pilot.press("end")
        await wait_for(pilot, lambda: title().startswith("Step 5 of 5"), what="the last step")
        assert str(replay.query_one("#step-prompt").render()) == "❯ Add a test for the port"
        await pilot.press("right")  # already last: stays
        assert title().startswith("Step 5 of 5")
        await pilot.press("left")
        await wait_for(pilot, lambda: title().startswith("Step 4 of 5 · Bash · build.log"), what="step 4")
        await pilot.press("home")
        await wait_for(pilot, lambda: title().startswith("Step 1 of 5"), what="the first step")


@async_test
async def test_replay_whole_file_and_one_file_only(demo_store: DemoStore) -> None:
    async with demo_store.app(session=SESSION_A).run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: isinstance(pilot.app.screen, SessionScreen)
                       and pilot.app.screen.data is not None, what="the session")
        await pilot.press("d")
        await wait_for(pilot, lambda: isinstance(pilot.app.screen, ReplayScreen)
                       and pilot.app.screen.state is not None, what="the replay")
        replay = pilot.app.screen
        view = replay.query_one(CodeView)
        await pilot.press("w")
        await wait_for(pilot, lambda: [ln.text for ln in view.lines] == ["[server]", "host = 127.0.0.1", "port = 8080"],
                       what="config.ini after step 1")
        assert [ln.kind for ln in view.lines] == ["plain", "plain", "mark"]
        await pilot.press("o")  # config.ini only: steps 1 and 5 of the session
        assert replay.state.count == 2 and replay.state.position == 0
        await pilot.press("right")
        await wait_for(pilot, lambda: [ln.text for ln in view.lines] == ["[server]", "host = 0.0.0.0", "port = 8080"],
                       what="config.ini after its last change")
        assert "Step 2 of 2" in str(replay.query_one("#step-title").render())
        await pilot.press("o", "w")  # all files again, hunks again; the same change stays on screen
        assert replay.state.count == 5 and replay.state.position == 4
        await wait_for(pilot, lambda: [(ln.kind, ln.text) for ln in view.lines if ln.kind in ("del", "add")]
                       == [("del", "host = 127.0.0.1"), ("add", "host = 0.0.0.0")], what="hunks of step 5")


@async_test
async def test_enter_on_a_change_opens_replay_there(demo_store: DemoStore) -> None:
    async with demo_store.app(session=SESSION_A).run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: isinstance(pilot.app.screen, SessionScreen)
                       and pilot.app.screen.data is not None, what="the session")
        await pilot.press("c", "c", "enter")
        await wait_for(pilot, lambda: isinstance(pilot.app.screen, ReplayScreen)
                       and pilot.app.screen.state is not None, what="the replay")
        assert pilot.app.screen.state.position == 1 and pilot.app.screen.state.current.path == "src/server.py"
        await pilot.press("escape")
        assert isinstance(pilot.app.screen, SessionScreen)


@async_test
async def test_search_highlights_and_opens_the_session_at_the_hit(demo_store: DemoStore) -> None:
    async with demo_store.app().run_test(size=SIZE) as pilot:
        await open_sessions(pilot)
        await pilot.press("slash")
        assert isinstance(pilot.app.screen, SearchScreen)
        search = pilot.app.screen
        await pilot.press(*"compute")
        await wait_for(pilot, lambda: len(search.hits) > 0, what="hits")
        hit = search.hits[0]
        assert hit.session == SESSION_B and "[[compute]]" in hit.snippet
        cell = search.query_one("#hits").get_row_at(0)[3]
        marked = [cell.plain[s.start:s.end] for s in cell.spans if "reverse" in str(s.style)]
        assert marked == ["compute"]
        await pilot.press("enter")  # from the query: to the hits
        await pilot.press("enter")  # open at the event
        await wait_for(pilot, lambda: isinstance(pilot.app.screen, SessionScreen)
                       and pilot.app.screen.query_one(Timeline).row_count > 0, what="the session at the hit")
        assert pilot.app.screen.query_one(Timeline).current.seq == hit.seq
        assert pilot.app.screen.query_one(DetailPane).tab == "event"


@async_test
async def test_search_reads_a_broken_query_as_words(demo_store: DemoStore) -> None:
    async with demo_store.app().run_test(size=SIZE) as pilot:
        await open_sessions(pilot)
        await pilot.press("slash", *'"port')
        search = pilot.app.screen
        await wait_for(pilot, lambda: len(search.hits) > 0, what="hits for the unbalanced quote")
        assert "read as plain words" in str(search.query_one("#search-status").render())


@async_test
async def test_help_lists_every_key_of_every_screen(demo_store: DemoStore) -> None:
    async with demo_store.app().run_test(size=SIZE) as pilot:
        await open_sessions(pilot)
        await pilot.press("question_mark")
        assert isinstance(pilot.app.screen, HelpScreen)
        text = pilot.app.screen.text()
        for _title, owner, _note in help_sections():
            for binding in bindings_of(owner):
                assert key_label(binding.key) in text, binding
                assert binding.description in text
        await pilot.press("escape")
        assert isinstance(pilot.app.screen, SessionsScreen)


@async_test
async def test_palette_offers_the_screens_main_actions(demo_store: DemoStore) -> None:
    async with demo_store.app(session=SESSION_A).run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: isinstance(pilot.app.screen, SessionScreen)
                       and pilot.app.screen.data is not None, what="the session")
        commands = {c.title: c for c in pilot.app.get_system_commands(pilot.app.screen)}
        for title in ("Search all sessions", "Show keys", "Toggle dark / light", "Replay diffs",
                      "Export session as Markdown", "Export session as HTML", "Toggle live follow"):
            assert title in commands
        await commands["Replay diffs"].callback()
        await wait_for(pilot, lambda: isinstance(pilot.app.screen, ReplayScreen)
                       and pilot.app.screen.state is not None, what="replay from the palette")
        await settle(pilot)
        sessions_commands = {c.title for c in pilot.app.get_system_commands(SessionsScreen(None, None, None))}
        assert {"Open the selected session", "Filter by file", "Clear filters"} <= sessions_commands


@async_test
async def test_theme_toggle_switches_dark_and_light(demo_store: DemoStore) -> None:
    async with demo_store.app(session=SESSION_A).run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: isinstance(pilot.app.screen, SessionScreen)
                       and pilot.app.screen.query_one(Timeline).row_count > 0, what="the session")
        assert pilot.app.current_theme.dark
        timeline = pilot.app.screen.query_one(Timeline)
        await pilot.press("p")
        dark_prompt = timeline.get_row_at(1)[2].spans[0].style
        await pilot.press("ctrl+t")
        await pilot.pause()
        assert pilot.app.theme == "textual-light"
        light_prompt = timeline.get_row_at(1)[2].spans[0].style
        assert light_prompt.color != dark_prompt.color, "rows are recoloured for the light theme"
        assert timeline.cursor_row == 1, "and the cursor stays where it was"
        await pilot.press("3")
        assert not pilot.app.screen.query_one("#patch", CodeView).palette.dark
        await pilot.press("ctrl+t")
        assert pilot.app.theme == "textual-dark"


@async_test
async def test_quit_key_types_into_fields_but_quits_elsewhere(demo_store: DemoStore) -> None:
    async with demo_store.app().run_test(size=SIZE) as pilot:
        screen = await open_sessions(pilot)
        await pilot.press("f", "q")
        assert screen.query_one("#f-text", Input).value == "q" and pilot.app.is_running
        await pilot.press("escape", "q")
        await wait_for(pilot, lambda: not pilot.app.is_running, what="quit")


@async_test
async def test_live_session_shows_in_table(demo_store: DemoStore) -> None:
    async with demo_store.app().run_test(size=(140, 30)) as pilot:
        await open_sessions(pilot)
        row = pilot.app.screen.query_one(SessionsTable).get_row(SESSION_C)
        assert row[4].plain.endswith("●")  # not ended
        assert not pilot.app.screen.query_one(SessionsTable).get_row(SESSION_A)[4].plain.endswith("●")
