"""Secrets never reach the store: every secret of the corpus (tests/data/secrets_corpus.json,
41 kinds in 8 contexts), recorded through the real hook code in a real git project, is
absent from every file under AUDITLOG_HOME afterwards — journal, conversation.md, patches,
blobs, state, the SQLite index and its -wal — while its fingerprint marker is there."""

from __future__ import annotations

import json
import uuid
from pathlib import Path

from reliability_tools import run_in_process
from store_builder import make_repo

CORPUS = Path(__file__).resolve().parent / "data" / "secrets_corpus.json"


def _events(entry: dict, project: Path, n: int) -> list[dict]:
    session = f"secrets-{n % 7}"
    base = {"session_id": session, "cwd": str(project), "transcript_path": "/nonexistent.jsonl"}
    tool_use_id = "toolu_" + uuid.uuid4().hex[:20]
    text, context = entry["text"], entry["context"]

    def tool(name: str, tool_input: dict, response: object) -> list[dict]:
        call = {**base, "tool_name": name, "tool_input": tool_input, "tool_use_id": tool_use_id}
        return [{**call, "hook_event_name": "PreToolUse"},
                {**call, "hook_event_name": "PostToolUse", "tool_response": response}]

    if context == "prompt":
        return [{**base, "hook_event_name": "UserPromptSubmit", "prompt": text}]
    if context == "bash":
        return tool("Bash", {"command": text, "description": "run it"}, {"stdout": "ok", "stderr": ""})
    if context in ("tool_output", "env"):
        return tool("Bash", {"command": "env" if context == "env" else "cat config"}, {"stdout": text, "stderr": ""})
    if context == "url":
        return tool("WebFetch", {"url": text, "prompt": "summarise"}, {"result": f"fetched {text}"})
    path = project / f"file{n}.txt"
    if context == "write":
        pre, post = None, text + "\n"
        events = tool("Write", {"file_path": str(path), "content": post}, {"type": "create", "filePath": str(path)})
    elif context == "edit":
        pre, post = "value = PLACEHOLDER\n", f"value = {text}\n"
        events = tool("Edit", {"file_path": str(path), "old_string": "PLACEHOLDER", "new_string": text},
                      {"filePath": str(path), "originalFile": pre})
    else:  # preimage: the secret was in the file before; the edit touches another line
        pre, post = f"{text}\nport=7000\n", f"{text}\nport=8000\n"
        events = tool("Edit", {"file_path": str(path), "old_string": "port=7000", "new_string": "port=8000"},
                      {"filePath": str(path), "originalFile": pre})
    if pre is not None:
        path.write_text(pre)
    events.insert(1, {"write_file": str(path), "content": post})  # the tool's effect, between Pre and Post
    return events


def test_no_secret_survives_anywhere_in_the_store(store: Path, tmp_path: Path) -> None:
    entries = json.loads(CORPUS.read_text())["entries"]
    assert len(entries) >= 60 and len({e["context"] for e in entries}) >= 8
    project = make_repo(tmp_path / "proj", {"README.md": "project\n"})
    for n, entry in enumerate(entries):
        for event in _events(entry, project, n):
            if "write_file" in event:
                Path(event["write_file"]).write_text(event["content"])
            else:
                run_in_process([event])
    assert not (store / "errors.log").exists(), (store / "errors.log").read_text()
    files = [p for p in store.rglob("*") if p.is_file()]
    names = {p.name for p in files}
    assert {"index.sqlite", "events.jsonl", "conversation.md"} <= names
    assert any(p.parent.name == "patches" for p in files) and any(p.parent.name == "blobs" for p in files)
    contents = {p: p.read_bytes() for p in files}
    leaks = [(e["kind"], e["context"], str(p.relative_to(store))) for e in entries for p, data in contents.items()
             if e["secret"].encode() in data]
    assert leaks == [], "\n".join(map(str, sorted(set(leaks))))
    journal = b"".join(data for p, data in contents.items() if p.name == "events.jsonl")
    assert journal.count(b"[REDACTED:") >= len(entries)
