"""The hook contract on bad input: exit 0 within budget, nothing on stdout, nothing
written outside AUDITLOG_HOME, one clear line in errors.log where it is writable."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import time
from pathlib import Path

import pytest
from store_builder import HOOK, run_hook

BUDGET_SECONDS = 8.0  # far above the normal ~50 ms: these are failure paths under test load


def _tree(root: Path) -> set[str]:
    return {str(p.relative_to(root)) for p in root.rglob("*")}


def _errors(store: Path) -> list[str]:
    log = store / "errors.log"
    return log.read_text().splitlines() if log.exists() else []


@pytest.mark.parametrize(
    ("name", "data", "expect"),
    [
        ("empty stdin", b"", "not JSON"),
        ("invalid JSON", b"{not json", "not JSON"),
        ("a JSON array", b"[1, 2, 3]", "not an object"),
        ("no session_id", json.dumps({"hook_event_name": "Stop", "cwd": "/tmp"}).encode(), "no session id"),
        ("invalid UTF-8", b'{"session_id": "s", "prompt": "\xff\xfe"}', "not JSON"),
    ],
)
def test_bad_input_is_reported_in_one_line(name: str, data: bytes, expect: str, store: Path, tmp_path: Path) -> None:
    before = _tree(tmp_path)
    start = time.monotonic()
    done = run_hook(data)
    assert time.monotonic() - start < BUDGET_SECONDS
    assert done.returncode == 0 and done.stdout == b""
    errors = _errors(store)
    assert len(errors) == 1 and expect in errors[0], errors
    assert done.stderr.decode().count("\n") == 1
    outside = {p for p in _tree(tmp_path) - before if not p.startswith("home/auditlog-store")}
    assert outside == set()
    # nothing is lost: what could not be recorded is kept, readable, in rejected/
    assert list((store / "rejected").iterdir())


def test_lone_surrogates_are_recorded(store: Path) -> None:
    raw = b'{"session_id": "s1", "hook_event_name": "UserPromptSubmit", "prompt": "caf\\udce9 \\ud800"}'
    done = run_hook(raw)
    assert done.returncode == 0 and done.stdout == b"" and _errors(store) == []
    line = (store / "sessions" / "s1" / "events.jsonl").read_bytes().splitlines()[0]
    assert json.loads(line)["payload"]["prompt"] == "caf\udce9 \ud800"


def test_hostile_session_id_stays_inside_the_store(store: Path, tmp_path: Path) -> None:
    before = _tree(tmp_path)
    for sid in ("../../etc", "/etc/passwd", "a/../../b", "..", "x\u0000y", "a" * 300):
        done = run_hook({"session_id": sid, "hook_event_name": "Stop", "cwd": str(tmp_path)})
        assert done.returncode == 0 and done.stdout == b""
    assert _errors(store) == []
    created = _tree(tmp_path) - before
    assert all(p.startswith("home/auditlog-store") for p in created), created
    folders = os.listdir(store / "sessions")
    assert len(folders) == 6 and all("/" not in f and ".." not in f for f in folders)


def test_ten_megabyte_payload(store: Path) -> None:
    big = {
        "session_id": "big",
        "hook_event_name": "PostToolUse",
        "tool_name": "Read",
        "cwd": "/tmp",
        "tool_input": {"file_path": "/tmp/x"},
        "tool_response": {"file": {"content": "x" * (10 * 1024 * 1024)}},
    }
    start = time.monotonic()
    done = run_hook(big)
    assert time.monotonic() - start < BUDGET_SECONDS
    assert done.returncode == 0 and done.stdout == b"" and _errors(store) == []
    record = json.loads((store / "sessions" / "big" / "events.jsonl").read_bytes())
    ref = record["payload"]["tool_response"]["file"]["content"]
    assert ref["bytes"] == 10 * 1024 * 1024 and ref["$blob"].startswith("sha256:")


def test_stdin_that_never_closes(store: Path) -> None:
    proc = subprocess.Popen(
        [*HOOK, "--agent", "claude"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    start = time.monotonic()
    proc.stdin.write(b'{"session_id": "open", "hook_event_name": "Stop"')  # incomplete, never closed
    proc.stdin.flush()
    out = proc.stdout.read()  # returns when the hook exits, although its stdin is still open
    proc.wait(timeout=BUDGET_SECONDS)
    assert time.monotonic() - start < BUDGET_SECONDS
    assert proc.returncode == 0 and out == b""
    assert "stdin still open" in _errors(store)[0]
    proc.stdin.close()


def test_complete_payload_on_open_stdin_is_recorded(store: Path) -> None:
    proc = subprocess.Popen(
        [*HOOK, "--agent", "claude"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    proc.stdin.write(b'{"session_id": "open2", "hook_event_name": "Stop"}\n')
    proc.stdin.flush()
    assert proc.stdout.read() == b""
    assert proc.wait(timeout=BUDGET_SECONDS) == 0
    proc.stdin.close()
    assert (store / "sessions" / "open2" / "events.jsonl").exists()


@pytest.fixture
def read_only_store(store: Path):
    """A store folder nobody can write to. Root ignores permission bits, so as root the
    folder is a read-only tmpfs mount (or, where mounting is refused, a path under /sys)."""
    store.mkdir(mode=0o700)
    if os.geteuid() != 0:
        store.chmod(0o500)
        yield store
        store.chmod(stat.S_IRWXU)
        return
    mounted = (
        subprocess.run(
            ["mount", "-t", "tmpfs", "-o", "ro,size=1m", "none", str(store)], capture_output=True, check=False
        ).returncode
        == 0
    )
    yield store if mounted else Path("/sys/auditlog-read-only-store")
    if mounted:
        subprocess.run(["umount", str(store)], check=True)


def test_read_only_home(read_only_store: Path) -> None:
    start = time.monotonic()
    done = run_hook(
        {"session_id": "ro", "hook_event_name": "Stop"}, env={**os.environ, "AUDITLOG_HOME": str(read_only_store)}
    )
    assert time.monotonic() - start < BUDGET_SECONDS
    assert done.returncode == 0 and done.stdout == b""
    assert done.stderr.startswith(b"auditlog: ") and done.stderr.count(b"\n") == 1, done.stderr
    assert not (read_only_store / "sessions").exists()


def test_disable_and_ignore_file_record_nothing(store: Path, tmp_path: Path) -> None:
    payload = {"session_id": "off", "hook_event_name": "Stop", "cwd": str(tmp_path)}
    done = run_hook(payload, env={**os.environ, "AUDITLOG_DISABLE": "1"})
    assert done.returncode == 0 and done.stdout == b"" and not store.exists()
    project = tmp_path / "secret-project" / "sub"
    project.mkdir(parents=True)
    (tmp_path / "secret-project" / ".auditlog-ignore").write_text("")
    done = run_hook({**payload, "cwd": str(project)})
    assert done.returncode == 0 and done.stdout == b""
    assert not (store / "sessions").exists()


def test_store_is_private(store: Path) -> None:
    run_hook({"session_id": "perm", "hook_event_name": "UserPromptSubmit", "prompt": "hi"})
    assert stat.S_IMODE(store.stat().st_mode) == 0o700
    for path in store.rglob("*"):
        mode = stat.S_IMODE(path.stat().st_mode)
        assert mode & 0o077 == 0, (path, oct(mode))
