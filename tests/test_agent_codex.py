"""Codex CLI capture: payloads checked against Codex's official hook input schemas
(``../shared/corpus/codex``), and sessions built from those shapes sent through the real
hook: ``apply_patch`` edits become git-style patches, ``Bash`` changes come from the git
working-tree snapshot, ``turn_id`` and ``model`` are kept."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from auditlog.hooks import codex
from auditlog.hooks.entry import detect_agent
from store_builder import git, journal, make_repo, run_hook

from auditlog import apply_patch_format

SCHEMA_EVENTS = {
    "pre-tool-use": "PreToolUse", "post-tool-use": "PostToolUse", "permission-request": "PermissionRequest",
    "user-prompt-submit": "UserPromptSubmit", "stop": "Stop",
}


class CodexSession:
    """Sends one Codex session's payloads (shapes of the official schemas) to the hook."""

    def __init__(self, project: Path, session_id: str = "019a-codex-session") -> None:
        self.project = project
        self.session_id = session_id
        self.turn = 0
        self.calls = 0

    def base(self, event: str, **fields: object) -> dict:
        payload = {"session_id": self.session_id, "transcript_path": None, "cwd": str(self.project),
                   "hook_event_name": event, "model": "gpt-5-codex", "permission_mode": "default"}
        if event != "SessionStart":
            payload["turn_id"] = f"turn-{self.turn}"
        payload.update(fields)
        return payload

    def send(self, payload: dict) -> None:
        done = run_hook(payload, "--agent", "codex", cwd=str(self.project))
        assert done.returncode == 0 and done.stdout == b"", done

    def tool(self, name: str, command: str, effect, response: object) -> None:
        self.calls += 1
        call = {"tool_name": name, "tool_input": {"command": command}, "tool_use_id": f"call_{self.calls}"}
        self.send(self.base("PreToolUse", **call))
        effect()
        self.send(self.base("PostToolUse", **call, tool_response=response))

    def prompt(self, text: str) -> None:
        self.turn += 1
        self.send(self.base("UserPromptSubmit", prompt=text))


def _schemas(corpus: Path) -> dict[str, dict]:
    folder = corpus / "codex" / "openai__codex-hook-schemas"
    return {p.name.split(".")[0]: json.loads(p.read_text()) for p in sorted(folder.glob("*.input.schema.json"))}


def _conforms(payload: dict, schema: dict) -> list[str]:
    """What keeps ``payload`` from matching a Codex input schema (draft-07, the subset used)."""
    problems = [f"missing {k}" for k in schema.get("required", []) if k not in payload]
    props = schema.get("properties", {})
    if schema.get("additionalProperties") is False:
        problems += [f"unexpected {k}" for k in payload if k not in props]
    for key, spec in props.items():
        if not isinstance(spec, dict):  # ``true``: any value
            continue
        if key in payload and "const" in spec and payload[key] != spec["const"]:
            problems.append(f"{key} is not {spec['const']}")
        if key in payload and "enum" in spec and payload[key] not in spec["enum"]:
            problems.append(f"{key} not in {spec['enum']}")
    return problems


def _own_payload(event: str) -> dict:
    session = CodexSession(Path("/work/project"))
    session.turn = 1
    fields = {
        "PreToolUse": {"tool_name": "Bash", "tool_input": {"command": "ls"}, "tool_use_id": "call_1"},
        "PostToolUse": {"tool_name": "Bash", "tool_input": {"command": "ls"}, "tool_use_id": "call_1",
                        "tool_response": "README.md\n"},
        "PermissionRequest": {"tool_name": "Bash", "tool_input": {"command": "rm -rf build", "description": "clean"}},
        "UserPromptSubmit": {"prompt": "fix the tests"},
        "Stop": {"stop_hook_active": False, "last_assistant_message": "Done."},
    }[event]
    payload = session.base(event, **fields)
    if event == "PreToolUse":  # this schema version has no turn_id on PreToolUse
        payload.pop("turn_id")
    return payload


def test_own_fixtures_match_the_official_schemas(corpus: Path) -> None:
    schemas = _schemas(corpus)
    assert set(schemas) == set(SCHEMA_EVENTS)
    for name, schema in schemas.items():
        payload = _own_payload(SCHEMA_EVENTS[name])
        assert _conforms(payload, schema) == [], name


def test_schema_shaped_payloads_normalise(corpus: Path) -> None:
    for name, schema in _schemas(corpus).items():
        event = SCHEMA_EVENTS[name]
        payload = {key: "x" for key in schema["required"]}
        payload.update(_own_payload(event))
        obs = codex.observe(payload)
        assert (obs.agent, obs.event, obs.kind) == ("codex", event, codex.EVENT_KINDS[event])
        assert obs.session_id == "019a-codex-session"
        assert obs.turn == payload.get("turn_id")
        assert detect_agent(payload) == ("codex" if "turn_id" in payload else "claude")


def test_every_field_is_optional_and_unknown_events_are_kept() -> None:
    empty = codex.observe({})
    assert (empty.event, empty.kind, empty.session_id) == ("Unknown", "other", "")
    odd = codex.observe({"hook_event_name": "TurnAborted", "session_id": "s", "tool_input": "not a dict",
                         "tool_name": "apply_patch"})
    assert odd.kind == "other" and odd.summary.startswith("TurnAborted")


def test_apply_patch_session(tmp_path: Path, store: Path) -> None:
    project = make_repo(tmp_path / "proj", {"src/app.py": "def f():\n    return 1\n", "old.txt": "bye\n",
                                            "notes.md": "# notes\n"})
    initial = git(project, "rev-parse", "HEAD").strip()
    session = CodexSession(project)
    session.send(session.base("SessionStart", source="startup"))
    session.prompt("return 2, add a readme, drop old.txt, move notes")
    patch = ("*** Begin Patch\n*** Update File: src/app.py\n@@ def f():\n-    return 1\n+    return 2\n"
             "*** Add File: README.md\n+# Demo\n+\n+Hello.\n*** Delete File: old.txt\n"
             "*** Update File: notes.md\n*** Move to: docs/notes.md\n@@\n # notes\n+more\n*** End Patch\n")

    def effect() -> None:
        (project / "src/app.py").write_text("def f():\n    return 2\n")
        (project / "README.md").write_text("# Demo\n\nHello.\n")
        (project / "old.txt").unlink()
        (project / "docs").mkdir()
        (project / "docs/notes.md").write_text("# notes\nmore\n")
        (project / "notes.md").unlink()

    session.tool("apply_patch", patch, effect, "Success. Updated the following files:\nM src/app.py\n")
    session.tool("Bash", "printf 'x\\n' >> README.md", lambda: subprocess.run(
        "printf 'x\\n' >> README.md", shell=True, cwd=project, check=True), {"exit_code": 0, "output": ""})
    session.tool("Bash", "false", lambda: None, {"exit_code": 1, "output": "", "error": "exit status 1"})
    session.send(session.base("Stop", stop_hook_active=False, last_assistant_message="Done: f returns 2."))

    records = journal(store, session.session_id)
    assert [r["kind"] for r in records] == ["session_start", "prompt", "tool_call", "tool_result", "tool_call",
                                            "tool_result", "tool_call", "tool_error", "assistant"]
    assert {r.get("turn") for r in records[1:]} == {"turn-1"}
    assert records[0]["payload"]["model"] == "gpt-5-codex" and "gpt-5-codex" in records[0]["summary"]
    edit = records[3]
    assert sorted(edit["files"]) == ["README.md", "docs/notes.md", "notes.md", "old.txt", "src/app.py"]
    assert edit["summary"].startswith("apply_patch src/app.py, README.md, old.txt and 2 more")
    assert records[5]["files"] == ["README.md"]
    assert records[7].get("failed") and not records[7].get("files")
    assert not (store / "errors.log").exists()
    # Replayed in order on the initial tree, the patches rebuild the final one.
    folder = store / "sessions" / session.session_id
    replay = tmp_path / "replay"
    subprocess.run(["git", "clone", "-q", str(project), str(replay)], check=True)
    git(replay, "checkout", "-q", initial)
    for record in records:
        for rel in record.get("patches") or []:
            subprocess.run(["git", "-C", str(replay), "apply", str(folder / rel)], check=True)
    for rel in ("src/app.py", "README.md", "docs/notes.md"):
        assert (replay / rel).read_text() == (project / rel).read_text()
    assert not (replay / "old.txt").exists() and not (replay / "notes.md").exists()


def test_apply_patch_format_reads_what_codex_sends(tmp_path: Path) -> None:
    text = ("apply_patch <<'EOF'\n*** Begin Patch\n*** Add File: a/new.txt\n+one\n+two\n*** Update File: b.py\n"
            "*** Move to: c.py\n@@\n-x\n+y\n*** End of File\n*** Delete File: /abs/gone.txt\n*** End Patch\nEOF\n")
    ops = apply_patch_format.parse(text)
    assert [(op.op, op.path, op.move_to) for op in ops] == [("add", "a/new.txt", None), ("update", "b.py", "c.py"),
                                                          ("delete", "/abs/gone.txt", None)]
    assert ops[0].content == "one\ntwo\n"
    cwd = str(tmp_path)
    assert apply_patch_format.touched_paths(text, cwd) == [f"{cwd}/a/new.txt", f"{cwd}/b.py", f"{cwd}/c.py",
                                                           "/abs/gone.txt"]
    edits = apply_patch_format.file_edits(text, cwd)
    assert (edits[0].path, edits[0].after_fallback) == (f"{cwd}/a/new.txt", b"one\ntwo\n")
    assert edits[1].after_fallback is None and edits[3].after_fallback is None  # moved away; deleted
    assert apply_patch_format.parse("no patch here") == []
    assert apply_patch_format.parse("*** Begin Patch\n+stray\n*** Update File: \n*** End Patch") == []


@pytest.mark.parametrize("response", [{"exit_code": 2}, {"exitCode": 1}, {"success": False}, {"error": "boom"},
                                      "Exit code: 1\nWall time: 0 seconds\nOutput:\nverification failed\n"])
def test_failed_tool_responses_are_tool_errors(response: dict) -> None:
    obs = codex.observe({"hook_event_name": "PostToolUse", "session_id": "s", "tool_name": "Bash",
                         "tool_input": {"command": "make"}, "tool_response": response})
    assert obs.kind == "tool_error" and obs.failed and obs.diff_tree


def test_success_text_is_not_a_failure() -> None:
    # What Codex 0.169 really sends after a successful apply_patch (seen in tests/e2e).
    obs = codex.observe({"hook_event_name": "PostToolUse", "session_id": "s", "tool_name": "apply_patch",
                         "tool_input": {"command": "*** Begin Patch\n*** End Patch\n"},
                         "tool_response": "Exit code: 0\nWall time: 0 seconds\nOutput:\nSuccess.\n"})
    assert obs.kind == "tool_result" and not obs.failed


def test_lifecycle_events() -> None:
    base = {"session_id": "s", "turn_id": "t", "cwd": "/p"}
    failure = codex.observe({**base, "hook_event_name": "StopFailure", "error": "rate_limit",
                             "error_details": "429 Too Many Requests"})
    assert failure.failed and failure.summary == "Turn failed: 429 Too Many Requests"
    sub = codex.observe({**base, "hook_event_name": "SubagentStart", "agent_id": "a1", "agent_type": "reviewer"})
    assert (sub.kind, sub.subagent, sub.summary) == ("subagent_start", "reviewer", "Subagent reviewer started")
    compact = codex.observe({**base, "hook_event_name": "PostCompact", "trigger": "auto"})
    assert (compact.kind, compact.summary) == ("compact", "Compacted context (auto)")
    ask = codex.observe({**base, "hook_event_name": "PermissionRequest", "tool_name": "Bash",
                         "tool_input": {"command": "rm -rf build"}})
    assert (ask.kind, ask.summary) == ("permission", "Permission asked: Bash rm -rf build")
