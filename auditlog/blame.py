"""``auditlog blame``: for each line of a file, the recorded change (session, prompt,
time) that last wrote it, or "not recorded".

The recorded changes to the file, under every name git's rename detection finds for it
and in sessions of the same repository, are replayed by content
(:mod:`auditlog.line_history`); the file is then matched against the images they made.
One SQL query, one ``git log --follow``, and the blobs read once each: no ``git blame``,
so the cost follows the recorded changes, not the repository's history.
"""

from __future__ import annotations

import os

from auditlog import blobs, git_log, paths
from auditlog.gitrefs import RepoInfo, find_repo
from auditlog.line_history import Replay, Step, split_lines
from auditlog.models import BlameLine
from auditlog.patches import git_blob_oid
from auditlog.query import QueryError, Store


def _same_repository(project: str | None, repo: RepoInfo, known: dict[str, bool]) -> bool:
    """Whether a session's project is this repository (or another worktree of it). The
    same relative path in another repository is another file. A project no longer on
    disk cannot be told apart, and is kept."""
    if not project:
        return False
    if project not in known:
        if os.path.realpath(project) == os.path.realpath(repo.root) or not os.path.exists(project):
            known[project] = True
        else:
            other = find_repo(project)
            known[project] = other is not None and (
                os.path.realpath(other.common_dir) == os.path.realpath(repo.common_dir)
            )
    return known[project]


def file_authors(store: Store, repo: RepoInfo, path: str, data: bytes, rev: str = "HEAD") -> list[dict | None]:
    """For each line of ``data`` (the file ``path``, relative to the repository root, at
    ``rev`` or in the working tree), the change row that last wrote it, or ``None``."""
    names = git_log.former_names(repo, store.home, path, rev)
    known: dict[str, bool] = {}
    rows = [r for r in store.change_images(names) if _same_repository(r["project"], repo, known)]
    root = paths.sessions_root(store.home)

    def read(step: Step, side: str) -> bytes | None:
        row = rows[step.key]
        digest = row["pre_blob"] if side == "pre" else row["post_blob"]
        try:
            return blobs.read_blob(os.path.join(root, row["folder"]), digest) if digest else None
        except (OSError, ValueError):
            return None

    steps = [
        Step(i, r["pre_oid"], r["post_oid"], r["pre_blob"], r["post_blob"], not r["via"]) for i, r in enumerate(rows)
    ]
    replay = Replay(steps, read)
    keys = replay.attribute(split_lines(data), git_blob_oid(data))
    return [None if k is None else rows[k] for k in keys]


def parse_range(spec: str | None, total: int) -> tuple[int, int]:
    """``-L`` as git takes it: ``START,END``, ``START,+COUNT``, ``START,`` or ``START``."""
    if not spec:
        return 1, total
    first, _, second = spec.partition(",")
    try:
        start = int(first)
        end = total if not second else start + int(second[1:]) - 1 if second.startswith("+") else int(second)
    except ValueError:
        raise QueryError(f"-L {spec!r}: give START,END (line numbers), START,+COUNT or START,") from None
    if start < 1 or end < start:
        raise QueryError(f"-L {spec!r}: lines are numbered from 1 and END may not come before START")
    if start > total:
        raise QueryError(f"-L {spec!r}: the file has only {total} lines")
    return start, min(end, total)


def blame(store: Store, file: str, line_range: str | None = None) -> list[BlameLine]:
    """The lines of ``file`` as it is on disk now (or those of ``line_range``), each
    with the session, prompt and time that last wrote it."""
    path = os.path.abspath(os.path.expanduser(file))
    if not os.path.isfile(path):
        raise QueryError(f"{file}: no such file")
    repo = find_repo(os.path.dirname(path))
    if repo is None:
        raise QueryError(f"{file} is not inside a git repository")
    with open(path, "rb") as f:
        data = f.read()
    rel = os.path.relpath(os.path.realpath(path), os.path.realpath(repo.root)).replace(os.sep, "/")
    lines = split_lines(data)
    start, end = parse_range(line_range, len(lines))
    authors = file_authors(store, repo, rel, data)
    out = []
    for number in range(start, end + 1):
        row = authors[number - 1]
        if row is None:
            out.append(BlameLine(number, lines[number - 1]))
        else:
            out.append(
                BlameLine(
                    number,
                    lines[number - 1],
                    row["session"],
                    row["seq"],
                    row["ts"],
                    row["path"],
                    row["tool"],
                    row["prompt"],
                )
            )
    return out
