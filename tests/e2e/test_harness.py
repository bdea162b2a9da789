"""Tests of the end-to-end harness itself.

Why: every end-to-end test of auditlog trusts this harness to run the real
Claude Code binary and to witness its hooks independently.  If the harness
silently stopped firing hooks (a renamed event, a matcher the binary ignores,
a model reply it rejects), auditlog's own end-to-end tests would pass for the
wrong reason.  The first group needs no binary and checks the pieces; the
``e2e`` group runs the standard scripted session with only the capture hook
registered and checks what the binary really did.
"""

from __future__ import annotations

import json
import subprocess
import sys
import urllib.request
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from claude_driver import (
    CAPTURE_HOOK,
    CLAUDE_HOOK_EVENTS,
    STANDARD_PROMPT,
    capture_hook_command,
    independent_capture_hook_settings,
    merge_hooks,
    read_captures,
    run_session,
    scripted_model,
    standard_script,
    write_project_settings,
)

# --------------------------------------------------------------------------- no binary needed


def _post(url: str, body: dict[str, Any]) -> tuple[str, bytes]:
    request = urllib.request.Request(
        url, data=json.dumps(body).encode(), headers={"content-type": "application/json"}, method="POST"
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        return response.headers.get("content-type", ""), response.read()


def _sse_events(raw: bytes) -> list[tuple[str, dict[str, Any]]]:
    events = []
    for chunk in raw.decode().strip().split("\n\n"):
        lines = dict(line.split(": ", 1) for line in chunk.splitlines())
        events.append((lines["event"], json.loads(lines["data"])))
    return events


def test_scripted_model_plays_the_script(tmp_path: Path) -> None:
    """Steps follow the count of tool turns; side requests and count_tokens never consume one."""
    script = [
        {"tool": "Read", "input": {"file_path": "/x"}, "say": "Reading."},
        {
            "parallel": [
                {"tool": "Read", "input": {"file_path": "/a"}},
                {"tool": "Read", "input": {"file_path": "/b"}},
            ]
        },
        {"text": "Finished."},
    ]
    tools = [{"name": "Read", "input_schema": {"type": "object"}}]
    first = [{"role": "user", "content": "go"}]
    tool_turn = {
        "role": "assistant",
        "content": [{"type": "tool_use", "id": "t1", "name": "Read", "input": {}}],
    }
    with scripted_model(script, tmp_path / "model") as model:
        assert (tmp_path / "model" / "port.txt").read_text().strip() == str(model.port)
        messages_url = f"{model.url}/v1/messages?beta=true"

        ctype, raw = _post(messages_url, {"model": "m", "tools": tools, "messages": first})
        reply = json.loads(raw)
        assert ctype == "application/json"
        assert reply["stop_reason"] == "tool_use"
        assert [b["type"] for b in reply["content"]] == ["text", "tool_use"]
        assert reply["content"][1]["input"] == {"file_path": "/x"}

        _, raw = _post(f"{model.url}/v1/messages/count_tokens", {"messages": first})
        assert json.loads(raw)["input_tokens"] > 0
        _, raw = _post(messages_url, {"model": "m", "messages": first})  # side request: no tools
        assert json.loads(raw)["content"] == [{"type": "text", "text": "ok"}]

        body = {"model": "m", "tools": tools, "stream": True, "messages": [*first, tool_turn]}
        ctype, raw = _post(messages_url, body)
        assert ctype == "text/event-stream"
        events = _sse_events(raw)
        assert events[0][0] == "message_start" and events[-1][0] == "message_stop"
        starts = [data["content_block"] for name, data in events if name == "content_block_start"]
        assert [block["name"] for block in starts] == ["Read", "Read"]
        deltas = [data["delta"]["partial_json"] for name, data in events if name == "content_block_delta"]
        assert [json.loads(d) for d in deltas] == [{"file_path": "/a"}, {"file_path": "/b"}]

        _, raw = _post(
            messages_url, {"model": "m", "tools": tools, "messages": [*first, tool_turn, tool_turn]}
        )
        assert json.loads(raw)["content"] == [{"type": "text", "text": "Finished."}]
        _, raw = _post(messages_url, {"model": "m", "tools": tools, "messages": [*first, *[tool_turn] * 3]})
        assert json.loads(raw)["content"] == [{"type": "text", "text": "Done."}]
        logged = model.requests()
    assert model.process.poll() is not None, "the context manager must stop the server"
    assert [r["path"] for r in logged].count("/v1/messages?beta=true") == 5
    assert logged[0]["body"]["messages"] == first


def test_scripted_model_rejects_a_malformed_script(tmp_path: Path) -> None:
    """A typo in a scenario must fail at start-up, not stall a session until its timeout."""
    with (
        pytest.raises(RuntimeError, match="exactly one of"),
        scripted_model([{"tool": "Read", "text": "x"}], tmp_path),
    ):
        pass


def test_capture_hook_saves_payload_byte_exact(tmp_path: Path) -> None:
    """The witness must not reinterpret what it witnesses, nor talk to the model."""
    payload = b'{"hook_event_name":"Stop","odd":"\xff\xfe caf\xc3\xa9"}\n'
    done = subprocess.run(
        [sys.executable, str(CAPTURE_HOOK), str(tmp_path / "cap"), "Stop"],
        input=payload,
        capture_output=True,
        check=True,
    )
    assert done.stdout == b""
    captures = read_captures(tmp_path / "cap")
    assert len(captures) == 1
    assert captures[0].raw == payload
    assert captures[0].event == "Stop"
    assert not [p for p in (tmp_path / "cap").iterdir() if p.name.startswith(".")], "temporary files left"


def test_capture_settings_cover_every_event(tmp_path: Path) -> None:
    """Every event the binary accepts is registered, each with a match-all matcher."""
    hooks = independent_capture_hook_settings(tmp_path)["hooks"]
    assert list(hooks) == list(CLAUDE_HOOK_EVENTS)
    for event, groups in hooks.items():
        assert groups == [
            {"matcher": "*", "hooks": [{"type": "command", "command": capture_hook_command(tmp_path, event)}]}
        ]


def test_merge_hooks_keeps_both_and_is_idempotent(tmp_path: Path) -> None:
    """Auditlog's hooks and the witness must coexist, and re-merging must not duplicate."""
    other = {
        "model": "x",
        "hooks": {"Stop": [{"matcher": "*", "hooks": [{"type": "command", "command": "other"}]}]},
    }
    capture = independent_capture_hook_settings(tmp_path / "cap")
    merged = merge_hooks(other, capture)
    assert merged["model"] == "x"
    assert [g["hooks"][0]["command"] for g in merged["hooks"]["Stop"]] == [
        "other",
        capture_hook_command(tmp_path / "cap", "Stop"),
    ]
    assert set(merged["hooks"]) == set(CLAUDE_HOOK_EVENTS)
    assert merge_hooks(merged, capture) == merged
    assert other["hooks"]["Stop"][0]["hooks"][0]["command"] == "other", "inputs must not be modified"

    project = tmp_path / "project"
    write_project_settings(project, other)
    written = write_project_settings(project, capture)
    assert json.loads(written.read_text()) == merged


# --------------------------------------------------------------------------- the real binary


#: What the standard scenario fires, in order, with only the capture hook registered.
EXPECTED_EVENTS = [
    "SessionStart",
    "UserPromptSubmit",
    "MessageDisplay",  # the "say" text before the first tool call
    *["PreToolUse", "PostToolUse", "PostToolBatch"] * 4,  # Write, Read, Edit, Bash
    *["PreToolUse", "PostToolUseFailure", "PostToolBatch"],  # Bash `false`
    *["PreToolUse", "PreToolUse", "PostToolUse", "PostToolUse", "PostToolBatch"],  # two Reads at once
    "MessageDisplay",  # the final answer
    "Stop",
    "SessionEnd",
]


def _normalise_parallel_batch(events: list[str]) -> list[str]:
    """Sort the events inside each tool batch: hooks of parallel calls may start in either order."""
    result: list[str] = []
    batch: list[str] = []
    for event in events:
        if event in ("PreToolUse", "PostToolUse", "PostToolUseFailure"):
            batch.append(event)
            continue
        result += sorted(batch, key=("PreToolUse", "PostToolUse", "PostToolUseFailure").index)
        batch = []
        result.append(event)
    return result + batch


@pytest.mark.e2e
def test_standard_session_fires_real_hooks(
    claude_bin: str, git_project: Path, claude_home: Path, capture_dir: Path
) -> None:
    """The scripted session edits the real files, and the witness sees every hook fire."""
    write_project_settings(git_project, independent_capture_hook_settings(capture_dir))
    result = run_session(
        git_project, claude_home, standard_script(git_project), STANDARD_PROMPT, claude_bin=claude_bin
    )
    assert result.exit_code == 0, result.describe()
    output = result.output_json()
    assert output["is_error"] is False, result.describe()
    assert output["result"] == "All done: port is now 8000."

    # The tools really ran, in the real project.
    assert (git_project / "hello.txt").read_text() == "hello from the scripted model\n"
    assert (git_project / "config.ini").read_text() == "port=8000\n"
    assert (git_project / "notes.txt").read_text() == "edited config\n"

    # The model saw the prompt first, and the failing Bash came back to it as an error.
    log_text = result.request_log.read_text()
    assert STANDARD_PROMPT in log_text
    assert STANDARD_PROMPT in json.dumps(result.requests[0]["messages"])
    tool_results = [
        block
        for message in result.requests[-1]["messages"]
        if isinstance(message.get("content"), list)
        for block in message["content"]
        if block.get("type") == "tool_result"
    ]
    assert [block.get("is_error", False) for block in tool_results] == [False] * 4 + [True] + [False] * 2
    assert str(capture_dir) not in log_text, "the capture hook must leave no trace in the model's context"

    # The witness saw each event, each payload is valid JSON naming its own event.
    captures = read_captures(capture_dir)
    events = [capture.event for capture in captures]
    assert _normalise_parallel_batch(events) == EXPECTED_EVENTS, events
    session_ids = set()
    for capture in captures:
        payload = capture.payload
        assert payload["hook_event_name"] == capture.event
        assert payload["cwd"] == str(git_project)
        assert payload["transcript_path"].startswith(str(claude_home))
        session_ids.add(payload["session_id"])
    assert session_ids == {output["session_id"]}

    # Every tool call has one PreToolUse and one matching Post* with the same tool_use_id.
    by_id: dict[str, list[str]] = {}
    tools: dict[str, str] = {}
    for capture in captures:
        if "tool_use_id" in capture.payload:
            by_id.setdefault(capture.payload["tool_use_id"], []).append(capture.event)
            tools[capture.payload["tool_use_id"]] = capture.payload["tool_name"]
    assert Counter(tools.values()) == {"Read": 3, "Bash": 2, "Write": 1, "Edit": 1}
    outcomes = Counter(tuple(pair) for pair in by_id.values())
    assert outcomes == {("PreToolUse", "PostToolUse"): 6, ("PreToolUse", "PostToolUseFailure"): 1}
    failure = next(c.payload for c in captures if c.event == "PostToolUseFailure")
    assert failure["tool_input"]["command"] == "false"
    prompt = next(c.payload for c in captures if c.event == "UserPromptSubmit")
    assert prompt["prompt"] == STANDARD_PROMPT
