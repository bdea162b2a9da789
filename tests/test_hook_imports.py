"""The hook path imports the standard library and the core only: checked in a fresh
interpreter, on a real event that exercises capture, patches and the index."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

FORBIDDEN = (
    "click",
    "rich",
    "textual",
    "sqlite_utils",
    "unidiff",
    "auditlog.cli",
    "auditlog.tui",
    "auditlog.query",
    "hashlib",
)

PROBE = """
import io, json, os, sys
payloads = json.loads(sys.argv[1])
from auditlog.hooks import entry
for p in payloads:
    r, w = os.pipe()
    os.write(w, json.dumps(p).encode()); os.close(w)
    entry.run(["--agent", "claude"], stdin_fd=r)
    os.close(r)
print(json.dumps(sorted(sys.modules)))
"""


def test_hook_path_imports_no_heavy_module(tmp_path: Path, store: Path) -> None:
    target = tmp_path / "f.txt"
    target.write_text("a\n")
    base = {"session_id": "imports", "cwd": str(tmp_path)}
    payloads = [
        {**base, "hook_event_name": "UserPromptSubmit", "prompt": "hello"},  # first event: migrates the index
        {
            **base,
            "hook_event_name": "PreToolUse",
            "tool_name": "Edit",
            "tool_use_id": "t1",
            "tool_input": {"file_path": str(target), "old_string": "a", "new_string": "b"},
        },
    ]
    # Migrating imports sqlite-utils, by design, once; every later event must not.
    subprocess.run([sys.executable, "-c", PROBE, json.dumps(payloads)], check=True, capture_output=True)
    target.write_text("b\n")
    transcript = tmp_path / "transcript.jsonl"  # the Stop joins it: the join imports nothing heavy either
    message = {"id": "m1", "model": "claude-sonnet-4-5", "content": [{"type": "text", "text": "Editing."}],
               "usage": {"input_tokens": 1, "output_tokens": 2}}
    transcript.write_text(json.dumps({"type": "assistant", "uuid": "u1", "message": message}) + "\n")
    after = [
        {
            **base,
            "hook_event_name": "PostToolUse",
            "tool_name": "Edit",
            "tool_use_id": "t1",
            "tool_input": {"file_path": str(target), "old_string": "a", "new_string": "b"},
            "tool_response": {"originalFile": "a\n"},
        },
        {**base, "hook_event_name": "Stop", "transcript_path": str(transcript), "last_assistant_message": "done"},
    ]
    done = subprocess.run([sys.executable, "-c", PROBE, json.dumps(after)], check=True, capture_output=True, text=True)
    modules = json.loads(done.stdout)
    loaded = [m for m in modules if any(m == f or m.startswith(f + ".") for f in FORBIDDEN)]
    assert loaded == []
    assert "auditlog.capture" in modules and "auditlog.indexer" in modules  # the probe really recorded
    journal = store / "sessions" / "imports" / "events.jsonl"
    lines = [json.loads(line) for line in journal.read_bytes().splitlines()]
    assert [r["event"] for r in lines] == ["UserPromptSubmit", "PreToolUse", "PostToolUse", "TranscriptMessage", "Stop"]
