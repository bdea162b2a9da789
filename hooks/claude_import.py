"""Recording Claude Code transcripts after the fact: ``auditlog import`` (past sessions,
default ``~/.claude/projects``) and ``auditlog backfill`` (the tool calls a session's
hooks missed).

Both add records only for what the session's journal does not hold yet, matched by id
(tool_use_id, message id, the line's uuid, a prompt's words), under the session lock: so
importing twice adds nothing, and a session the hooks captured is completed, not
duplicated. Records are redacted and chained like the hook's, marked ``origin: import``
or ``origin: backfill``, with the time the transcript gives.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator

from auditlog.hooks.claude import AGENT
from auditlog.hooks.claude_history import prompt_observation, tool_observation

from auditlog import completeness, index_schema, journal, paths, store_key, transcript_reader
from auditlog.capture import Capture, Draft
from auditlog.claude_transcript import iso_time, thinking_mode, walk
from auditlog.gitrefs import find_repo
from auditlog.record import utc_timestamp
from auditlog.redaction import Redactor
from auditlog.transcript_join import base_fields, message_draft

DEFAULT_PATH = os.path.join("~", ".claude", "projects")


class FileResult:
    """What importing one transcript did."""

    __slots__ = ("added", "malformed", "path", "session")

    def __init__(self, path: str, session: str | None, added: int, malformed: list[int]) -> None:
        self.path = path
        self.session = session
        self.added = added
        self.malformed = malformed  # line numbers skipped


def transcript_files(path: str) -> list[str]:
    """The ``.jsonl`` files under ``path`` (or ``path`` itself), each session's own
    transcript before its subagents' (``<session>/subagents/agent-*.jsonl``)."""
    path = os.path.abspath(os.path.expanduser(path))
    if os.path.isfile(path):
        return [path]
    found = [os.path.join(d, n) for d, _dirs, names in os.walk(path) for n in names if n.endswith(".jsonl")]
    return sorted(found, key=lambda p: ("/subagents/" in p, p))


def _session_of(entries: list[dict], path: str) -> tuple[str, str | None]:
    """The session a transcript belongs to, and the subagent when it is one's own file."""
    session = next((e["sessionId"] for e in entries if isinstance(e.get("sessionId"), str) and e["sessionId"]), None)
    sidechain = [e for e in entries if e.get("type") in ("user", "assistant")]
    agent = next((e["agentId"] for e in sidechain if isinstance(e.get("agentId"), str)), None)
    if agent and all(e.get("isSidechain") for e in sidechain):
        return session or os.path.basename(path)[: -len(".jsonl")], agent
    return session or os.path.basename(path)[: -len(".jsonl")], None


def _start_draft(entries: list[dict], session: str, path: str, cwd: str | None, root: str | None) -> Draft:
    first = next((e for e in entries if isinstance(e.get("timestamp"), str)), {})
    branch = next((e["gitBranch"] for e in entries if isinstance(e.get("gitBranch"), str) and e["gitBranch"]), None)
    version = next((e["version"] for e in entries if isinstance(e.get("version"), str)), None)
    fields = base_fields(AGENT, session, iso_time(first.get("timestamp"), utc_timestamp()), "SessionStart",
                         "session_start", "import")
    context = {k: v for k, v in (("project", root), ("branch", branch)) if v}
    fields.update(cwd=cwd, summary="Session imported from its transcript", context=context or None,
                  payload={"transcript_path": path, "source": "import", "version": version})
    return Draft(fields)


def _drafts(capture: Capture, folder: str, steps: list, found: completeness.Known, *, session: str, path: str,
            origin: str, subagent: str | None, root: str | None, only_tools: set[str] | None) -> Iterator[Draft]:
    mode = thinking_mode()
    prompts = found.prompts.copy()
    for step in steps:
        uuid = step.entry.get("uuid")
        ts = iso_time(step.entry.get("timestamp"), utc_timestamp())
        if step.kind == "tool":
            wanted = only_tools is None or step.call.get("id") in only_tools
            if step.call.get("id") in found.tool_use_ids or not wanted:
                continue
            obs = tool_observation(step, session, path, origin, subagent)
            yield capture.history_draft(obs, ts, folder, root)
        elif only_tools is not None:
            continue
        elif step.kind == "prompt":
            if uuid in found.uuids or prompts[step.text.strip()] > 0:
                prompts[step.text.strip()] -= 1
                continue
            yield capture.history_draft(prompt_observation(step, session, path, origin), ts, folder, root)
        elif step.message.key not in found.message_keys:
            fields = base_fields(AGENT, session, ts, "", "", origin)
            fields["cwd"] = step.entry.get("cwd")
            yield message_draft(capture, folder, step.message, fields, mode=mode, subagent=subagent)


def record_transcript(capture: Capture, path: str, *, origin: str = "import",
                      only_tools: set[str] | None = None, subagent: str | None = None) -> FileResult:
    """Add what ``path`` holds and its session's journal lacks (with ``only_tools``:
    only those tool calls)."""
    entries, malformed = transcript_reader.read_all(path)
    if not any(e.get("type") in ("user", "assistant") for e in entries):
        return FileResult(path, None, 0, malformed)
    session, own_agent = _session_of(entries, path)
    subagent = subagent or own_agent
    cwd = next((e["cwd"] for e in entries if isinstance(e.get("cwd"), str) and e["cwd"]), None)
    repo = find_repo(cwd) if cwd and os.path.isdir(cwd) else None
    root = repo.root if repo else cwd
    steps = walk(entries)
    folder = capture.session_folder(session)
    with journal.SessionLock(folder):
        found = completeness.known(folder)
        drafts = list(_drafts(capture, folder, steps, found, session=session, path=path, origin=origin,
                              subagent=subagent, root=root, only_tools=only_tools))
        if drafts and found.records == 0:
            drafts.insert(0, _start_draft(entries, session, path, cwd, root))
        written = capture.append(folder, drafts)
    capture.after_journal(folder, written)
    return FileResult(path, session, len(written), malformed)


class RepeatRedactor(Redactor):
    """The hook's redaction, remembering its answer for long texts: a transcript holds
    the same file several times (read, then its ``originalFile`` and pre-image at each
    edit, a Write's content three times), and scanning it once is enough."""

    __slots__ = ("_seen", "_seen_chars")
    LONG = 512  # shorter texts are cheaper to scan again than to look up and keep
    KEPT_CHARS = 64 * 1024 * 1024

    def __init__(self, key: bytes) -> None:
        super().__init__(key)
        self._seen: dict[str, tuple[str, int]] = {}
        self._seen_chars = 0

    def redact_text(self, text: str) -> tuple[str, int]:
        if len(text) < self.LONG:
            return super().redact_text(text)
        found = self._seen.get(text)
        if found is None:
            if self._seen_chars > self.KEPT_CHARS:
                self._seen.clear()
                self._seen_chars = 0
            found = self._seen[text] = super().redact_text(text)
            self._seen_chars += len(text)
        return found


def new_capture(home: str) -> Capture:
    """A Capture for recording many transcripts: the hook's redaction with the store's
    key (``auditlog.store_key``), so markers match the hook's."""
    paths.ensure_dir(home)
    return Capture(home, RepeatRedactor(store_key.load_or_create(home)))


def import_path(capture: Capture, path: str, progress: Callable[[str, int], None] | None = None) -> list[FileResult]:
    """Import every transcript under ``path``; ``progress(file, bytes)`` after each."""
    results = []
    capture.index = index_schema.connect(capture.home, busy_timeout_ms=30000)
    try:
        for file in transcript_files(path):
            results.append(record_transcript(capture, file))
            if progress:
                progress(file, os.path.getsize(file))
    finally:
        capture.index.close()
        capture.index = None
    return results


def backfill(capture: Capture, folder: str) -> tuple[int, list[completeness.Gap], list[str]]:
    """Record the tool calls the session's transcripts hold and its records lack."""
    gaps, notes = completeness.missing_tool_calls(folder)
    by_file: dict[str, set[str]] = {}
    for gap in gaps:
        by_file.setdefault(gap.transcript, set()).add(gap.tool_use_id)
    added = 0
    for path, ids in by_file.items():
        subagent = next(g.subagent for g in gaps if g.transcript == path)
        added += record_transcript(capture, path, origin="backfill", only_tools=ids, subagent=subagent).added
    return added, gaps, notes
