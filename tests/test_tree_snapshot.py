"""Working-tree snapshots (the Bash fallback) see every change, even a "racily clean" one:
a file rewritten with the same size in the same second as the index was written."""

from __future__ import annotations

import os
import time
from pathlib import Path

from store_builder import git, make_repo

from auditlog import tree_snapshot
from auditlog.gitrefs import find_repo


def test_same_size_change_in_the_index_second_is_seen(tmp_path: Path, store: Path) -> None:
    repo_path = make_repo(tmp_path / "repo", {"config.ini": "port=7000\n"})
    index = repo_path / ".git" / "index"
    past = time.time() - 100
    (repo_path / "config.ini").write_text("port=8000\n")  # same size as before
    os.utime(repo_path / "config.ini", (past, past))
    os.utime(index, (past, past))  # the index was written in the same second
    repo = find_repo(str(repo_path))
    objects = str(tmp_path / "objects")
    tree = tree_snapshot.snapshot(repo, objects)
    (repo_path / "notes.txt").write_text("note\n")
    after = tree_snapshot.snapshot(repo, objects)
    changes = tree_snapshot.diff(repo, objects, tree, after)
    assert [(c.path, c.before, c.after) for c in changes] == [("notes.txt", None, b"note\n")]
    head_tree = git(repo_path, "rev-parse", "HEAD^{tree}").strip()
    changed = {c.path: c.after for c in tree_snapshot.diff(repo, objects, head_tree, tree)}
    assert changed == {"config.ini": b"port=8000\n"}


def test_snapshots_write_nothing_into_the_repository(tmp_path: Path, store: Path) -> None:
    repo_path = make_repo(tmp_path / "repo", {"a.txt": "a\n"})
    (repo_path / "new.txt").write_text("new\n")
    objects_before = git(repo_path, "count-objects", "-v")
    index_before = (repo_path / ".git" / "index").read_bytes()
    tree_snapshot.snapshot(find_repo(str(repo_path)), str(tmp_path / "objects"))
    assert git(repo_path, "count-objects", "-v") == objects_before
    assert (repo_path / ".git" / "index").read_bytes() == index_before
    assert "?? new.txt" in git(repo_path, "status", "--porcelain")
