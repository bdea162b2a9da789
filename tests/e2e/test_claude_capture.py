"""auditlog with the real Claude Code binary: ``auditlog install`` in a fresh git
repository, then a scripted session (Write, Read, Edit, a Bash that changes a file, a
failing Bash, parallel reads, a final answer), witnessed by an independent capture hook.
"""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest
from claude_driver import (
    STANDARD_PROMPT,
    independent_capture_hook_settings,
    read_captures,
    run_session,
    standard_script,
    write_project_settings,
)

pytestmark = pytest.mark.e2e
BETWEEN_TOOLS = "Now the port: editing config.ini (auditlog-e2e words)."
AUDITLOG = [os.path.join(os.path.dirname(sys.executable), "auditlog")]


def _auditlog(*args: str) -> subprocess.CompletedProcess:
    command = AUDITLOG if os.access(AUDITLOG[0], os.X_OK) else [sys.executable, "-m", "auditlog.cli"]
    return subprocess.run([*command, *args], capture_output=True, text=True, check=False)


def _project_files(root: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(root)): p.read_bytes()
        for p in root.rglob("*")
        if p.is_file() and ".git" not in p.parts and ".claude" not in p.parts
    }


@pytest.fixture
def recorded_session(claude_bin: str, git_project: Path, claude_home: Path, capture_dir: Path, tmp_path: Path):
    installed = _auditlog("install", "--agent", "claude", "--scope", "project", "--dir", str(git_project))
    assert installed.returncode == 0, installed.stderr
    write_project_settings(git_project, independent_capture_hook_settings(capture_dir))  # merged, not replaced
    initial = subprocess.run(
        ["git", "-C", str(git_project), "rev-parse", "HEAD"], capture_output=True, text=True, check=True
    ).stdout.strip()
    script = standard_script(git_project)
    script[2]["say"] = BETWEEN_TOOLS  # words between two tool calls: only the transcript has them
    result = run_session(
        git_project,
        claude_home,
        script,
        STANDARD_PROMPT,
        claude_bin=claude_bin,
        extra_env={"AUDITLOG_HOME": os.environ["AUDITLOG_HOME"]},
    )
    assert result.exit_code == 0, result.describe()
    store = Path(os.environ["AUDITLOG_HOME"])
    folders = list((store / "sessions").iterdir())
    assert len(folders) == 1, folders
    return {
        "result": result,
        "project": git_project,
        "store": store,
        "folder": folders[0],
        "initial": initial,
        "captures": read_captures(capture_dir),
    }


def _records(folder: Path) -> list[dict]:
    from auditlog.blobs import internalize

    return [internalize(json.loads(line), str(folder)) for line in (folder / "events.jsonl").read_bytes().splitlines()]


def test_every_fired_event_is_recorded_exactly_once(recorded_session) -> None:
    captures = [c.payload for c in recorded_session["captures"]]
    records = [r for r in _records(recorded_session["folder"]) if "origin" not in r]  # the hooks' own
    assert len(records) == len(captures)
    assert Counter(r["event"] for r in records) == Counter(p["hook_event_name"] for p in captures)
    recorded_payloads = [json.dumps(r["payload"], sort_keys=True) for r in records]
    for payload in captures:
        assert recorded_payloads.count(json.dumps(payload, sort_keys=True)) == 1, payload["hook_event_name"]
    assert not (recorded_session["store"] / "errors.log").exists()


def test_chain_verifies(recorded_session) -> None:
    done = _auditlog("verify")
    assert done.returncode == 0, done.stdout + done.stderr


def test_conversation_holds_prompt_and_answer(recorded_session) -> None:
    text = (recorded_session["folder"] / "conversation.md").read_text()
    assert STANDARD_PROMPT in text
    assert "All done: port is now 8000." in text
    assert "-port=7000" in text and "+port=8000" in text


def test_words_between_tool_calls_reach_the_conversation(recorded_session) -> None:
    records = _records(recorded_session["folder"])
    joined = [r for r in records if r.get("origin") == "transcript"]
    assert joined and {r["event"] for r in joined} == {"TranscriptMessage"}
    texts = [r["payload"].get("text") for r in joined]
    assert "I will create a file first." in texts and BETWEEN_TOOLS in texts
    hooked = {r["tool_use_id"] for r in records if r.get("tool_use_id") and "origin" not in r}
    called = {c["id"] for r in joined for c in r["payload"].get("tool_uses", [])}
    assert called == hooked  # the join matches every tool call by tool_use_id
    text = (recorded_session["folder"] / "conversation.md").read_text()
    final = text.index("All done: port is now 8000.")
    assert text.index("I will create a file first.") < text.index(BETWEEN_TOOLS) < final
    sessions = json.loads(_auditlog("sessions", "--json").stdout)
    assert sessions[0]["output_tokens"] > 0 and sessions[0]["model"]
    done = _auditlog("verify", "--json")
    assert json.loads(done.stdout)["sessions"][0]["problems"] == []  # no tool call missed


def test_patches_rebuild_the_final_tree_from_the_initial_commit(recorded_session, tmp_path: Path) -> None:
    replay = tmp_path / "replay"
    subprocess.run(["git", "clone", "-q", str(recorded_session["project"]), str(replay)], check=True)
    subprocess.run(["git", "-C", str(replay), "checkout", "-q", recorded_session["initial"]], check=True)
    patches = [p for r in _records(recorded_session["folder"]) for p in r.get("patches", [])]
    assert len(patches) == 3  # hello.txt, config.ini, notes.txt
    for rel in patches:
        subprocess.run(["git", "-C", str(replay), "apply", str(recorded_session["folder"] / rel)], check=True)
    assert _project_files(replay) == _project_files(recorded_session["project"])


def test_net_diff_applies_to_the_starting_commit(recorded_session, tmp_path: Path) -> None:
    """``auditlog diff`` of the real session is one patch per file that ``git apply``
    takes onto the commit the session started from."""
    done = _auditlog("diff", "last")
    assert done.returncode == 0 and "+port=8000" in done.stdout, done.stderr
    clone = tmp_path / "net"
    subprocess.run(["git", "clone", "-q", str(recorded_session["project"]), str(clone)], check=True)
    subprocess.run(["git", "-C", str(clone), "checkout", "-q", recorded_session["initial"]], check=True)
    (tmp_path / "net.patch").write_text(done.stdout)
    subprocess.run(["git", "-C", str(clone), "apply", "--check", str(tmp_path / "net.patch")], check=True)


def test_index_finds_the_session_by_file_name(recorded_session) -> None:
    db = sqlite3.connect(recorded_session["store"] / "index.sqlite")
    sessions = {row[0] for row in db.execute("SELECT session FROM changes WHERE name = 'notes.txt'")}
    assert sessions == {recorded_session["captures"][0].payload["session_id"]}


def test_nothing_the_hook_printed_reached_the_model(recorded_session) -> None:
    bodies = json.dumps(recorded_session["result"].requests)
    assert STANDARD_PROMPT in bodies  # the log really holds the requests
    assert "auditlog" not in bodies.replace("auditlog-e2e", "")
    assert str(recorded_session["store"]) not in bodies


def test_a_commit_through_bash_is_found_by_sessions_commit(
    claude_bin: str, git_project: Path, claude_home: Path, tmp_path: Path
) -> None:
    """The real binary: the model edits a file and commits it through Bash; the commit is
    recorded as an event of the session, and ``sessions --commit`` finds the session."""
    installed = _auditlog("install", "--agent", "claude", "--scope", "project", "--dir", str(git_project))
    assert installed.returncode == 0, installed.stderr
    config = str(git_project / "config.ini")
    script = [
        {"tool": "Edit", "input": {"file_path": config, "old_string": "port=7000", "new_string": "port=9000"}},
        {
            "tool": "Bash",
            "input": {"command": "git commit -qam 'Use port 9000'", "description": "Commit the change"},
        },
        {"text": "Committed: port 9000."},
    ]
    result = run_session(
        git_project,
        claude_home,
        script,
        "Use port 9000 and commit it (auditlog-e2e-git).",
        claude_bin=claude_bin,
        extra_env={"AUDITLOG_HOME": os.environ["AUDITLOG_HOME"]},
    )
    assert result.exit_code == 0, result.describe()
    sha = subprocess.run(
        ["git", "-C", str(git_project), "rev-parse", "HEAD"], capture_output=True, text=True, check=True
    ).stdout.strip()
    store = Path(os.environ["AUDITLOG_HOME"])
    (folder,) = list((store / "sessions").iterdir())
    records = _records(folder)
    commits = [r for r in records if r["kind"] == "commit"]
    assert [c["payload"]["sha"] for c in commits] == [sha]
    assert commits[0]["payload"]["subject"] == "Use port 9000" and commits[0]["payload"]["by_agent"]
    assert [f["path"] for f in commits[0]["payload"]["files"]] == ["config.ini"]
    found = subprocess.run(
        [
            *(AUDITLOG if os.access(AUDITLOG[0], os.X_OK) else [sys.executable, "-m", "auditlog.cli"]),
            "sessions",
            "--json",
            "--commit",
            sha[:10],
        ],
        cwd=git_project,
        capture_output=True,
        text=True,
        check=False,
    )
    assert found.returncode == 0, found.stderr
    assert [s["id"] for s in json.loads(found.stdout)] == [records[0]["session"]]
    assert not (store / "errors.log").exists()
