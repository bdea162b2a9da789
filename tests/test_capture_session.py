"""A whole session through the real hook, in a real git repository: the journal, the
chain, the patches (applied in order they rebuild the tree), conversation.md, the index
and its rebuild."""

from __future__ import annotations

import json
import sqlite3
import subprocess
from pathlib import Path

import pytest
from store_builder import ClaudeSession, git, journal, make_repo

from auditlog import reindex, verify
from auditlog.paths import session_folder_name


@pytest.fixture
def session(tmp_path: Path, store: Path) -> ClaudeSession:
    project = make_repo(tmp_path / "proj", {"config.ini": "port=7000\n", "src/app.py": "print('hi')\n"})
    s = ClaudeSession(project)
    s.objects_before = git(project, "count-objects", "-v")
    s.start()
    s.prompt("change the port to 8000 and add hello.py")
    s.write("hello.py", "def hello():\n    return 'hi'\n")
    s.read("config.ini")
    s.edit("config.ini", "port=7000", "port=8000")
    s.bash("echo note >> notes.txt && rm src/app.py && printf 'no newline' > raw.txt")
    s.bash("false", fails=True)
    s.bash("printf '\\000\\001binary' > data.bin")
    s.stop("Changed the port to 8000 and added hello.py.")
    s.end()
    return s


def _folder(store: Path, s: ClaudeSession) -> Path:
    return store / "sessions" / session_folder_name(s.session_id)


def test_every_event_is_one_chained_line(session: ClaudeSession, store: Path) -> None:
    records = journal(store, session.session_id)
    assert [r["seq"] for r in records] == list(range(1, len(records) + 1))
    assert records[0]["prev"] == "0" * 64
    problems, count, _head = verify.verify_session(str(_folder(store, session)))
    assert problems == [] and count == len(records)
    kinds = [r["kind"] for r in records]
    assert kinds[:2] == ["session_start", "prompt"] and kinds[-2:] == ["assistant", "session_end"]
    assert kinds.count("tool_error") == 1
    assert not (store / "errors.log").exists()


def test_patches_replayed_in_order_rebuild_the_final_tree(session: ClaudeSession, store: Path, tmp_path: Path) -> None:
    replay = tmp_path / "replay"
    subprocess.run(["git", "clone", "-q", str(session.project), str(replay)], check=True)
    patches = [p for r in journal(store, session.session_id) for p in r.get("patches", [])]
    assert len(patches) == 6  # hello.py, config.ini, notes.txt, app.py, raw.txt, data.bin
    for rel in patches:
        subprocess.run(["git", "-C", str(replay), "apply", str(_folder(store, session) / rel)], check=True)
    for name in ("hello.py", "config.ini", "notes.txt", "raw.txt", "data.bin"):
        assert (replay / name).read_bytes() == (session.project / name).read_bytes(), name
    assert not (replay / "src/app.py").exists()


def test_conversation_reads_as_a_transcript(session: ClaudeSession, store: Path) -> None:
    text = (_folder(store, session) / "conversation.md").read_text()
    assert text.startswith("# Session ")
    assert "| Git | main @" in text
    assert "change the port to 8000 and add hello.py" in text
    assert "-port=7000\n+port=8000" in text
    assert "✗" in text and "Exit code 1" in text
    assert "Changed the port to 8000 and added hello.py." in text
    assert "Session ended (other)" in text


def test_index_finds_the_session_by_file(session: ClaudeSession, store: Path) -> None:
    db = sqlite3.connect(store / "index.sqlite")
    hits = db.execute("SELECT DISTINCT session FROM changes WHERE name = 'config.ini'").fetchall()
    assert hits == [(session.session_id,)]
    row = db.execute(
        "SELECT prompts, failures, files_changed, added, removed, first_prompt, branch, project FROM sessions"
    ).fetchone()
    assert row[0:3] == (1, 1, 6)
    assert row[5] == "change the port to 8000 and add hello.py"
    assert row[6] == "main" and row[7] == str(session.project)
    found = db.execute("SELECT session FROM search WHERE search MATCH 'port'").fetchall()
    assert (session.session_id,) in found


def _dump(db_path: Path) -> dict:
    db = sqlite3.connect(db_path)
    tables = {}
    for table in ("sessions", "events", "changes", "prompts"):
        tables[table] = sorted(map(repr, db.execute(f"SELECT * FROM {table}").fetchall()))
    tables["search"] = sorted(map(repr, db.execute("SELECT text, session, seq, kind FROM search").fetchall()))
    return tables


def test_reindex_gives_the_same_rows(session: ClaudeSession, store: Path) -> None:
    live = _dump(store / "index.sqlite")
    (store / "index.sqlite").unlink()
    for extra in ("index.sqlite-wal", "index.sqlite-shm"):
        if (store / extra).exists():
            (store / extra).unlink()
    reindex.reindex(str(store))
    assert _dump(store / "index.sqlite") == live
    reindex.reindex(str(store))  # twice: still the same
    assert _dump(store / "index.sqlite") == live


def test_bash_diff_from_git_snapshot_leaves_repository_untouched(session: ClaudeSession, store: Path) -> None:
    # The snapshots write objects into the store, never into the project's repository.
    assert git(session.project, "count-objects", "-v") == session.objects_before
    assert "?? hello.py" in git(session.project, "status", "--porcelain")
    changed = {c["path"]: c["op"] for r in journal(store, session.session_id) for c in r.get("changes", [])}
    assert changed == {
        "hello.py": "add",
        "config.ini": "modify",
        "notes.txt": "add",
        "src/app.py": "delete",
        "raw.txt": "add",
        "data.bin": "add",
    }


def test_record_keys_are_in_the_documented_order(session: ClaudeSession, store: Path) -> None:
    from auditlog.record import KEY_ORDER

    folder = _folder(store, session)
    for line in (folder / "events.jsonl").read_bytes().splitlines():
        keys = list(json.loads(line))
        assert keys == [k for k in KEY_ORDER if k in keys]
        assert keys[0] == "v" and keys[-1] == "prev"
