"""``auditlog review``: a session summarised as Markdown for a pull-request description —
what was asked, what changed, which commands ran and failed, which tests ran and how they
ended, the net diff folded away, and how to verify the trail."""

from __future__ import annotations

import json
import re
from collections.abc import Sequence

from auditlog import checkpoints
from auditlog.dates import local_display
from auditlog.models import SessionSummary
from auditlog.query import Store

SHELL_TOOLS = ("Bash", "PowerShell", "run_shell_command", "shell", "bash", "exec_command")
TEST_COMMAND = re.compile(
    r"\b(pytest|py\.test|tox|nox|unittest|npm (run )?test|yarn test|pnpm test|jest|vitest|mocha|go test|"
    r"cargo (test|nextest)|mvn (test|verify)|gradle(w)? test|rspec|phpunit|ctest|make (test|check)|dotnet test)\b"
)
TEST_OUTCOME = re.compile(
    r"(\d+ (passed|failed|skipped|errors?)(, \d+ (passed|failed|skipped|errors?|warnings?|deselected))*"
    r"|Tests?:\s+.*\d+ (passed|failed|total).*|test result: \w+\. \d+ passed; \d+ failed|^(ok|FAIL)\s+\S+.*$"
    r"|Ran \d+ tests?.*|OK( \(.*\))?$|FAILED \(.*\))",
    re.MULTILINE,
)


def _command_of(record: dict) -> str | None:
    payload = record.get("payload") if isinstance(record.get("payload"), dict) else {}
    tool_input = payload.get("tool_input") if isinstance(payload.get("tool_input"), dict) else {}
    command = tool_input.get("command")
    if isinstance(command, list):
        command = " ".join(map(str, command))
    return command if isinstance(command, str) and command.strip() else None


def _output_of(record: dict) -> str:
    payload = record.get("payload") if isinstance(record.get("payload"), dict) else {}
    response = payload.get("tool_response")
    parts = []
    if isinstance(response, dict):
        parts += [v for k in ("stdout", "stderr", "output") if isinstance(v := response.get(k), str)]
    elif isinstance(response, str):
        parts.append(response)
    if isinstance(payload.get("error"), str):
        parts.append(payload["error"])
    return "\n".join(parts)


def test_outcome(output: str) -> str | None:
    """The summary line a test runner printed, when one is recognisable."""
    found = TEST_OUTCOME.findall(output)
    if not found:
        return None
    last = found[-1][0] if isinstance(found[-1], tuple) else found[-1]
    return " ".join(last.split())[:120]


def _fence(text: str) -> str:
    longest = max((len(m) for m in re.findall(r"`{3,}", text)), default=2)
    return "`" * (longest + 1)


def _code(text: str) -> str:
    flat = " ".join(text.split())
    flat = flat if len(flat) <= 120 else flat[:119] + "…"
    return f"`` {flat} ``" if "`" in flat else f"`{flat}`"


def session_review(
    store: Store, session: SessionSummary, *, heading_level: int = 2, net_diff: bool = True, notes: Sequence[str] = ()
) -> str:
    """The Markdown for one session; ``notes`` are lines put under its heading, and the
    net diff can be left out (a range review shows the branch's own)."""
    h = "#" * heading_level
    records = store.records(session.id)
    prompts = [
        r["payload"].get("prompt", "")
        for r in records
        if r.get("kind") == "prompt" and isinstance(r.get("payload"), dict)
    ]
    title = " ".join((session.title or session.first_prompt or "(no prompt)").split())[:80]
    lines = [f"{h} AI session `{session.id[:8]}`: {title}", ""]
    where = session.project or session.cwd or "?"
    branch = f" · branch `{session.branch}`" if session.branch else ""
    lines += [
        f"*{session.agent} · {where}{branch} · {local_display(session.started)} → "
        f"{local_display(session.ended, '%H:%M')} · {session.events} events*",
        "",
    ]
    if notes:
        lines += [*notes, ""]
    lines += [f"{h}# What was asked", ""]
    for i, prompt in enumerate(prompts, start=1):
        quoted = "\n".join("> " + ln if ln else ">" for ln in str(prompt).strip().splitlines()) or "> (empty)"
        lines += [f"{i}.", "", quoted, ""]
    if not prompts:
        lines += ["(no prompt recorded)", ""]
    changes = store.changes(session.id)
    per_file: dict[str, list[int]] = {}
    for c in changes:
        totals = per_file.setdefault(c.path, [0, 0, 0])
        totals[0] += c.added
        totals[1] += c.removed
        totals[2] += 1
    lines += [f"{h}# Files changed", ""]
    if per_file:
        lines += ["| File | + | − | edits |", "|---|--:|--:|--:|"]
        lines += [f"| `{path}` | {a} | {r} | {n} |" for path, (a, r, n) in sorted(per_file.items())]
        lines += [
            "",
            f"{len(per_file)} file(s), +{sum(v[0] for v in per_file.values())} −{sum(v[1] for v in per_file.values())}",
            "",
        ]
    else:
        lines += ["No file changes recorded.", ""]
    commands, tests = [], []
    for r in records:
        if r.get("kind") not in ("tool_result", "tool_error") or r.get("tool") not in SHELL_TOOLS:
            continue
        command = _command_of(r)
        if not command:
            continue
        failed = bool(r.get("failed"))
        detail = ""
        if failed:
            error = r["payload"].get("error") if isinstance(r.get("payload"), dict) else None
            detail = f" — {' '.join(str(error or 'failed').split())[:100]}"
        commands.append(f"- {'✗' if failed else '✓'} {_code(command)}{detail}")
        if TEST_COMMAND.search(command):
            outcome = test_outcome(_output_of(r))
            verdict = "failed" if failed else "passed"
            tests.append(f"- {_code(command)}: {outcome or verdict}" + (f" ({verdict})" if outcome else ""))
    lines += [f"{h}# Commands", ""] + (commands or ["No shell commands."]) + [""]
    if tests:
        lines += [f"{h}# Tests", "", *tests, ""]
    net = store.net_patches(session.id) if changes and net_diff else []
    if net:
        body = "".join(text for _, text in net)
        fence = _fence(body)
        lines += [
            f"<details><summary>Net diff ({len(net)} file(s))</summary>",
            "",
            f"{fence}diff",
            body.rstrip("\n"),
            fence,
            "",
            "</details>",
            "",
        ]
    lines += [f"{h}# Audit trail", "", f"Chain head after event {session.events}: `{session.chain_head}`", ""]
    checkpoint = checkpoints.latest(store.home, session.folder)
    if checkpoint:
        lines += ["Latest signed checkpoint:", "", "```json",
                  json.dumps({k: checkpoint[k] for k in ("session", "seq", "chain_head", "count", "ts", "hmac")}),
                  "```", ""]
    lines += [f"Verify with: `auditlog verify {session.id}`", ""]
    return "\n".join(lines)
