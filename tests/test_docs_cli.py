"""docs/cli.md shows every command's ``--help`` exactly as the CLI prints it.

Run ``AUDITLOG_UPDATE_DOCS=1 pytest tests/test_docs_cli.py`` after changing the CLI to
rewrite the generated blocks; the prose around them is kept.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

from auditlog.cli import build_parser

DOC = Path(__file__).resolve().parent.parent / "docs" / "cli.md"
BLOCK = re.compile(r"<!-- help: (?P<cmd>[a-z -]*) -->\n```\n(?P<body>.*?)```\n", re.S)


def _commands() -> list[str]:
    parser = build_parser()
    sub = next(a for a in parser._actions if a.__class__.__name__ == "_SubParsersAction")
    return ["", *sub.choices]


def _help(command: str) -> str:
    args = [sys.executable, "-m", "auditlog.cli", *command.split(), "--help"]
    env = {**os.environ, "COLUMNS": "100", "NO_COLOR": "1"}
    return subprocess.run(args, capture_output=True, text=True, check=True, env=env).stdout


def test_every_command_is_documented_with_its_current_help() -> None:
    text = DOC.read_text()
    documented = {m.group("cmd").strip(): m.group("body") for m in BLOCK.finditer(text)}
    if os.environ.get("AUDITLOG_UPDATE_DOCS") == "1":
        text = BLOCK.sub(lambda m: f"<!-- help: {m.group('cmd')} -->\n```\n{_help(m.group('cmd').strip())}```\n", text)
        DOC.write_text(text)
        documented = {m.group("cmd").strip(): m.group("body") for m in BLOCK.finditer(text)}
    assert sorted(documented) == sorted(_commands()), "docs/cli.md must have a help block per command"
    for command in _commands():
        assert documented[command] == _help(command), f"docs/cli.md is stale for `auditlog {command}`"
