"""``auditlog verify`` and ``auditlog reindex``: the store's integrity and its index."""

from __future__ import annotations

import argparse
import json
import os

from rich.console import Console
from rich.progress import BarColumn, DownloadColumn, Progress, TextColumn, TimeRemainingColumn

from auditlog import checkpoints, paths, reindex, verify

console = Console(highlight=False)


def _select(home: str, wanted: list[str]) -> list[str]:
    folders = reindex.session_folders(home)
    if not wanted:
        return folders
    chosen = []
    for want in wanted:
        name = paths.session_folder_name(want)
        matches = [f for f in folders if os.path.basename(f) in (name, want)] or [
            f for f in folders if os.path.basename(f).startswith(want)
        ]
        if not matches:
            raise ValueError(f"no session matches {want!r}")
        if len(matches) > 1:
            names = ", ".join(os.path.basename(m) for m in matches[:5])
            raise ValueError(f"{want!r} matches {len(matches)} sessions ({names}); give more of the id")
        chosen.append(matches[0])
    return chosen


def _index_facts(home: str) -> tuple[dict[str, dict], dict[str, dict[int, str]]]:
    """Per session folder: its index row, and the line hashes the index recorded."""
    from auditlog.query import Store

    with Store(home) as store:
        rows = {r["folder"]: r for r in store.db.query(
            "SELECT id, folder, events, chain_head, indexed_bytes FROM sessions")}
        hashes: dict[str, dict[int, str]] = {}
        by_id = {r["id"]: folder for folder, r in rows.items()}
        for r in store.db.query("SELECT session, seq, hash FROM events"):
            hashes.setdefault(by_id.get(r["session"], ""), {})[r["seq"]] = r["hash"]
    return rows, hashes


def cmd_verify(args: argparse.Namespace) -> int:
    home = paths.store_home()
    results = []
    broken = False
    indexed, index_hashes = _index_facts(home)
    for folder in _select(home, args.sessions):
        name = os.path.basename(folder)
        problems, count, head = verify.verify_session(
            folder, checkpoints=checkpoints.read(home, name), index_hashes=index_hashes.get(name))
        problems += verify.index_agreement(folder, indexed.get(os.path.basename(folder)), count, head)
        problems += verify.transcript_agreement(folder)
        fatal = [p for p in problems if not p.warning]
        broken = broken or bool(fatal)
        results.append(
            {
                "session": os.path.basename(folder),
                "events": count,
                "chain_head": head,
                "ok": not fatal,
                "problems": [
                    {"path": p.path, "line": p.line, "message": p.message, "warning": p.warning} for p in problems
                ],
            }
        )
    if args.json:
        print(json.dumps({"ok": not broken, "sessions": results}, indent=2))
        return 1 if broken else 0
    for result in results:
        mark = "[green]✓[/]" if result["ok"] else "[red]✗[/]"
        console.print(f"{mark} {result['session']}: {result['events']} events, chain head {result['chain_head'][:16]}")
        for problem in result["problems"]:
            where = f"{problem['path']}:{problem['line']}" if problem["line"] else problem["path"]
            colour = "yellow" if problem["warning"] else "red"
            console.print(f"    [{colour}]{where}: {problem['message']}[/]")
    if not results:
        console.print("No sessions recorded yet.")
    return 1 if broken else 0


def cmd_reindex(args: argparse.Namespace) -> int:
    home = paths.store_home()
    folders = reindex.session_folders(home)
    total = reindex.journal_bytes(folders)
    with Progress(
        TextColumn("Reindexing"),
        BarColumn(),
        DownloadColumn(),
        TimeRemainingColumn(),
        console=console,
        transient=True,
        disable=not console.is_terminal,
    ) as progress:
        task = progress.add_task("reindex", total=total)
        sessions, events = reindex.reindex(home, lambda done: progress.advance(task, done))
    console.print(f"Reindexed {sessions} sessions, {events} events into {paths.index_path(home)}")
    return 0
