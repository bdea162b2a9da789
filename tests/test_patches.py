"""Git-style patches that ``git apply`` takes: text (with and without final newlines),
new, deleted, binary and oddly named files, checked against real git."""

from __future__ import annotations

import random
import subprocess
from pathlib import Path

import pytest

from auditlog.patches import git_blob_oid, make_patch


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    return tmp_path


def apply(repo: Path, text: str) -> None:
    (repo / ".p.patch").write_text(text, encoding="utf-8", errors="surrogateescape")
    subprocess.run(["git", "apply", ".p.patch"], cwd=repo, check=True, capture_output=True)


CASES = [
    ("a.txt", None, b"hello\nworld\n", "add", 2, 0),
    ("a.txt", b"hello\nworld\n", b"hello\nthere\nworld", "modify", 2, 1),
    ("a.txt", b"x\n", None, "delete", 0, 1),
    ("empty.txt", None, b"", "add", 0, 0),
    ('dir/sp ace é"q.txt', None, b"odd name\n", "add", 1, 0),
    ("crlf.txt", b"a\r\nb\r\n", b"a\r\nc\r\n", "modify", 1, 1),
    ("b.bin", None, bytes(range(256)) * 3, "add", 0, 0),
    ("b.bin", bytes(range(256)), bytes(range(255, -1, -1)) * 5, "modify", 0, 0),
    ("latin1.txt", b"caf\xe9\n", b"caf\xe9s\n", "modify", 0, 0),  # not UTF-8: patched as binary
]


@pytest.mark.parametrize(("path", "before", "after", "op", "added", "removed"), CASES)
def test_git_applies_the_patch(repo: Path, path: str, before, after, op, added, removed) -> None:
    if before is not None:
        (repo / path).parent.mkdir(parents=True, exist_ok=True)
        (repo / path).write_bytes(before)
    patch = make_patch(path, before, after)
    assert (patch.op, patch.added, patch.removed) == (op, added, removed)
    assert patch.post_oid == git_blob_oid(after)
    apply(repo, patch.text)
    assert ((repo / path).read_bytes() if (repo / path).exists() else None) == after


def test_no_change_gives_no_patch() -> None:
    assert make_patch("a", b"x", b"x") is None
    assert make_patch("a", None, None) is None


def test_mode_change_only(repo: Path) -> None:
    (repo / "run.sh").write_text("echo\n")
    patch = make_patch("run.sh", b"echo\n", b"echo\n", old_mode="100644", new_mode="100755")
    assert "old mode 100644\nnew mode 100755" in patch.text
    apply(repo, patch.text)
    assert (repo / "run.sh").stat().st_mode & 0o111


def test_blob_ids_match_git(repo: Path) -> None:
    (repo / "f").write_bytes(b"some content\n")
    expected = subprocess.run(["git", "hash-object", "f"], cwd=repo, capture_output=True, text=True).stdout.strip()
    assert git_blob_oid(b"some content\n") == expected


def test_random_text_edits_round_trip(repo: Path) -> None:
    rng = random.Random(7)
    pieces = ["x\n", "y\n", "z", "w\n", "", "\n", "  indented\n"]
    for _ in range(150):
        a = "".join(rng.choice(pieces) for _ in range(rng.randint(0, 15)))
        b = "".join(rng.choice(pieces) for _ in range(rng.randint(0, 15)))
        (repo / "r.txt").write_text(a)
        patch = make_patch("r.txt", a.encode(), b.encode())
        if patch is None:
            assert a == b
            continue
        apply(repo, patch.text)
        assert (repo / "r.txt").read_text() == b
