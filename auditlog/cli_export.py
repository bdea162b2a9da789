"""``auditlog review`` and ``auditlog export``: the trail as others take it away."""

from __future__ import annotations

import argparse
import json
import os
import sys

from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

from auditlog import export
from auditlog.cli_output import console
from auditlog.query import QueryError, Store
from auditlog.review import session_review


def _write_text(path: str | None, text: str) -> None:
    if path:
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
        print(f"Wrote {path}", file=sys.stderr)
    else:
        sys.stdout.write(text)


def cmd_review(args: argparse.Namespace) -> int:
    if bool(args.session) == bool(args.range):
        raise QueryError("give a SESSION (an id, a unique prefix, or 'last') or --range BASE..HEAD, not both")
    with Store() as store:
        if args.range:
            from auditlog.range_review import range_review

            text = range_review(store, args.range)
        else:
            text = session_review(store, store.resolve(args.session))
    _write_text(args.output, text)
    return 0


def cmd_export(args: argparse.Namespace) -> int:
    with Store() as store:
        sessions = export.selected_sessions(store, args.sessions, args.since, args.until, args.project, args.agent)
        if not sessions:
            print("auditlog: nothing to export: no session matches", file=sys.stderr)
            return 1
        show_progress = len(sessions) > 5 and sys.stderr.isatty()
        with Progress(
            TextColumn("Exporting"),
            BarColumn(),
            MofNCompleteColumn(),
            transient=True,
            disable=not show_progress,
            console=console.__class__(stderr=True),
        ) as bar:
            task = bar.add_task("export", total=len(sessions))
            step = lambda: bar.advance(task)  # noqa: E731
            if args.format == "jsonl":
                out = open(args.output, "wb") if args.output else sys.stdout.buffer  # noqa: SIM115
                try:
                    manifest = export.export_jsonl(store, sessions, out, step)
                finally:
                    if args.output:
                        out.close()
                if args.output:
                    with open(args.output + ".manifest.json", "w", encoding="utf-8") as f:
                        json.dump(manifest, f, indent=2)
                        f.write("\n")
            else:
                writer = {"md": export.export_md, "csv": export.export_csv, "html": export.export_html}[args.format]
                out = (
                    open(args.output, "w", encoding="utf-8", newline="" if args.format == "csv" else None)  # noqa: SIM115
                    if args.output
                    else sys.stdout
                )
                try:
                    writer(store, sessions, out, step)
                finally:
                    if args.output:
                        out.close()
    if args.output:
        extra = f" and {args.output}.manifest.json" if args.format == "jsonl" else ""
        print(f"Exported {len(sessions)} session(s) to {os.path.abspath(args.output)}{extra}", file=sys.stderr)
    return 0
