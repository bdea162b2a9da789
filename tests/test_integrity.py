"""Tamper evidence: ``auditlog verify`` detects a flipped byte anywhere in the journal, a
deleted, inserted or swapped line, a cut-off tail, an edited patch or blob, and a forged
checkpoint; a clean store verifies. (benchmarks/tamper_trials.py runs 1,000 flips.)"""

from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from store_builder import ClaudeSession, make_repo

from auditlog import checkpoints, verify
from auditlog.cli_store import _index_facts

CLI = [sys.executable, "-m", "auditlog.cli"]
SID = "feed0000-0000-4000-8000-00000000beef"


@pytest.fixture(scope="module")
def pristine(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A store with one session of 105+ events (so a checkpoint at 100 and one at the end),
    written through the real hook."""
    root = tmp_path_factory.mktemp("integrity")
    store = root / "store"
    old = os.environ.get("AUDITLOG_HOME")
    os.environ["AUDITLOG_HOME"] = str(store)
    try:
        project = make_repo(root / "proj", {"a.txt": "one\n"})
        s = ClaudeSession(project, SID)
        s.start()
        s.prompt("grow a.txt line by line")
        for i in range(33):
            s.write("a.txt", "one\n" + "".join(f"line {j}\n" for j in range(i + 1)))
        s.write("big.txt", "x" * 40_000 + "\n")  # a blob-sized payload string
        s.stop("done")
        s.end()
    finally:
        if old is None:
            os.environ.pop("AUDITLOG_HOME", None)
        else:
            os.environ["AUDITLOG_HOME"] = old
    return store


@pytest.fixture
def store(pristine: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    copy = tmp_path / "store"
    shutil.copytree(pristine, copy)
    monkeypatch.setenv("AUDITLOG_HOME", str(copy))
    return copy


def folder(store: Path) -> Path:
    return next((store / "sessions").iterdir())


def broken(store: Path) -> list[str]:
    """The non-warning problems verify finds (the same checks as `auditlog verify`)."""
    rows, hashes = _index_facts(str(store))
    f = folder(store)
    problems, count, head = verify.verify_session(
        str(f), checkpoints=checkpoints.read(str(store), f.name), index_hashes=hashes.get(f.name)
    )
    problems += verify.index_agreement(str(f), rows.get(f.name), count, head)
    return [str(p) for p in problems if not p.warning]


def lines(store: Path) -> list[bytes]:
    return (folder(store) / "events.jsonl").read_bytes().splitlines(keepends=True)


def write_lines(store: Path, new: list[bytes]) -> None:
    (folder(store) / "events.jsonl").write_bytes(b"".join(new))


def test_the_untouched_store_verifies(store: Path) -> None:
    assert len(lines(store)) > 100
    assert [c["seq"] for c in checkpoints.read(str(store), folder(store).name)] == [100, len(lines(store))]
    assert broken(store) == []
    done = subprocess.run([*CLI, "verify"], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stdout


def test_random_single_byte_flips_are_all_detected(store: Path) -> None:
    journal = folder(store) / "events.jsonl"
    original = journal.read_bytes()
    rng = random.Random(2026)
    for _ in range(60):
        data = bytearray(original)
        at = rng.randrange(len(data))
        data[at] = (data[at] + rng.randrange(1, 256)) % 256
        journal.write_bytes(bytes(data))
        assert broken(store), f"flip at byte {at} went unnoticed"
    journal.write_bytes(original)
    assert broken(store) == []


@pytest.mark.parametrize("where", ["first", "middle", "last"])
def test_a_flip_in_the_first_middle_or_last_line(store: Path, where: str) -> None:
    current = lines(store)
    index = {"first": 0, "middle": len(current) // 2, "last": len(current) - 1}[where]
    line = bytearray(current[index])
    line[20] ^= 0x01
    current[index] = bytes(line)
    write_lines(store, current)
    assert broken(store)


def test_deleted_inserted_and_swapped_lines(store: Path) -> None:
    original = lines(store)
    write_lines(store, original[:10] + original[11:])
    assert any("seq is 12, expected 11" in p for p in broken(store))
    write_lines(store, [*original[:10], original[10], original[10], *original[11:]])
    assert broken(store)
    write_lines(store, [*original[:10], original[11], original[10], *original[12:]])
    assert any("seq is 12, expected 11" in p for p in broken(store))


def test_a_cut_off_tail_is_caught_by_the_checkpoint(store: Path) -> None:
    original = lines(store)
    write_lines(store, original[:-5])
    problems = broken(store)
    assert any("lines were cut off the end" in p for p in problems), problems


def test_edited_patch(store: Path) -> None:
    f = folder(store)
    patch = sorted((f / "patches").iterdir())[3]
    patch.write_text(patch.read_text().replace("line", "LINE", 1))
    assert any("patch differs" in p for p in broken(store))


def test_edited_blob(store: Path) -> None:
    blob = max((folder(store) / "blobs").iterdir(), key=lambda p: p.stat().st_size)
    data = bytearray(blob.read_bytes())
    data[100] ^= 0x20
    blob.write_bytes(bytes(data))
    assert any("does not match its hash" in p for p in broken(store))


def test_a_forged_checkpoint(store: Path) -> None:
    path = Path(checkpoints.path_for(str(store), folder(store).name))
    entries = [json.loads(line) for line in path.read_text().splitlines()]
    entries[0]["seq"] = 99
    path.write_text("".join(json.dumps(e) + "\n" for e in entries))
    assert any("signature does not verify" in p for p in broken(store))


def test_cli_reports_the_first_broken_line_and_exits_1(store: Path) -> None:
    original = lines(store)
    write_lines(store, original[:10] + original[11:])
    done = subprocess.run([*CLI, "verify", "--json"], capture_output=True, text=True, check=False)
    assert done.returncode == 1
    problems = json.loads(done.stdout)["sessions"][0]["problems"]
    first = problems[0]
    assert first["path"].endswith("events.jsonl") and first["line"] == 11 and "expected 11" in first["message"]
