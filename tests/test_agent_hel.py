"""hel capture: a session built from hel's hook shapes (PreToolUse/PostToolUse with
Claude Code's field names; tools read_file, search_replace, write_file, bash;
``tool_response`` a string; no PostToolUse after a failed call), through the real hook."""

from __future__ import annotations

import subprocess
from pathlib import Path

from auditlog.hooks import hel
from store_builder import journal, make_repo, run_hook


class HelSession:
    def __init__(self, project: Path, session_id: str = "hel-7c1d") -> None:
        self.project = project
        self.session_id = session_id
        self.calls = 0

    def send(self, event: str, **fields: object) -> None:
        payload = {"session_id": self.session_id, "cwd": str(self.project), "hook_event_name": event, **fields}
        done = run_hook(payload, "--agent", "hel", cwd=str(self.project))
        assert done.returncode == 0 and done.stdout == b"", done

    def tool(self, name: str, tool_input: dict, effect=None, response: str | None = "ok") -> None:
        self.calls += 1
        call = {"tool_name": name, "tool_input": tool_input, "tool_use_id": f"hel-{self.calls}"}
        self.send("PreToolUse", **call)
        if effect:
            effect()
        if response is not None:  # hel runs PostToolUse after successful calls only
            self.send("PostToolUse", **call, tool_response=response)


def test_hel_session(tmp_path: Path, store: Path) -> None:
    project = make_repo(tmp_path / "proj", {"main.py": "x = 1\ny = 2\n"})
    main, new = project / "main.py", project / "pkg" / "util.py"
    session = HelSession(project)
    session.tool("read_file", {"path": "main.py"}, response="x = 1\ny = 2\n")
    session.tool("search_replace", {"path": "main.py", "search": "x = 1", "replace": "x = 10"},
                 lambda: main.write_text("x = 10\ny = 2\n"), "Replaced 1 occurrence")

    def write() -> None:
        new.parent.mkdir()
        new.write_text("def f():\n    return 1\n")

    session.tool("write_file", {"path": str(new), "content": "def f():\n    return 1\n"}, write, "Wrote 2 lines")
    session.tool("bash", {"command": "rm main.py"}, lambda: subprocess.run("rm main.py", shell=True, cwd=project,
                                                                            check=True), "")
    session.tool("search_replace", {"path": "pkg/util.py", "search": "nope", "replace": "x"}, response=None)

    records = journal(store, session.session_id)
    assert [(r["event"], r["tool"]) for r in records] == [
        ("PreToolUse", "read_file"), ("PostToolUse", "read_file"), ("PreToolUse", "search_replace"),
        ("PostToolUse", "search_replace"), ("PreToolUse", "write_file"), ("PostToolUse", "write_file"),
        ("PreToolUse", "bash"), ("PostToolUse", "bash"), ("PreToolUse", "search_replace")]
    assert {r["agent"] for r in records} == {"hel"}
    changes = [(r["tool"], c["path"], c["op"]) for r in records for c in r.get("changes") or []]
    assert changes == [("search_replace", "main.py", "modify"), ("write_file", "pkg/util.py", "add"),
                       ("bash", "main.py", "delete")]
    assert records[3]["summary"] == "search_replace main.py (+1 −1)"
    assert records[-1]["kind"] == "tool_call"  # the failed call: no result follows
    assert not (store / "errors.log").exists()


def test_write_file_content_is_the_fallback_after_image() -> None:
    post = hel.observe({"hook_event_name": "PostToolUse", "session_id": "s", "cwd": "/elsewhere",
                        "tool_name": "write_file", "tool_input": {"path": "a.txt", "content": "hi\n"},
                        "tool_response": "ok"})
    assert [(e.path, e.after_fallback) for e in post.file_edits] == [("/elsewhere/a.txt", b"hi\n")]


def test_every_field_is_optional() -> None:
    assert hel.observe({}).kind == "other"
    odd = hel.observe({"hook_event_name": "PostToolUse", "tool_name": "bash", "tool_input": ["not", "a", "dict"]})
    assert odd.kind == "tool_result" and odd.diff_tree and odd.session_id == ""
    assert hel.observe({"hook_event_name": "SessionStart", "session_id": "s"}).kind == "other"
