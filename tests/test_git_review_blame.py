"""``review --range`` and ``blame`` in real repositories, through the real hook: a branch
with two AI sessions and a person's commit, renames, uncommitted edits, and the same path
in another repository."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from store_builder import ClaudeSession, git, make_repo

from auditlog.line_history import Replay, Step, match

CLI = [sys.executable, "-m", "auditlog.cli"]


def cli(cwd: Path, *args: str, check: bool = True) -> subprocess.CompletedProcess:
    done = subprocess.run([*CLI, *args], cwd=cwd, capture_output=True, text=True, check=False)
    if check:
        assert done.returncode == 0, done.stderr
    return done


def blame(cwd: Path, *args: str) -> list[dict]:
    return json.loads(cli(cwd, "blame", "--json", *args).stdout)


@pytest.fixture
def branch(tmp_path: Path, store: Path) -> Path:
    """main, then a feature branch: session A commits a helper, a person commits a README
    change, session B commits tests and edits app.py again."""
    repo = make_repo(tmp_path / "proj", {"app.py": "def main():\n    return 1\n", "README.md": "# app\n"})
    git(repo, "checkout", "-qb", "feature")
    a = ClaudeSession(repo, "aaaa0001-session-a")
    a.start()
    a.prompt("add a helper")
    a.edit("app.py", "    return 1\n", "    return helper()\n\n\ndef helper():\n    return 2\n")
    a.bash("git commit -qam 'add helper'")
    a.stop("ok")
    a.end()
    (repo / "README.md").write_text("# app\n\nNotes a person wrote.\n")
    git(repo, "commit", "-qam", "docs by a person")
    b = ClaudeSession(repo, "bbbb0002-session-b")
    b.start()
    b.prompt("write tests for main")
    b.write("test_app.py", "from app import main\n\n\ndef test_main():\n    assert main() == 2\n")
    b.edit("app.py", "    return 2\n", "    return 1 + 1\n")
    b.bash("git add -A && git commit -qm 'tests'")
    b.stop("ok")
    b.end()
    return repo


def test_range_review_names_both_sessions_and_flags_the_person(branch: Path) -> None:
    text = cli(branch, "review", "--range", "main..feature").stdout
    assert text.startswith("# Review of `main..feature`: 3 commit(s), 2 AI session(s)")
    assert "### AI session `aaaa0001`: add a helper" in text and "### AI session `bbbb0002`: write tests" in text
    assert "> add a helper" in text and "> write tests for main" in text
    assert "git commit -qam 'add helper'" in text  # commands
    human = git(branch, "rev-parse", "--short=10", "feature~1").strip()
    assert f"| `{human}` | docs by a person | Test Author | **no recorded session** |" in text
    unexplained = text.split("## Not explained by any recorded session")[1].split("## AI sessions")[0]
    assert "`README.md` lines 2–3" in unexplained and "+Notes a person wrote." in unexplained
    assert "app.py" not in unexplained and "test_app.py" not in unexplained
    out = branch / "pr.md"
    cli(branch, "review", "--range", "main..feature", "-o", str(out))
    assert out.read_text() == text


def test_range_review_needs_a_range_or_a_session(branch: Path) -> None:
    assert cli(branch, "review", check=False).returncode == 1
    done = cli(branch, "review", "--range", "feature..main", check=False)
    assert done.returncode == 1 and "holds no commits" in done.stderr


def test_blame_names_the_session_and_prompt_of_each_line(branch: Path) -> None:
    (branch / "app.py").write_text((branch / "app.py").read_text() + "\n\n# a person's comment\n")
    lines = blame(branch, "app.py")
    who = [(line["session"], line["prompt"]) for line in lines]
    assert [line["text"] for line in lines][:2] == ["def main():", "    return helper()"]
    assert who[0] == (None, None)  # from the initial commit: nobody recorded wrote it
    assert who[1] == ("aaaa0001-session-a", "add a helper")
    assert who[5] == ("bbbb0002-session-b", "write tests for main")  # "return 1 + 1", rewritten by B
    assert who[-1] == (None, None)  # the uncommitted edit
    assert lines[1]["ts"] and lines[1]["tool"] == "Edit"
    plain = cli(branch, "blame", "app.py", "-L", "2,+1").stdout
    assert plain.startswith("aaaa0001  ") and "add a helper" in plain and plain.rstrip().endswith("return helper()")
    assert len(plain.splitlines()) == 1
    assert cli(branch, "blame", "app.py", "-L", "1,1").stdout.startswith("not recorded")
    assert cli(branch, "blame", "app.py", "-L", "99", check=False).returncode == 1


def test_blame_follows_a_rename_git_detects(branch: Path) -> None:
    git(branch, "mv", "app.py", "main_app.py")
    git(branch, "commit", "-qm", "rename")
    lines = blame(branch, "main_app.py")
    assert lines[1]["session"] == "aaaa0001-session-a" and lines[1]["path"] == "app.py"


def test_blame_ignores_the_same_path_in_another_repository(branch: Path, tmp_path: Path) -> None:
    other = make_repo(tmp_path / "other", {"app.py": "def main():\n    return 1\n"})
    c = ClaudeSession(other, "cccc0003-elsewhere")
    c.start()
    c.prompt("elsewhere")
    c.edit("app.py", "    return 1\n", "    return helper()\n")
    sessions = {line["session"] for line in blame(branch, "app.py")}
    assert "cccc0003-elsewhere" not in sessions
    assert {line["session"] for line in blame(other, "app.py")} == {None, "cccc0003-elsewhere"}


def test_match_and_replay_carry_authors_through_gaps_and_merges() -> None:
    assert match(["a", "b", "c", "d"], ["a", "x", "c", "d", "e"]) == [0, None, 2, 3, None]
    images = {
        "base": b"1\n2\n3\n",
        "left": b"1\nL\n2\n3\n",  # session L, on one branch
        "right": b"1\n2\n3\nR\n",  # session R, on another, from the same base
        "human": b"0\n1\nL\n2\n3\n",  # someone edited left outside any session
        "after": b"0\n1\nL\n2\n3\nA\n",  # session A, starting from that
    }

    def read(step: Step, side: str) -> bytes:
        return images[step.pre_blob if side == "pre" else step.post_blob]

    steps = [
        Step("start", None, "base", None, "base"),
        Step("L", "base", "left", "base", "left"),
        Step("R", "base", "right", "base", "right"),
        Step("A", "human", "after", "human", "after"),
    ]
    replay = Replay(steps, read)
    assert replay.authors["after"] == [None, "start", "L", "start", "start", "A"]
    merged = ["0", "1", "L", "2", "3", "R", "A"]
    assert replay.attribute(merged, "merged-oid") == [None, "start", "L", "start", "start", "R", "A"]
    assert replay.attribute(["1", "L", "2", "3"], "left") == ["start", "L", "start", "start"]
