"""What an agent adapter tells the capture pipeline about one hook event.

Adapters (``auditlog.hooks.claude`` and the others) turn an agent's payload into an
:class:`Observation`; :mod:`auditlog.capture` does the rest (images from disk, patches,
journal, conversation, index) the same way for every agent.
"""

from __future__ import annotations


class _Missing:
    """Marks a file image that the payload does not give; capture finds it elsewhere."""

    _instance: _Missing | None = None

    def __new__(cls) -> _Missing:
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "MISSING"


MISSING = _Missing()


class FileEdit:
    """One file changed by an edit-type tool.

    ``before``/``after`` are the file's bytes, ``None`` where the file does not exist, or
    ``MISSING`` where the payload does not say: then ``before`` comes from the
    before-event snapshot and ``after`` from disk (``after_fallback`` when the file is not
    on this machine, e.g. a payload recorded elsewhere).
    """

    __slots__ = ("after", "after_fallback", "before", "path")

    def __init__(
        self, path: str, before: object = MISSING, after: object = MISSING, after_fallback: object = MISSING
    ) -> None:
        self.path = path
        self.before = before
        self.after = after
        self.after_fallback = after_fallback


class ShellFileDiff:
    """A file changed by a shell command, as the agent reported it (hunks only)."""

    __slots__ = ("created", "deleted", "hunks", "path")

    def __init__(self, path: str, hunks: list, created: bool = False, deleted: bool = False) -> None:
        self.path = path
        self.hunks = hunks
        self.created = created
        self.deleted = deleted


class Observation:
    """One hook event, normalised. See docs/events.md for the kinds."""

    __slots__ = (
        "agent",
        "context_wanted",
        "cwd",
        "diff_tree",
        "event",
        "failed",
        "file_edits",
        "kind",
        "origin",
        "payload",
        "reply",
        "session_id",
        "shell_diffs",
        "snapshot_paths",
        "snapshot_tree",
        "state_key",
        "subagent",
        "summary",
        "tool",
        "tool_use_id",
        "transcripts",
        "turn",
    )

    def __init__(self, agent: str, event: str, kind: str, session_id: str, payload: object) -> None:
        self.agent = agent
        self.event = event
        self.kind = kind
        self.session_id = session_id
        self.payload = payload
        self.cwd: str | None = None
        self.tool: str | None = None
        self.tool_use_id: str | None = None
        self.turn: str | None = None
        self.subagent: str | None = None
        self.summary = ""
        self.failed = False
        self.context_wanted = False  # record repository root, branch and HEAD
        self.state_key: str | None = None  # pairs a before-event with its after-event
        self.snapshot_paths: list[str] = []  # files to keep as pre-images (before-event)
        self.snapshot_tree = False  # snapshot the git working tree (before a shell command)
        self.file_edits: list[FileEdit] = []  # after an edit-type tool
        # after a shell command: what it reported changing (None: it reported nothing)
        self.shell_diffs: list[ShellFileDiff] | None = None
        self.diff_tree = False  # after a shell command: diff against the tree snapshot
        # What the agent's protocol requires on stdout (Cursor's before-hooks want a
        # permission answer): written by the hook entry even when capture fails.
        self.reply: bytes | None = None
        # Transcripts to join before this event's record (Claude Code's Stop, SubagentStop,
        # PreCompact and SessionEnd): ``(path, subagent, final_text)``, where
        # ``final_text`` is the message the payload itself carries (not recorded twice).
        self.transcripts: list[tuple[str, str | None, str | None]] = []
        self.origin: str | None = None  # None: the hook's own event; else see record.ORIGINS
