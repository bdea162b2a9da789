#!/usr/bin/env python3
"""The join at Stop reads only the transcript's new bytes: a Stop in a session whose
transcript is 50 MB must cost no more than 1.2x a Stop in one whose transcript is 50 KB
(each Stop comes after a turn that added the same ~40 KB to either).

Times ``Capture.record`` of a Stop event in-process (the hook's work without the
interpreter's start-up, which is the same for both), alternating the two sessions, after
one untimed join that brings each to the end of its transcript. Prints both medians and,
last, ``transcript_join_ratio=<large/small>``.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from auditlog.hooks import claude
from synthetic_transcript import TranscriptWriter

from auditlog import store_key
from auditlog.capture import Capture
from auditlog.record import utc_timestamp
from auditlog.redaction import Redactor

BUDGET = 1.2


def stop(capture: Capture, session: str, transcript: Path, cwd: str) -> float:
    payload = {"session_id": session, "transcript_path": str(transcript), "cwd": cwd, "hook_event_name": "Stop",
               "stop_hook_active": False, "last_assistant_message": "Done."}
    started = time.perf_counter()
    capture.record(claude.observe(payload), utc_timestamp())
    return time.perf_counter() - started


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--small", type=int, default=50_000, help="bytes of the small transcript")
    parser.add_argument("--large", type=int, default=50_000_000, help="bytes of the large transcript")
    parser.add_argument("--rounds", type=int, default=25)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        home = os.path.join(tmp, "store")
        os.makedirs(home)
        cwd = os.path.join(tmp, "project")
        os.makedirs(cwd)
        large = TranscriptWriter(Path(tmp) / "large.jsonl", "bench-large", cwd)
        large.grow_to(args.large)
        timings: dict[str, list[float]] = {"small": [], "large": []}
        sizes: dict[str, list[int]] = {"small": [], "large": []}
        capture_for = lambda: Capture(home, Redactor(store_key.load_or_create(home)))  # noqa: E731 - one per hook call
        for _ in range(3):  # the first joins take the whole backlog (32 MiB at most each): untimed
            stop(capture_for(), large.session, large.path, cwd)
        for n in range(args.rounds):
            # A session whose transcript is small: a fresh one each round, joined once, then a turn.
            small = TranscriptWriter(Path(tmp) / f"small-{n}.jsonl", f"bench-small-{n}", cwd)
            small.hook_progress(args.small - len(small.turn_lines().encode()))
            stop(capture_for(), small.session, small.path, cwd)
            for name, writer in (("small", small), ("large", large)):
                with open(writer.path, "a") as f:
                    f.write(writer.turn_lines())
                sizes[name].append(writer.path.stat().st_size)
                timings[name].append(stop(capture_for(), writer.session, writer.path, cwd))
        small_cost, large_cost = statistics.median(timings["small"]), statistics.median(timings["large"])
        print(f"transcripts at the timed Stop: small {statistics.median(sizes['small']) / 1e3:.0f} KB, "
              f"large {statistics.median(sizes['large']) / 1e6:.1f} MB; each turn adds "
              f"{len(large.turn_lines().encode()) / 1e3:.0f} KB")
        print(f"Stop with join, median of {args.rounds}: small {small_cost * 1000:.2f} ms, "
              f"large {large_cost * 1000:.2f} ms")
        ratio = large_cost / small_cost
        print(f"transcript_join_ratio={ratio:.2f}")
        return 0 if ratio <= BUDGET else 1


if __name__ == "__main__":
    sys.exit(main())
