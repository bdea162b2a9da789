"""Repository facts read straight from ``.git`` files, without running git.

The hook needs the project root, branch and HEAD on the hot path; a ``git``
subprocess costs more than the whole hook budget, while these are a few small reads.
"""

from __future__ import annotations

import os


class RepoInfo:
    """Where a working tree is and what its HEAD points at (``None`` where unknown)."""

    __slots__ = ("branch", "common_dir", "git_dir", "head", "root")

    def __init__(self, root: str, git_dir: str, common_dir: str) -> None:
        self.root = root
        self.git_dir = git_dir
        self.common_dir = common_dir
        self.branch: str | None = None
        self.head: str | None = None

    def as_context(self) -> dict:
        return {"project": self.root, "branch": self.branch, "head": self.head}


def _read(path: str) -> str | None:
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            return f.read()
    except OSError:
        return None


def find_repo(start: str) -> RepoInfo | None:
    """The git working tree containing ``start`` (walking up), or ``None``."""
    if not start or not os.path.isabs(start):
        return None
    current = os.path.normpath(start)
    while True:
        dot_git = os.path.join(current, ".git")
        if os.path.isdir(dot_git):
            return _with_head(RepoInfo(current, dot_git, dot_git))
        if os.path.isfile(dot_git):  # a worktree or submodule: "gitdir: <path>"
            text = _read(dot_git) or ""
            if text.startswith("gitdir:"):
                git_dir = os.path.normpath(os.path.join(current, text[7:].strip()))
                common = _read(os.path.join(git_dir, "commondir"))
                common_dir = os.path.normpath(os.path.join(git_dir, common.strip())) if common else git_dir
                return _with_head(RepoInfo(current, git_dir, common_dir))
        parent = os.path.dirname(current)
        if parent == current:
            return None
        current = parent


def _resolve_ref(common_dir: str, ref: str) -> str | None:
    value = _read(os.path.join(common_dir, ref))
    if value:
        return value.strip() or None
    packed = _read(os.path.join(common_dir, "packed-refs")) or ""
    for line in packed.splitlines():
        if line.endswith(" " + ref) and not line.startswith("#"):
            return line.split(" ", 1)[0]
    return None


def _with_head(info: RepoInfo) -> RepoInfo:
    head = (_read(os.path.join(info.git_dir, "HEAD")) or "").strip()
    if head.startswith("ref:"):
        ref = head[4:].strip()
        info.branch = ref[len("refs/heads/") :] if ref.startswith("refs/heads/") else ref
        info.head = _resolve_ref(info.common_dir, ref)  # None on an unborn branch
    elif head:
        info.head = head  # detached
    return info


def relative_to_root(path: str, root: str | None, cwd: str | None = None) -> str:
    """``path`` relative to the project root with ``/`` separators where it lies inside
    it; otherwise the normalised absolute path (still a useful name in a patch header)."""
    if _looks_windows(path) or (cwd and _looks_windows(cwd)):
        return _windows_relative(path, cwd)
    if not os.path.isabs(path) and cwd:
        path = os.path.join(cwd, path)
    path = os.path.normpath(path)
    if root:
        try:
            rel = os.path.relpath(path, root)
        except ValueError:
            rel = ""
        if rel and not rel.startswith(".."):
            return rel.replace(os.sep, "/")
    return path.lstrip("/").replace(os.sep, "/") if os.path.isabs(path) else path


def _looks_windows(path: str) -> bool:
    return len(path) > 2 and path[1] == ":" and path[2] in "\\/"


def _windows_relative(path: str, cwd: str | None) -> str:
    """Payloads recorded on Windows name files like ``C:\\proj\\x.js``: make them relative
    to the session's cwd when inside it, with ``/`` separators."""
    import ntpath

    if cwd and not ntpath.isabs(path):
        path = ntpath.join(cwd, path)
    if cwd:
        try:
            rel = ntpath.relpath(path, cwd)
        except ValueError:
            rel = ""
        if rel and not rel.startswith(".."):
            return rel.replace("\\", "/")
    return path.replace("\\", "/").replace(":", "", 1)
