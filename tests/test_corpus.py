"""Every real Claude Code payload in the shared corpus (versions 1.0.x to 2.1.328, macOS,
Windows, logger-wrapped) goes through the real hook without an error, and every Edit,
Write and MultiEdit one yields a patch that applies to its pre-image."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from store_builder import run_hook

EDIT_TOOLS = ("Edit", "Write", "MultiEdit")


def _payloads(corpus: Path) -> list[Path]:
    return sorted((corpus / "claude-hooks" / "payloads").glob("*.json"))


def test_every_corpus_payload_is_recorded(corpus: Path, store: Path) -> None:
    files = _payloads(corpus)
    assert len(files) >= 60
    for path in files:
        done = run_hook(path.read_bytes())
        assert done.returncode == 0 and done.stdout == b"", path.name
        assert not (store / "errors.log").exists(), (path.name, (store / "errors.log").read_text())
    journals = list((store / "sessions").glob("*/events.jsonl"))
    records = [json.loads(line) for j in journals for line in j.read_bytes().splitlines()]
    assert len([r for r in records if "origin" not in r]) == len(files)
    # Their transcripts are on other machines: each noted once, at its session's first join event.
    notes = [r for r in records if r.get("origin")]
    assert notes and {(r["event"], r["payload"]["problem"]) for r in notes} == {("TranscriptNote", "missing")}
    assert len(notes) == len({(r["session"], r["payload"]["transcript"]) for r in notes})
    events = {r["event"] for r in records}
    assert events >= {
        "SessionStart",
        "UserPromptSubmit",
        "PreToolUse",
        "PostToolUse",
        "PostToolUseFailure",
        "PermissionRequest",
        "Notification",
        "Stop",
        "SubagentStart",
        "SubagentStop",
        "PreCompact",
        "SessionEnd",
    }


def _pre_image(payload: dict) -> str | None:
    response = payload.get("tool_response") or {}
    if response.get("type") == "create" or (payload["tool_name"] == "Write" and "originalFile" not in response):
        return None
    return response.get("originalFile", response.get("originalFileContents"))


@pytest.mark.parametrize("tool", EDIT_TOOLS)
def test_edit_payloads_yield_patches_that_apply(corpus: Path, store: Path, tmp_path: Path, tool: str) -> None:
    chosen = [p for p in _payloads(corpus) if f"PostToolUse_{tool}_" in p.name]
    assert chosen, tool
    for path in chosen:
        payload = json.loads(path.read_text())
        assert run_hook(payload).returncode == 0
        folder = next((store / "sessions").glob(f"*{payload['session_id'][:8]}*"))
        record = json.loads((folder / "events.jsonl").read_bytes().splitlines()[-1])
        assert len(record["patches"]) == 1, path.name
        work = tmp_path / path.stem
        work.mkdir()
        subprocess.run(["git", "init", "-q"], cwd=work, check=True)
        target = work / record["files"][0]
        before = _pre_image(payload)
        if before is not None:
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(before.encode("utf-8", "surrogatepass"))
        done = subprocess.run(
            ["git", "apply", str(folder / record["patches"][0])], cwd=work, capture_output=True, text=True, check=False
        )
        assert done.returncode == 0, (path.name, done.stderr)
        assert target.exists()


def test_the_2_1_328_session_in_a_real_repository(corpus: Path, store: Path, tmp_path: Path) -> None:
    """The recorded 2.1.328 session replayed into a real repository (its paths moved there,
    each tool's effect applied between its Pre and Post events) rebuilds its final tree."""
    from store_builder import git, make_repo

    project = make_repo(tmp_path / "proj", {"config.ini": "port=7000\n"})
    effects = {
        "04": ("hello.py", "def hello():\n    return 'hi'\n", "w"),
        "10": ("config.ini", "port=8000\n", "w"),
        "13": ("notes.txt", "note\n", "a"),
    }
    for path in sorted((corpus / "claude-hooks" / "v2.1.328-session").glob("*.json")):
        prefix = path.name[:2]
        if prefix in effects:
            name, text, mode = effects[prefix]
            with open(project / name, mode) as f:
                f.write(text)
        raw = path.read_text().replace("/home/dev/proj", str(project))
        assert run_hook(raw.encode()).returncode == 0
    assert not (store / "errors.log").exists()
    folder = next((store / "sessions").iterdir())
    records = [json.loads(line) for line in (folder / "events.jsonl").read_bytes().splitlines()]
    assert len([r for r in records if "origin" not in r]) == 19  # and a note: its transcript is not here
    replay = tmp_path / "replay"
    subprocess.run(["git", "clone", "-q", str(project), str(replay)], check=True)
    for rel in [p for r in records for p in r.get("patches", [])]:
        git(replay, "apply", str(folder / rel))
    for name in ("hello.py", "config.ini", "notes.txt"):
        assert (replay / name).read_text() == (project / name).read_text()
