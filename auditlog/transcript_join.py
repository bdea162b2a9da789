"""The join: at Claude Code's Stop, SubagentStop, PreCompact and SessionEnd, the
transcript's new lines become records of their own, before the hook's record and under
the same session lock, so they are chained and numbered like every other record.

Hook payloads carry the prompts, the tool calls and the final answer, but not the
assistant's words between tool calls, its thinking, the model or the tokens: those are
in the transcript. Each assistant message (one model call) becomes one record
(``event: TranscriptMessage``, ``origin: transcript``). A transcript that is missing,
rewritten, cut or holds malformed lines becomes a ``TranscriptNote`` record instead (once
per problem), and the hook's own record is written as always.

Where each transcript was read up to is kept in the session's ``state/transcripts.json``
(offset, and a hash of the bytes before it), written only after the records are.
"""

from __future__ import annotations

import json
import os

from auditlog import paths, transcript_reader
from auditlog.capture import Capture, Draft
from auditlog.claude_transcript import Message, iso_time, messages, thinking_mode
from auditlog.file_images import STATE
from auditlog.observation import Observation
from auditlog.record import MESSAGE_EVENT, NOTE_EVENT, RECORD_VERSION

STATE_FILE = "transcripts.json"
ASSISTANT_MARK = b'"assistant"'  # lines without it cannot hold an assistant message: not parsed


class Joined:
    """The drafts one join produced, and the read positions to keep once they are written."""

    def __init__(self, folder: str, state: dict) -> None:
        self.folder = folder
        self.state = state
        self.drafts: list[Draft] = []

    def done(self) -> None:
        directory = os.path.join(self.folder, STATE)
        paths.ensure_dir(directory)
        paths.write_private_file(os.path.join(directory, STATE_FILE), json.dumps(self.state).encode())


def load_state(folder: str) -> dict:
    try:
        with open(os.path.join(folder, STATE, STATE_FILE), "rb") as f:
            state = json.loads(f.read())
    except (OSError, ValueError):
        return {}
    return state if isinstance(state, dict) else {}


def base_fields(agent: str, session: str, ts: str, event: str, kind: str, origin: str) -> dict:
    return {"v": RECORD_VERSION, "ts": ts, "agent": agent, "session": session, "event": event, "kind": kind,
            "origin": origin}


def message_draft(capture: Capture, folder: str, message: Message, fields: dict, *, mode: str,
                  subagent: str | None = None, final_text: str | None = None) -> Draft:
    """One assistant message as a draft record; ``fields`` gives agent, session, origin,
    cwd and turn, and the message's own time replaces ``fields['ts']`` when it has one."""
    payload, redactions = capture.prepared_payload(message.payload(mode, final_text), folder)
    label = subagent or ((message.agent_id or "sidechain") if message.sidechain else None)
    record = dict(fields, event=MESSAGE_EVENT, kind="assistant", ts=iso_time(message.timestamp, fields["ts"]),
                  cwd=fields.get("cwd") or message.cwd, subagent=label, summary=message.summary(),
                  redactions=redactions or None, payload=payload)
    return Draft(record)


def note_draft(fields: dict, path: str, problem: str, summary: str, **detail: object) -> Draft:
    payload = {"transcript": path, "problem": problem, **detail}
    return Draft(dict(fields, event=NOTE_EVENT, kind="other", summary=summary, payload=payload))


def join(capture: Capture, obs: Observation, folder: str, received: str) -> Joined:
    """Read each of ``obs.transcripts`` from where the last join stopped."""
    joined = Joined(folder, load_state(folder))
    mode = thinking_mode()
    fields = base_fields(obs.agent, obs.session_id, received, MESSAGE_EVENT, "assistant", "transcript")
    fields.update(cwd=obs.cwd, turn=obs.turn)
    for path, subagent, final_text in obs.transcripts:
        seen = joined.state.setdefault(path, {"offset": 0, "tail": ""})
        chunk = transcript_reader.read_new(path, seen.get("offset", 0), seen.get("tail", ""))
        if chunk.problem == "missing":
            if not seen.get("missing"):
                seen["missing"] = True
                joined.drafts.append(note_draft(fields, path, "missing", f"Transcript not found: {path}"))
            continue
        seen.pop("missing", None)
        if chunk.problem == "rewritten":
            joined.drafts.append(note_draft(
                fields, path, "rewritten",
                f"Transcript was rewritten ({chunk.size} bytes, {seen.get('offset', 0)} read before): "
                "reading on from its end", read_before=seen.get("offset", 0), size=chunk.size))
        entries, malformed = [], []
        for offset, raw in chunk.lines:
            if ASSISTANT_MARK not in raw:
                if raw.strip() and not (raw.lstrip().startswith(b"{") and raw.rstrip().endswith(b"}")):
                    malformed.append(offset)
                continue
            entry = transcript_reader.parse(raw)
            if entry is None:
                malformed.append(offset)
            else:
                entries.append(entry)
        if malformed:
            joined.drafts.append(note_draft(
                fields, path, "malformed", f"Transcript: {len(malformed)} malformed line(s) skipped",
                offsets=malformed[:100]))
        if obs.event == "SessionEnd" and chunk.partial:
            joined.drafts.append(note_draft(
                fields, path, "cut", f"Transcript ends in a cut line ({chunk.partial} bytes) at session end",
                offset=chunk.end))
        for message in messages(entries):
            joined.drafts.append(message_draft(capture, folder, message, fields, mode=mode, subagent=subagent,
                                               final_text=final_text))
        seen.update(offset=chunk.end, tail=chunk.tail)
    return joined
