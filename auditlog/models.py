"""The read API's model objects: what ``auditlog.query`` returns to the CLI and the TUI
(never cursors or rows), so both front ends show the same facts the same way."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, fields
from datetime import datetime


def _seconds_between(start: str | None, end: str | None) -> float | None:
    if not start or not end:
        return None
    a = datetime.fromisoformat(start.replace("Z", "+00:00"))
    b = datetime.fromisoformat(end.replace("Z", "+00:00"))
    return max((b - a).total_seconds(), 0.0)


@dataclass(frozen=True, slots=True)
class SessionSummary:
    id: str
    folder: str
    agent: str
    project: str | None
    cwd: str | None
    branch: str | None
    head_start: str | None
    head_end: str | None
    started: str
    ended: str
    end_reason: str | None
    first_prompt: str | None
    title: str | None
    prompts: int
    events: int
    tool_calls: int
    failures: int
    files_changed: int
    added: int
    removed: int
    chain_head: str | None
    # From the transcript (docs/transcripts.md): None where no model call was recorded.
    input_tokens: int | None = None
    output_tokens: int | None = None
    cache_write_tokens: int | None = None
    cache_read_tokens: int | None = None
    cost_usd: float | None = None  # an estimate from list prices; the turns of unpriced models add nothing
    unpriced_turns: int = 0  # model calls whose model has no price in auditlog.pricing
    model: str | None = None  # the main agent's latest model

    @property
    def duration_seconds(self) -> float | None:
        return _seconds_between(self.started, self.ended)

    @property
    def total_tokens(self) -> int | None:
        return total_tokens(self)

    def as_dict(self) -> dict:
        return {**asdict(self), "duration_seconds": self.duration_seconds, "total_tokens": self.total_tokens}


_COUNTS = frozenset(("prompts", "events", "tool_calls", "failures", "files_changed", "added", "removed",
                     "unpriced_turns"))


def session_from_row(row: dict) -> SessionSummary:
    """A session from its index row (counts never ``None``; columns an older index lacks
    take their defaults)."""
    values = {}
    for f in fields(SessionSummary):
        if f.name in row:
            values[f.name] = (row[f.name] or 0) if f.name in _COUNTS else row[f.name]
    return SessionSummary(**values)


def total_tokens(usage: object) -> int | None:
    """All the tokens of a session, a turn or a day (input, output and cache reads and
    writes), or ``None`` when none were recorded."""
    parts = [getattr(usage, k) for k in ("input_tokens", "output_tokens", "cache_write_tokens", "cache_read_tokens")]
    return None if all(p is None for p in parts) else sum(p or 0 for p in parts)


class _Usage:
    """Token counts read together: their sum, and the dict form with it."""

    @property
    def total_tokens(self) -> int | None:
        return total_tokens(self)

    def as_dict(self) -> dict:
        return {**asdict(self), "total_tokens": self.total_tokens}


@dataclass(frozen=True)
class Turn(_Usage):
    """One model call: its tokens and estimated cost (``None``: the model has no price)."""

    session: str
    seq: int
    ts: str
    message_id: str
    model: str | None
    subagent: str | None
    input_tokens: int
    output_tokens: int
    cache_write_tokens: int
    cache_read_tokens: int
    cost_usd: float | None


@dataclass(frozen=True)
class DailyUsage(_Usage):
    """One local day's model calls: how many, in how many sessions, their tokens and
    estimated cost (``unpriced_turns`` had no price and add only tokens)."""

    day: str
    sessions: int
    turns: int
    input_tokens: int
    output_tokens: int
    cache_write_tokens: int
    cache_read_tokens: int
    cost_usd: float | None
    unpriced_turns: int


@dataclass(frozen=True, slots=True)
class Event:
    session: str
    seq: int
    ts: str
    event: str
    kind: str
    tool: str | None
    tool_use_id: str | None
    subagent: str | None
    summary: str
    failed: bool
    origin: str | None = None  # None: the hook's own event; transcript, backfill or import

    def as_dict(self) -> dict:
        return asdict(self)


@dataclass(frozen=True, slots=True)
class Change:
    """One file change (one patch), with the prompt that led to it."""

    session: str
    seq: int
    ts: str
    path: str
    op: str
    added: int
    removed: int
    binary: bool
    patch: str  # store-relative to the session folder
    patch_path: str  # absolute
    tool: str | None = None
    prompt: str | None = None
    prompt_seq: int | None = None
    project: str | None = None  # the session's repository root (or cwd)

    def as_dict(self) -> dict:
        return asdict(self)


@dataclass(frozen=True, slots=True)
class SearchHit:
    session: str
    seq: int
    kind: str
    ts: str
    summary: str
    snippet: str  # with [[ and ]] around the matched words
    project: str | None = None

    def as_dict(self) -> dict:
        return asdict(self)


@dataclass(slots=True)
class ChangedFile:
    """One file in the "what changed" report: its totals and who changed it, in order."""

    project: str
    path: str
    added: int = 0
    removed: int = 0
    changes: list[Change] = field(default_factory=list)

    def as_dict(self) -> dict:
        return {
            "project": self.project,
            "path": self.path,
            "added": self.added,
            "removed": self.removed,
            "changes": [c.as_dict() for c in self.changes],
        }


@dataclass(frozen=True)
class CommitFile:
    """A file a commit changed (against its first parent) and its blob id after it."""

    path: str
    status: str  # A, M, D, R (renamed from old_path), C, T
    oid: str
    pre_oid: str
    old_path: str | None = None


@dataclass(frozen=True)
class Commit:
    """A git commit, as the repository or a session's record of it says. ``session`` is
    the session that recorded it being made (``None``: read from git only)."""

    sha: str
    parents: tuple[str, ...]
    subject: str
    author: str
    author_email: str
    author_time: str
    committer_time: str
    files: tuple[CommitFile, ...] = ()
    session: str | None = None
    seq: int | None = None
    ts: str | None = None
    branch: str | None = None
    by_agent: bool = False

    def as_dict(self) -> dict:
        return asdict(self)


@dataclass(frozen=True)
class BlameLine:
    """One line of a file as it is now, and the recorded change that last wrote it
    (``session`` is ``None`` when no recorded session did: "not recorded")."""

    line: int  # 1-based
    text: str
    session: str | None = None
    seq: int | None = None
    ts: str | None = None
    path: str | None = None  # the file's name when it was written (renames)
    tool: str | None = None
    prompt: str | None = None

    def as_dict(self) -> dict:
        return dict(vars(self))  # flat: asdict's deep copy costs more than blame on long files
