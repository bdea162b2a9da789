"""``auditlog export``: sessions as an auditor takes them away.

- ``jsonl``: the journal lines verbatim (their hashes still chain), plus a manifest with
  each session's SHA-256, event count and chain head, so the copy can be checked
  against the store and on its own.
- ``md``: each session's conversation.md.
- ``csv``: one row per event.
- ``html``: one self-contained offline page: a table of contents, each conversation with
  its diffs highlighted, no script and nothing fetched.
"""

from __future__ import annotations

import csv
import html
import io
import json
import os
import re
from collections.abc import Callable, Iterable

from auditlog.dates import local_display
from auditlog.digests import sha256_hex
from auditlog.models import SessionSummary
from auditlog.query import Store
from auditlog.record import line_hash

FORMATS = ("jsonl", "md", "csv", "html")
CSV_FIELDS = (
    "session",
    "seq",
    "ts",
    "agent",
    "event",
    "kind",
    "tool",
    "tool_use_id",
    "summary",
    "failed",
    "files",
    "patches",
    "cwd",
    "line_sha256",
)


def _journal_lines(store: Store, session: str) -> list[bytes]:
    with open(os.path.join(store.folder(session), "events.jsonl"), "rb") as f:
        return [line for line in f.read().split(b"\n") if line]


def export_jsonl(
    store: Store, sessions: list[SessionSummary], out: io.BufferedIOBase, progress: Callable[[], None] | None = None
) -> dict:
    """Write the lines; return the manifest."""
    manifest = {"format": "auditlog-export-jsonl", "version": 1, "sessions": []}
    whole = []
    for s in sessions:
        lines = _journal_lines(store, s.id)
        data = b"".join(line + b"\n" for line in lines)
        out.write(data)
        whole.append(data)
        manifest["sessions"].append(
            {
                "session": s.id,
                "agent": s.agent,
                "events": len(lines),
                "sha256": sha256_hex(data),
                "first_seq": json.loads(lines[0])["seq"] if lines else None,
                "last_seq": json.loads(lines[-1])["seq"] if lines else None,
                "chain_head": line_hash(lines[-1]) if lines else None,
            }
        )
        if progress:
            progress()
    manifest["sha256"] = sha256_hex(b"".join(whole))
    return manifest


def export_md(
    store: Store, sessions: list[SessionSummary], out: io.TextIOBase, progress: Callable[[], None] | None = None
) -> None:
    for i, s in enumerate(sessions):
        if i:
            out.write("\n\n---\n\n")
        out.write(store.conversation(s.id))
        if progress:
            progress()


def export_csv(
    store: Store, sessions: list[SessionSummary], out: io.TextIOBase, progress: Callable[[], None] | None = None
) -> None:
    writer = csv.DictWriter(out, fieldnames=CSV_FIELDS, extrasaction="ignore")
    writer.writeheader()
    for s in sessions:
        for line in _journal_lines(store, s.id):
            r = json.loads(line)
            writer.writerow(
                {
                    **{k: r.get(k) for k in CSV_FIELDS},
                    "failed": "yes" if r.get("failed") else "",
                    "files": ";".join(r.get("files") or []),
                    "patches": ";".join(r.get("patches") or []),
                    "line_sha256": line_hash(line),
                }
            )
        if progress:
            progress()


HTML_STYLE = """
body{font:15px/1.5 system-ui,-apple-system,Segoe UI,sans-serif;margin:0;color:#1f2328;background:#fff}
nav{position:fixed;top:0;left:0;bottom:0;width:19rem;overflow:auto;padding:1rem;background:#f6f8fa;
border-right:1px solid #d0d7de;font-size:13px}nav a{color:#0969da;text-decoration:none}
nav ol{padding-left:1.2rem}main{margin-left:21rem;padding:1rem 2rem;max-width:62rem}
section.session{border-top:3px solid #d0d7de;margin-top:2rem}table{border-collapse:collapse}
td,th{border:1px solid #d0d7de;padding:2px 8px;text-align:left}blockquote{margin:0;padding:0 1em;
color:#57606a;border-left:.25em solid #d0d7de}pre{background:#f6f8fa;padding:.6rem;
overflow:auto;font-size:12.5px;line-height:1.35}code{font-family:ui-monospace,SFMono-Regular,Menlo,monospace}
.add{background:#dafbe1;display:block}.del{background:#ffebe9;display:block}.hunk{color:#8250df;display:block}
.meta{color:#57606a;display:block}.ctx{display:block}@media print{nav{display:none}main{margin:0}}
@media (prefers-color-scheme:dark){body{background:#0d1117;color:#e6edf3}nav,pre{background:#161b22}
.add{background:#12361f}.del{background:#4a1d1d}td,th,nav{border-color:#30363d}}
"""


def _highlight_diff_blocks(rendered: str) -> str:
    """Colour the lines of ``diff`` code blocks (no script: plain spans and CSS)."""

    def colour(match: re.Match) -> str:
        out = []
        for line in match.group(2).rstrip("\n").split("\n"):
            cls = (
                "add"
                if line.startswith("+") and not line.startswith("+++")
                else "del"
                if line.startswith("-") and not line.startswith("---")
                else "hunk"
                if line.startswith("@@")
                else "meta"
                if line.startswith(("diff --git", "index ", "---", "+++", "new file", "deleted file"))
                else ""
            )
            out.append(f'<span class="{cls or "ctx"}">{line or " "}</span>')
        return match.group(1) + "".join(out) + "</code>"

    return re.sub(r'(<code class="language-diff">)(.*?)</code>', colour, rendered, flags=re.S)


def export_html(
    store: Store, sessions: list[SessionSummary], out: io.TextIOBase, progress: Callable[[], None] | None = None
) -> None:
    from markdown_it import MarkdownIt

    md = MarkdownIt("commonmark", {"html": False}).enable("table")
    toc, bodies = [], []
    for s in sessions:
        anchor = f"s-{s.id[:12]}"
        prompts = [p for p in store.events(s.id) if p.kind == "prompt"]
        items = "".join(f'<li><a href="#{anchor}-{p.seq}">{html.escape(p.summary[:70])}</a></li>' for p in prompts)
        toc.append(
            f'<li><a href="#{anchor}">{html.escape(local_display(s.started))} · '
            f"{html.escape((s.title or s.first_prompt or s.id)[:60])}</a><ol>{items}</ol></li>"
        )
        body = _highlight_diff_blocks(md.render(store.conversation(s.id)))
        # Give each prompt heading an anchor, in order (conversation.md writes one h2 per prompt).
        for p in prompts:
            body = body.replace("<h2>", f'<h2 id="{anchor}-{p.seq}" class="prompt">', 1)
        bodies.append(f'<section class="session" id="{anchor}">{body}</section>')
        if progress:
            progress()
    title = "auditlog export" if len(sessions) != 1 else f"auditlog session {sessions[0].id[:8]}"
    out.write(
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        f'<meta name="viewport" content="width=device-width,initial-scale=1"><title>{html.escape(title)}'
        f"</title><style>{HTML_STYLE}</style></head><body><nav><strong>{len(sessions)} session(s)</strong>"
        f"<ol>{''.join(toc)}</ol></nav><main><h1>{html.escape(title)}</h1>{''.join(bodies)}</main>"
        "</body></html>\n"
    )


def selected_sessions(
    store: Store,
    refs: Iterable[str],
    since: str | None,
    until: str | None,
    project: str | None = None,
    agent: str | None = None,
) -> list[SessionSummary]:
    from auditlog.query import SessionFilter

    chosen = [store.resolve(ref) for ref in refs]
    if since or until or project or agent or not chosen:
        found = store.sessions(SessionFilter(since=since, until=until, project=project, agent=agent))
        seen = {s.id for s in chosen}
        chosen += [s for s in found if s.id not in seen]
    return sorted(chosen, key=lambda s: s.started)
