"""auditlog with the real Codex CLI binary: ``auditlog install --agent codex`` (user
scope, into a throw-away ``CODEX_HOME``), then a scripted ``codex exec`` turn (a shell
command that changes a file, an ``apply_patch`` edit, a failing command, an answer),
witnessed by the independent capture hook."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from agent_process import assert_recorded_once, journal_records, recorded_session, require_binary
from codex_driver import INSTALL_COMMAND, codex_version, find_codex_binary, run_session

pytestmark = pytest.mark.e2e
PROMPT = "Bump the port in config.ini to 8000 and take a note (auditlog-e2e-codex)."
PATCH = "*** Begin Patch\n*** Update File: config.ini\n@@\n-port=7000\n+port=8000\n*** End Patch\n"


@pytest.fixture(scope="session")
def codex_bin() -> str:
    """A working Codex CLI; skip without one, but fail in CI, which installs it."""
    return require_binary("Codex CLI", find_codex_binary(), lambda b: "codex" in codex_version(b),
                          f"set AUDITLOG_CODEX_BIN, or from the repository root: {INSTALL_COMMAND}")


def _auditlog(*args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "auditlog.cli", *args], capture_output=True, text=True, env=env,
                          check=False)


@pytest.fixture
def codex_session(codex_bin: str, git_project: Path, capture_dir: Path, tmp_path: Path) -> dict:
    codex_home = tmp_path / "codex-home"
    codex_home.mkdir()
    env = {**os.environ, "CODEX_HOME": str(codex_home)}
    installed = _auditlog("install", "--agent", "codex", "--scope", "user", env=env)
    assert installed.returncode == 0, installed.stderr
    hooks_path = codex_home / "hooks.json"
    config = json.loads(hooks_path.read_text())
    witness = os.path.join(os.path.dirname(__file__), "capture_hook.py")
    for event, groups in config["hooks"].items():  # the witness beside auditlog, on every event
        groups.append({"hooks": [{"type": "command", "command": f"{sys.executable} {witness} {capture_dir} {event}"}]})
    hooks_path.write_text(json.dumps(config, indent=2))
    steps = [
        {"call": "exec_command", "arguments": {"cmd": "printf 'edited config\\n' >> notes.txt"}},
        {"custom": "apply_patch", "input": PATCH},
        {"call": "exec_command", "arguments": {"cmd": "false"}},
        {"text": "All done: port is now 8000."},
    ]
    result = run_session(git_project, codex_home, steps, PROMPT, codex_bin=codex_bin,
                         extra_env={"AUDITLOG_HOME": os.environ["AUDITLOG_HOME"]})
    return recorded_session(result, git_project, capture_dir)


def test_every_fired_event_is_recorded_once(codex_session: dict) -> None:
    assert_recorded_once(codex_session["captures"], journal_records(codex_session["folder"]), "codex")
    assert not (codex_session["store"] / "errors.log").exists()


def test_changes_become_patches(codex_session: dict) -> None:
    records, project = journal_records(codex_session["folder"]), codex_session["project"]
    assert (project / "config.ini").read_text() == "port=8000\n"  # Codex really applied the patch
    results = [r for r in records if r["kind"] in ("tool_result", "tool_error")]
    by_tool = {(r.get("tool"), tuple(r.get("files") or ())) for r in results}
    assert ("apply_patch", ("config.ini",)) in by_tool
    assert ("Bash", ("notes.txt",)) in by_tool
    prompt = next(r for r in records if r["kind"] == "prompt")
    assert prompt["payload"]["prompt"] == PROMPT and prompt.get("turn")
    patch = next(r for r in records if r.get("tool") == "apply_patch" and r.get("patches"))
    text = (codex_session["folder"] / patch["patches"][0]).read_text()
    assert "-port=7000\n+port=8000\n" in text
    check = subprocess.run(["git", "-C", str(project), "apply", "--check", "-R",
                            str(codex_session["folder"] / patch["patches"][0])], capture_output=True, text=True)
    assert check.returncode == 0, check.stderr  # the patch is exactly what is on disk now


def test_index_and_chain(codex_session: dict) -> None:
    import sqlite3

    conn = sqlite3.connect(codex_session["store"] / "index.sqlite")
    assert conn.execute("SELECT agent FROM sessions").fetchall() == [("codex",)]
    assert _auditlog("verify").returncode == 0
    requests = "\n".join(json.dumps(r) for r in codex_session["result"].requests)
    assert "auditlog" not in requests.replace("auditlog-e2e-codex", "")  # the hook told the model nothing
