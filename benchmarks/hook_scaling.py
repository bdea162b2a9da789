#!/usr/bin/env python3
"""The hook's cost must not grow with the log: the same hook call with 100,000 events
already in the session and the index, against an empty store (budget: ratio <= 1.1).

The large session is written with the record encoder (the same bytes and hash chain the
hook writes) and indexed by ``auditlog reindex``'s code path. Prints both medians and,
last, ``hook_scaling_ratio=<large/empty>``.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from hook_timing import HOOK, alternate, check_errors, edit_payload, precompile, run

from auditlog import paths, reindex
from auditlog.record import GENESIS, encode_record, line_hash, utc_timestamp

BUDGET = 1.1
KINDS = [
    ("prompt", "UserPromptSubmit"),
    ("tool_call", "PreToolUse"),
    ("tool_result", "PostToolUse"),
    ("tool_batch", "PostToolBatch"),
    ("assistant", "Stop"),
]


def write_large_session(store: Path, session: str, events: int, cwd: str) -> None:
    folder = Path(paths.sessions_root(str(store))) / paths.session_folder_name(session)
    folder.mkdir(parents=True)
    prev = GENESIS
    start = time.time() - events
    with open(folder / "events.jsonl", "wb") as out:
        for seq in range(1, events + 1):
            kind, event = KINDS[seq % len(KINDS)]
            payload = {
                "session_id": session,
                "hook_event_name": event,
                "cwd": cwd,
                "prompt": f"prompt number {seq} about module {seq % 97}",
            }
            record = {
                "v": 1,
                "seq": seq,
                "ts": utc_timestamp(start + seq),
                "agent": "claude-code",
                "session": session,
                "event": event,
                "kind": kind,
                "cwd": cwd,
                "summary": f"event {seq}",
                "payload": payload,
                "prev": prev,
            }
            if kind == "tool_result":
                record["changes"] = [
                    {
                        "path": f"src/file{seq % 500}.py",
                        "op": "modify",
                        "added": 3,
                        "removed": 1,
                        "patch": f"patches/{seq:04d}-Edit-file.patch",
                        "patch_sha256": "0" * 64,
                    }
                ]
            line = encode_record(record)
            out.write(line + b"\n")
            prev = line_hash(line)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=30)
    parser.add_argument("--events", type=int, default=100_000)
    args = parser.parse_args()
    precompile()
    with tempfile.TemporaryDirectory(prefix="auditlog-bench-") as tmp:
        payload, source = edit_payload(Path(tmp) / "project")
        session = json.loads(payload)["session_id"]
        large, empty = Path(tmp) / "large", Path(tmp) / "empty"
        started = time.perf_counter()
        write_large_session(large, session, args.events, json.loads(payload)["cwd"])
        os.environ["AUDITLOG_HOME"] = str(large)
        reindex.reindex(str(large))
        print(f"built a session of {args.events} events and its index in {time.perf_counter() - started:.1f} s")
        env_large = {**os.environ, "AUDITLOG_HOME": str(large)}
        env_empty = {**os.environ, "AUDITLOG_HOME": str(empty)}
        for env in (env_large, env_empty):
            run([HOOK, "--agent", "claude"], payload, env)  # warm-up; creates and migrates the empty store
        medians = alternate(
            args.runs,
            {
                "empty": ([HOOK, "--agent", "claude"], payload, env_empty),
                "large": ([HOOK, "--agent", "claude"], payload, env_large),
            },
        )
        check_errors(large)
        check_errors(empty)
    ratio = medians["large"] / medians["empty"]
    print(f"payload: {source}, {args.runs} runs each, alternating")
    print(f"hook on an empty store:                 {medians['empty'] * 1000:.1f} ms median")
    print(f"hook on a session of {args.events} events: {medians['large'] * 1000:.1f} ms median")
    print(f"budget: <= {BUDGET} ({'met' if ratio <= BUDGET else 'NOT met'})")
    print(f"hook_scaling_ratio={ratio:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
