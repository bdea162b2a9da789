"""``conversation.md``: the session as a person reads it, appended as events arrive.

Rendering is a pure function of the event record (and the patch texts it names), so
``auditlog reindex`` can rebuild the file from ``events.jsonl`` alone.
"""

from __future__ import annotations

import os

from auditlog import paths
from auditlog.record import MESSAGE_EVENT, assistant_text

CONVERSATION = "conversation.md"
MAX_DIFF_LINES = 120
MAX_MESSAGE_CHARS = 20000
ICON_OK, ICON_FAILED = "✓", "✗"


def _fence(text: str) -> str:
    longest = 2
    for line in text.splitlines():
        stripped = line.lstrip()
        run = len(stripped) - len(stripped.lstrip("`"))
        longest = max(longest, run)
    return "`" * (longest + 1)


def _code(text: str) -> str:
    """Inline code that survives backticks inside it."""
    text = " ".join(text.split())
    ticks = "``" if "`" in text else "`"
    return f"{ticks} {text} {ticks}" if ticks == "``" else f"`{text}`"


def _quote(text: str) -> str:
    return "\n".join("> " + line if line else ">" for line in text.splitlines()) + "\n"


def _text(value: object) -> str:
    if isinstance(value, str):
        return value if len(value) <= MAX_MESSAGE_CHARS else value[:MAX_MESSAGE_CHARS] + "\n… (cut; see events.jsonl)"
    if isinstance(value, dict) and "$blob" in value:
        return f"(long text kept in blobs/{str(value['$blob']).split(':', 1)[-1]})"
    return ""


def header(record: dict) -> str:
    context = record.get("context") or {}
    rows = [
        ("Session", _code(record.get("session", ""))),
        ("Agent", record.get("agent", "")),
        ("Project", _code(context["project"]) if context.get("project") else "—"),
        ("cwd", _code(record["cwd"]) if record.get("cwd") else "—"),
    ]
    if context.get("branch") or context.get("head"):
        head = f" @ {_code(context['head'][:12])}" if context.get("head") else ""
        rows.append(("Git", f"{context.get('branch') or '(detached)'}{head}"))
    rows.append(("Started", record.get("ts", "")))
    lines = [f"# Session {record.get('session', '')[:8]} · {record.get('agent', '')}", "", "| | |", "|---|---|"]
    lines += [f"| {name} | {value} |" for name, value in rows]
    return "\n".join(lines) + "\n\n"


def _diff_block(change: dict, patch_text: str | None) -> str:
    if patch_text is None:
        return ""
    lines = patch_text.splitlines()
    shown = lines[:MAX_DIFF_LINES]
    body = "\n".join(shown)
    fence = _fence(body)
    out = f"\n{fence}diff\n{body}\n{fence}\n"
    if len(lines) > MAX_DIFF_LINES:
        out += f"\n*… {len(lines) - MAX_DIFF_LINES} more lines in [{change['patch']}]({change['patch']})*\n"
    return out


def _transcript_message(record: dict, payload: dict, who: str, time_of_day: str) -> str:
    """An assistant message joined from the transcript: its thinking and its words (the
    final words only once: the Stop event shows them), and the tools it then called."""
    text = "" if payload.get("final") else _text(payload.get("text"))
    thinking = _text(payload.get("thinking"))
    if not text and not thinking:
        return ""  # a message that only called tools: the tool lines show it
    model = payload.get("model")
    out = f"\n**Assistant** {who}({time_of_day}{f' · {model}' if isinstance(model, str) else ''}):\n\n"
    if thinking:
        out += _quote(f"*thinking:* {thinking}") + "\n"
    if text:
        out += text + "\n"
    calls = [c.get("name") for c in payload.get("tool_uses") or [] if isinstance(c, dict)]
    if calls:
        out += "\n→ " + ", ".join(_code(str(name)) for name in calls) + "\n"
    return out


def render(record: dict, patch_texts: dict[str, str]) -> str:
    """The Markdown for one event ('' for events that add nothing readable)."""
    event, kind = record.get("event", ""), record.get("kind", "")
    payload = record.get("payload") if isinstance(record.get("payload"), dict) else {}
    who = f"*[{record['subagent']}]* " if record.get("subagent") else ""
    time_of_day = record.get("ts", "")[11:19]
    if kind == "prompt":
        text = _text(payload.get("prompt")) or record.get("summary", "")
        return f"\n## {time_of_day} · {record.get('summary', '')}\n\n{_quote(text)}\n"
    if kind in ("tool_result", "tool_error"):
        ok = ICON_FAILED if record.get("failed") else ICON_OK
        duration = payload.get("duration_ms")
        timing = f" · {duration} ms" if isinstance(duration, int | float) else ""
        changes = record.get("changes") or []
        target = record.get("summary", "")
        line = f"- {ok} {who}{_code(target)}{timing}"
        if changes:
            tool = record.get("tool") or ""
            rest = target[len(tool):].strip() if tool and target.startswith(tool) else target
            line = f"- {ok} {who}**{tool}** {rest}{timing}" if tool else f"- {ok} {who}{rest}{timing}"
        out = line + "\n"
        for change in changes:
            out += _diff_block(change, patch_texts.get(change["patch"]))
        return out + ("\n" if changes else "")
    if kind == "assistant" and event == MESSAGE_EVENT:
        return _transcript_message(record, payload, who, time_of_day)
    if kind == "assistant":
        if event == "StopFailure":
            return f"\n**{ICON_FAILED} Turn failed:** {record.get('summary', '')}\n"
        message = _text(assistant_text(payload))
        return f"\n**Assistant** {who}({time_of_day}):\n\n{message}\n\n" if message else ""
    if kind == "subagent_start":
        return f"- ⤷ Subagent {_code(record.get('subagent') or '?')} started\n"
    if kind == "subagent_stop":
        message = _text(assistant_text(payload))
        return f"- ⤶ Subagent {_code(record.get('subagent') or '?')} finished" + (
            f":\n\n{_quote(message)}\n" if message else "\n"
        )
    if kind == "compact":
        return f"\n---\n*{record.get('summary', '')}*\n\n---\n"
    if kind == "session_end":
        return f"\n## {time_of_day} · {record.get('summary', '')}\n"
    if kind == "session_start" and record.get("seq", 1) != 1:
        return f"\n*{time_of_day} · {record.get('summary', '')}*\n"
    if kind in ("permission", "notification"):
        return f"- ⚑ {who}{record.get('summary', '')}\n"
    if kind == "commit":
        return f"- ⎇ {who}{record.get('summary', '')}\n"
    if kind == "other":
        return f"- · {who}{record.get('summary', '') or event}\n"
    return ""


def append(folder: str, record: dict, patch_texts: dict[str, str]) -> None:
    """Append one event's Markdown; the first event also writes the header."""
    append_many(folder, [(record, patch_texts)])


def append_many(folder: str, items: list[tuple[dict, dict[str, str]]]) -> None:
    """Append the Markdown of several events in one write (the records one hook call or
    one import adds); the session's first event also writes the header."""
    if not items:
        return
    path = os.path.join(folder, CONVERSATION)
    parts = [header(items[0][0])] if items[0][0].get("seq") == 1 or not os.path.exists(path) else []
    parts += [render(record, texts) for record, texts in items]
    text = "".join(parts)
    if text:
        paths.append_private(path, text.encode("utf-8", "surrogatepass"))
