"""auditlog with the real Gemini CLI: ``auditlog install --agent gemini`` (user scope,
into a throw-away HOME), then a scripted headless session (write_file, replace, a shell
command that changes a file, a failing one, an answer), witnessed by the independent
capture hook."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from agent_process import assert_recorded_once, journal_records, recorded_session, require_binary
from gemini_driver import INSTALL_COMMAND, find_gemini_binary, gemini_version, run_session, write_user_settings

pytestmark = pytest.mark.e2e
PROMPT = "Bump the port in config.ini to 8000, say hello, take a note (auditlog-e2e-gemini)."


@pytest.fixture(scope="session")
def gemini_bin() -> str:
    """A working Gemini CLI; skip without one, but fail in CI, which installs it."""
    return require_binary("Gemini CLI", find_gemini_binary(), lambda b: gemini_version(b)[:1].isdigit(),
                          f"set AUDITLOG_GEMINI_BIN, or from the repository root: {INSTALL_COMMAND}")


@pytest.fixture
def gemini_session(gemini_bin: str, git_project: Path, capture_dir: Path, tmp_path: Path) -> dict:
    home = (tmp_path / "gemini-home").resolve()
    home.mkdir()
    env = {**os.environ, "HOME": str(home)}
    installed = subprocess.run([sys.executable, "-m", "auditlog.cli", "install", "--agent", "gemini", "--scope",
                                "user"], capture_output=True, text=True, env=env, check=False)
    assert installed.returncode == 0, installed.stderr
    settings = json.loads((home / ".gemini" / "settings.json").read_text())
    witness = os.path.join(os.path.dirname(__file__), "capture_hook.py")
    for event, groups in settings["hooks"].items():  # the witness beside auditlog, on every event
        groups.append({"hooks": [{"name": f"witness-{event}", "type": "command",
                                  "command": f"{sys.executable} {witness} {capture_dir} {event}"}]})
    write_user_settings(home, settings)
    config, hello = git_project / "config.ini", git_project / "hello.txt"
    steps = [
        {"call": "write_file", "args": {"file_path": str(hello), "content": "hello\n"}},
        {"call": "replace", "args": {"file_path": str(config), "old_string": "port=7000", "new_string": "port=8000",
                                     "instruction": "bump the port"}},
        {"call": "run_shell_command", "args": {"command": "echo note >> notes.txt", "description": "take a note"}},
        {"call": "run_shell_command", "args": {"command": "exit 3", "description": "fail"}},
        {"text": "All done: port is now 8000."},
    ]
    result = run_session(git_project, home, steps, PROMPT, gemini_bin=gemini_bin,
                         extra_env={"AUDITLOG_HOME": os.environ["AUDITLOG_HOME"]})
    return recorded_session(result, git_project, capture_dir)


def test_every_fired_event_is_recorded_once(gemini_session: dict) -> None:
    assert_recorded_once(gemini_session["captures"], journal_records(gemini_session["folder"]), "gemini-cli")
    assert not (gemini_session["store"] / "errors.log").exists()


def test_changes_become_patches(gemini_session: dict) -> None:
    project, folder = gemini_session["project"], gemini_session["folder"]
    records = journal_records(folder)
    assert (project / "config.ini").read_text() == "port=8000\n"  # Gemini CLI really edited it
    changes = {(r.get("tool"), c["path"], c["op"]) for r in records for c in r.get("changes") or []}
    assert changes >= {("write_file", "hello.txt", "add"), ("replace", "config.ini", "modify"),
                       ("run_shell_command", "notes.txt", "add")}
    replace = next(r for r in records if r.get("tool") == "replace" and r.get("patches"))
    check = subprocess.run(["git", "-C", str(project), "apply", "--check", "-R", str(folder / replace["patches"][0])],
                           capture_output=True, text=True)
    assert check.returncode == 0, check.stderr
    failed = next(r for r in records if r.get("tool") == "run_shell_command" and "exit 3" in r["summary"]
                  and r["event"] == "AfterTool")
    assert failed["kind"] == "tool_error" and failed.get("failed")
    kinds = [r["kind"] for r in records]
    assert kinds[:2] == ["session_start", "prompt"] and "assistant" in kinds
    answer = next(r for r in records if r["kind"] == "assistant")
    assert answer["summary"] == "All done: port is now 8000."


def test_index_and_chain(gemini_session: dict) -> None:
    import sqlite3

    conn = sqlite3.connect(gemini_session["store"] / "index.sqlite")
    assert conn.execute("SELECT agent FROM sessions").fetchall() == [("gemini-cli",)]
    assert conn.execute("SELECT text FROM prompts").fetchall() == [(PROMPT,)]
    verify = subprocess.run([sys.executable, "-m", "auditlog.cli", "verify"], capture_output=True, text=True)
    assert verify.returncode == 0, verify.stdout + verify.stderr
