"""The ``auditlog`` command line. Each command's body imports what it needs, so
``auditlog --help`` stays quick and no command pays for another's dependencies."""

from __future__ import annotations

import argparse
import sys

from auditlog import __version__

AGENT_CHOICES = ("claude", "codex", "gemini", "cursor", "hel")


def _add_setup_commands(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("install", help="register auditlog-hook in an agent's settings",
                       description="Register this installation's auditlog-hook for every hook event of the agent. "
                       "Other hooks and settings are kept; running it twice adds nothing; a backup of the changed file "
                       "is left beside it.")
    p.add_argument("--agent", required=True, choices=AGENT_CHOICES, help="the agent to capture")
    p.add_argument("--scope", choices=("project", "user", "local"), default="project",
                   help="project: the project's own configuration, e.g. DIR/.claude/settings.json (default); "
                   "user: the user's, e.g. ~/.claude/settings.json; local: DIR/.claude/settings.local.json "
                   "(Claude Code only); docs/agents.md lists every agent's files")
    p.add_argument("--dir", default=None, help="the project folder (default: the current folder)")
    p.set_defaults(handler="auditlog.cli_setup:cmd_install")
    p = sub.add_parser("uninstall", help="remove exactly what install added",
                       description="Remove the auditlog hooks that install added; everything else stays.")
    p.add_argument("--agent", required=True, choices=AGENT_CHOICES, help="the agent")
    p.add_argument("--scope", choices=("project", "user", "local"), default="project", help="as for install")
    p.add_argument("--dir", default=None, help="the project folder (default: the current folder)")
    p.set_defaults(handler="auditlog.cli_setup:cmd_uninstall")
    p = sub.add_parser("doctor", help="say whether capture works",
                       description="Check where hooks are registered, that the store is writable, and record and "
                       "time one test event in a scratch store.")
    p.add_argument("--dir", default=None, help="the project folder to check (default: the current folder)")
    p.set_defaults(handler="auditlog.cli_setup:cmd_doctor")


def _add_store_commands(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("verify", help="check hash chains, patches and blobs; exit 1 if anything is broken",
                       description="Recompute every session's hash chain, check the patches and blobs its records "
                       "name, and check that the index agrees with the journals. Reports the first broken line per "
                       "session.")
    p.add_argument("sessions", nargs="*", metavar="SESSION", help="session ids or prefixes (default: all)")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(handler="auditlog.cli_store:cmd_verify")
    p = sub.add_parser("reindex", help="rebuild the SQLite index from the events.jsonl files",
                       description="Rebuild the index from the journals alone, session by session.")
    p.set_defaults(handler="auditlog.cli_store:cmd_reindex")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="auditlog",
        description="A local, hash-chained audit trail of AI coding-agent sessions. "
        "The store is $AUDITLOG_HOME (default ~/.local/share/auditlog).",
    )
    parser.add_argument("--version", action="version", version=f"auditlog {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    _add_setup_commands(sub)
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
