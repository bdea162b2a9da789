"""Noticing that HEAD moved during a session, and recording the commits that moved it.

Runs on every hook event, under the session lock, so it must cost next to nothing when
nothing happened: the HEAD just read from ``.git`` files (:mod:`auditlog.gitrefs`) is
compared with the last one this session saw, kept in ``state/git-head.json``. Only when
they differ does git run (``git log NEW --not OLD``).

Which commits count as *made* during the session: those whose committer time is not
older than the session's previous look at HEAD (the state file's mtime, touched at every
event), less a little slack. A commit, amend, rebase, cherry-pick, ``am``, revert or merge
commit writes a fresh committer time; commits that only arrived (a fast-forward pull, a
checkout of another branch) keep their old ones and are summed up in one ``HeadMoved``
event instead of being claimed for the session. See docs/git.md.
"""

from __future__ import annotations

import json
import os

from auditlog import paths
from auditlog.errors_log import report
from auditlog.file_images import STATE
from auditlog.gitrefs import RepoInfo
from auditlog.record import utc_timestamp

STATE_FILE = "git-head.json"
SLACK_SECONDS = 1.0  # committer times are whole seconds
MAX_COMMITS = 100  # recorded per move; a larger batch is counted in the HeadMoved event
MAX_LISTED = 1000  # commits git is asked for at most
AFTER_TOOL_KINDS = frozenset(("tool_result", "tool_error", "tool_batch"))


def _short(sha: str | None) -> str:
    return (sha or "unborn")[:10]


def _where(branch: str | None, head: str | None) -> str:
    return f"{branch or '(detached)'} @ {_short(head)}"


class Move:
    """HEAD moved since the session last looked: the records to append (partial: ``event``,
    ``kind``, ``summary``, ``context``, ``payload``; the caller, holding the session lock,
    numbers, chains and writes them), and the ``(path, blob id)`` pairs of the commits
    made and of those that only arrived, to tell the session's file changes from git's."""

    __slots__ = ("arrived", "made", "new", "old", "records")

    def __init__(self, old: str | None, new: str | None) -> None:
        self.old = old
        self.new = new
        self.records: list[dict] = []
        self.made: set[tuple[str, str]] = set()
        self.arrived: set[tuple[str, str]] = set()


def _pairs(commits: list[dict]) -> set[tuple[str, str]]:
    return {(f["path"], f["oid"]) for c in commits for f in c["files"]}


def check(
    folder: str, home: str, repo: RepoInfo, event: str, kind: str, tool: str | None, tool_use_id: str | None
) -> Move | None:
    """The HEAD move since this session last looked (usually ``None``: it did not move)."""
    path = os.path.join(folder, STATE, STATE_FILE)
    now = {"root": repo.root, "branch": repo.branch, "head": repo.head}
    try:
        with open(path, "rb") as f:
            seen = json.loads(f.read())
            last_look = os.fstat(f.fileno()).st_mtime
    except (OSError, ValueError):
        seen, last_look = None, 0.0
    if seen == now:
        os.utime(path)  # the time of this look: the next move's commits are those made since
        return None
    paths.ensure_dir(os.path.join(folder, STATE))
    paths.write_private_file(path, json.dumps(now).encode())
    if not seen or seen.get("root") != repo.root or not repo.head:
        return None  # the first look at this repository: a baseline, recorded as the event's context
    detected = {"event": event, "tool": tool, "tool_use_id": tool_use_id}
    move = Move(seen.get("head"), repo.head)
    try:
        _list_commits(move, home, repo, seen, last_look - SLACK_SECONDS, detected, kind in AFTER_TOOL_KINDS)
    except (OSError, ValueError) as exc:
        report(home, "git", f"HEAD moved to {_short(repo.head)} but its commits could not be listed: {exc}")
        move.records = [_head_record(repo, seen, [], detected, f"commits not listed: {exc}")]
    return move


def _list_commits(
    move: Move, home: str, repo: RepoInfo, seen: dict, since: float, detected: dict, by_agent: bool
) -> None:
    from auditlog import git_log

    old = seen.get("head")
    revs = [repo.head, "--not", old] if old else [repo.head]
    try:
        gained = git_log.log(repo, home, revs, MAX_LISTED)
    except OSError:
        if not old:
            raise
        gained = git_log.log(repo, home, [repo.head], 1)  # the old HEAD is gone (gc): the new one alone
    threshold = utc_timestamp(since)
    made = [c for c in gained if c["committer_time"] >= threshold]
    arrived = [c for c in gained if c["committer_time"] < threshold]
    move.made, move.arrived = _pairs(made), _pairs(arrived)
    move.records = [_commit_record(repo, c, old, detected, by_agent) for c in reversed(made[:MAX_COMMITS])]
    note = f"{len(made) - MAX_COMMITS} more new commits not recorded one by one" if len(made) > MAX_COMMITS else ""
    if arrived or not made or note or seen.get("branch") != repo.branch:
        move.records.append(_head_record(repo, seen, arrived, detected, note))


def brought_by_git(move: Move, home: str, repo: RepoInfo, changes: list[tuple[str, str, str]]) -> set[str]:
    """Which of a shell command's file changes (path, pre-image id, post-image id) git made
    as it moved HEAD (a checkout, reset, rebase, merge or pull) rather than the session:
    the file was as the old HEAD has it and is now as the new HEAD has it, and no commit
    made in this move (alone) explains the new content. ``sed -i f && git commit -a``
    stays the session's: its commit is made here and holds the new content."""
    if not move.old or not move.new or not changes:
        return set()
    from auditlog import git_log
    from auditlog.patches import NULL_OID

    ids = git_log.blob_ids(repo, home, [f"{rev}:{c[0]}" for c in changes for rev in (move.old, move.new)])
    out = set()
    for path, pre, post in changes:
        was_clean = ids.get(f"{move.old}:{path}", NULL_OID) == pre
        now_clean = ids.get(f"{move.new}:{path}", NULL_OID) == post
        own = (path, post) in move.made and (path, post) not in move.arrived
        if was_clean and now_clean and not own:
            out.add(path)
    return out


def _commit_record(repo: RepoInfo, commit: dict, old: str | None, detected: dict, by_agent: bool) -> dict:
    files = commit["files"]
    count = commit.get("files_total", len(files))
    payload = {**commit, "head_before": old, "detected": detected, "by_agent": by_agent}
    return {
        "event": "GitCommit",
        "kind": "commit",
        "summary": f"Commit {commit['sha'][:10]} {commit['subject']} ({count} file{'s' * (count != 1)})",
        "context": repo.as_context(),
        "payload": payload,
    }


def _head_record(repo: RepoInfo, seen: dict, arrived: list[dict], detected: dict, note: str) -> dict:
    before, after = _where(seen.get("branch"), seen.get("head")), _where(repo.branch, repo.head)
    what = f"HEAD moved: {before} → {after}"
    if arrived:
        what += f" (+{len(arrived)} commit{'s' * (len(arrived) != 1)} not made in this session)"
    payload = {
        "branch_before": seen.get("branch"),
        "head_before": seen.get("head"),
        "branch": repo.branch,
        "head": repo.head,
        "arrived": [{"sha": c["sha"], "subject": c["subject"], "author": c["author"]} for c in arrived[:MAX_COMMITS]],
        "arrived_total": len(arrived),
        "note": note or None,
        "detected": detected,
    }
    return {
        "event": "HeadMoved",
        "kind": "other",
        "summary": what + (f"; {note}" if note else ""),
        "context": repo.as_context(),
        "payload": payload,
    }
