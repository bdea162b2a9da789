"""Smoke test of the installed ``auditlog browse`` in a real terminal (tmux): start it,
filter by a file, open the session, replay three steps, quit — reading the screen with
``tmux capture-pane`` after each step, as a person would look at it.

Skipped where tmux is missing, except under CI (``CI=true``), where a missing tmux is a
failure: CI installs it, so its absence means the smoke test silently stopped running.
"""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from store_builder import ClaudeSession, make_repo

MAIN = "7a0c0000-0000-4000-8000-000000000001"
OTHER = "7a0c0000-0000-4000-8000-000000000002"
TIMEOUT = 20.0


def tmux_binary() -> str:
    found = shutil.which("tmux")
    if found:
        return found
    if os.environ.get("CI") == "true":
        pytest.fail("tmux is not installed, and CI must run the TUI smoke test (.ci/run installs tmux)")
    pytest.skip("tmux is not installed (apt-get install tmux); the smoke test of `auditlog browse` needs a terminal")


def browse_command() -> list[str]:
    installed = os.path.join(os.path.dirname(sys.executable), "auditlog")
    return [installed] if os.access(installed, os.X_OK) else [sys.executable, "-m", "auditlog.cli"]


class Pane:
    """One tmux session on a private server socket in the test's folder (never the
    user's own tmux server, and nothing left behind in /tmp)."""

    def __init__(self, tmux: str, socket: Path) -> None:
        self.tmux, self.socket = tmux, socket

    def run(self, *args: str) -> str:
        done = subprocess.run([self.tmux, "-S", str(self.socket), "-f", "/dev/null", *args], capture_output=True,
                              text=True, timeout=30, check=True)
        return done.stdout

    def text(self) -> str:
        return self.run("capture-pane", "-p", "-t", "smoke")

    def keys(self, *keys: str, literal: bool = False) -> None:
        self.run("send-keys", "-t", "smoke", *(["-l"] if literal else []), *keys)

    def wait_for(self, *needles: str, absent: tuple[str, ...] = (), timeout: float = TIMEOUT) -> str:
        """The screen once it shows every one of ``needles`` and none of ``absent``."""
        deadline = time.monotonic() + timeout
        screen = ""
        while time.monotonic() < deadline:
            screen = self.text()
            if all(n in screen for n in needles) and not any(a in screen for a in absent):
                return screen
            time.sleep(0.1)
        raise AssertionError(f"never saw {needles!r} without {absent!r} on screen; last capture:\n{screen}")


@pytest.fixture
def pane(store: Path, tmp_path: Path) -> Iterator[Pane]:
    tmux = tmux_binary()
    server = Pane(tmux, tmp_path / "tmux.sock")
    yield server
    subprocess.run([tmux, "-S", str(server.socket), "kill-server"], capture_output=True, timeout=30, check=False)


def write_sessions(root: Path) -> None:
    """Two sessions through the real hook; only MAIN touches config.ini."""
    demo = make_repo(root / "demo", {"config.ini": "port = 8000\n", "src/app.py": "print('app')\n"})
    main = ClaudeSession(demo, session_id=MAIN)
    main.start()
    main.prompt("Move the app to port 8080")
    main.edit("config.ini", "port = 8000", "port = 8080")
    main.write("src/routes.py", "ROUTES = ['/health']\n")
    main.edit("src/app.py", "print('app')", "print('app on 8080')")
    main.stop("Done.")
    main.end()
    other = make_repo(root / "other", {"notes.md": "# notes\n"})
    side = ClaudeSession(other, session_id=OTHER)
    side.start()
    side.prompt("Add a line to the notes")
    side.edit("notes.md", "# notes", "# notes\n\n- one")
    side.end()


def test_installed_browse_filter_open_replay_quit(pane: Pane, store: Path, tmp_path: Path) -> None:
    write_sessions(tmp_path)
    command = " ".join(shlex.quote(part) for part in [
        "env", f"AUDITLOG_HOME={store}", f"HOME={os.environ['HOME']}", "TERM=xterm-256color",
        *browse_command(), "browse"])
    pane.run("new-session", "-d", "-s", "smoke", "-x", "110", "-y", "32", "-c", str(tmp_path),
             f"{command}; echo BROWSE-EXITED-$?; sleep 60")

    screen = pane.wait_for("2 sessions", "Move the app to port 8080", "Add a line to the notes", "Reload")
    assert "First prompt" in screen

    pane.keys("F")  # the file filter; the footer drops the letter keys once a field has focus
    pane.wait_for("File", absent=("Reload",))
    pane.keys("config.ini", literal=True)
    screen = pane.wait_for("1 session matches (of 2)")
    assert "Move the app to port 8080" in screen and "Add a line to the notes" not in screen

    pane.keys("Enter")  # apply and go to the table: its letter keys are back in the footer
    pane.wait_for("Reload")
    pane.keys("Enter")  # open the session
    screen = pane.wait_for(f"Session {MAIN[:8]}", "Conversation", "± Edit config.ini")
    assert "❯ Move the app" in screen, screen

    pane.keys("d")
    screen = pane.wait_for("Step 1 of 3 · Edit · config.ini", "+ port = 8080")
    assert "❯ Move the app to port 8080" in screen and "- port = 8000" in screen
    pane.keys("Right")
    pane.wait_for("Step 2 of 3 · Write · src/routes.py", "+ ROUTES = ['/health']")
    pane.keys("Right")
    screen = pane.wait_for("Step 3 of 3 · Edit · src/app.py", "+ print('app on 8080')")
    assert "- print('app')" in screen

    pane.keys("q")
    pane.wait_for("BROWSE-EXITED-0")


def test_missing_tmux_skips_locally_and_fails_in_ci(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(shutil, "which", lambda name: None)
    monkeypatch.delenv("CI", raising=False)
    with pytest.raises(pytest.skip.Exception, match="tmux is not installed"):
        tmux_binary()
    monkeypatch.setenv("CI", "true")
    with pytest.raises(pytest.fail.Exception, match="CI must run the TUI smoke test"):
        tmux_binary()
