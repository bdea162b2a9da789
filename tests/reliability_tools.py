"""Shared by the reliability tests and benchmarks: payloads, concurrent writers, kill -9
trials, and a whole-store check (no lost, duplicated or torn lines; contiguous seq; the
chain verifies; the index agrees with the journals)."""

from __future__ import annotations

import contextlib
import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

HOOK = os.path.join(os.path.dirname(sys.executable), "auditlog-hook")


def payload(session: str, n: int, cwd: str = "/tmp", marker: str = "") -> dict:
    """A small UserPromptSubmit payload whose prompt names its writer and number."""
    return {"session_id": session, "hook_event_name": "UserPromptSubmit", "cwd": cwd,
            "prompt": f"event {marker}#{n} " + "lorem ipsum " * 20}


def run_in_process(events: list[dict]) -> None:
    """Run events through the real hook code (``auditlog.hooks.entry.main``) in this
    process, one after the other, each from its own pipe, as the hook reads stdin."""
    from auditlog.hooks import entry

    for event in events:
        read, write = os.pipe()
        os.write(write, json.dumps(event).encode())
        os.close(write)
        entry.main(["--agent", "claude"], stdin_fd=read)
        os.close(read)


def writer(args: tuple[str, str, int, str]) -> None:
    home, session, count, marker = args
    os.environ["AUDITLOG_HOME"] = home
    run_in_process([payload(session, i, marker=marker) for i in range(count)])


def concurrent_writers(home: str, sessions: list[str], writers_per_session: int, events: int) -> float:
    """Run ``writers_per_session`` processes per session at once, each writing ``events``."""
    import multiprocessing

    jobs = [(home, s, events, f"{s}/{w}") for s in sessions for w in range(writers_per_session)]
    start = time.perf_counter()
    with multiprocessing.get_context("fork").Pool(len(jobs)) as pool:
        pool.map(writer, jobs, chunksize=1)
    return time.perf_counter() - start


def kill_trials(home: str, session: str, trials: int, seed: int = 1) -> int:
    """Start the real hook on an event and SIGKILL it at a random moment, ``trials``
    times; returns how many were killed before they finished."""
    rng = random.Random(seed)
    env = {**os.environ, "AUDITLOG_HOME": home}
    killed = 0
    for i in range(trials):
        data = json.dumps(payload(session, i, marker="kill")).encode()
        proc = subprocess.Popen([HOOK, "--agent", "claude"], stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL, env=env)
        proc.stdin.write(data)
        proc.stdin.close()
        time.sleep(rng.uniform(0, 0.2))
        if proc.poll() is None:
            proc.send_signal(signal.SIGKILL)
            killed += 1
        proc.wait()
    return killed


def check_store(home: str, *, unique_prompts: bool = True) -> dict:
    """Every session: lines parse, seq 1..n, no duplicate events, chain verifies, index
    row counts equal the journal's. Returns the figures; raises AssertionError if not."""
    figures = {"sessions": 0, "lines": 0, "torn_side_files": 0}
    with contextlib.closing(sqlite3.connect(Path(home) / "index.sqlite")) as db:
        for folder in sorted((Path(home) / "sessions").iterdir()):
            count = _check_session(home, folder, db, unique_prompts)
            figures["sessions"] += 1
            figures["lines"] += count
            figures["torn_side_files"] += (folder / "events.torn").exists()
    return figures


def _check_session(home: str, folder: Path, db: sqlite3.Connection, unique_prompts: bool) -> int:
    from auditlog import checkpoints, verify

    problems, count, _head = verify.verify_session(str(folder), checkpoints=checkpoints.read(home, folder.name))
    fatal = [str(p) for p in problems if not p.warning]
    assert not fatal, fatal
    records = [json.loads(line) for line in (folder / "events.jsonl").read_bytes().splitlines()]
    assert [r["seq"] for r in records] == list(range(1, count + 1))
    if unique_prompts:  # every event the trials send has its own prompt
        prompts = [json.dumps(r["payload"].get("prompt")) for r in records if r["kind"] == "prompt"]
        assert len(prompts) == len(set(prompts)), "a duplicated event"
    indexed = db.execute("SELECT count(*) FROM events WHERE session = ?", (records[0]["session"],)).fetchone()[0]
    assert indexed == count, (indexed, count)
    return count
