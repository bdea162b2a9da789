#!/usr/bin/env python3
"""``auditlog blame`` of a 2,000-line file with 500 recorded changes to it (budget: 1 s).

The store is written by the capture pipeline itself (the Claude Code adapter and
``Capture.record``, in process to save 1,000 interpreter starts): 10 sessions of 50 Edits
each to ``big.py`` in a real git repository, a commit after each session, a person's
edit between sessions (so the replay has gaps to bridge) and one more, uncommitted, at
the end (so the file matches no recorded image and is carried from the tips). Then the
real command, ``auditlog blame big.py``, runs as a user runs it (a fresh process, output
piped). Prints the store's figures, the lines attributed, and last ``blame_seconds=…``
(the median of the runs).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

BUDGET_SECONDS = 1.0
LINES, SESSIONS, EDITS = 2000, 10, 50
AUDITLOG = str(Path(sys.executable).parent / "auditlog")


def git(repo: Path, *args: str) -> None:
    subprocess.run(
        ["git", "-C", str(repo), "-c", "user.name=bench", "-c", "user.email=b@example.com", *args],
        check=True,
        capture_output=True,
    )


def record(home: str, payload: dict) -> None:
    from auditlog.hooks.claude import observe

    from auditlog.capture import Capture
    from auditlog.record import utc_timestamp

    Capture(home).record(observe(payload), utc_timestamp())


def edit(home: str, session: str, path: Path, rng: random.Random, step: int) -> None:
    """One Edit as Claude Code reports it: PreToolUse, the change on disk, PostToolUse."""
    original = path.read_text()
    lines = original.splitlines(keepends=True)
    at = rng.randrange(len(lines))
    old = lines[at]
    new = f"    value_{step} = compute({step}, {at})  # changed\n"
    base = {
        "session_id": session,
        "cwd": str(path.parent),
        "tool_name": "Edit",
        "tool_use_id": f"toolu_{step}",
        "tool_input": {"file_path": str(path), "old_string": old, "new_string": new},
    }
    record(home, {**base, "hook_event_name": "PreToolUse"})
    path.write_text(original.replace(old, new, 1))
    record(home, {**base, "hook_event_name": "PostToolUse", "tool_response": {"originalFile": original}})


def build(home: str, repo: Path, rng: random.Random) -> None:
    big = repo / "big.py"
    big.write_text("".join(f"def function_{i}():\n" if i % 10 == 0 else f"    line_{i} = {i}\n" for i in range(LINES)))
    git(repo, "add", "big.py")
    git(repo, "commit", "-qm", "big file")
    for s in range(SESSIONS):
        session = f"bench-session-{s:02d}"
        record(home, {"session_id": session, "cwd": str(repo), "hook_event_name": "SessionStart"})
        record(
            home,
            {
                "session_id": session,
                "cwd": str(repo),
                "hook_event_name": "UserPromptSubmit",
                "prompt": f"refactor part {s} of big.py",
            },
        )
        for e in range(EDITS):
            edit(home, session, big, rng, s * EDITS + e)
        git(repo, "commit", "-qam", f"session {s}")
        lines = big.read_text().splitlines(keepends=True)
        lines.insert(s * 100 + 5, f"    # a note by hand {s}\n")
        big.write_text("".join(lines))  # a person's edit between sessions: no session records it
        git(repo, "commit", "-qam", f"by hand {s}")
    big.write_text(big.read_text() + "# a last note by hand\n")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--keep", metavar="DIR", help="build the store and repository in DIR and keep them")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="auditlog-blame-") as scratch:
        tmp = args.keep or scratch
        home, repo = os.path.join(tmp, "store"), Path(tmp) / "repo"
        os.environ["AUDITLOG_HOME"] = home
        repo.mkdir()
        git(repo, "init", "-q", "-b", "main")
        started = time.perf_counter()
        build(home, repo, random.Random(8))
        built = time.perf_counter() - started
        if os.path.exists(os.path.join(home, "errors.log")):
            raise SystemExit(Path(home, "errors.log").read_text())
        env = {**os.environ, "AUDITLOG_HOME": home}
        times, out = [], ""
        for _ in range(args.runs):
            start = time.perf_counter()
            done = subprocess.run(
                [AUDITLOG, "blame", "--json", "big.py"], cwd=repo, env=env, capture_output=True, text=True, check=True
            )
            times.append(time.perf_counter() - start)
            out = done.stdout
        lines = json.loads(out)
        recorded = sum(1 for line in lines if line["session"])
        sessions = len({line["session"] for line in lines if line["session"]})
    seconds = statistics.median(times)
    print(f"store: {SESSIONS} sessions x {EDITS} Edits of a {LINES}-line file, built in {built:.1f} s")
    print(f"blame: {len(lines)} lines, {recorded} written by {sessions} recorded sessions, the rest not recorded")
    print(f"runs: {', '.join(f'{t:.3f}' for t in times)} s (fresh process each, JSON to a pipe)")
    print(f"budget: <= {BUDGET_SECONDS} s ({'met' if seconds <= BUDGET_SECONDS else 'NOT met'})")
    print(f"blame_seconds={seconds:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
