"""``auditlog blame``: who wrote each line of a file, from the command line."""

from __future__ import annotations

import argparse

from rich.markup import escape
from rich.text import Text

from auditlog.blame import blame
from auditlog.cli_output import emit, one_line, print_json
from auditlog.dates import local_display
from auditlog.query import Store

NOT_RECORDED = "not recorded"


def cmd_blame(args: argparse.Namespace) -> int:
    with Store() as store:
        lines = blame(store, args.file, args.lines)
    if args.json:
        print_json([line.as_dict() for line in lines])
        return 0
    width = len(str(lines[-1].line)) if lines else 1
    plain, rich = [], []
    for line in lines:
        if line.session:
            who = f"{line.session[:8]:<8}  {local_display(line.ts)}  {one_line(line.prompt, 40) or '(no prompt)':<40}"
            style = "cyan"
        else:
            who, style = f"{NOT_RECORDED:<{8 + 2 + 16 + 2 + 40}}", "dim"
        number = f"{line.line:>{width}}"
        plain.append(f"{who}  {number}  {line.text}\n")
        rich.append(Text.from_markup(f"[{style}]{escape(who)}[/]  [dim]{number}[/]  ") + Text(line.text))
    emit(rich, plain_text="".join(plain))
    return 0
