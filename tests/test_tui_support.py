"""Shared fixtures for the TUI tests: a store written through the real hook, a display
that pins what depends on the clock, and helpers to wait for workers.

The demo store is built once per test run (three sessions, about 60 real hook calls) and
only read afterwards; tests that write to a store build their own. Everything the hook
records is real; what the snapshots must not see change from run to run is masked at
display time by ``MaskedDisplay`` (times, durations, random tool and prompt ids, the
temporary folder), and git's commit dates are fixed so HEAD ids repeat.
"""

from __future__ import annotations

import asyncio
import functools
import os
import re
import time
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from auditlog.tui.app import AuditlogApp
from auditlog.tui.display import Display
from store_builder import ClaudeSession, make_repo
from textual.widgets import DataTable
from textual.worker import WorkerCancelled

SESSION_A = "5e55a000-0000-4000-8000-00000000000a"  # the main demo: 2 prompts, 5 file changes, a failure
SESSION_B = "5e55b000-0000-4000-8000-00000000000b"  # another project, one edit
SESSION_C = "5e55c000-0000-4000-8000-00000000000c"  # read-only and not ended (shown as live)
KNOWN_IDS = frozenset((SESSION_A, SESSION_B, SESSION_C))
GIT_DATES = {"GIT_AUTHOR_DATE": "2026-01-05T09:00:00+00:00", "GIT_COMMITTER_DATE": "2026-01-05T09:00:00+00:00"}

SERVER_PY = 'import os\n\n\ndef port() -> int:\n    """The port to listen on."""\n    return 8000\n'
CONFIG_INI = "[server]\nhost = 127.0.0.1\nport = 8000\n"

_ISO = re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?Z?")
_CLOCK = re.compile(r"\b\d{2}:\d{2}:\d{2}\b")
_UUID = re.compile(r"\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b")
_TOOLU = re.compile(r"toolu_[0-9a-f]{20}")


@dataclass(frozen=True)
class MaskedDisplay(Display):
    """The real formats with clock-dependent values replaced by fixed text, and the test's
    temporary folder written as ``<tmp>``: what a snapshot may compare."""

    tmp: str = ""

    def when(self, ts: str | None) -> str:
        return "2026-01-05 09:00" if ts else ""

    def clock(self, ts: str | None) -> str:
        return "09:00:00" if ts else ""

    def stamp(self, ts: str | None) -> str:
        return "2026-01-05 09:00:00.000 UTC" if ts else ""

    def duration(self, seconds: float | None) -> str:
        return "1m00" if seconds is not None else ""

    def text(self, text: str) -> str:
        text = _ISO.sub("2026-01-05T09:00:00.000Z", text)
        text = _CLOCK.sub("09:00:00", text)
        text = _UUID.sub(lambda m: m.group(0) if m.group(0) in KNOWN_IDS else "uuid-masked", text)
        text = _TOOLU.sub("toolu_masked", text)
        return text.replace(self.tmp, "<tmp>") if self.tmp else text


@dataclass(frozen=True)
class DemoStore:
    home: Path  # AUDITLOG_HOME
    user_home: Path  # HOME while it was written (projects live under it)

    def display(self) -> MaskedDisplay:
        return MaskedDisplay(home=str(self.user_home), tmp=str(self.user_home.parent))

    def app(self, **kwargs: object) -> AuditlogApp:
        kwargs.setdefault("display", self.display())
        return AuditlogApp(home=str(self.home), **kwargs)


def build_demo(user_home: Path) -> None:
    """Three sessions through the real ``auditlog-hook`` (AUDITLOG_HOME must be set)."""
    demo = make_repo(user_home / "projects" / "demo", {"config.ini": CONFIG_INI, "src/server.py": SERVER_PY})
    other = make_repo(user_home / "projects" / "other", {"lib/helpers.py": "def helper():\n    return 1\n"})
    a = ClaudeSession(demo, session_id=SESSION_A)
    a.start()
    a.prompt("Make the service listen on port 8080")
    a.read("config.ini")
    a.edit("config.ini", "port = 8000", "port = 8080")
    a.edit("src/server.py", "return 8000", 'return int(os.environ.get("PORT", "8080"))')
    a.bash("false", fails=True)
    a.stop("The service now listens on port 8080 unless PORT is set.")
    a.prompt("Add a test for the port")
    a.write("tests/test_server.py", "from src.server import port\n\n\ndef test_port():\n    assert port() == 8080\n")
    a.bash("echo ok > build.log")
    a.edit("config.ini", "host = 127.0.0.1", "host = 0.0.0.0")
    a.stop("Added tests/test_server.py.")
    a.end()
    b = ClaudeSession(other, session_id=SESSION_B)
    b.start()
    b.prompt("Rename the helper to compute")
    b.edit("lib/helpers.py", "def helper():", "def compute():")
    b.stop("Renamed.")
    b.end()
    c = ClaudeSession(demo, session_id=SESSION_C)
    c.start()
    c.prompt("Explain what config.ini controls")
    c.read("config.ini")
    c.stop("It sets the host and port the server binds.")


@pytest.fixture(scope="session", name="demo_store")
def demo_store_fixture(tmp_path_factory: pytest.TempPathFactory) -> Iterator[DemoStore]:
    """The shared read-only demo store (built once per run)."""
    root = tmp_path_factory.mktemp("tui-demo")
    user_home, home = root / "home", root / "home" / "auditlog-store"
    user_home.mkdir()
    env = {"HOME": str(user_home), "AUDITLOG_HOME": str(home), "GIT_CONFIG_NOSYSTEM": "1",
           "GIT_AUTHOR_NAME": "Test Author", "GIT_AUTHOR_EMAIL": "author@example.com",
           "GIT_COMMITTER_NAME": "Test Author", "GIT_COMMITTER_EMAIL": "author@example.com", **GIT_DATES}
    with pytest.MonkeyPatch.context() as mp:
        for key, value in env.items():
            mp.setenv(key, value)
        for key in ("XDG_DATA_HOME", "AUDITLOG_DISABLE", "GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE"):
            mp.delenv(key, raising=False)
        build_demo(user_home)
    yield DemoStore(home, user_home)


def async_test(fn: Callable[..., Awaitable[None]]) -> Callable[..., None]:
    """Run an async test body in its own event loop (no async pytest plugin needed);
    ``functools.wraps`` keeps the signature, so fixtures are still injected."""

    @functools.wraps(fn)
    def run(*args: object, **kwargs: object) -> None:
        asyncio.run(fn(*args, **kwargs))

    return run


async def wait_for(pilot, condition: Callable[[], bool], timeout: float = 5.0, what: str = "condition") -> float:
    """Let the app run until ``condition()`` holds; returns the seconds it took."""
    start = time.perf_counter()
    while not condition():
        if time.perf_counter() - start > timeout:
            raise AssertionError(f"timed out after {timeout}s waiting for {what}")
        await pilot.pause(0.02)
    return time.perf_counter() - start


async def settle(pilot) -> None:
    """Wait for the running workers (a superseded, cancelled one is not waited for: its
    thread finishes, but what it posts is dropped), then for the messages they posted."""
    for _ in range(3):
        live = [w for w in pilot.app.workers if not w.is_cancelled]
        try:
            await pilot.app.workers.wait_for_complete(live)
        except WorkerCancelled:
            pass
        await pilot.pause()
    # DataTable measures new rows' column widths when its queue goes idle; a screenshot
    # taken before that would show columns as wide as their labels.
    tables = list(pilot.app.screen.query(DataTable))
    await wait_for(pilot, lambda: not any(t._require_update_dimensions for t in tables), what="table widths")
    await pilot.pause()
    await asyncio.sleep(0)


def store_env(home: Path) -> dict[str, str]:
    return {**os.environ, "AUDITLOG_HOME": str(home)}
