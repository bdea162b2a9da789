"""Planted symbolic links cannot make the hook write outside AUDITLOG_HOME."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from store_builder import ClaudeSession, make_repo, run_hook


@pytest.fixture
def outside(tmp_path: Path) -> Path:
    target = tmp_path / "outside"
    target.mkdir()
    (target / "victim.txt").write_text("untouched\n")
    return target


def _snapshot(folder: Path) -> dict:
    return {str(p): p.read_bytes() for p in folder.rglob("*") if p.is_file()}


@pytest.mark.parametrize("planted", ["session folder", "journal", "conversation", "patches folder", "lock"])
def test_planted_links_are_refused(planted: str, store: Path, outside: Path, tmp_path: Path) -> None:
    project = make_repo(tmp_path / "proj", {"a.txt": "a\n"})
    session = ClaudeSession(project, "linked")
    session.start()  # creates the store and the session folder
    folder = store / "sessions" / "linked"
    before = _snapshot(outside)
    if planted == "session folder":
        os.rename(folder, tmp_path / "moved")
        folder.symlink_to(outside, target_is_directory=True)
    else:
        name = {"journal": "events.jsonl", "conversation": "conversation.md", "lock": ".lock"}.get(planted)
        if name:
            (folder / name).unlink(missing_ok=True)
            (folder / name).symlink_to(outside / "victim.txt")
        else:
            (folder / "patches").symlink_to(outside, target_is_directory=True)
    for event in ({"hook_event_name": "UserPromptSubmit", "prompt": "hi"},):
        done = run_hook({"session_id": "linked", "cwd": str(project), **event})
        assert done.returncode == 0 and done.stdout == b""
    session.write("b.txt", "b\n")  # would write a patch
    assert _snapshot(outside) == before
    assert (store / "errors.log").exists()  # the refusal is reported
