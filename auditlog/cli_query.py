"""``auditlog sessions``, ``changed``, ``search``, ``show`` and ``diff``: answering the
users' questions from the command line, through ``auditlog.query``."""

from __future__ import annotations

import argparse

from rich import box
from rich.markdown import Markdown
from rich.rule import Rule
from rich.table import Table

from auditlog.cli_output import (
    console,
    cost_text,
    diff_renderable,
    emit,
    highlighted_snippet,
    one_line,
    print_json,
    token_count,
)
from auditlog.dates import compact_duration, local_display
from auditlog.models import DailyUsage
from auditlog.query import SessionFilter, Store


def session_filter(args: argparse.Namespace) -> SessionFilter:
    import os

    project = args.project if args.project and os.path.isdir(os.path.expanduser(args.project)) else None
    return SessionFilter(
        since=args.since,
        until=args.until,
        file=args.file,
        prompt=args.prompt,
        project=args.project,
        agent=args.agent,
        tool=args.tool,
        failed=args.failed,
        limit=args.limit or None,
        commit=getattr(args, "commit", None),
        branch=getattr(args, "branch", None),
        repo=project,  # the repository --commit and --branch read (default: the current folder)
    )


def usage_table(days: list[DailyUsage]) -> Table:
    """Tokens and estimated cost per day (``sessions --by-day``, ``changed``)."""
    table = Table(box=box.SIMPLE_HEAD if console.is_terminal else None, show_edge=False, pad_edge=False)
    for column in ("day", "sessions", "model calls", "input", "output", "cache write", "cache read", "total", "cost"):
        table.add_column(column, justify="left" if column == "day" else "right", no_wrap=True)
    for d in days:
        table.add_row(d.day, str(d.sessions), str(d.turns), token_count(d.input_tokens), token_count(d.output_tokens),
                      token_count(d.cache_write_tokens), token_count(d.cache_read_tokens),
                      token_count(d.total_tokens), cost_text(d.cost_usd, d.unpriced_turns))
    return table


def _print_days(days: list[DailyUsage], as_json: bool) -> int:
    if as_json:
        print_json([d.as_dict() for d in days])
        return 0
    if not days:
        console.print("No model calls recorded (they come from the transcript: see docs/transcripts.md).")
        return 0
    console.print(usage_table(days))
    console.print("[dim]cost: estimated from list prices (docs/transcripts.md); ≥ and ?: some models have no price[/]")
    return 0


def cmd_sessions(args: argparse.Namespace) -> int:
    with Store() as store:
        found = store.sessions(session_filter(args))
        if args.by_day:
            return _print_days(store.usage_by_day(sessions=[s.id for s in found]) if found else [], args.json)
    if args.json:
        print_json([s.as_dict() for s in found])
        return 0
    if not found:
        console.print(
            "No sessions match."
            if any(
                vars(args).get(k)
                for k in ("since", "until", "file", "prompt", "project", "agent", "tool", "failed", "commit", "branch")
            )
            else "No sessions recorded yet."
        )
        return 0
    table = Table(box=box.SIMPLE_HEAD if console.is_terminal else None, show_edge=False, pad_edge=False)
    for column, justify in (
        ("session", "left"),
        ("started", "left"),
        ("took", "right"),
        ("project", "left"),
        ("agent", "left"),
        ("prompts", "right"),
        ("files", "right"),
        ("+/-", "right"),
        ("tokens", "right"),
        ("cost", "right"),
        ("first prompt", "left"),
    ):
        table.add_column(column, justify=justify, no_wrap=column != "first prompt")
    for s in found:
        fails = f" [red]✗{s.failures}[/]" if s.failures else ""
        table.add_row(
            s.id[:8],
            local_display(s.started),
            compact_duration(s.duration_seconds),
            one_line((s.project or s.cwd or "").rsplit("/", 1)[-1], 24),
            s.agent,
            str(s.prompts),
            str(s.files_changed),
            f"[green]+{s.added}[/] [red]-{s.removed}[/]{fails}",
            token_count(s.total_tokens),
            cost_text(s.cost_usd, s.unpriced_turns),
            one_line(s.title or s.first_prompt, 60),
        )
    console.print(table)
    more = " (the newest; --limit 0 lists all)" if args.limit and len(found) == args.limit else ""
    console.print(f"[dim]{len(found)} session(s){more}[/]")
    return 0


def cmd_changed(args: argparse.Namespace) -> int:
    with Store() as store:
        files = store.changed(args.since, args.until, args.project)
        ids = sorted({c.session for f in files for c in f.changes})
        days = store.usage_by_day(args.since, args.until, sessions=ids) if ids else []
        if args.by_day:
            return _print_days(days, args.json)
        sessions = [store.resolve(i) for i in ids]
    if args.json:
        print_json([f.as_dict() for f in files])
        return 0
    window = f"since {args.since}" + (f" until {args.until}" if args.until else "")
    if not files:
        console.print(f"No file changes recorded {window}.")
        return 0
    out: list = []
    project = None
    for f in files:
        if f.project != project:
            project = f.project
            totals = [g for g in files if g.project == project]
            out.append(
                Rule(
                    f"[bold]{project}[/] — {len(totals)} file(s), "
                    f"+{sum(g.added for g in totals)} -{sum(g.removed for g in totals)}",
                    align="left",
                )
            )
        out.append(f"[bold]{f.path}[/]  [green]+{f.added}[/] [red]-{f.removed}[/]")
        for c in f.changes:
            prompt = one_line(c.prompt, 70) or "(no prompt)"
            out.append(
                f"    {local_display(c.ts)}  {c.session[:8]}  {c.tool or ''} +{c.added} -{c.removed}  "
                f"[dim]“{prompt}”[/]"
            )
    out.append(Rule("[bold]Tokens and estimated cost of these sessions[/]", align="left"))
    for s in sorted(sessions, key=lambda s: s.started):
        cost = cost_text(s.cost_usd, s.unpriced_turns) or "-"
        out.append(f"    {s.id[:8]}  {local_display(s.started)}  {token_count(s.total_tokens) or '-'} tokens  "
                   f"{cost}  [dim]{one_line(s.title or s.first_prompt, 50)}[/]")
    if days:
        out.append(usage_table(days))
    emit(out)
    return 0


def cmd_search(args: argparse.Namespace) -> int:
    with Store() as store:
        hits = store.search(args.query, limit=args.limit)
    if args.json:
        print_json([h.as_dict() for h in hits])
        return 0
    if not hits:
        console.print(f"Nothing found for {args.query!r}.")
        return 0
    for h in hits:
        console.print(f"[cyan]{h.session[:8]}[/]#{h.seq} [dim]{local_display(h.ts)} {h.kind}[/]  ", end="")
        console.print(highlighted_snippet(h.snippet))
    console.print(f"[dim]{len(hits)} hit(s); open one with: auditlog show SESSION[/]")
    return 0


def cmd_show(args: argparse.Namespace) -> int:
    with Store() as store:
        session = store.resolve(args.session)
        if args.json:
            print_json(store.records(session.id, inline_blobs=args.full))
            return 0
        text = store.conversation(session.id)
    emit([Markdown(text)], plain_text=text)
    return 0


def cmd_diff(args: argparse.Namespace) -> int:
    with Store() as store:
        session = store.resolve(args.session)
        if not args.steps:
            patches = store.net_patches(session.id, args.file)
            text = "".join(p for _, p in patches)
            if not text:
                console.print(
                    "No file changes in this session" + (f" to {args.file}." if args.file else "."), style="dim"
                )
                return 0
            emit([diff_renderable(text)], plain_text=text)
            return 0
        changes = store.changes(session.id, args.file)
        out: list = []
        plain: list[str] = []
        last_prompt = object()
        for i, c in enumerate(changes, start=1):
            if c.prompt_seq != last_prompt:
                last_prompt = c.prompt_seq
                out.append(Rule(f"[bold]“{one_line(c.prompt, 90) or '(no prompt)'}”[/]", align="left"))
                plain.append(f"# prompt: {one_line(c.prompt, 200) or '(no prompt)'}\n")
            title = f"step {i} of {len(changes)} · event {c.seq} · {c.tool or ''} {c.path} (+{c.added} -{c.removed})"
            patch = store.patch_text(c)
            out += [f"[bold]{title}[/]", diff_renderable(patch)]
            plain += [f"# {title}\n", patch]
    if not changes:
        console.print("No file changes in this session.", style="dim")
        return 0
    emit(out, plain_text="".join(plain))
    return 0
