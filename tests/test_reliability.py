"""Nothing lost: concurrent writers, kill -9 at random points, a full disk, a store the
hook may not write, an index locked past the busy timeout, and fuzzed input."""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import subprocess
import time
from pathlib import Path

import pytest
from auditlog.hooks.claude import EVENTS
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from reliability_tools import HOOK, check_store, concurrent_writers, kill_trials, payload, run_in_process
from store_builder import run_hook

BUDGET_SECONDS = 8.0


def test_concurrent_writers_lose_nothing(store: Path) -> None:
    concurrent_writers(str(store), ["one-session"], writers_per_session=32, events=12)
    concurrent_writers(str(store), [f"session-{i}" for i in range(8)], writers_per_session=4, events=8)
    figures = check_store(str(store))
    assert figures == {"sessions": 9, "lines": 32 * 12 + 8 * 4 * 8, "torn_side_files": 0}


def test_concurrent_hook_processes(store: Path) -> None:
    """32 real hook processes at once on one session, as Claude Code runs parallel tools."""
    procs = []
    for _ in range(32):
        proc = subprocess.Popen(
            [HOOK, "--agent", "claude"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE
        )
        procs.append(proc)
    for i, proc in enumerate(procs):
        proc.stdin.write(json.dumps(payload("parallel", i)).encode())
        proc.stdin.close()
    for proc in procs:
        assert proc.wait(timeout=60) == 0 and proc.stdout.read() == b""
    assert not (store / "errors.log").exists(), (store / "errors.log").read_text()
    assert check_store(str(store))["lines"] == 32


def test_kill_nine_at_random_points(store: Path) -> None:
    run_in_process([payload("killed", -1)])
    killed = kill_trials(str(store), "killed", trials=50)
    assert killed > 0
    run_in_process([payload("killed", 10_000)])  # the next event repairs and catches up
    figures = check_store(str(store))
    assert figures["sessions"] == 1 and figures["lines"] >= 2


def test_full_disk(store: Path) -> None:
    if os.geteuid() != 0:
        pytest.skip("mounting a small tmpfs needs root")
    store.mkdir()
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=4m", "none", str(store)], check=False).returncode:
        pytest.skip("this machine refuses tmpfs mounts")
    try:
        run_in_process([payload("full", 0)])
        filler = store / "filler"
        try:
            with open(filler, "wb") as f:
                while True:
                    f.write(b"\0" * 4096)
                    f.flush()
        except OSError:  # the disk is full now
            pass
        start = time.monotonic()
        done = run_hook(payload("full", 1))
        assert time.monotonic() - start < BUDGET_SECONDS
        assert done.returncode == 0 and done.stdout == b""
        filler.unlink()
        run_in_process([payload("full", 2)])
        figures = check_store(str(store))
        assert figures["lines"] in (2, 3)  # event 1 is lost only if not even its line fitted
    finally:
        subprocess.run(["umount", str(store)], check=True)


def test_store_the_hook_may_not_write(store: Path) -> None:
    """EACCES for real: the store is read-only by its mode, and the hook runs without the
    capability that lets root ignore modes."""
    setpriv = shutil.which("setpriv")
    if os.geteuid() != 0 or not setpriv:
        pytest.skip("needs root and setpriv to drop CAP_DAC_OVERRIDE")
    run_in_process([payload("mine", 0)])
    folder = next((store / "sessions").iterdir())
    modes = {p: p.stat().st_mode for p in (store, folder, folder / "events.jsonl")}
    for p in modes:
        p.chmod(0o500 if p.is_dir() else 0o400)
    try:
        start = time.monotonic()
        done = subprocess.run(
            [setpriv, "--bounding-set", "-dac_override,-dac_read_search", "--", HOOK, "--agent", "claude"],
            input=json.dumps(payload("mine", 1)).encode(),
            capture_output=True,
            check=False,
        )
        assert time.monotonic() - start < BUDGET_SECONDS
        assert done.returncode == 0 and done.stdout == b""
        assert done.stderr.startswith(b"auditlog:") and b"Permission denied" in done.stderr, done.stderr
    finally:
        for p, mode in modes.items():
            p.chmod(mode)
    assert check_store(str(store))["lines"] == 1


def test_index_locked_past_the_busy_timeout(store: Path) -> None:
    run_in_process([payload("locked", 0)])
    blocker = sqlite3.connect(store / "index.sqlite", isolation_level=None)
    blocker.execute("BEGIN EXCLUSIVE")
    try:
        start = time.monotonic()
        done = run_hook(payload("locked", 1))
        assert time.monotonic() - start < BUDGET_SECONDS
        assert done.returncode == 0 and done.stdout == b""
        assert "index" in (store / "errors.log").read_text()
    finally:
        blocker.execute("ROLLBACK")
        blocker.close()
    journal = next((store / "sessions").iterdir()) / "events.jsonl"
    assert len(journal.read_bytes().splitlines()) == 2  # the line was written all the same
    run_in_process([payload("locked", 2)])  # the next event catches the index up
    assert check_store(str(store))["lines"] == 3


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.binary(max_size=300))
def test_fuzz_arbitrary_bytes(data: bytes, store: Path, capfd: pytest.CaptureFixture) -> None:
    from auditlog.hooks import entry

    read, write = os.pipe()
    os.write(write, data)
    os.close(write)
    assert entry.main(["--agent", "claude"], stdin_fd=read) == 0
    os.close(read)
    out, err = capfd.readouterr()
    assert out == "" and "Traceback" not in err


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    event=st.sampled_from([*EVENTS, "SomethingNew"]),
    fields=st.dictionaries(
        st.sampled_from(
            [
                "tool_name",
                "tool_input",
                "tool_response",
                "prompt",
                "cwd",
                "tool_use_id",
                "error",
                "transcript_path",
                "agent_id",
                "last_assistant_message",
                "reason",
                "bashEditDiff",
            ]
        ),
        JSON,
    ),
    session=st.sampled_from(["fuzz-a", "fuzz-b", "../fuzz", ""]),
)
def test_fuzz_json_documents_for_every_event(
    event: str, fields: dict, session: str, store: Path, capfd: pytest.CaptureFixture
) -> None:
    from auditlog.hooks import entry

    read, write = os.pipe()
    os.write(write, json.dumps({**fields, "hook_event_name": event, "session_id": session}).encode())
    os.close(write)
    assert entry.main(["--agent", "claude"], stdin_fd=read) == 0
    os.close(read)
    out, err = capfd.readouterr()
    assert out == "" and "Traceback" not in err
    if (store / "sessions").exists():
        check_store(str(store), unique_prompts=False)
