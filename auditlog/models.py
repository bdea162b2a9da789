"""The read API's model objects: what ``auditlog.query`` returns to the CLI and the TUI
(never cursors or rows), so both front ends show the same facts the same way."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
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

    @property
    def duration_seconds(self) -> float | None:
        return _seconds_between(self.started, self.ended)

    def as_dict(self) -> dict:
        return {**asdict(self), "duration_seconds": self.duration_seconds}


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
