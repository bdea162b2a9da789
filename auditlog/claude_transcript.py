"""What a Claude Code transcript line means: the assistant's messages (text, thinking,
model, token usage), the tool calls and their results, and the user's prompts.

Claude Code writes one line per content block, so one API message (one ``message.id``)
spans several lines, each repeating the message's usage; lines of parallel tool calls
interleave. :func:`messages` groups them back into one message each, which is the unit
the trail records (one record per model call: its words, its thinking and its tokens).
Shared by the join at Stop (in the hook: standard library only), verify, backfill and
import, so every path reads the format the same way.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
from datetime import UTC

INTERRUPTED = "[Request interrupted by user"  # Claude Code's marker line, not a prompt
THINKING_ENV = "AUDITLOG_THINKING"  # summary (default), full, none
THINKING_SUMMARY_CHARS = 200
USAGE_KEYS = ("input_tokens", "output_tokens", "cache_read_input_tokens", "cache_creation_input_tokens")
CACHE_WRITE_KEYS = ("ephemeral_5m_input_tokens", "ephemeral_1h_input_tokens")


def thinking_mode() -> str:
    """How much of the model's thinking to keep: ``summary`` (its first line, cut to
    200 characters: enough to see what it weighed, without storing pages of it),
    ``full`` or ``none``, from ``$AUDITLOG_THINKING``."""
    mode = os.environ.get(THINKING_ENV, "summary").strip().lower()
    return mode if mode in ("summary", "full", "none") else "summary"


def _first_line(text: str, width: int) -> str:
    lines = [ln.strip() for ln in text.strip().splitlines() if ln.strip()]
    first = lines[0] if lines else ""
    if len(first) > width:
        return first[: width - 1] + "…"
    return first + (" …" if len(lines) > 1 else "")


def kept_thinking(text: str, mode: str) -> str | None:
    if mode == "full":
        return text
    if mode == "none":
        return None
    return _first_line(text, THINKING_SUMMARY_CHARS)


def usage_of(raw: object) -> dict | None:
    """The token counts of a message's ``usage`` (nothing else from it), or ``None``."""
    if not isinstance(raw, dict):
        return None
    usage = {k: raw[k] for k in USAGE_KEYS if isinstance(raw.get(k), int)}
    cache = raw.get("cache_creation")
    if isinstance(cache, dict):
        split = {k: cache[k] for k in CACHE_WRITE_KEYS if isinstance(cache.get(k), int)}
        if split:
            usage["cache_creation"] = split
    return usage or None


class Message:
    """One assistant message (one model call), gathered from its transcript lines."""

    __slots__ = ("agent_id", "blocks", "cwd", "id", "model", "sidechain", "stop_reason", "timestamp", "usage", "uuids")

    def __init__(self, entry: dict, message: dict) -> None:
        self.id = message.get("id") if isinstance(message.get("id"), str) else None
        self.uuids: list[str] = []
        self.timestamp = entry.get("timestamp") if isinstance(entry.get("timestamp"), str) else None
        self.model: str | None = None
        self.blocks: list[dict] = []
        self.usage: dict | None = None
        self.stop_reason: str | None = None
        self.sidechain = bool(entry.get("isSidechain"))
        self.agent_id = entry.get("agentId") if isinstance(entry.get("agentId"), str) else None
        self.cwd = entry.get("cwd") if isinstance(entry.get("cwd"), str) else None

    def add(self, entry: dict, message: dict) -> None:
        if isinstance(entry.get("uuid"), str):
            self.uuids.append(entry["uuid"])
        if isinstance(message.get("model"), str):
            self.model = message["model"]
        self.usage = usage_of(message.get("usage")) or self.usage  # the last line has the final count
        if isinstance(message.get("stop_reason"), str):
            self.stop_reason = message["stop_reason"]
        content = message.get("content")
        if isinstance(content, str):
            content = [{"type": "text", "text": content}]
        self.blocks += [b for b in content or [] if isinstance(b, dict)]

    @property
    def key(self) -> str | None:
        """What identifies the message across reads: its API id, else its first line's uuid."""
        return self.id or (self.uuids[0] if self.uuids else None)

    def text(self) -> str:
        parts = [b["text"].strip() for b in self.blocks if b.get("type") == "text" and isinstance(b.get("text"), str)]
        return "\n\n".join(p for p in parts if p)

    def thinking(self) -> str:
        parts = [b.get("thinking") for b in self.blocks if b.get("type") == "thinking"]
        return "\n\n".join(p.strip() for p in parts if isinstance(p, str) and p.strip())

    def tool_uses(self) -> list[dict]:
        return [b for b in self.blocks if b.get("type") == "tool_use" and isinstance(b.get("id"), str)]

    def payload(self, mode: str, final_text: str | None = None) -> dict:
        """The record's payload: what the hooks do not carry, and the ids that let a later
        join, backfill or import recognise this message as already recorded."""
        thinking = self.thinking()
        text = self.text()
        out: dict = {"message_id": self.id, "uuid": self.uuids[0] if self.uuids else None,
                     "timestamp": self.timestamp, "model": self.model, "text": text or None}
        if thinking:
            out.update(thinking=kept_thinking(thinking, mode), thinking_chars=len(thinking), thinking_kept=mode)
        elif any(b.get("type") in ("thinking", "redacted_thinking") for b in self.blocks):
            out["thinking_kept"] = "omitted by the agent"
        calls = self.tool_uses()
        if calls:
            out["tool_uses"] = [{"id": b["id"], "name": b.get("name")} for b in calls]
        out.update(usage=self.usage, stop_reason=self.stop_reason)
        if self.sidechain:
            out["agent_id"] = self.agent_id
        if final_text is not None and text and text.strip() == final_text.strip():
            out["final"] = True  # the Stop hook carries these words already
        return {k: v for k, v in out.items() if v is not None}

    def summary(self) -> str:
        text, thinking = self.text(), self.thinking()
        if text:
            return _first_line(text, 100)
        if thinking:
            return "Thinking: " + _first_line(thinking, 90)
        names = [str(b.get("name")) for b in self.tool_uses()]
        return ("Calls " + ", ".join(names[:5])) if names else f"Model turn ({self.model or 'unknown model'})"


def assistant_message(entry: dict) -> dict | None:
    """The API message of an ``assistant`` line (``None`` for every other line)."""
    message = entry.get("message")
    if entry.get("type") != "assistant" or not isinstance(message, dict):
        return None
    return message


class Step:
    """One thing that happened, in transcript order: a ``prompt`` (``text``), a
    ``message`` (``message``, complete once the walk is over) or a ``tool`` call (its
    ``call`` block and line, and its ``result`` block and line, ``None`` if unanswered)."""

    __slots__ = ("call", "call_entry", "entry", "kind", "message", "result", "text")

    def __init__(self, kind: str, entry: dict, **values: object) -> None:
        self.kind = kind
        self.entry = entry
        self.text = values.get("text")
        self.message = values.get("message")
        self.call = values.get("call")
        self.call_entry = values.get("call_entry")
        self.result = values.get("result")


def walk(entries: Iterable[dict]) -> list[Step]:
    """The prompts, assistant messages and tool calls of ``entries``, in order: a
    message where its first line is, a tool call where its result is (unanswered calls
    last)."""
    steps: list[Step] = []
    found: dict[str, Message] = {}
    calls: dict[str, tuple[dict, dict]] = {}
    for entry in entries:
        message = assistant_message(entry)
        if message is not None:
            key = message.get("id") or entry.get("uuid")
            current = found.get(key) if isinstance(key, str) else None
            if current is None:
                current = Message(entry, message)
                steps.append(Step("message", entry, message=current))
                if isinstance(key, str):
                    found[key] = current
            before = len(current.blocks)
            current.add(entry, message)
            for block in current.blocks[before:]:
                if block.get("type") == "tool_use" and isinstance(block.get("id"), str):
                    calls.setdefault(block["id"], (block, entry))
            continue
        text = prompt_text(entry)
        if text is not None:
            steps.append(Step("prompt", entry, text=text))
        for result in tool_results(entry):
            call = calls.pop(result.get("tool_use_id"), None) if isinstance(result.get("tool_use_id"), str) else None
            if call is not None:
                steps.append(Step("tool", entry, call=call[0], call_entry=call[1], result=result))
    steps += [Step("tool", entry, call=block, call_entry=entry) for block, entry in calls.values()]
    return steps


def messages(entries: Iterable[dict]) -> list[Message]:
    """The assistant messages among ``entries``, in order of their first line."""
    return [step.message for step in walk(entries) if step.kind == "message"]


def tool_results(entry: dict) -> Iterator[dict]:
    """The ``tool_result`` blocks of a user line (the answers to tool calls)."""
    message = entry.get("message")
    content = message.get("content") if entry.get("type") == "user" and isinstance(message, dict) else None
    if isinstance(content, list):
        yield from (b for b in content if isinstance(b, dict) and b.get("type") == "tool_result")


def prompt_text(entry: dict) -> str | None:
    """The words of a user prompt line; ``None`` for tool results, meta lines (command
    output, caveats), compaction summaries and everything else."""
    message = entry.get("message")
    if entry.get("type") != "user" or not isinstance(message, dict) or entry.get("isMeta"):
        return None
    if entry.get("isCompactSummary") or entry.get("isSidechain"):
        return None
    content = message.get("content")
    if isinstance(content, str):
        return content if content.strip() and not content.startswith(INTERRUPTED) else None
    if isinstance(content, list) and content and all(isinstance(b, dict) and b.get("type") == "text" for b in content):
        text = "\n\n".join(str(b.get("text") or "") for b in content).strip()
        return text if text and not text.startswith(INTERRUPTED) else None
    return None


def tool_use_ids(entries: Iterable[dict]) -> dict[str, dict]:
    """Every tool call of the transcript by id: its block, with the line's timestamp."""
    calls: dict[str, dict] = {}
    for entry in entries:
        message = assistant_message(entry)
        for block in (message or {}).get("content") or []:
            if isinstance(block, dict) and block.get("type") == "tool_use" and isinstance(block.get("id"), str):
                calls.setdefault(block["id"], {"block": block, "entry": entry})
    return calls


def iso_time(value: object, fallback: str) -> str:
    """A transcript timestamp in the record's format (UTC, milliseconds), else ``fallback``."""
    if not isinstance(value, str) or len(value) < 19 or value[10] != "T":
        return fallback
    if value.endswith("Z") and len(value) == 24 and value[19] == ".":
        return value
    from datetime import datetime

    try:
        moment = datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        return fallback
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.") + f"{moment.microsecond // 1000:03d}Z"
