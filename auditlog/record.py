"""The event record: one line of ``events.jsonl``, in a fixed key order, hash-chained.

The line's bytes are what the chain hashes, so encoding is defined here once and used by
the writer, ``verify`` and ``reindex`` alike.
"""

from __future__ import annotations

import json
import time

from auditlog.digests import sha256_hex

RECORD_VERSION = 1
GENESIS = "0" * 64

# The fixed key order of a record. Keys with no value are left out, except these.
KEY_ORDER = (
    "v",
    "seq",
    "ts",
    "agent",
    "session",
    "event",
    "kind",
    "origin",
    "cwd",
    "tool",
    "tool_use_id",
    "turn",
    "subagent",
    "files",
    "patches",
    "changes",
    "summary",
    "failed",
    "context",
    "redactions",
    "payload",
    "prev",
)
# Where a record came from when it is not the hook's own event (no ``origin`` key): the
# agent's transcript joined at Stop, a tool call the hooks missed, or a past session.
ORIGINS = frozenset(("transcript", "backfill", "import"))
MESSAGE_EVENT = "TranscriptMessage"  # the ``event`` of a record made from one assistant message
NOTE_EVENT = "TranscriptNote"  # a transcript that was missing, rewritten, cut or malformed
ALWAYS = frozenset(("v", "seq", "ts", "agent", "session", "event", "kind", "payload", "prev"))

KINDS = frozenset(
    (
        "session_start",
        "prompt",
        "tool_call",
        "tool_result",
        "tool_error",
        "tool_batch",
        "permission",
        "notification",
        "assistant",
        "subagent_start",
        "subagent_stop",
        "compact",
        "session_end",
        "commit",
        "other",
    )
)


def utc_timestamp(now: float | None = None) -> str:
    """ISO 8601 UTC with milliseconds, e.g. ``2026-11-29T21:30:00.123Z``."""
    now = time.time() if now is None else now
    whole = int(now)
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(whole)) + f".{int((now - whole) * 1000):03d}Z"


def encode_record(fields: dict) -> bytes:
    """The record's line (without the newline): keys in ``KEY_ORDER``, compact JSON, UTF-8.

    Lone surrogates (seen in real payloads from Windows) cannot be UTF-8 encoded, so a
    record holding one is written with ASCII escapes instead; both decode to the same value.
    """
    ordered = {k: fields[k] for k in KEY_ORDER if k in fields and (k in ALWAYS or fields[k] not in (None, [], ""))}
    text = json.dumps(ordered, ensure_ascii=False, separators=(",", ":"))
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError:
        return json.dumps(ordered, ensure_ascii=True, separators=(",", ":")).encode("ascii")


def line_hash(line: bytes) -> str:
    """SHA-256 hex of a line's exact bytes, without its newline: the next record's ``prev``."""
    return sha256_hex(line)


def decode_record(line: bytes) -> dict:
    return json.loads(line)


ASSISTANT_TEXT_FIELDS = ("last_assistant_message", "prompt_response", "text", "response")


def assistant_text(payload: object) -> object:
    """The assistant's words in an assistant or subagent-stop payload, whichever agent
    sent it (Claude Code and Codex: ``last_assistant_message``; Gemini CLI:
    ``prompt_response``; Cursor: ``text``). May be a blob reference; ``None`` if absent."""
    if not isinstance(payload, dict):
        return None
    return next((payload[f] for f in ASSISTANT_TEXT_FIELDS if payload.get(f)), None)
