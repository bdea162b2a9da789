"""Is the trail complete? What a session's journal already holds (tool calls, messages,
prompts) and which of its transcript's tool calls no record names: a hook that timed out,
or a session that started before ``auditlog install``. ``auditlog verify`` reports them,
``auditlog backfill`` records them, and ``auditlog import`` uses the same ids to merge a
transcript into a session the hooks captured without adding anything twice."""

from __future__ import annotations

import glob
import os
from collections import Counter

from auditlog import journal, transcript_reader
from auditlog.claude_transcript import tool_use_ids
from auditlog.record import MESSAGE_EVENT, decode_record


class Known:
    """The ids a session's records hold, and the transcripts its payloads name."""

    def __init__(self) -> None:
        self.records = 0
        self.session: str | None = None
        self.tool_use_ids: set[str] = set()
        self.message_keys: set[str] = set()
        self.uuids: set[str] = set()
        self.prompts: Counter[str] = Counter()
        self.transcripts: dict[str, str | None] = {}  # path: subagent (None: the session's own)

    def add(self, record: dict) -> None:
        self.records += 1
        self.session = self.session or record.get("session")
        if record.get("tool_use_id"):
            self.tool_use_ids.add(record["tool_use_id"])
        payload = record.get("payload") if isinstance(record.get("payload"), dict) else {}
        for key in ("message_id", "uuid"):
            if isinstance(payload.get(key), str):
                (self.message_keys if record.get("event") == MESSAGE_EVENT else self.uuids).add(payload[key])
        if record.get("kind") == "prompt" and isinstance(payload.get("prompt"), str):
            self.prompts[payload["prompt"].strip()] += 1
        main = payload.get("transcript_path")
        if isinstance(main, str) and main and main not in self.transcripts:
            self.transcripts[main] = None
        agent = payload.get("agent_transcript_path")
        if isinstance(agent, str) and agent:
            self.transcripts[agent] = record.get("subagent") or payload.get("agent_id") or "subagent"


def known(folder: str) -> Known:
    found = Known()
    path = os.path.join(folder, journal.JOURNAL)
    if os.path.exists(path):
        for _offset, line in journal.iter_lines(path):
            found.add(decode_record(line))
    return found


def session_transcripts(found: Known) -> dict[str, str | None]:
    """The transcripts of a session: those its payloads name, and the subagents' files
    Claude Code 2.1.x keeps beside the main one (``<session>/subagents/agent-*.jsonl``)."""
    out = dict(found.transcripts)
    for path, subagent in list(found.transcripts.items()):
        if subagent is None and path.endswith(".jsonl"):
            for agent in sorted(glob.glob(os.path.join(glob.escape(path[: -len(".jsonl")]), "subagents", "*.jsonl"))):
                out.setdefault(agent, os.path.basename(agent)[: -len(".jsonl")].removeprefix("agent-"))
    return out


class Gap:
    """A tool call in a transcript that no record of the session names."""

    __slots__ = ("entry", "name", "subagent", "tool_use_id", "transcript")

    def __init__(self, tool_use_id: str, name: str, transcript: str, subagent: str | None, entry: dict) -> None:
        self.tool_use_id = tool_use_id
        self.name = name
        self.transcript = transcript
        self.subagent = subagent
        self.entry = entry


def missing_tool_calls(folder: str, found: Known | None = None) -> tuple[list[Gap], list[tuple[str, str]]]:
    """The transcript's tool calls the session's records lack, and ``(path, why)`` for
    transcripts that could not be compared (not on this machine) or only in part."""
    found = found or known(folder)
    gaps: list[Gap] = []
    notes: list[tuple[str, str]] = []
    for path, subagent in session_transcripts(found).items():
        try:
            entries, malformed = transcript_reader.read_all(path)
        except OSError:
            notes.append((path, "not on this machine: not compared"))
            continue
        if malformed:
            notes.append((path, f"{len(malformed)} malformed line(s) skipped"))
        for tool_use_id, call in tool_use_ids(entries).items():
            if tool_use_id not in found.tool_use_ids:
                gaps.append(Gap(tool_use_id, str(call["block"].get("name") or "?"), path, subagent, call["entry"]))
    return gaps, notes
