"""Line models for the code view: a patch (structured by unidiff), a whole file, or a
JSON record, each as a list of ``CodeLine``.

The view highlights and draws only the lines on screen, so building this list is most of
the cost of showing a 5,000-line patch: it must stay linear and allocation-light.
"""

from __future__ import annotations

import json
from typing import NamedTuple

from unidiff import PatchSet
from unidiff.constants import LINE_TYPE_ADDED, LINE_TYPE_CONTEXT, LINE_TYPE_REMOVED
from unidiff.errors import UnidiffParseError

# kinds: add, del, ctx (diff body) · file, hunk, meta (diff structure) · plain, mark (a
# whole file; mark = a line this step wrote) · note (a message instead of content)
BODY_KINDS = frozenset(("add", "del", "ctx", "plain", "mark"))
_KINDS = {LINE_TYPE_ADDED: "add", LINE_TYPE_REMOVED: "del", LINE_TYPE_CONTEXT: "ctx"}


class CodeLine(NamedTuple):
    """One line to draw. A tuple of strings and ints on purpose: the garbage collector
    stops tracking such tuples, so thousands of cached lines add nothing to its passes
    (slotted objects would be traversed on every full collection, in the UI thread)."""

    kind: str
    text: str
    old: int | None = None
    new: int | None = None
    path: str | None = None  # the file this line belongs to (for choosing a highlighter)


def patch_lines(patch: str) -> list[CodeLine]:
    """A git-style patch as lines: a title per file, ``@@`` per hunk, then the body."""
    try:
        patchset = PatchSet(patch)
    except UnidiffParseError as exc:
        return [CodeLine("note", f"this patch could not be parsed ({exc}); shown as recorded"),
                *(CodeLine("plain", line) for line in patch.splitlines())]
    out: list[CodeLine] = []
    for pf in patchset:
        path = pf.path
        op = "new file" if pf.is_added_file else "deleted" if pf.is_removed_file else "renamed" if pf.is_rename else ""
        title = f"{path}  +{pf.added} −{pf.removed}" + (f"  ({op})" if op else "")
        out.append(CodeLine("file", title, path=path))
        if pf.is_binary_file:
            out.append(CodeLine("meta", "Binary files differ", path=path))
            continue
        for hunk in pf:
            header = f"@@ -{hunk.source_start},{hunk.source_length} +{hunk.target_start},{hunk.target_length} @@"
            out.append(CodeLine("hunk", header + (f" {hunk.section_header}" if hunk.section_header else ""), path=path))
            for line in hunk:  # hot loop (5,000 lines = 5,000 turns): plain attribute reads only
                kind = _KINDS.get(line.line_type)
                text = line.value.rstrip("\r\n")
                if kind == "add":
                    out.append(CodeLine("add", text, None, line.target_line_no, path))
                elif kind == "del":
                    out.append(CodeLine("del", text, line.source_line_no, None, path))
                elif kind == "ctx":
                    out.append(CodeLine("ctx", text, line.source_line_no, line.target_line_no, path))
                else:  # "\ No newline at end of file"
                    out.append(CodeLine("meta", text.strip() or "\\ No newline at end of file", path=path))
    if not out:
        out.append(CodeLine("note", "(an empty patch: the step left the file's content as it was)"))
    return out


def written_lines(lines: list[CodeLine], path: str) -> set[int]:
    """New-side line numbers a step added to ``path``: marked in the whole-file view."""
    return {line.new for line in lines if line.kind == "add" and line.path == path and line.new is not None}


def file_lines(image: bytes | None, path: str, marks: set[int]) -> list[CodeLine]:
    """The whole file after a step, numbered, with the lines that step wrote marked."""
    if image is None:
        return [CodeLine("note", f"{path} was deleted by this step: there is no file after it")]
    if b"\0" in image[:8192]:
        return [CodeLine("note", f"{path} is binary ({len(image):,} bytes): not shown")]
    text = image.decode("utf-8", errors="replace")
    return [CodeLine("mark" if n in marks else "plain", line, None, n, path)
            for n, line in enumerate(text.splitlines(), start=1)] or [CodeLine("note", f"{path} is empty")]


def json_lines(value: object) -> list[CodeLine]:
    """A record as indented JSON, one ``CodeLine`` per line, highlighted as JSON."""
    text = json.dumps(value, indent=2, ensure_ascii=False)
    return [CodeLine("plain", line, path="record.json") for line in text.splitlines()]


def note_lines(*messages: str) -> list[CodeLine]:
    return [CodeLine("note", message) for message in messages]
