#!/usr/bin/env python3
"""``auditlog import`` must take at least 10 MB of transcript per second: months of
sessions should import while one waits.

Writes synthetic Claude Code transcripts (prompts, thinking, text, Reads of a 6 KB file,
Edits with their ``originalFile`` and ``structuredPatch``: every record kind, patches and
blobs) into a fresh ``projects`` folder and imports them the way ``auditlog import`` does
(the hook's redaction and key, patches, conversation.md, the index). Prints the figures
and, last, ``import_mb_per_second=<MB/s>``.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from auditlog.hooks import claude_import
from synthetic_transcript import TranscriptWriter

BUDGET = 10.0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sessions", type=int, default=20)
    parser.add_argument("--mb-per-session", type=float, default=2.0)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        projects = Path(tmp) / "projects" / "-home-dev-project"
        projects.mkdir(parents=True)
        for n in range(args.sessions):
            session = f"00000000-0000-4000-8000-{n:012d}"
            TranscriptWriter(projects / f"{session}.jsonl", session).grow_to(int(args.mb_per_session * 1e6))
        total = sum(p.stat().st_size for p in projects.iterdir())
        home = os.path.join(tmp, "store")
        os.makedirs(home)
        capture = claude_import.new_capture(home)
        started = time.perf_counter()
        results = claude_import.import_path(capture, str(projects.parent))
        elapsed = time.perf_counter() - started
        added = sum(r.added for r in results)
        again = sum(r.added for r in claude_import.import_path(capture, str(projects.parent)))
        rate = total / 1e6 / elapsed
        print(f"imported {len(results)} transcripts, {total / 1e6:.1f} MB, {added} records in {elapsed:.2f} s "
              f"(a second import added {again})")
        print(f"import_mb_per_second={rate:.1f}")
        return 0 if rate >= BUDGET and again == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
