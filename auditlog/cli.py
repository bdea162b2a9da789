"""The ``auditlog`` command line. Each command's body imports what it needs, so
``auditlog --help`` stays quick and no command pays for another's dependencies."""

from __future__ import annotations

import argparse
import sys

from auditlog import __version__

AGENT_CHOICES = ("claude", "codex", "gemini", "cursor", "hel")


def _add_setup_commands(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "install",
        help="register auditlog-hook in an agent's settings",
        description="Register this installation's auditlog-hook for every hook event of the agent. "
        "Other hooks and settings are kept; running it twice adds nothing; a backup of the changed file "
        "is left beside it.",
    )
    p.add_argument("--agent", required=True, choices=AGENT_CHOICES, help="the agent to capture")
    p.add_argument(
        "--scope",
        choices=("project", "user", "local"),
        default="project",
        help="project: the project's own configuration, e.g. DIR/.claude/settings.json (default); "
        "user: the user's, e.g. ~/.claude/settings.json; local: DIR/.claude/settings.local.json "
        "(Claude Code only); docs/agents.md lists every agent's files",
    )
    p.add_argument("--dir", default=None, help="the project folder (default: the current folder)")
    p.set_defaults(handler="auditlog.cli_setup:cmd_install")
    p = sub.add_parser(
        "uninstall",
        help="remove exactly what install added",
        description="Remove the auditlog hooks that install added; everything else stays.",
    )
    p.add_argument("--agent", required=True, choices=AGENT_CHOICES, help="the agent")
    p.add_argument("--scope", choices=("project", "user", "local"), default="project", help="as for install")
    p.add_argument("--dir", default=None, help="the project folder (default: the current folder)")
    p.set_defaults(handler="auditlog.cli_setup:cmd_uninstall")
    p = sub.add_parser(
        "doctor",
        help="say whether capture works",
        description="Check where hooks are registered, that the store is writable, and record and "
        "time one test event in a scratch store.",
    )
    p.add_argument("--dir", default=None, help="the project folder to check (default: the current folder)")
    p.set_defaults(handler="auditlog.cli_setup:cmd_doctor")


def _add_store_commands(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "verify",
        help="check hash chains, patches and blobs; exit 1 if anything is broken",
        description="Recompute every session's hash chain, check the patches and blobs its records "
        "name, and check that the index agrees with the journals. Reports the first broken line per "
        "session, and (as a warning) the tool calls in a session's transcript that no record names: "
        "`auditlog backfill SESSION` records them.",
    )
    p.add_argument("sessions", nargs="*", metavar="SESSION", help="session ids or prefixes (default: all)")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(handler="auditlog.cli_store:cmd_verify")
    p = sub.add_parser(
        "import",
        help="record past Claude Code sessions from their transcripts",
        description="Record past Claude Code sessions from their transcripts (JSONL) into the store: "
        "prompts, the assistant's words and thinking, tool calls with patches rebuilt from each "
        "Edit/Write result, model and tokens. Records are marked origin: import. Importing twice adds "
        "nothing; a session the hooks captured gets only what it lacks. Malformed lines are reported "
        "and skipped.",
    )
    p.add_argument("path", nargs="?", metavar="PATH", default="~/.claude/projects",
                   help="a transcript, or a folder searched for *.jsonl (default: ~/.claude/projects)")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(handler="auditlog.cli_transcripts:cmd_import")
    p = sub.add_parser(
        "backfill",
        help="record the tool calls the hooks missed, from the transcript",
        description="Compare a session with its transcript and record the tool calls no hook "
        "recorded (a hook that timed out, a session started before install), marked origin: "
        "backfill. SESSION is an id, a unique prefix, or 'last'.",
    )
    p.add_argument("session", metavar="SESSION")
    p.set_defaults(handler="auditlog.cli_transcripts:cmd_backfill")
    p = sub.add_parser(
        "reindex",
        help="rebuild the SQLite index from the events.jsonl files",
        description="Rebuild the index from the journals alone, session by session.",
    )
    p.set_defaults(handler="auditlog.cli_store:cmd_reindex")


WHEN_HELP = (
    "ISO date or datetime, today, yesterday, Nd, Nh, Nw, 'N days ago', 'last week', 'last month', "
    "'this week', 'this month' (local time)"
)


def _add_filters(p: argparse.ArgumentParser, limit_default: int | None = 50) -> None:
    p.add_argument("--since", metavar="W", help=f"started or active since W: {WHEN_HELP}")
    p.add_argument("--until", metavar="W", help="started before the end of W")
    p.add_argument("--file", metavar="PATH", help="changed this file: exact path, suffix (config.ini) or glob")
    p.add_argument("--prompt", metavar="TEXT", help="a prompt contains these words")
    p.add_argument("--project", metavar="DIR", help="in this project (its root folder, or a folder name)")
    p.add_argument("--agent", metavar="NAME", help="claude-code, codex, gemini-cli, cursor, hel")
    p.add_argument("--tool", metavar="NAME", help="used this tool (Bash, Edit, …)")
    p.add_argument("--failed", action="store_true", help="had a failed tool call")
    p.add_argument("--limit", type=int, metavar="N", default=limit_default,
                   help=f"the newest N sessions (default {limit_default or 'all'}; 0: all)")


def _add_query_commands(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "sessions",
        help="list sessions, newest first, with filters",
        description="List recorded sessions, newest first: id prefix, start, duration, project, "
        "agent, prompts, files changed, +/- lines, tokens, estimated cost, first prompt. --by-day "
        "sums the matching sessions' model calls per day.",
    )
    _add_filters(p)
    p.add_argument("--commit", metavar="SHA", help="made this commit, or their changes are in it (docs/git.md)")
    p.add_argument("--branch", metavar="NAME", help="behind the commits of this branch (docs/git.md)")
    p.add_argument("--by-day", action="store_true", help="tokens and estimated cost per day instead")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(handler="auditlog.cli_query:cmd_sessions")
    p = sub.add_parser(
        "changed",
        help="what changed: files per project, with the sessions and prompts",
        description="The weekly report: per project, each file changed in the window with its +/- "
        "lines, and the sessions and prompts that changed it, in time order; then the tokens and "
        "estimated cost of those sessions, per session and per day.",
    )
    p.add_argument("--since", metavar="W", default="last week", help=f"default: last week; {WHEN_HELP}")
    p.add_argument("--until", metavar="W", help="up to the end of W")
    p.add_argument("--project", metavar="DIR", help="only this project")
    p.add_argument("--by-day", action="store_true", help="tokens and estimated cost per day instead")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(handler="auditlog.cli_query:cmd_changed")
    p = sub.add_parser(
        "search",
        help="full-text search of prompts, answers, commands, errors and paths",
        description="Full-text search (SQLite FTS5) over prompts, assistant messages, commands, "
        'tool errors and changed file paths. Words are all required; "quote phrases"; OR, NOT, '
        "NEAR() and prefix* work.",
    )
    p.add_argument("query", metavar="QUERY")
    p.add_argument("--limit", type=int, default=50, metavar="N", help="at most N hits (default 50)")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(handler="auditlog.cli_query:cmd_search")
    p = sub.add_parser(
        "show",
        help="the conversation of one session",
        description="Show a session's conversation.md rendered in the terminal. SESSION is an id, "
        "a unique prefix, or 'last'.",
    )
    p.add_argument("session", metavar="SESSION")
    p.add_argument("--json", action="store_true", help="the event records instead")
    p.add_argument("--full", action="store_true", help="with --json: long strings read back from blobs/")
    p.set_defaults(handler="auditlog.cli_query:cmd_show")
    p = sub.add_parser(
        "diff",
        help="the session's changes as patches git apply takes",
        description="The net patch per file (first pre-image to last post-image), which git apply "
        "takes onto the state before the session; --steps prints every patch in order under the "
        "prompt that caused it.",
    )
    p.add_argument("session", metavar="SESSION")
    p.add_argument("--file", metavar="PATH", help="only this file (exact, suffix or glob)")
    p.add_argument("--steps", action="store_true", help="every patch in order, not the net diff")
    p.set_defaults(handler="auditlog.cli_query:cmd_diff")
    p = sub.add_parser(
        "review",
        help="Markdown for a pull-request description",
        description="Markdown for a pull-request description: what was asked, files changed, "
        "commands and failures, tests and their outcome, the net diff folded in <details>, and the "
        "chain head with the command that verifies it. With --range, the same for every session whose "
        "changes landed in the commits of BASE..HEAD (in the repository of the current folder), and "
        "the lines of the branch's diff that no recorded session wrote.",
    )
    p.add_argument("session", metavar="SESSION", nargs="?")
    p.add_argument("--range", metavar="BASE..HEAD", help="review the commits of this range instead of one session")
    p.add_argument("-o", "--output", metavar="FILE", help="write to FILE instead of stdout")
    p.set_defaults(handler="auditlog.cli_export:cmd_review")
    p = sub.add_parser(
        "blame",
        help="which session and prompt last wrote each line of a file",
        description="For each line of FILE as it is now, the session, prompt and time of the "
        "recorded change that last wrote it, or 'not recorded'. Follows the renames git detects.",
    )
    p.add_argument("file", metavar="FILE")
    p.add_argument("-L", dest="lines", metavar="START,END", help="only these lines (also START,+COUNT or START,)")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(handler="auditlog.cli_git:cmd_blame")
    p = sub.add_parser(
        "export",
        help="sessions as jsonl, md, csv or html",
        description="Export sessions (given, or a --since/--until window, or all) as jsonl (the "
        "journal lines verbatim, plus FILE.manifest.json with SHA-256 hashes and chain heads), md, "
        "csv (one row per event) or html (one self-contained offline page).",
    )
    p.add_argument("sessions", nargs="*", metavar="SESSION")
    p.add_argument("--format", required=True, choices=("jsonl", "md", "csv", "html"))
    p.add_argument("--since", metavar="W", help=WHEN_HELP)
    p.add_argument("--until", metavar="W", help="up to the end of W")
    p.add_argument("--project", metavar="DIR", help="only this project")
    p.add_argument("--agent", metavar="NAME", help="only this agent")
    p.add_argument("-o", "--output", metavar="PATH", help="write to PATH instead of stdout")
    p.set_defaults(handler="auditlog.cli_export:cmd_export")
    p = sub.add_parser(
        "browse",
        help="the interactive browser (TUI)",
        description="Open the terminal browser: sessions with filters, a session's timeline and "
        "conversation, diff replay, full-text search, and live follow of sessions being written.",
    )
    _add_filters(p, limit_default=None)  # the browser pages through all
    p.add_argument("--session", metavar="SESSION", help="open this session directly")
    p.set_defaults(handler="auditlog.tui.app:cmd_browse")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="auditlog",
        description="A local, hash-chained audit trail of AI coding-agent sessions. "
        "The store is $AUDITLOG_HOME (default ~/.local/share/auditlog).",
    )
    parser.add_argument("--version", action="version", version=f"auditlog {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    _add_setup_commands(sub)
    _add_query_commands(sub)
    _add_store_commands(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    import os

    os.umask(0o077)
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "handler", None):
        parser.print_help()
        return 2
    module_name, func_name = args.handler.split(":")
    import importlib

    handler = getattr(importlib.import_module(module_name), func_name)
    try:
        return int(handler(args) or 0)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0
    except (OSError, ValueError) as exc:
        print(f"auditlog: error: {exc}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
