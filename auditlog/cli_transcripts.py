"""``auditlog import`` and ``auditlog backfill``: Claude Code transcripts into the store
(docs/transcripts.md)."""

from __future__ import annotations

import argparse
import json
import os

from rich.console import Console
from rich.progress import BarColumn, DownloadColumn, Progress, TextColumn, TimeRemainingColumn

from auditlog import paths

console = Console(highlight=False, stderr=True)


def _capture():
    from auditlog.hooks import claude_import

    return claude_import.new_capture(paths.store_home())


def cmd_import(args: argparse.Namespace) -> int:
    from auditlog.hooks import claude_import

    path = os.path.expanduser(args.path)
    if not os.path.exists(path):
        raise ValueError(f"{path} does not exist (Claude Code keeps transcripts in ~/.claude/projects)")
    files = claude_import.transcript_files(path)
    total = sum(os.path.getsize(f) for f in files)
    capture = _capture()
    with Progress(TextColumn("Importing"), BarColumn(), DownloadColumn(), TimeRemainingColumn(), console=console,
                  transient=True, disable=not console.is_terminal) as progress:
        task = progress.add_task("import", total=total)
        results = claude_import.import_path(capture, path, lambda _f, size: progress.advance(task, size))
    sessions = {r.session for r in results if r.session}
    changed = {r.session for r in results if r.added}
    added = sum(r.added for r in results)
    malformed = [(r.path, n) for r in results for n in r.malformed]
    if args.json:
        print(json.dumps({"files": len(files), "bytes": total, "sessions": len(sessions), "sessions_changed":
                          len(changed), "records_added": added,
                          "malformed_lines": [{"path": p, "line": n} for p, n in malformed]}, indent=2))
        return 0
    for file, number in malformed[:50]:
        console.print(f"[yellow]{file}:{number}: not a JSON object; skipped[/]")
    if len(malformed) > 50:
        console.print(f"[yellow]… and {len(malformed) - 50} more malformed lines[/]")
    print(f"Imported {len(files)} transcript(s), {total / 1e6:.1f} MB: {len(sessions)} session(s), "
          f"{len(changed)} with new records, {added} record(s) added"
          + (f"; {len(malformed)} malformed line(s) skipped" if malformed else ""))
    return 0


def cmd_backfill(args: argparse.Namespace) -> int:
    from auditlog.hooks import claude_import
    from auditlog.query import Store

    with Store() as store:
        session = store.resolve(args.session)
        folder = store.folder(session.id)
    added, gaps, notes = claude_import.backfill(_capture(), folder)
    for path, why in notes:
        console.print(f"[yellow]{path}: {why}[/]")
    for gap in gaps:
        print(f"  {gap.tool_use_id}  {gap.name}" + (f"  [{gap.subagent}]" if gap.subagent else ""))
    print(f"Recorded {added} record(s) for {len(gaps)} tool call(s) the hooks missed in {session.id}"
          if gaps else f"Nothing to backfill: every tool call in {session.id[:12]}'s transcript is recorded.")
    return 0
