"""Where the store lives, and how untrusted names become safe paths inside it.

Session ids and file names come from the agent's payload, which we do not trust: a
session id of ``../../etc`` must never make the hook write outside ``AUDITLOG_HOME``.
"""

from __future__ import annotations

import os
import re

from auditlog.digests import sha256_hex

DIR_MODE = 0o700
FILE_MODE = 0o600

_SAFE_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,95}\Z")
_UNSAFE_CHARS = re.compile(r"[^A-Za-z0-9._-]+")


def store_home() -> str:
    """The store root: ``$AUDITLOG_HOME``, else ``${XDG_DATA_HOME:-~/.local/share}/auditlog``."""
    home = os.environ.get("AUDITLOG_HOME")
    if home:
        return os.path.abspath(os.path.expanduser(home))
    data = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
    return os.path.join(os.path.abspath(data), "auditlog")


def sessions_root(home: str) -> str:
    return os.path.join(home, "sessions")


def index_path(home: str) -> str:
    return os.path.join(home, "index.sqlite")


def session_folder_name(session_id: str) -> str:
    """A folder name for an untrusted session id: the id itself when it is plainly safe,
    otherwise a readable sanitised prefix plus a hash of the whole id (so two odd ids
    never collide and nothing like ``/``, ``..`` or NUL survives)."""
    if _SAFE_ID.match(session_id) and ".." not in session_id:
        return session_id
    digest = sha256_hex(session_id.encode("utf-8", "surrogatepass"))[:16]
    prefix = _UNSAFE_CHARS.sub("_", session_id).replace("..", "_").strip("._-")[:40]
    return f"x-{prefix}-{digest}" if prefix else f"x-{digest}"


def ensure_dir(path: str) -> None:
    """Create ``path`` (and parents) private to the user; refuse to follow a symlink."""
    try:
        os.makedirs(path, mode=DIR_MODE, exist_ok=True)
    except FileExistsError:
        pass
    if os.path.islink(path):
        raise OSError(f"refusing to use {path}: it is a symbolic link")


def open_private(path: str, flags: int) -> int:
    """Open a store file 0600 without following a symlink planted at its name."""
    return os.open(path, flags | os.O_NOFOLLOW | os.O_CLOEXEC, FILE_MODE)


def write_private_file(path: str, data: bytes) -> None:
    """Write a whole file atomically (temp file + rename), mode 0600."""
    tmp = f"{path}.tmp{os.getpid()}"
    fd = open_private(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
    try:
        _write_all(fd, data)
    finally:
        os.close(fd)
    os.replace(tmp, path)


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]


def append_private(path: str, data: bytes) -> None:
    """Append bytes to a store file with one ``write()`` (O_APPEND), creating it 0600."""
    fd = open_private(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND)
    try:
        _write_all(fd, data)
    finally:
        os.close(fd)
