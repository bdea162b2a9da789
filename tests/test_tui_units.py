"""The TUI's pure parts: filters, replay stepping, live-follow decisions, line models,
formats, highlighting, and ``auditlog browse``'s argument checks."""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from datetime import UTC, timezone
from datetime import timedelta as td
from pathlib import Path

import pytest
from auditlog.tui.app import browse_limit, cmd_browse
from auditlog.tui.data.filters import FilterError, FilterState
from auditlog.tui.data.follow import GRACE_TICKS, JournalWatch
from auditlog.tui.data.lines import file_lines, json_lines, patch_lines, written_lines
from auditlog.tui.data.replay import ReplayState
from auditlog.tui.display import Display, count
from auditlog.tui.highlight import clean, style_for, tokens
from auditlog.tui.screens.help import key_label
from auditlog.tui.screens.search import snippet_text
from auditlog.tui.widgets.sessions_table import first_line, short_project
from pygments.token import Keyword
from rich.style import Style

from auditlog.models import Change
from auditlog.query import QueryError

PATCH = """diff --git a/src/app.py b/src/app.py
index 1111111..2222222 100644
--- a/src/app.py
+++ b/src/app.py
@@ -1,3 +1,4 @@ def main():
 import os
-PORT = 8000
+PORT = 8080
+HOST = "0.0.0.0"
 print(PORT)
\\ No newline at end of file
"""


def change(seq: int, path: str) -> Change:
    return Change("s", seq, "2026-01-05T09:00:00.000Z", path, "modify", 1, 1, False, f"patches/{seq}.patch",
                  f"/nonexistent/{seq}.patch", "Edit", "a prompt", 1)


def browse_args(**given: object) -> argparse.Namespace:
    fields = dict.fromkeys(("since", "until", "file", "prompt", "project", "agent", "tool", "limit", "session"))
    return argparse.Namespace(**{**fields, "failed": False, **given})


# -- filters ---------------------------------------------------------------------------

def test_filter_state_from_browse_arguments() -> None:
    state = FilterState.from_args(browse_args(prompt="port", file="config.ini", agent="claude", tool="Bash",
                                              failed=True, limit=20), limit=20)
    flt = state.to_filter()
    assert (flt.prompt, flt.text, flt.file, flt.agent, flt.tool, flt.failed, flt.limit) == \
        ("port", None, "config.ini", "claude-code", "Bash", True, 20)
    assert state.fixed() == "tool Bash, failed only, at most 20"
    cleared = state.cleared()
    assert cleared.text == "" and cleared.file == "" and cleared.tool == "Bash" and cleared.failed


def test_filter_state_scopes_free_text_and_rejects_bad_dates() -> None:
    assert FilterState(text="  port ").to_filter().text == "port"
    assert FilterState(text="port", scope="prompts").to_filter().prompt == "port"
    assert FilterState(since="last week", until="today").to_filter().since == "last week"
    with pytest.raises(FilterError) as caught:
        FilterState(until="someday").to_filter()
    assert caught.value.field == "until" and "someday" in str(caught.value)
    assert not FilterState().active and FilterState(project="x").active


def test_browse_limit_is_none_unless_given() -> None:
    assert browse_limit(browse_args(limit=None)) is None  # browse's own default: every session
    assert browse_limit(browse_args(limit=50)) == 50
    assert browse_limit(browse_args(limit=0)) is None


# -- replay ----------------------------------------------------------------------------

def test_replay_steps_clamp_at_both_ends() -> None:
    state = ReplayState([change(3, "a"), change(5, "b"), change(9, "a")])
    assert state.count == 3 and state.current.seq == 3
    assert not state.step(-1) and state.position == 0
    assert state.step(1) and state.current.seq == 5
    assert state.last() and state.current.seq == 9 and not state.step(1)
    assert state.first() and state.position == 0


def test_replay_only_one_file_keeps_the_change_on_screen() -> None:
    state = ReplayState([change(3, "a"), change(5, "b"), change(9, "a")])
    state.last()
    state.toggle_only()
    assert state.only == "a" and [c.seq for c in state.steps] == [3, 9] and state.position == 1
    state.toggle_only()
    assert state.only is None and state.count == 3 and state.current.seq == 9
    state.show_change(5)
    assert state.current.path == "b"
    state.show_change(6)  # not a change: the next one after it
    assert state.current.seq == 9
    state.first()
    state.extend([*state.changes, change(12, "c")])
    assert state.count == 4 and state.current.seq == 3


def test_replay_of_a_session_without_changes() -> None:
    state = ReplayState([])
    assert state.current is None and state.count == 0 and not state.step(1)
    state.toggle_only()
    assert state.only is None


# -- live follow -----------------------------------------------------------------------

def test_journal_watch_fetches_on_growth_and_for_a_grace_period() -> None:
    watch = JournalWatch(size=100)
    assert not watch.should_fetch(100)
    assert watch.should_fetch(180)
    grace = [watch.should_fetch(180) for _ in range(GRACE_TICKS + 2)]
    assert grace == [True] * GRACE_TICKS + [False, False]


# -- line models -----------------------------------------------------------------------

def test_patch_lines_follow_unidiff_structure() -> None:
    lines = patch_lines(PATCH)
    assert [ln.kind for ln in lines] == ["file", "hunk", "ctx", "del", "add", "add", "ctx", "meta"]
    assert lines[0].text == "src/app.py  +2 −1"
    assert lines[1].text == "@@ -1,3 +1,4 @@ def main():"
    assert (lines[3].old, lines[3].new, lines[4].old, lines[4].new) == (2, None, None, 2)
    assert written_lines(lines, "src/app.py") == {2, 3}
    assert all(ln.path == "src/app.py" for ln in lines)


def test_patch_lines_binary_empty_and_broken() -> None:
    binary = "diff --git a/i.png b/i.png\nindex 1..2 100644\nBinary files a/i.png and b/i.png differ\n"
    assert [ln.kind for ln in patch_lines(binary)] == ["file", "meta"]
    assert patch_lines("")[0].kind == "note"
    broken = patch_lines("--- a/x\n+++ b/x\n@@ -1,5 +1,5 @@\n-only one line\n")
    assert broken[0].kind == "note" and "could not be parsed" in broken[0].text


def test_file_lines_mark_what_the_step_wrote() -> None:
    lines = file_lines(b"a\nb\nc\n", "x.txt", {2})
    assert [(ln.kind, ln.text, ln.new) for ln in lines] == [("plain", "a", 1), ("mark", "b", 2), ("plain", "c", 3)]
    assert "deleted" in file_lines(None, "x.txt", set())[0].text
    assert "binary" in file_lines(b"\x89PNG\0\0", "i.png", set())[0].text


def test_json_lines_are_indented_json() -> None:
    lines = json_lines({"seq": 1, "payload": {"prompt": "hé"}})
    assert [ln.text for ln in lines] == ["{", '  "seq": 1,', '  "payload": {', '    "prompt": "hé"', "  }", "}"]


# -- formats ---------------------------------------------------------------------------

def test_display_formats_in_the_chosen_zone() -> None:
    d = Display(tz=UTC, home="/home/ann")
    assert d.when("2026-01-05T09:30:12.345Z") == "2026-01-05 09:30"
    assert Display(tz=timezone(td(hours=2))).clock("2026-01-05T09:30:12.345Z") == "11:30:12"
    assert d.stamp("2026-01-05T09:30:12.345Z") == "2026-01-05 09:30:12.345 UTC"
    assert [d.duration(s) for s in (None, 4.4, 65, 3600 * 3 + 300)] == ["", "4s", "1m05", "3h05"]
    assert d.path("/home/ann/src/x") == "~/src/x" and d.path("/home/annex") == "/home/annex"
    assert count(1, "session") == "1 session" and count(10_000, "session") == "10,000 sessions"


def test_table_cells_are_cut_and_shortened() -> None:
    assert first_line("  fix the build\nthen tests", 40) == "fix the build"
    assert first_line("x" * 50, 10) == "x" * 9 + "…"
    assert short_project("/home/dev/work/api") == "work/api"
    assert short_project("~/api") == "~/api"


def test_snippet_marks_become_highlighted_spans() -> None:
    text = snippet_text("set the [[port]]\nto [[8080]]", _palette())
    assert text.plain == "set the port to 8080"
    assert [text.plain[s.start:s.end] for s in text.spans if "reverse" in str(s.style)] == ["port", "8080"]


def test_key_labels() -> None:
    assert key_label("right,l,n") == "→ / l / n"
    assert key_label("question_mark,f1") == "? / F1"
    assert key_label("ctrl+t") == "Ctrl+t"


def test_highlighting_by_file_name_and_control_characters() -> None:
    pairs = tokens("def f(): return 1", "src/app.py")
    assert pairs[0] == (Keyword, "def")
    assert style_for(pairs[0][0], True) is not None and style_for(pairs[0][0], False) is not None
    assert tokens("plain words", "notes.unknownext") == [(None, "plain words")]
    assert clean("a\tb\x1b[2J") == "a   b␛[2J"


# -- auditlog browse -------------------------------------------------------------------

def test_browse_rejects_a_bad_date_before_opening(store: Path) -> None:
    with pytest.raises(FilterError):
        cmd_browse(browse_args(since="the other day"))
    with pytest.raises(QueryError):
        cmd_browse(browse_args(session="nosuchsession"))


def test_installed_browse_reports_argument_errors(store: Path) -> None:
    auditlog = os.path.join(os.path.dirname(sys.executable), "auditlog")
    command = [auditlog] if os.access(auditlog, os.X_OK) else [sys.executable, "-m", "auditlog.cli"]
    done = subprocess.run([*command, "browse", "--since", "the other day"], capture_output=True, text=True,
                          timeout=60, check=False, stdin=subprocess.DEVNULL)
    assert done.returncode == 1 and "can't read 'the other day' as a date" in done.stderr
    done = subprocess.run([*command, "browse", "--session", "nosuch"], capture_output=True, text=True,
                          timeout=60, check=False, stdin=subprocess.DEVNULL)
    assert done.returncode == 1 and "no session matches 'nosuch'" in done.stderr


def _palette():
    from auditlog.tui.palette import Palette

    return Palette(dark=True, text=Style(), muted=Style(dim=True), accent=Style(bold=True), primary=Style(),
                   success=Style(), error=Style(), warning=Style(), added_bg=Style(), removed_bg=Style(),
                   changed_bg=Style(), hunk=Style(), match=Style(reverse=True), gutter=Style())


def test_tui_code_imports_only_the_read_api() -> None:
    """The import-linter contract, checked here too: import-linter cannot see
    ``auditlog.tui`` (setuptools maps it from ``tui/``, outside the ``auditlog`` folder)."""
    import ast

    allowed = {"auditlog.query", "auditlog.models", "auditlog.dates", "auditlog.export"}
    seen: dict[str, set[str]] = {}
    for path in (Path(__file__).resolve().parent.parent / "tui").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else \
                [node.module] if isinstance(node, ast.ImportFrom) and node.module else []
            for name in names:
                seen.setdefault(name, set()).add(path.name)
    core = {name for name in seen if name.split(".")[0] in ("auditlog", "sqlite3", "sqlite_utils")
            and not name.startswith("auditlog.tui")}
    assert core == allowed, {name: seen[name] for name in core - allowed}
