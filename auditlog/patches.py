"""Git-style unified patches for one file change, which ``git apply`` takes.

Text files get ordinary hunks (with ``\\ No newline at end of file`` where needed);
binary files get a ``GIT binary patch`` with literal forward and reverse images, so a
chain of patches rebuilds the tree exactly, whatever the files hold.
"""

from __future__ import annotations

from auditlog.digests import sha1_hex

NULL_OID = "0" * 40
CONTEXT_LINES = 3
_NO_EOL = "\\ No newline at end of file\n"


class Patch:
    """A rendered patch and its line counts (``added``/``removed`` are 0 for binaries)."""

    __slots__ = ("added", "binary", "op", "post_oid", "pre_oid", "removed", "text")

    def __init__(self, text: str, op: str, added: int, removed: int, binary: bool, pre_oid: str, post_oid: str) -> None:
        self.text = text
        self.op = op
        self.added = added
        self.removed = removed
        self.binary = binary
        self.pre_oid = pre_oid
        self.post_oid = post_oid


def git_blob_oid(data: bytes | None) -> str:
    """The object id git gives these bytes as a blob (to match changes with commits)."""
    if data is None:
        return NULL_OID
    return sha1_hex(b"blob %d\0" % len(data) + data)


def is_binary(data: bytes) -> bool:
    """Git's rule of thumb (a NUL in the first 8000 bytes), plus anything not UTF-8."""
    if b"\0" in data[:8000]:
        return True
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return True
    return False


def quote_path(path: str) -> str:
    """Quote a path the way git does when it holds control characters, quotes,
    backslashes or non-ASCII bytes; plain paths stay as they are."""
    if all(" " <= c <= "~" and c not in '"\\' for c in path):
        return path
    out = []
    for byte in path.encode("utf-8", "surrogateescape"):
        ch = chr(byte)
        if ch in '"\\':
            out.append("\\" + ch)
        elif ch == "\t":
            out.append("\\t")
        elif ch == "\n":
            out.append("\\n")
        elif byte < 0x20 or byte >= 0x7F:
            out.append(f"\\{byte:03o}")
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


def _prefixed(prefix: str, path: str) -> str:
    quoted = quote_path(path)
    return f'"{prefix}{quoted[1:]}' if quoted.startswith('"') else f"{prefix}{quoted}"


def _range(start: int, length: int) -> str:
    # Same convention as git and difflib: "-3" for one line, "-2,0" for none after line 2.
    begin = start + 1
    if length == 1:
        return f"{begin}"
    if length == 0:
        begin -= 1
    return f"{begin},{length}"


def _emit(out: list[str], sign: str, line: str) -> None:
    out.append(sign + line)
    if not line.endswith("\n"):
        out.append("\n" + _NO_EOL)


def text_hunks(old: str, new: str) -> tuple[list[str], int, int]:
    """Unified hunks between two texts, with git's end-of-file markers, and +/- counts."""
    import difflib  # only events that change a text file pay for it

    a = old.splitlines(keepends=True)
    b = new.splitlines(keepends=True)
    out: list[str] = []
    added = removed = 0
    matcher = difflib.SequenceMatcher(None, a, b)
    for group in matcher.get_grouped_opcodes(CONTEXT_LINES):
        i1, i2, j1, j2 = group[0][1], group[-1][2], group[0][3], group[-1][4]
        out.append(f"@@ -{_range(i1, i2 - i1)} +{_range(j1, j2 - j1)} @@\n")
        for tag, x1, x2, y1, y2 in group:
            if tag == "equal":
                for line in a[x1:x2]:
                    _emit(out, " ", line)
                continue
            for line in a[x1:x2]:
                _emit(out, "-", line)
            for line in b[y1:y2]:
                _emit(out, "+", line)
            removed += x2 - x1
            added += y2 - y1
    return out, added, removed


def _binary_literal(data: bytes) -> list[str]:
    import base64
    import zlib

    packed = zlib.compress(data, 9)
    lines = [f"literal {len(data)}\n"]
    for i in range(0, len(packed), 52):
        chunk = packed[i : i + 52]
        size = len(chunk)
        marker = chr(ord("A") + size - 1) if size <= 26 else chr(ord("a") + size - 27)
        lines.append(marker + base64.b85encode(chunk, pad=True).decode("ascii") + "\n")
    lines.append("\n")
    return lines


def make_patch(
    path: str,
    before: bytes | None,
    after: bytes | None,
    *,
    old_mode: str = "100644",
    new_mode: str = "100644",
    old_path: str | None = None,
) -> Patch | None:
    """A git-style patch turning ``before`` into ``after`` at ``path`` (relative, ``/``
    separated). ``None`` for either side means the file does not exist. Returns ``None``
    when nothing changed."""
    if before == after and (before is None or old_mode == new_mode) and old_path in (None, path):
        return None
    src = old_path or path
    pre_oid, post_oid = git_blob_oid(before), git_blob_oid(after)
    head = [f"diff --git {_prefixed('a/', src)} {_prefixed('b/', path)}\n"]
    if before is None:
        op = "add"
        head.append(f"new file mode {new_mode}\n")
        head.append(f"index {pre_oid}..{post_oid}\n")
    elif after is None:
        op = "delete"
        head.append(f"deleted file mode {old_mode}\n")
        head.append(f"index {pre_oid}..{post_oid}\n")
    else:
        op = "rename" if src != path else "modify"
        if old_mode != new_mode:
            head += [f"old mode {old_mode}\n", f"new mode {new_mode}\n"]
        if src != path:
            head += [f"rename from {quote_path(src)}\n", f"rename to {quote_path(path)}\n"]
        if before != after:
            head.append(f"index {pre_oid}..{post_oid}" + (f" {new_mode}\n" if old_mode == new_mode else "\n"))
    if before == after:
        return Patch("".join(head), op, 0, 0, False, pre_oid, post_oid)
    old_bytes, new_bytes = before or b"", after or b""
    if is_binary(old_bytes) or is_binary(new_bytes):
        body = ["GIT binary patch\n", *_binary_literal(new_bytes), *_binary_literal(old_bytes)]
        return Patch("".join(head + body), op, 0, 0, True, pre_oid, post_oid)
    hunks, added, removed = text_hunks(old_bytes.decode("utf-8"), new_bytes.decode("utf-8"))
    minus = "/dev/null" if before is None else _prefixed("a/", src)
    plus = "/dev/null" if after is None else _prefixed("b/", path)
    text = "".join([*head, f"--- {minus}\n", f"+++ {plus}\n", *hunks])
    return Patch(text, op, added, removed, False, pre_oid, post_oid)
