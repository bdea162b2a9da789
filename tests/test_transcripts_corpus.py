"""The join, verify, backfill and import over real transcripts: the Claude Code 2.1.328
session whose hook payloads and transcript belong together, and the transcripts of
../shared/corpus/transcripts/ (2.1.38 to 2.1.62, a 1.0.70 one, subagents, an excerpt)."""

from __future__ import annotations

import json
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from auditlog.hooks import claude_import
from store_builder import git, make_repo, run_hook

from auditlog import completeness
from auditlog.capture import Capture
from auditlog.claude_transcript import tool_use_ids
from auditlog.transcript_reader import read_all

SESSION = "5324cb76-8919-4db7-9090-c0366d2fbaaf"
CLI = [sys.executable, "-m", "auditlog.cli"]


def _replay(corpus: Path, tmp_path: Path, skip: tuple[str, ...] = ()) -> tuple[Path, Path]:
    """The 2.1.328 session through the real hook, its paths moved to a real repository
    and its transcript copied beside it (as Claude Code keeps it)."""
    project = make_repo(tmp_path / "proj", {"config.ini": "port=7000\n"})
    source = corpus / "claude-hooks" / "v2.1.328-session"
    transcript = tmp_path / "projects" / f"{SESSION}.jsonl"
    transcript.parent.mkdir()
    shutil.copy(source / "transcript.jsonl", transcript)
    effects = {"04": ("hello.py", "def hello():\n    return 'hi'\n", "w"), "10": ("config.ini", "port=8000\n", "w"),
               "13": ("notes.txt", "note\n", "a")}
    for path in sorted(source.glob("[0-9]*.json")):
        if path.name[:2] in effects:
            name, text, mode = effects[path.name[:2]]
            with open(project / name, mode) as f:
                f.write(text)
        if path.name[:2] in skip:
            continue
        raw = path.read_text().replace("/home/dev/.claude/projects/-home-dev-proj/" + f"{SESSION}.jsonl",
                                       str(transcript)).replace("/home/dev/proj", str(project))
        assert run_hook(raw.encode()).returncode == 0
    return project, transcript


def _records(store: Path) -> list[dict]:
    return [json.loads(line) for line in (store / "sessions" / SESSION / "events.jsonl").read_bytes().splitlines()]


def test_the_join_matches_every_tool_call_of_the_2_1_328_session(corpus: Path, store: Path, tmp_path: Path) -> None:
    _project, transcript = _replay(corpus, tmp_path)
    assert not (store / "errors.log").exists()
    records = _records(store)
    assert len([r for r in records if not r.get("origin")]) == 19
    messages = [r for r in records if r.get("origin") == "transcript"]
    assert [r["event"] for r in messages] == ["TranscriptMessage"] * 6  # one per model call, none twice
    assert records[-2]["event"] == "Stop" and messages[-1]["seq"] < records[-2]["seq"]
    called = {c["id"] for r in messages for c in r["payload"].get("tool_uses", [])}
    hooked = {r["tool_use_id"] for r in records if r.get("tool_use_id")}
    in_transcript = set(tool_use_ids(read_all(str(transcript))[0]))
    assert called == hooked == in_transcript and len(called) == 5
    assert {r["payload"]["model"] for r in messages} == {"claude-opus-5-5"}
    assert messages[-1]["payload"]["final"] is True
    gaps, notes = completeness.missing_tool_calls(str(store / "sessions" / SESSION))
    assert gaps == [] and notes == []
    db = sqlite3.connect(store / "index.sqlite")
    row = db.execute("SELECT input_tokens, output_tokens, cost_usd, unpriced_turns, model FROM sessions").fetchone()
    assert row == (60, 30, None, 6, "claude-opus-5-5")  # a model with no list price: tokens only
    assert db.execute("SELECT count(*) FROM turns").fetchone() == (6,)
    # importing the same transcript afterwards adds nothing: everything is matched by id
    before = len(records)
    result = claude_import.record_transcript(Capture(str(store)), str(transcript))
    assert result.added == 0 and len(_records(store)) == before


def test_verify_reports_a_missed_tool_call_and_backfill_records_it(corpus: Path, store: Path, tmp_path: Path) -> None:
    project, _transcript = _replay(corpus, tmp_path, skip=("09", "10", "11"))  # the Edit's hooks never ran
    done = subprocess.run([*CLI, "verify", "--json"], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr  # incomplete, not broken
    problems = json.loads(done.stdout)["sessions"][0]["problems"]
    assert len(problems) == 1 and problems[0]["warning"] and "toolu_ef83152901d344f48bfc" in problems[0]["message"]
    done = subprocess.run([*CLI, "backfill", SESSION[:8]], capture_output=True, text=True, check=False)
    assert done.returncode == 0 and "Recorded 1 record(s) for 1 tool call(s)" in done.stdout, done.stdout + done.stderr
    added = _records(store)[-1]
    assert (added["origin"], added["tool"], added["tool_use_id"]) == ("backfill", "Edit", "toolu_ef83152901d344f48bfc")
    patch = store / "sessions" / SESSION / added["patches"][0]
    assert "-port=7000\n+port=8000\n" in patch.read_text()
    replay = tmp_path / "replay"
    subprocess.run(["git", "clone", "-q", str(project), str(replay)], check=True)
    git(replay, "apply", str(patch))
    assert (replay / "config.ini").read_text() == "port=8000\n"
    done = subprocess.run([*CLI, "verify", "--json"], capture_output=True, text=True, check=False)
    assert json.loads(done.stdout)["sessions"][0]["problems"] == []
    again = subprocess.run([*CLI, "backfill", SESSION[:8]], capture_output=True, text=True, check=False)
    assert "Nothing to backfill" in again.stdout


def _import(path: Path) -> dict:
    done = subprocess.run([*CLI, "import", str(path), "--json"], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_importing_the_corpus_twice_adds_nothing_the_second_time(corpus: Path, store: Path) -> None:
    first = _import(corpus / "transcripts" / "claude")
    assert first["files"] == 8 and first["sessions"] == 6 and first["records_added"] > 200
    assert first["malformed_lines"] == []
    second = _import(corpus / "transcripts" / "claude")
    assert second["records_added"] == 0 and second["sessions_changed"] == 0
    done = subprocess.run([*CLI, "verify"], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stdout
    sessions = json.loads(subprocess.run([*CLI, "sessions", "--json"], capture_output=True, text=True).stdout)
    by_id = {s["id"][:8]: s for s in sessions}
    assert by_id["55604662"]["model"] == "claude-opus-4-6" and by_id["55604662"]["cost_usd"] > 0
    assert by_id["8664c04e"]["model"] == "claude-sonnet-4-20250514"  # 1.0.70's older line format
    records = [json.loads(line) for line in next((store / "sessions").glob("4d5611e5*")).joinpath(
        "events.jsonl").read_bytes().splitlines()]
    assert {r["origin"] for r in records} == {"import"}
    assert any(r.get("subagent") == "a2898e3" for r in records)  # the subagent's own transcript, same session


def test_imported_edit_and_write_patches_apply_to_the_original(corpus: Path, store: Path, tmp_path: Path) -> None:
    excerpt = next((corpus / "transcripts" / "claude").glob("marot*/*EXCERPT*.jsonl"))
    _import(excerpt)
    folder = next((store / "sessions").iterdir())
    records = [json.loads(line) for line in (folder / "events.jsonl").read_bytes().splitlines()]
    originals = {}
    for entry in read_all(str(excerpt))[0]:
        result = entry.get("toolUseResult")
        if isinstance(result, dict) and isinstance(result.get("originalFile"), str):
            originals.setdefault(result["filePath"], result["originalFile"])
    patched = [r for r in records if r.get("patches")]
    assert len(patched) >= 3
    for record in patched:
        change = record["changes"][0]
        work = tmp_path / f"w{record['seq']}"
        work.mkdir()
        git(work, "init", "-q")
        before = next((t for p, t in originals.items() if p.endswith(change["path"])), None)
        if change["op"] != "add":
            (work / change["path"]).parent.mkdir(parents=True, exist_ok=True)
            (work / change["path"]).write_text(before)
        done = subprocess.run(["git", "apply", "--check", str(folder / change["patch"])], cwd=work,
                              capture_output=True, text=True, check=False)
        if record["seq"] == min(r["seq"] for r in patched if r["changes"][0]["path"] == change["path"]):
            assert done.returncode == 0, done.stderr  # the first change of a file applies to its original


def test_malformed_lines_are_reported_and_skipped(corpus: Path, store: Path, tmp_path: Path) -> None:
    source = next((corpus / "transcripts" / "claude").glob("marot*/short.jsonl")).read_text().splitlines()
    damaged = tmp_path / "damaged.jsonl"
    damaged.write_text("\n".join([*source[:5], "{not json", *source[5:], '{"type": "user", "mess']) + "\n")
    report = _import(damaged)
    assert [m["line"] for m in report["malformed_lines"]] == [6, len(source) + 2]
    assert report["records_added"] > 0


@pytest.mark.parametrize("name", ["short.jsonl", "tool_heavy.jsonl", "subagent.jsonl"])
def test_conversation_of_an_imported_session_reads_in_order(corpus: Path, store: Path, name: str) -> None:
    path = next((corpus / "transcripts" / "claude").glob(f"marot*/{name}"))
    _import(path)
    folder = next((store / "sessions").iterdir())
    text = (folder / "conversation.md").read_text()
    entries = read_all(str(path))[0]
    prompts = [e["message"]["content"] for e in entries
               if e.get("type") == "user" and isinstance(e.get("message", {}).get("content"), str)
               and not e.get("isMeta") and not e["message"]["content"].startswith("[Request interrupted")]
    assert prompts and all(p.strip().splitlines()[0][:40] in text for p in prompts)
    positions = [text.index(p.strip().splitlines()[0][:40]) for p in prompts]
    assert positions == sorted(positions)
