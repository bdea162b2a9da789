"""File images (a file's bytes at one moment) for the patches: kept at the before-event,
read from disk at the after-event, or rebuilt from what the payload says.
"""

from __future__ import annotations

import json
import os
import stat
from collections.abc import Callable

from auditlog import blobs, paths

STATE = "state"
MAX_IMAGE_BYTES = 32 * 1024 * 1024  # larger files are noted, not diffed


def read_disk(path: str) -> tuple[bytes | None, str]:
    """The file's bytes (``None`` if it does not exist) and its git mode."""
    try:
        st = os.lstat(path)
    except (OSError, ValueError):
        return None, "100644"
    if stat.S_ISLNK(st.st_mode):
        return os.readlink(path).encode("utf-8", "surrogateescape"), "120000"
    if not stat.S_ISREG(st.st_mode):
        return None, "100644"
    if st.st_size > MAX_IMAGE_BYTES:
        raise OSError(f"{path} is larger than {MAX_IMAGE_BYTES} bytes; not diffed")
    with open(path, "rb") as f:
        data = f.read()
    return data, ("100755" if st.st_mode & 0o111 else "100644")


def on_this_machine(path: str) -> bool:
    """Whether a payload's path can be read here (payloads recorded elsewhere cannot)."""
    return os.path.isabs(path) and os.path.lexists(path)


def _state_file(folder: str, kind: str, key: str) -> str:
    return os.path.join(folder, STATE, f"{kind}-{key}.json")


def save_state(folder: str, kind: str, key: str, value: dict) -> None:
    paths.ensure_dir(os.path.join(folder, STATE))
    paths.write_private_file(_state_file(folder, kind, key), json.dumps(value).encode())


def take_state(folder: str, kind: str, key: str) -> dict | None:
    """Read and remove a saved before-event state (``None`` if there is none)."""
    path = _state_file(folder, kind, key)
    try:
        with open(path, "rb") as f:
            value = json.loads(f.read())
    except (OSError, ValueError):
        return None
    try:
        os.unlink(path)
    except OSError:
        pass
    return value


def keep_pre_images(folder: str, key: str, files: list[str], transform: Callable[[bytes | None], bytes | None]) -> None:
    """At the before-event: keep each file's current bytes (after ``transform``, the
    redaction) as a blob."""
    saved = {}
    for path in files:
        data, mode = read_disk(path)
        data = transform(data)
        saved[path] = {"blob": blobs.put_blob(folder, data) if data is not None else None, "mode": mode}
    save_state(folder, "pre", key, {"files": saved})


def load_pre_images(folder: str, key: str) -> dict[str, tuple[bytes | None, str]]:
    state = take_state(folder, "pre", key) or {}
    images = {}
    for path, entry in (state.get("files") or {}).items():
        digest = entry.get("blob")
        images[path] = (blobs.read_blob(folder, digest) if digest else None, entry.get("mode", "100644"))
    return images


def apply_string_edits(original: str, edits: list[tuple[str, str, bool]]) -> str | None:
    """Replay Edit/MultiEdit string replacements; ``None`` if one does not apply."""
    text = original
    for old, new, replace_all in edits:
        if old == "":
            if text:
                return None
            text = new
            continue
        if old not in text:
            return None
        text = text.replace(old, new) if replace_all else text.replace(old, new, 1)
    return text


def reverse_hunks(after: str, hunks: list[dict]) -> str | None:
    """The text before a change, rebuilt from the text after it and the change's hunks
    (``{"oldStart", "newStart", "lines": ["+x", "-y", " z"]}``); ``None`` when the text
    no longer matches the hunks (the file changed again since)."""
    lines = after.splitlines(keepends=True)
    trailing_newline = after.endswith("\n") or not after
    for hunk in sorted(hunks, key=lambda h: h.get("newStart", 0), reverse=True):
        body = hunk.get("lines") or []
        new_side = [ln[1:] for ln in body if ln[:1] in (" ", "+")]
        old_side = [ln[1:] for ln in body if ln[:1] in (" ", "-")]
        start = max(int(hunk.get("newStart") or 0) - 1, 0) if new_side else int(hunk.get("newStart") or 0)
        current = [ln.rstrip("\r\n") for ln in lines[start : start + len(new_side)]]
        if current != [ln.rstrip("\r\n") for ln in new_side]:
            return None
        eol = "\r\n" if lines and lines[0].endswith("\r\n") else "\n"
        lines[start : start + len(new_side)] = [ln + eol for ln in old_side]
    text = "".join(lines)
    if not trailing_newline and text.endswith("\n"):
        text = text[:-1]
    return text


def apply_hunks(before: str, hunks: list[dict]) -> str | None:
    """The text after a change, from the text before it and the change's hunks (the
    ``structuredPatch`` of Claude Code's Edit results): :func:`reverse_hunks` with the
    sides swapped. ``None`` when the text does not match the hunks."""
    swapped = []
    for hunk in hunks:
        if not isinstance(hunk, dict):
            return None
        lines = ["+" + ln[1:] if ln[:1] == "-" else "-" + ln[1:] if ln[:1] == "+" else ln
                 for ln in hunk.get("lines") or [] if isinstance(ln, str)]
        swapped.append({"oldStart": hunk.get("newStart"), "newStart": hunk.get("oldStart"), "lines": lines})
    return reverse_hunks(before, swapped)
