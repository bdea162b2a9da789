"""The ``*** Begin Patch`` format (Codex's ``apply_patch`` tool, and the agents that copy
it), read well enough to know which files a patch touches and what it says about them.

The grammar, as Codex documents it::

    *** Begin Patch
    *** Add File: path          followed by "+" lines: the new file
    *** Delete File: path
    *** Update File: path
    *** Move to: new/path       optional, right after Update
    @@ optional context line    then " ", "-", "+" lines; "*** End of File" may close a hunk
    *** End Patch

Capture does not apply the patch (the agent did): it needs the paths, to keep their
pre-images before the tool runs, and, after it, whatever the patch text alone settles
(an added file's content, a deletion). Standard library only: this runs in the hook.
"""

from __future__ import annotations

import os

from auditlog.observation import FileEdit

BEGIN, END = "*** Begin Patch", "*** End Patch"
ADD, DELETE, UPDATE, MOVE = "*** Add File: ", "*** Delete File: ", "*** Update File: ", "*** Move to: "


class FileOp:
    """One file section of a patch. ``op`` is ``add``, ``delete`` or ``update``;
    ``content`` is an added file's text; ``move_to`` the new path of a moved file. An
    update's hunks are not kept: the file on disk after the tool is the truth for them."""

    __slots__ = ("content", "move_to", "op", "path")

    def __init__(self, op: str, path: str) -> None:
        self.op = op
        self.path = path
        self.move_to: str | None = None
        self.content: str | None = None

    def paths(self) -> list[str]:
        """Every path this section changes (a move changes two)."""
        return [self.path, self.move_to] if self.move_to else [self.path]


def patch_body(text: str) -> list[str] | None:
    """The lines between ``*** Begin Patch`` and ``*** End Patch``, wherever they sit in
    ``text`` (a bare patch, or one wrapped in a shell heredoc); ``None`` if there is none."""
    lines = text.splitlines()
    starts = [i for i, line in enumerate(lines) if line.strip() == BEGIN]
    if not starts:
        return None
    body = lines[starts[0] + 1:]
    ends = [i for i, line in enumerate(body) if line.strip() == END]
    return body[: ends[0]] if ends else body


def parse(text: str) -> list[FileOp]:
    """The file sections of a patch, leniently: malformed lines are skipped rather than
    failing, since the record of what the agent sent matters more than its grammar."""
    body = patch_body(text)
    if body is None:
        return []
    ops: list[FileOp] = []
    current: FileOp | None = None
    added: list[str] = []
    for line in body:
        header = next(((op, line[len(mark):].strip()) for mark, op in ((ADD, "add"), (DELETE, "delete"),
                       (UPDATE, "update")) if line.startswith(mark)), None)
        if header is not None:
            _close(current, added)
            current, added = FileOp(*header), []
            ops.append(current)
        elif current is None:
            continue
        elif current.op == "add":
            if line.startswith("+"):
                added.append(line[1:])
        elif current.op == "update":
            _update_line(current, line)
    _close(current, added)
    return [op for op in ops if op.path]


def _close(op: FileOp | None, added: list[str]) -> None:
    if op is not None and op.op == "add":
        op.content = "".join(line + "\n" for line in added)


def _update_line(op: FileOp, line: str) -> None:
    if line.startswith(MOVE) and op.move_to is None:
        op.move_to = line[len(MOVE):].strip() or None


def touched_paths(text: str, cwd: str | None) -> list[str]:
    """Every path a patch changes, made absolute, in order, without repeats: the files
    whose pre-images are kept before the tool runs."""
    seen: list[str] = []
    for op in parse(text):
        for path in (resolve(p, cwd) for p in op.paths()):
            if path not in seen:
                seen.append(path)
    return seen


def file_edits(text: str, cwd: str | None) -> list[FileEdit]:
    """The file changes a patch made, for capture: the before-image comes from the
    snapshot kept when the tool was called, the after-image from disk; where the file is
    gone, from what the patch text settles (an added file's content; a deleted or
    moved-away file no longer exists). An update of a file that is gone gets no patch:
    its new text depends on the old one, which only the snapshot holds."""
    edits: list[FileEdit] = []
    for op in parse(text):
        path = resolve(op.path, cwd)
        if op.op == "add":
            edits.append(FileEdit(path, after_fallback=(op.content or "").encode("utf-8", "surrogatepass")))
        elif op.op == "delete" or op.move_to:
            edits.append(FileEdit(path, after_fallback=None))
        else:
            edits.append(FileEdit(path))
        if op.move_to:
            edits.append(FileEdit(resolve(op.move_to, cwd)))
    return edits


def resolve(path: str, cwd: str | None) -> str:
    """``path`` made absolute against ``cwd``: agents send both kinds, and Codex resolves
    a patch's relative paths against the turn's working directory."""
    if os.path.isabs(path) or not cwd:
        return path
    return os.path.normpath(os.path.join(cwd, path))
