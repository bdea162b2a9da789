"""Cursor capture: the real payloads in ``../shared/corpus/cursor`` and sessions built
from Cursor's documented shapes, through the real hook. Before-hooks always get the
neutral answer (allow, no message); ``afterFileEdit`` diffs come from the ``preToolUse``
snapshot or from reversing its edits on the file as it is now."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from auditlog.hooks import cursor
from auditlog.hooks.entry import detect_agent
from store_builder import journal, make_repo, run_hook

# run_hook passes "--agent claude" when given no arguments; any other argument leaves
# the agent to be detected from the payload, as for a hand-written hooks.json.
DETECT = ("--detect",)


def _corpus_payloads(corpus: Path) -> list[dict]:
    return [json.loads(line) for path in sorted((corpus / "cursor").glob("*.jsonl"))
            for line in path.read_text().splitlines() if line.strip()]


def test_real_payloads_normalise(corpus: Path) -> None:
    payloads = _corpus_payloads(corpus)
    assert {p["hook_event_name"] for p in payloads} >= {"afterFileEdit", "beforeShellExecution",
                                                         "beforeSubmitPrompt", "sessionEnd"}
    for payload in payloads:
        obs = cursor.observe(payload)
        assert detect_agent(payload) == "cursor"
        assert obs.session_id == payload["conversation_id"] and obs.kind == cursor.EVENT_KINDS[obs.event]
        assert obs.cwd == "/Users/mars/Documents/GitHub/grafanaDemoPersonal"  # cwd "" falls back to the root
        assert obs.summary
        if obs.event == "beforeShellExecution":
            assert obs.summary == f"Shell {payload['command'][:79]}…" or obs.summary == f"Shell {payload['command']}"
            assert json.loads(obs.reply) == {"permission": "allow"}
        elif obs.event == "beforeSubmitPrompt":
            assert obs.summary == payload["prompt"] and json.loads(obs.reply) == {"continue": True}
        elif obs.event == "afterFileEdit":
            assert obs.file_edits and obs.file_edits[0].path == payload["file_path"] and obs.reply is None


def test_real_payloads_through_the_hook(corpus: Path, store: Path) -> None:
    for payload in _corpus_payloads(corpus):
        done = run_hook(payload, *DETECT)
        assert done.returncode == 0, done
        expected = cursor.REPLIES.get(payload["hook_event_name"], b"")
        assert done.stdout == expected
    assert not (store / "errors.log").exists()  # files not on this machine: recorded, not patched
    conversations = {p["conversation_id"] for p in _corpus_payloads(corpus)}
    assert len(list((store / "sessions").iterdir())) == len(conversations)


def test_replies_are_never_a_denial() -> None:
    for event in cursor.EVENTS:
        obs = cursor.observe({"hook_event_name": event, "conversation_id": "c", "command": "rm -rf /"})
        if obs.reply is not None:
            answer = json.loads(obs.reply)
            assert answer in ({"permission": "allow"}, {"continue": True}), event
    assert cursor.observe({"hook_event_name": "afterShellExecution"}).reply is None


class CursorSession:
    def __init__(self, project: Path, conversation: str = "5778024b-cursor") -> None:
        self.project = project
        self.conversation = conversation
        self.calls = 0

    def base(self, event: str, **fields: object) -> dict:
        payload = {"conversation_id": self.conversation, "generation_id": "gen-1", "model": "composer-2",
                   "hook_event_name": event, "cursor_version": "3.1.10", "workspace_roots": [str(self.project)],
                   "session_id": self.conversation, "transcript_path": None}
        payload.update(fields)
        return payload

    def send(self, payload: dict) -> bytes:
        done = run_hook(payload, "--agent", "cursor", cwd=str(self.project))
        assert done.returncode == 0, done
        return done.stdout

    def edit(self, tool: str, path: Path, edits: list[dict], new_text: str | None, *, pre: bool = True) -> None:
        self.calls += 1
        call = {"tool_name": tool, "tool_input": {"file_path": str(path)}, "tool_use_id": f"tool_{self.calls}"}
        if pre:
            assert self.send(self.base("preToolUse", **call, cwd=str(self.project))) == cursor.ALLOW
        if new_text is None:
            path.unlink()
        else:
            path.write_text(new_text)
        if tool != "Delete":
            self.send(self.base("afterFileEdit", file_path=str(path), edits=edits))
        self.send(self.base("postToolUse", **call, tool_output="{}", duration=3, cwd=str(self.project)))


def test_cursor_session(tmp_path: Path, store: Path) -> None:
    project = make_repo(tmp_path / "proj", {"app.ts": "const foo = 1\nconst bar = 2\n", "old.txt": "x\n",
                                            "b.ts": "let a = 1\n"})
    app, new, old, other = project / "app.ts", project / "new.ts", project / "old.txt", project / "b.ts"
    session = CursorSession(project)
    session.send(session.base("sessionStart", source="startup"))
    assert session.send(session.base("beforeSubmitPrompt", prompt="bump foo", attachments=[])) == \
        b'{"continue": true}\n'
    session.edit("Edit", app, [{"old_string": "const foo = 1", "new_string": "const foo = 2"}],
                 "const foo = 2\nconst bar = 2\n")
    session.edit("Write", new, [{"old_string": "", "new_string": "export {}\n"}], "export {}\n")
    session.edit("Delete", old, [], None)
    # No preToolUse (older Cursor): the pre-image is the file with the edit reversed.
    session.edit("StrReplace", other, [{"old_string": "let a = 1", "new_string": "let a = 10"}], "let a = 10\n",
                 pre=False)
    shell = {"command": "echo hi >> app.ts", "cwd": str(project)}
    assert session.send(session.base("beforeShellExecution", **shell, sandbox=False)) == cursor.ALLOW
    subprocess.run(shell["command"], shell=True, cwd=project, check=True)
    session.send(session.base("afterShellExecution", **shell, output="", duration=5))
    session.send(session.base("afterAgentResponse", text="foo is 2 now"))
    session.send(session.base("stop", status="completed", loop_count=0))
    session.send(session.base("sessionEnd", reason="user_close", final_status="completed"))

    records = journal(store, session.conversation)
    changed = [(r["event"], r.get("files")) for r in records if r.get("files")]
    assert changed == [("afterFileEdit", ["app.ts"]), ("afterFileEdit", ["new.ts"]), ("postToolUse", ["old.txt"]),
                       ("afterFileEdit", ["b.ts"]), ("afterShellExecution", ["app.ts"])]
    ops = [c["op"] for r in records for c in r.get("changes") or []]
    assert ops == ["modify", "add", "delete", "modify", "modify"]
    assert records[-3]["kind"] == "assistant" and records[-3]["summary"] == "foo is 2 now"
    assert records[-2]["summary"] == "Turn finished (completed)"
    assert {r.get("turn") for r in records} == {"gen-1"}
    folder = store / "sessions" / session.conversation
    first = next(r for r in records if r.get("patches"))
    patch = (folder / first["patches"][0]).read_text()
    assert "-const foo = 1\n+const foo = 2\n" in patch
    assert not (store / "errors.log").exists()


@pytest.mark.parametrize(("after", "edits", "before"), [
    ("a\nB\nc\n", [{"old_string": "b", "new_string": "B"}], "a\nb\nc\n"),
    ("x = 2\ny = 3\n", [{"old_string": "x = 1", "new_string": "x = 2"}, {"old_string": "y = 1", "new_string": "y = 3"}],
     "x = 1\ny = 1\n"),
    ("whole\n", [{"old_string": "", "new_string": "whole\n"}], None),
    ("same\n", [{"old_string": "k", "new_string": "k"}], "same\n"),
])
def test_reverse_edits(after: str, edits: list, before: str | None) -> None:
    assert cursor.reverse_edits(after, edits) == before


@pytest.mark.parametrize("edits", [[{"old_string": "gone", "new_string": ""}], [{"old_string": "a", "new_string": "b"}],
                                   [{"old_string": "z", "new_string": "x"}], ["not an edit"]])
def test_edits_that_cannot_be_reversed(edits: list) -> None:
    with pytest.raises(ValueError):
        cursor.reverse_edits("x x\n", edits)


def test_every_field_is_optional() -> None:
    empty = cursor.observe({})
    assert (empty.event, empty.kind, empty.session_id, empty.reply) == ("Unknown", "other", "", None)
    tab = cursor.observe({"hook_event_name": "afterTabFileEdit", "conversation_id": "c", "workspace_roots": "odd"})
    assert tab.kind == "other" and tab.cwd is None
    assert cursor.observe({"hook_event_name": "afterFileEdit", "conversation_id": "c"}).file_edits == []
