"""Sessions tied to git, in real repositories through the real hook: commits recorded as
HEAD moves, amends, rebases, squashes, commits made outside the agent, branch switches,
``sessions --commit/--branch``, and the index rebuilt with the same links."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from store_builder import ClaudeSession, git, journal, make_repo

from auditlog import reindex

CLI = [sys.executable, "-m", "auditlog.cli"]


def cli(cwd: Path, *args: str) -> str:
    done = subprocess.run([*CLI, *args], cwd=cwd, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    return done.stdout


def session_ids(cwd: Path, *args: str) -> set[str]:
    return {s["id"] for s in json.loads(cli(cwd, "sessions", "--json", *args))}


def commit_dated(repo: Path, message: str, date: str = "2020-01-01T00:00:00") -> None:
    """Commit what is staged with an old committer time, as a colleague's commit that
    arrives later (pulled, or on a branch checked out) has."""
    env = {**os.environ, "GIT_COMMITTER_DATE": date, "GIT_AUTHOR_DATE": date}
    subprocess.run(["git", "-C", str(repo), "commit", "-qam", message], env=env, check=True)


def commit_events(store: Path, session: str) -> list[dict]:
    return [r for r in journal(store, session) if r["kind"] == "commit"]


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    return make_repo(tmp_path / "proj", {"app.py": "def main():\n    return 1\n", "README.md": "# app\n"})


def test_a_commit_through_bash_is_recorded_with_its_files(repo: Path, store: Path) -> None:
    s = ClaudeSession(repo, "s-commit")
    s.start()
    s.prompt("add a helper and commit")
    s.edit("app.py", "    return 1\n", "    return helper()\n\n\ndef helper():\n    return 2\n")
    s.write("notes.txt", "notes\n")
    s.bash("git add -A && git commit -qm 'Add helper'")
    s.stop("Committed.")
    sha = git(repo, "rev-parse", "HEAD").strip()
    parent = git(repo, "rev-parse", "HEAD~1").strip()
    records = journal(store, "s-commit")
    kinds = [r["kind"] for r in records]
    commit = records[kinds.index("commit")]
    assert records[kinds.index("commit") - 1]["event"] == "PostToolUse"  # right after the command that made it
    assert commit["event"] == "GitCommit" and commit["context"]["head"] == sha
    payload = commit["payload"]
    assert payload["sha"] == sha and payload["parents"] == [parent] and payload["subject"] == "Add helper"
    assert payload["author"] == "Test Author" and payload["author_time"].endswith("Z") and payload["by_agent"]
    blob = git(repo, "rev-parse", "HEAD:app.py").strip()
    assert {f["path"]: (f["status"], f["oid"]) for f in payload["files"]} == {
        "app.py": ("M", blob),
        "notes.txt": ("A", git(repo, "rev-parse", "HEAD:notes.txt").strip()),
    }
    assert "⎇ Commit" in (store / "sessions" / "s-commit" / "conversation.md").read_text()
    assert session_ids(repo, "--commit", sha[:8]) == {"s-commit"}
    assert session_ids(repo, "--commit", "HEAD~1") == set()  # the initial commit: no session
    assert session_ids(store, "--commit", sha[:8]) == {"s-commit"}  # outside the repository: from the index


def test_nothing_is_written_into_the_repository(repo: Path, store: Path) -> None:
    before = git(repo, "count-objects", "-v"), git(repo, "for-each-ref"), git(repo, "notes", "list")
    s = ClaudeSession(repo, "s-clean")
    s.start()
    s.prompt("commit")
    s.write("x.txt", "x\n")
    s.bash("git add x.txt && git commit -qm x")
    after_commit = git(repo, "count-objects", "-v"), git(repo, "for-each-ref")
    cli(repo, "review", "--range", "HEAD~1..HEAD")
    cli(repo, "blame", "x.txt")
    cli(repo, "sessions", "--branch", "main")
    assert (git(repo, "count-objects", "-v"), git(repo, "for-each-ref")) == after_commit
    assert before[1].count("\n") == after_commit[1].count("\n") and git(repo, "notes", "list") == before[2]
    assert "Trailer" not in git(repo, "log", "-1", "--format=%B")


def test_amend_rebase_and_squash_keep_the_link(repo: Path, store: Path) -> None:
    git(repo, "checkout", "-qb", "feature")
    s = ClaudeSession(repo, "s-rewrite")
    s.start()
    s.prompt("add two functions, one commit each")
    s.write("one.py", "def one():\n    return 1\n")
    s.bash("git add one.py && git commit -qm 'one'")
    first = git(repo, "rev-parse", "HEAD").strip()
    s.bash("git commit -q --amend -m 'one (amended)'")
    amended = git(repo, "rev-parse", "HEAD").strip()
    s.write("two.py", "def two():\n    return 2\n")
    s.bash("git add two.py && git commit -qm 'two'")
    # Meanwhile a person moves main on (outside any session) ...
    git(repo, "checkout", "-q", "main")
    (repo / "README.md").write_text("# app\n\nby hand\n")
    commit_dated(repo, "readme by hand")
    git(repo, "checkout", "-q", "feature")
    # ... and the agent rebases onto it.
    s.bash("git rebase -q main")
    s.stop("Rebased.")
    subjects = [c["payload"]["subject"] for c in commit_events(store, "s-rewrite")]
    assert subjects == ["one", "one (amended)", "two", "one (amended)", "two"]  # the rebase made two new ones
    moved = [r for r in journal(store, "s-rewrite") if r["event"] == "HeadMoved"]
    assert [a["subject"] for r in moved for a in r["payload"]["arrived"]] == ["readme by hand"]
    # The rebase rewrote README.md in the working tree: recorded, but as git's doing.
    readme = [c for r in journal(store, "s-rewrite") for c in r.get("changes") or [] if c["path"] == "README.md"]
    assert [c.get("via") for c in readme] == ["git"]
    rebased = git(repo, "rev-parse", "HEAD").strip()
    for sha in (first, amended, rebased):
        assert session_ids(repo, "--commit", sha) == {"s-rewrite"}, sha
    # A person squashes the branch by hand after the session: linked by content alone.
    git(repo, "reset", "-q", "--soft", "main")
    git(repo, "commit", "-qm", "squashed")
    squashed = git(repo, "rev-parse", "HEAD").strip()
    assert session_ids(repo, "--commit", squashed) == {"s-rewrite"}
    assert session_ids(repo, "--branch", "feature") == {"s-rewrite"}
    assert session_ids(repo, "--commit", "main") == set()


def test_a_commit_made_outside_the_agent_is_recorded_at_the_next_event(repo: Path, store: Path) -> None:
    s = ClaudeSession(repo, "s-outside")
    s.start()
    s.prompt("first")
    (repo / "human.txt").write_text("typed by a person\n")
    git(repo, "add", "human.txt")
    git(repo, "commit", "-qm", "a person's commit")
    s.prompt("second")
    commits = commit_events(store, "s-outside")
    assert [c["payload"]["subject"] for c in commits] == ["a person's commit"]
    assert commits[0]["payload"]["by_agent"] is False
    assert commits[0]["payload"]["detected"]["event"] == "UserPromptSubmit"


def test_switching_to_an_older_branch_records_no_commit(repo: Path, store: Path) -> None:
    git(repo, "checkout", "-qb", "old")
    (repo / "old.txt").write_text("old\n")
    git(repo, "add", "old.txt")
    commit_dated(repo, "old work")
    git(repo, "checkout", "-q", "main")
    s = ClaudeSession(repo, "s-switch")
    s.start()
    s.prompt("look at the old branch")
    s.bash("git checkout -q old")
    s.bash("git checkout -qb newer")
    assert commit_events(store, "s-switch") == []
    moved = [r["summary"] for r in journal(store, "s-switch") if r["event"] == "HeadMoved"]
    assert len(moved) == 2 and "main @" in moved[0] and "old @" in moved[0] and "newer @" in moved[1]


def test_reindex_rebuilds_the_same_git_rows(repo: Path, store: Path) -> None:
    s = ClaudeSession(repo, "s-reindex")
    s.start()
    s.prompt("commit twice")
    s.write("a.txt", "a\n")
    s.bash("git add a.txt && git commit -qm a")
    s.bash("git rm -q README.md && git commit -qm 'drop readme'")
    s.end()
    queries = (
        "SELECT * FROM commits ORDER BY sha",
        "SELECT * FROM commit_files ORDER BY sha, path",
        "SELECT * FROM change_commits ORDER BY sha, path",
        "SELECT session, seq, path, pre_oid, pre_blob, post_blob FROM changes ORDER BY seq, path",
    )

    def rows() -> list:
        db = sqlite3.connect(store / "index.sqlite")
        try:
            return [db.execute(q).fetchall() for q in queries]
        finally:
            db.close()

    live = rows()
    assert len(live[0]) == 2 and {r[2] for r in live[2]} == {"a.txt", "README.md"}  # the deletion links too
    reindex.reindex(str(store))
    assert rows() == live


def test_parallel_hooks_record_one_move_once(repo: Path, store: Path) -> None:
    s = ClaudeSession(repo, "s-parallel")
    s.start()
    (repo / "p.txt").write_text("p\n")
    git(repo, "add", "p.txt")
    git(repo, "commit", "-qm", "p")
    payload = json.dumps(s.base("Notification", message="hi")).encode()
    hooks = [
        subprocess.Popen([sys.executable, "-m", "auditlog.hooks.entry", "--agent", "claude"], stdin=subprocess.PIPE)
        for _ in range(6)
    ]
    for h in hooks:
        h.communicate(payload, timeout=60)
    assert [c["payload"]["subject"] for c in commit_events(store, "s-parallel")] == ["p"]


def test_an_unmoved_head_costs_no_git(repo: Path, store: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from auditlog import git_log, head_watch
    from auditlog.gitrefs import find_repo

    folder = store / "sessions" / "in-process"
    folder.mkdir(parents=True)

    def look() -> head_watch.Move | None:
        return head_watch.check(str(folder), str(store), find_repo(str(repo)), "Stop", "assistant", None, None)

    def no_git(*args: object, **kwargs: object) -> list:
        raise AssertionError("git ran although HEAD did not move")

    with monkeypatch.context() as patch:
        patch.setattr(git_log, "log", no_git)
        assert look() is None  # the first look: a baseline
        assert look() is None
    (repo / "n.txt").write_text("n\n")
    git(repo, "add", "n.txt")
    git(repo, "commit", "-qm", "n")
    move = look()
    assert move is not None and [r["payload"]["subject"] for r in move.records] == ["n"]
    assert move.records[0]["payload"]["by_agent"] is False and look() is None


def test_the_read_api_gives_commits_and_their_sessions(
    repo: Path, store: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from auditlog.query import SessionFilter, Store

    s = ClaudeSession(repo, "s-api")
    s.start()
    s.prompt("commit a file")
    s.write("api.txt", "api\n")
    s.bash("git add api.txt && git commit -qm 'api file'")
    sha = git(repo, "rev-parse", "HEAD").strip()
    monkeypatch.chdir(repo)
    with Store(str(store)) as api:
        (commit,) = api.commits("s-api")
        assert commit.sha == sha and commit.session == "s-api" and commit.by_agent and commit.branch == "main"
        assert [(f.path, f.status) for f in commit.files] == [("api.txt", "A")]
        assert [x.id for x in api.sessions_for_commit(sha[:7])] == ["s-api"]
        assert api.commit("HEAD").session == "s-api"
        assert [(r["session"], r["path"]) for r in api.contained_changes([commit])] == [("s-api", "api.txt")]
        assert [x.id for x in api.sessions(SessionFilter(commit=sha, prompt="commit"))] == ["s-api"]
        assert api.sessions(SessionFilter(commit="HEAD~1")) == []
