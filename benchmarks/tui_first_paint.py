#!/usr/bin/env python3
"""First paint of ``auditlog browse`` on a 10,000-session store against a 100-session
store (budgets: <= 1.0 s, and ratio <= 1.5).

"First paint" is measured inside a fresh interpreter per run, from just before the app is
constructed (imports done) until the sessions table holds rows and a frame showing them
has been rendered (Textual's headless driver composes frames exactly as on a terminal; it
only does not write them out). Runs alternate between the two stores; medians are printed.

The stores are written with the record encoder (the same bytes and hash chain the hook
writes), five events per session, and indexed by ``auditlog reindex``'s code path.
Prints the absolute medians and, last, ``tui_first_paint_ratio=<large/small>``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

BUDGET_SECONDS = 1.0
BUDGET_RATIO = 1.5
PROJECTS = ("api", "web", "infra", "docs", "mobile", "billing", "search")
FILES = ("config.ini", "src/app.py", "src/server.py", "README.md", "tests/test_app.py", "web/index.ts")


def write_store(home: Path, sessions: int) -> float:
    """Write ``sessions`` small sessions and index them; returns the seconds it took."""
    from auditlog import paths, reindex
    from auditlog.record import GENESIS, encode_record, line_hash, utc_timestamp

    started = time.perf_counter()
    root = Path(paths.sessions_root(str(home)))
    root.mkdir(parents=True, exist_ok=True)
    now = time.time()
    for i in range(sessions):
        session = f"bench{i:06d}-0000-4000-8000-{i:012d}"
        project = f"/home/dev/{PROJECTS[i % len(PROJECTS)]}"
        path = FILES[i % len(FILES)]
        begin = now - (sessions - i) * 600.0
        events = [
            ("SessionStart", "session_start", None, {"source": "startup"}, "Session started (startup)"),
            ("UserPromptSubmit", "prompt", None, {"prompt": f"task {i}: tidy {path} for module {i % 97}"},
             f"task {i}: tidy {path} for module {i % 97}"),
            ("PreToolUse", "tool_call", "Edit", {"tool_name": "Edit"}, f"Edit {path}"),
            ("PostToolUse", "tool_result", "Edit", {"tool_name": "Edit"}, f"Edit {path} (+3 −1)"),
            ("SessionEnd", "session_end", None, {"reason": "other"}, "Session ended (other)"),
        ]
        folder = root / paths.session_folder_name(session)
        folder.mkdir()
        prev = GENESIS
        with open(folder / "events.jsonl", "wb") as out:
            for seq, (event, kind, tool, extra, summary) in enumerate(events, start=1):
                record = {"v": 1, "seq": seq, "ts": utc_timestamp(begin + seq * 20), "agent": "claude-code",
                          "session": session, "event": event, "kind": kind, "cwd": project, "tool": tool,
                          "summary": summary, "payload": {"session_id": session, "hook_event_name": event,
                                                          "cwd": project, **extra}, "prev": prev}
                if kind == "session_start":
                    record["context"] = {"project": project, "branch": "main"}
                if kind == "tool_result":
                    record["files"] = [path]
                    record["changes"] = [{"path": path, "op": "modify", "added": 3, "removed": 1,
                                          "patch": f"patches/0004-Edit-{path.rsplit('/', 1)[-1]}.patch",
                                          "patch_sha256": "0" * 64}]
                line = encode_record(record)
                out.write(line + b"\n")
                prev = line_hash(line)
        with open(folder / "conversation.md", "w") as md:
            md.write(f"# Session {session[:8]}\n\n## task {i}\n")
    reindex.reindex(str(home))
    return time.perf_counter() - started


async def _first_paint(home: str) -> float:
    from auditlog.tui.app import AuditlogApp
    from auditlog.tui.widgets.sessions_table import SessionsTable

    start = time.perf_counter()
    app = AuditlogApp(home=home)
    async with app.run_test(size=(120, 40)):
        while True:
            tables = app.screen.query(SessionsTable)
            if tables and tables.first().row_count:
                break
            await asyncio.sleep(0.002)
        painted = asyncio.Event()
        app.screen.call_after_refresh(painted.set)  # runs once the frame with the rows is rendered
        await painted.wait()
        elapsed = time.perf_counter() - start
    return elapsed


def child(home: str) -> None:
    import auditlog.tui.app  # noqa: F401  (imports are not part of first paint)

    print(json.dumps({"first_paint": asyncio.run(_first_paint(home))}))


def measure(home: Path) -> float:
    done = subprocess.run([sys.executable, __file__, "--child", str(home)], capture_output=True, text=True,
                          check=True, env={**os.environ, "AUDITLOG_HOME": str(home)})
    return json.loads(done.stdout.strip().splitlines()[-1])["first_paint"]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--large", type=int, default=10_000)
    parser.add_argument("--small", type=int, default=100)
    parser.add_argument("--child", metavar="HOME", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.child)
        return 0
    with tempfile.TemporaryDirectory(prefix="auditlog-bench-tui-") as tmp:
        small, large = Path(tmp) / "small", Path(tmp) / "large"
        print(f"wrote and indexed {args.small} sessions in {write_store(small, args.small):.1f} s")
        print(f"wrote and indexed {args.large} sessions in {write_store(large, args.large):.1f} s")
        measure(small)  # warm the page cache and Python's bytecode cache once
        times: dict[str, list[float]] = {"small": [], "large": []}
        for _ in range(args.runs):
            times["small"].append(measure(small))
            times["large"].append(measure(large))
    small_median, large_median = statistics.median(times["small"]), statistics.median(times["large"])
    ratio = large_median / small_median
    ok = large_median <= BUDGET_SECONDS and ratio <= BUDGET_RATIO
    print(f"first paint, {args.small} sessions:    {small_median * 1000:.0f} ms median of {args.runs}")
    print(f"first paint, {args.large} sessions: {large_median * 1000:.0f} ms median of {args.runs}")
    print(f"budget: <= {BUDGET_SECONDS:.1f} s and ratio <= {BUDGET_RATIO} ({'met' if ok else 'NOT met'})")
    print(f"tui_first_paint_small_s={small_median:.3f}")
    print(f"tui_first_paint_large_s={large_median:.3f}")
    print(f"tui_first_paint_ratio={ratio:.2f}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
