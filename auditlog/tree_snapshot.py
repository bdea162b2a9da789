"""Snapshots of a git working tree, to see what a shell command changed.

Before the command: ``git add -A`` into a temporary index and ``git write-tree``; after
it, the same again, and the two trees are compared. New objects go to an object
directory of the caller's (the repository's objects are only read, as alternates), so
the user's repository is never written to. That directory holds raw file contents,
secrets included, so the caller deletes it once the diff is made (:func:`discard`).
"""

from __future__ import annotations

import os
import shutil
import subprocess

from auditlog import paths
from auditlog.gitrefs import RepoInfo

GIT_TIMEOUT = 20.0


class TreeChange:
    __slots__ = ("after", "before", "new_mode", "old_mode", "path")

    def __init__(self, path: str, old_mode: str, new_mode: str, before: bytes | None, after: bytes | None) -> None:
        self.path = path
        self.old_mode = old_mode
        self.new_mode = new_mode
        self.before = before
        self.after = after


def git_env(repo: RepoInfo, objects: str, index_file: str | None) -> dict:
    """Git's environment for any command auditlog runs on a user's repository (here and
    in :mod:`auditlog.git_log`): objects it might write go to ``objects``, the
    repository's are only read (as alternates), and no optional locks."""
    paths.ensure_dir(objects)
    env = dict(os.environ)
    for name in (
        "GIT_DIR",
        "GIT_WORK_TREE",
        "GIT_INDEX_FILE",
        "GIT_OBJECT_DIRECTORY",
        "GIT_ALTERNATE_OBJECT_DIRECTORIES",
    ):
        env.pop(name, None)
    env.update(
        {
            "GIT_OBJECT_DIRECTORY": objects,
            "GIT_ALTERNATE_OBJECT_DIRECTORIES": os.path.join(repo.common_dir, "objects"),
            "GIT_OPTIONAL_LOCKS": "0",
            "GIT_TERMINAL_PROMPT": "0",
            "LC_ALL": "C",
        }
    )
    if index_file:
        env["GIT_INDEX_FILE"] = index_file
    return env


def run_git(repo: RepoInfo, env: dict, *args: str, stdin: bytes | None = None) -> bytes:
    """``git -C <root> ARGS`` with a timeout; stdout, or ``OSError`` with git's message."""
    done = subprocess.run(
        ["git", "-C", repo.root, "-c", "core.quotepath=off", *args],
        input=stdin,
        capture_output=True,
        env=env,
        timeout=GIT_TIMEOUT,
        check=False,
    )
    if done.returncode != 0:
        raise OSError(f"git {args[0]} failed: {done.stderr.decode(errors='replace').strip()[:200]}")
    return done.stdout


def snapshot(repo: RepoInfo, objects: str) -> str:
    """The tree id of the working tree as it is now (tracked and untracked, not ignored);
    new objects are written under ``objects``."""
    paths.ensure_dir(objects)
    index_file = os.path.join(objects, f"index.{os.getpid()}")
    real_index = os.path.join(repo.git_dir, "index")
    try:
        if os.path.exists(real_index):
            # Its stat cache makes `add -A` fast. copy2 keeps the index's mtime, which git
            # needs to spot "racily clean" entries (a file changed in the same second as
            # the index was written, same size): with a fresh mtime they would look clean.
            shutil.copy2(real_index, index_file)
        env = git_env(repo, objects, index_file)
        run_git(repo, env, "add", "-A", "--ignore-errors", ".")
        return run_git(repo, env, "write-tree").decode().strip()
    finally:
        for leftover in (index_file, index_file + ".lock"):
            if os.path.exists(leftover):
                os.unlink(leftover)


def diff(repo: RepoInfo, objects: str, tree_before: str, tree_after: str) -> list[TreeChange]:
    """Every file that differs between two snapshots, with both images."""
    if tree_before == tree_after:
        return []
    env = git_env(repo, objects, None)
    raw = run_git(repo, env, "diff-tree", "-r", "-z", "--no-renames", "--full-index", tree_before, tree_after)
    fields = raw.split(b"\0")
    entries: list[tuple[str, str, str, str, str]] = []
    i = 0
    while i + 1 < len(fields):
        meta, path = fields[i], fields[i + 1]
        i += 2
        if not meta.startswith(b":"):
            continue
        old_mode, new_mode, old_oid, new_oid, _status = meta[1:].decode().split(" ")
        if "160000" in (old_mode, new_mode):
            continue  # submodule pointer: not file content
        entries.append((path.decode("utf-8", "surrogateescape"), old_mode, new_mode, old_oid, new_oid))
    wanted = [oid for e in entries for oid in (e[3], e[4]) if set(oid) != {"0"}]
    contents = cat_blobs(repo, env, wanted)
    changes = []
    for path, old_mode, new_mode, old_oid, new_oid in entries:
        before = contents.get(old_oid) if set(old_oid) != {"0"} else None
        after = contents.get(new_oid) if set(new_oid) != {"0"} else None
        changes.append(TreeChange(path, old_mode, new_mode, before, after))
    return changes


def cat_blobs(repo: RepoInfo, env: dict, oids: list[str]) -> dict[str, bytes]:
    """The contents of objects named by id or ``REV:PATH``, in one ``cat-file --batch``;
    names git cannot find are left out."""
    if not oids:
        return {}
    out = run_git(repo, env, "cat-file", "--batch", stdin="".join(o + "\n" for o in oids).encode())
    contents: dict[str, bytes] = {}
    pos = 0
    for oid in oids:
        header_end = out.index(b"\n", pos)
        header = out[pos:header_end].split(b" ")
        if len(header) < 3:  # "<name> missing" (or ambiguous): no content follows
            pos = header_end + 1
            continue
        size = int(header[2])
        contents[oid] = out[header_end + 1 : header_end + 1 + size]
        pos = header_end + 1 + size + 1
    return contents


def discard(objects: str) -> None:
    """Delete a snapshot's objects (raw file contents must not stay in the store)."""
    shutil.rmtree(objects, ignore_errors=True)


def reader_env(repo: RepoInfo, home: str) -> dict:
    """The environment for read-only commands (``git log``, ``cat-file``): they write no
    objects, so their object directory in the store stays empty."""
    return git_env(repo, os.path.join(home, "git-read"), None)
