"""The CLI over a store written through the real hook path: two projects, three sessions,
real git repositories (built once, read by every test; tests that alter it work on a copy)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from store_builder import ClaudeSession, git, make_repo

CLI = [sys.executable, "-m", "auditlog.cli"]
S1, S2, S3 = (
    "aaaa1111-0000-4000-8000-000000000001",
    "aaaa2222-0000-4000-8000-000000000002",
    "bbbb3333-0000-4000-8000-000000000003",
)


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> dict:
    root = tmp_path_factory.mktemp("cli")
    store = root / "store"
    old = os.environ.get("AUDITLOG_HOME")
    os.environ["AUDITLOG_HOME"] = str(store)
    try:
        web = make_repo(root / "web", {"config.ini": "port=7000\n", "src/app/config.ini": "debug=false\n"})
        initial = git(web, "rev-parse", "HEAD").strip()
        s1 = ClaudeSession(web, S1)
        s1.start()
        s1.prompt("change the port to 8000")
        s1.edit("config.ini", "port=7000", "port=8000")
        s1.write("hello.py", "def hello():\n    return 'hi'\n")
        s1.bash("python3 -c 'print(\"3 passed in 0.01s\")' && echo ok > notes.txt")
        s1.bash("false", fails=True)
        s1.stop("Port changed.")
        s1.end()
        s2 = ClaudeSession(web, S2)
        s2.start()
        s2.prompt("turn on debug in the app config")
        s2.edit("src/app/config.ini", "debug=false", "debug=true")
        s2.stop("Debug on.")
        api = make_repo(root / "api", {"main.go": "package main\n"})
        s3 = ClaudeSession(api, S3)
        s3.start()
        s3.prompt("add a readme about the frobnicator")
        s3.write("README.md", "# api\n\nThe frobnicator.\n")
        s3.stop("Added README.")
    finally:
        if old is None:
            os.environ.pop("AUDITLOG_HOME", None)
        else:
            os.environ["AUDITLOG_HOME"] = old
    return {"store": store, "web": web, "api": api, "initial": initial}


@pytest.fixture
def store(built: dict, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("AUDITLOG_HOME", str(built["store"]))
    return built["store"]


def run(*args: str, check: bool = True) -> subprocess.CompletedProcess:
    done = subprocess.run([*CLI, *args], capture_output=True, text=True, check=False)
    if check:
        assert done.returncode == 0, done.stderr
    return done


def ids(*args: str) -> set[str]:
    return {s["id"] for s in json.loads(run("sessions", "--json", *args).stdout)}


def test_sessions_lists_all_newest_first(store: Path) -> None:
    rows = json.loads(run("sessions", "--json").stdout)
    assert [r["id"] for r in rows] == [S3, S2, S1]
    s1 = rows[2]
    assert (s1["prompts"], s1["files_changed"], s1["failures"], s1["added"], s1["removed"]) == (1, 3, 1, 4, 1)
    table = run("sessions").stdout
    assert "aaaa1111" in table and "change the port to 8000" in table


@pytest.mark.parametrize(
    ("flag", "value", "expected"),
    [
        ("--file", "config.ini", {S1, S2}),  # by suffix: src/app/config.ini too
        ("--file", "src/app/config.ini", {S2}),  # exact
        ("--file", "app/config.ini", {S2}),  # suffix with a folder
        ("--file", "*.md", {S3}),  # glob
        ("--file", "nothing.txt", set()),
        ("--prompt", "debug", {S2}),
        ("--prompt", "port 8000", {S1}),
        ("--tool", "Bash", {S1}),
        ("--agent", "claude", {S1, S2, S3}),
        ("--agent", "codex", set()),
        ("--since", "today", {S1, S2, S3}),
        ("--until", "yesterday", set()),
    ],
)
def test_sessions_filters(store: Path, flag: str, value: str, expected: set) -> None:
    assert ids(flag, value) == expected


def test_sessions_failed_and_project(store: Path, built: dict) -> None:
    assert ids("--failed") == {S1}
    assert ids("--project", str(built["api"])) == {S3}
    assert ids("--project", "web") == {S1, S2}


def test_session_references(store: Path) -> None:
    assert json.loads(run("show", "aaaa2", "--json").stdout)[0]["session"] == S2
    assert json.loads(run("show", "last", "--json").stdout)[0]["session"] == S3
    ambiguous = run("show", "aaaa", check=False)
    assert ambiguous.returncode == 1 and "matches 2 sessions" in ambiguous.stderr
    assert "aaaa1111" in ambiguous.stderr and "aaaa2222" in ambiguous.stderr
    unknown = run("show", "zzzz", check=False)
    assert unknown.returncode == 1 and unknown.stderr.count("\n") == 1 and "no session matches" in unknown.stderr


def test_changed_report(store: Path, built: dict) -> None:
    report = json.loads(run("changed", "--since", "today", "--json").stdout)
    by_path = {(f["project"], f["path"]): f for f in report}
    config = by_path[(str(built["web"]), "config.ini")]
    assert (config["added"], config["removed"]) == (1, 1)
    assert config["changes"][0]["prompt"] == "change the port to 8000"
    assert config["changes"][0]["session"] == S1
    assert (str(built["api"]), "README.md") in by_path
    text = run("changed", "--since", "today").stdout
    assert "config.ini" in text and "change the port to 8000" in text
    assert (
        json.loads(run("changed", "--since", "today", "--project", str(built["api"]), "--json").stdout)[0]["path"]
        == "README.md"
    )


def test_search(store: Path) -> None:
    hits = json.loads(run("search", "frobnicator", "--json").stdout)
    assert {h["session"] for h in hits} == {S3}
    assert any("[[frobnicator]]" in h["snippet"] for h in hits)
    assert {h["session"] for h in json.loads(run("search", "notes.txt", "--json").stdout)} == {S1}
    bad = run("search", '"unclosed', check=False)
    assert bad.returncode == 1 and "can't search for" in bad.stderr and "Traceback" not in bad.stderr


def test_show_renders_the_conversation(store: Path) -> None:
    text = run("show", S1).stdout
    assert "change the port to 8000" in text and "Port changed." in text


def test_net_diff_applies_to_the_starting_commit(store: Path, built: dict, tmp_path: Path) -> None:
    patch = run("diff", S1).stdout
    assert "+port=8000" in patch and "notes.txt" in patch and "hello.py" in patch
    clone = tmp_path / "clone"
    subprocess.run(["git", "clone", "-q", str(built["web"]), str(clone)], check=True)
    subprocess.run(["git", "-C", str(clone), "checkout", "-q", built["initial"]], check=True)
    (tmp_path / "s1.patch").write_text(patch)
    subprocess.run(["git", "-C", str(clone), "apply", "--check", str(tmp_path / "s1.patch")], check=True)
    only = run("diff", S1, "--file", "config.ini").stdout
    assert "config.ini" in only and "hello.py" not in only


def test_diff_steps_in_order_under_their_prompt(store: Path) -> None:
    steps = run("diff", S1, "--steps").stdout
    assert steps.index("# prompt: change the port to 8000") < steps.index("step 1 of 3")
    assert steps.index("config.ini") < steps.index("hello.py") < steps.index("notes.txt")


def test_review_markdown(store: Path) -> None:
    text = run("review", S1).stdout
    for expected in (
        "change the port to 8000",
        "| `config.ini` | 1 | 1 | 1 |",
        "✗ `false`",
        "3 passed",
        "<details>",
        "+port=8000",
        f"auditlog verify {S1}",
    ):
        assert expected in text, expected


def test_export_jsonl_with_manifest(store: Path, tmp_path: Path) -> None:
    out = tmp_path / "trail.jsonl"
    run("export", "--since", "today", "--format", "jsonl", "-o", str(out))
    manifest = json.loads((tmp_path / "trail.jsonl.manifest.json").read_text())
    assert {s["session"] for s in manifest["sessions"]} == {S1, S2, S3}
    from auditlog.digests import sha256_hex
    from auditlog.record import line_hash

    assert manifest["sha256"] == sha256_hex(out.read_bytes())
    lines = [line for line in out.read_bytes().split(b"\n") if line]
    assert len(lines) == sum(s["events"] for s in manifest["sessions"])
    heads = {
        json.loads(lines[i])["session"]: line_hash(lines[i])
        for i in range(len(lines))
        if i + 1 == len(lines) or json.loads(lines[i + 1])["seq"] == 1
    }
    assert heads == {s["session"]: s["chain_head"] for s in manifest["sessions"]}


def test_export_csv_and_md(store: Path) -> None:
    import csv
    import io

    rows = list(csv.DictReader(io.StringIO(run("export", S2, "--format", "csv").stdout)))
    assert [r["seq"] for r in rows] == [str(i) for i in range(1, len(rows) + 1)]
    assert {r["kind"] for r in rows} >= {"session_start", "prompt", "tool_result", "assistant"}
    assert "turn on debug" in run("export", S2, "--format", "md").stdout


def test_verify_clean_store(store: Path) -> None:
    done = run("verify", "--json")
    result = json.loads(done.stdout)
    assert result["ok"] and len(result["sessions"]) == 3


def test_reindex_prints_counts(built: dict, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    copy = tmp_path / "copy"
    shutil.copytree(built["store"], copy)
    monkeypatch.setenv("AUDITLOG_HOME", str(copy))
    before = run("sessions", "--json").stdout
    (copy / "index.sqlite").unlink()
    assert "Reindexed 3 sessions" in run("reindex").stdout
    assert run("sessions", "--json").stdout == before
