"""Gemini CLI capture: sessions built from the payload shapes of Gemini CLI's hooks
reference, sent through the real hook (and, once, without ``--agent``, to prove the
detection): ``write_file``/``replace`` diffs from the BeforeTool snapshot,
``run_shell_command`` through the git snapshot, ``tool_response.error`` as a tool_error."""

from __future__ import annotations

import subprocess
from pathlib import Path

from auditlog.hooks import gemini
from auditlog.hooks.entry import detect_agent
from store_builder import journal, make_repo, run_hook


class GeminiSession:
    def __init__(self, project: Path, session_id: str = "gemini-3f2a") -> None:
        self.project = project
        self.session_id = session_id

    def base(self, event: str, **fields: object) -> dict:
        payload = {"session_id": self.session_id, "transcript_path": f"/home/u/.gemini/tmp/{self.session_id}.json",
                   "cwd": str(self.project), "hook_event_name": event, "timestamp": "2026-11-29T10:30:00.000Z"}
        payload.update(fields)
        return payload

    def send(self, payload: dict, *args: str) -> None:
        done = run_hook(payload, *(args or ("--agent", "gemini")), cwd=str(self.project))
        assert done.returncode == 0 and done.stdout == b"", done

    def tool(self, name: str, tool_input: dict, effect, response: dict) -> None:
        self.send(self.base("BeforeTool", tool_name=name, tool_input=tool_input))
        effect()
        self.send(self.base("AfterTool", tool_name=name, tool_input=tool_input, tool_response=response))


def _ok(text: str) -> dict:
    return {"llmContent": text, "returnDisplay": text}


def test_gemini_session(tmp_path: Path, store: Path) -> None:
    project = make_repo(tmp_path / "proj", {"config.ini": "port=7000\nhost=a\n"})
    config, created = project / "config.ini", project / "hello.py"
    session = GeminiSession(project)
    session.send(session.base("SessionStart", source="startup"))
    session.send(session.base("BeforeAgent", prompt="Move to port 8000 and say hello"), "--agent=gemini")
    session.tool("write_file", {"file_path": str(created), "content": "print('hello')\n"},
                 lambda: created.write_text("print('hello')\n"), _ok("Created hello.py"))
    session.tool("replace", {"file_path": "config.ini", "old_string": "port=7000", "new_string": "port=8000"},
                 lambda: config.write_text("port=8000\nhost=a\n"), _ok("Edited config.ini"))
    session.tool("run_shell_command", {"command": "echo note >> notes.txt", "description": "take a note"},
                 lambda: subprocess.run("echo note >> notes.txt", shell=True, cwd=project, check=True),
                 _ok("Command: echo note >> notes.txt\nExit Code: 0"))
    session.tool("run_shell_command", {"command": "cat missing"}, lambda: None,
                 {**_ok(""), "error": {"message": "cat: missing: No such file", "type": "SHELL_EXECUTE_ERROR"}})
    session.send(session.base("Notification", notification_type="ToolPermission",
                              message="Allow run_shell_command?", details={"tool": "run_shell_command"}))
    session.send(session.base("PreCompress", trigger="auto"))
    session.send(session.base("AfterAgent", prompt="Move to port 8000", prompt_response="Port is 8000 now.",
                              stop_hook_active=False))
    session.send(session.base("SessionEnd", reason="exit"), "--agent", "gemini-cli")

    records = journal(store, session.session_id)
    assert [r["kind"] for r in records] == [
        "session_start", "prompt", "tool_call", "tool_result", "tool_call", "tool_result", "tool_call",
        "tool_result", "tool_call", "tool_error", "permission", "compact", "assistant", "session_end"]
    assert {r["agent"] for r in records} == {"gemini-cli"}
    assert records[3]["files"] == ["hello.py"] and records[3]["changes"][0]["op"] == "add"
    assert records[5]["files"] == ["config.ini"] and "(+1 −1)" in records[5]["summary"]
    assert records[7]["files"] == ["notes.txt"]
    assert records[9].get("failed") and "No such file" in records[9]["summary"]
    assert records[10]["summary"] == "Permission asked: Allow run_shell_command?"
    assert records[12]["summary"] == "Port is 8000 now."
    patch = (store / "sessions" / session.session_id / records[5]["patches"][0]).read_text()
    assert "-port=7000\n+port=8000\n" in patch
    assert not (store / "errors.log").exists()


def test_detected_without_agent_flag(tmp_path: Path, store: Path) -> None:
    session = GeminiSession(tmp_path, "gemini-detect")
    payload = session.base("BeforeAgent", prompt="hi")
    assert detect_agent(payload) == "gemini"
    assert detect_agent(session.base("SessionStart", source="startup")) == "gemini"
    assert detect_agent({"hook_event_name": "SessionStart", "session_id": "s"}) == "claude"
    session.send(payload, "--no-agent-given")
    assert journal(store, "gemini-detect")[0]["agent"] == "gemini-cli"


def test_model_events_and_unknown_events_are_recorded_as_other() -> None:
    for event in ("BeforeModel", "AfterModel", "BeforeToolSelection", "SomethingNew"):
        obs = gemini.observe({"hook_event_name": event, "session_id": "s", "llm_request": {"model": "m"}})
        assert obs.kind == "other" and obs.summary.startswith(event)
    assert "BeforeModel" not in gemini.EVENTS and "AfterTool" in gemini.EVENTS
    empty = gemini.observe({})
    assert (empty.kind, empty.session_id, empty.snapshot_paths) == ("other", "", [])


def test_string_error_and_relative_paths() -> None:
    base = {"hook_event_name": "AfterTool", "session_id": "s", "cwd": "/work/p", "tool_name": "replace",
            "tool_input": {"file_path": "src/a.py", "old_string": "a", "new_string": "b"}}
    failed = gemini.observe({**base, "tool_response": {"error": "0 occurrences found"}})
    assert failed.kind == "tool_error" and failed.summary.endswith("0 occurrences found")
    assert [e.path for e in failed.file_edits] == ["/work/p/src/a.py"]
    before = gemini.observe({**base, "hook_event_name": "BeforeTool"})
    assert before.snapshot_paths == ["/work/p/src/a.py"] and before.state_key == failed.state_key


def test_shell_exit_code_in_the_text_is_a_failure() -> None:
    # What Gemini CLI 0.61 really sends after `exit 3` (seen in tests/e2e): no "error".
    response = {"llmContent": "<untrusted_context>\nOutput: (empty)\nExit Code: 3\nProcess Group PGID: 19938\n"
                              "</untrusted_context>", "returnDisplay": "Command exited with code: 3"}
    obs = gemini.observe({"hook_event_name": "AfterTool", "session_id": "s", "tool_name": "run_shell_command",
                          "tool_input": {"command": "exit 3"}, "tool_response": response})
    assert obs.kind == "tool_error" and obs.failed and obs.summary.endswith("exit code 3") and obs.diff_tree
    response["llmContent"] = response["llmContent"].replace("Exit Code: 3\n", "")
    assert gemini.observe({**obs.payload, "tool_response": response}).kind == "tool_result"


def test_return_display_images() -> None:
    """Gemini CLI 0.61's ``AfterTool`` for an edit carries the file's images in
    ``returnDisplay`` (shape seen from the real binary in tests/e2e)."""
    display = {"fileName": "hello.txt", "filePath": "/p/hello.txt", "originalContent": "", "newContent": "hello\n",
               "isNewFile": True, "isBuildFile": False}
    obs = gemini.observe({"hook_event_name": "AfterTool", "session_id": "s", "cwd": "/p", "tool_name": "write_file",
                          "tool_input": {"file_path": "/p/hello.txt", "content": "hello\n"},
                          "tool_response": {"llmContent": "Successfully created", "returnDisplay": display}})
    (edit,) = obs.file_edits
    assert (edit.before, edit.after_fallback) == (None, b"hello\n")
    display.update(isNewFile=False, originalContent="a\n", newContent="b\n")
    (edit,) = gemini.observe({**obs.payload, "tool_name": "replace", "tool_input": {"file_path": "hello.txt"},
                              "tool_response": {"returnDisplay": display}}).file_edits
    assert (edit.path, edit.before, edit.after_fallback) == ("/p/hello.txt", b"a\n", b"b\n")
