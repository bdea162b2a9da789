"""The join at Stop, SubagentStop, PreCompact and SessionEnd: the transcript's new lines
become chained records of their own before the hook's record; only new bytes are read;
missing, rewritten, cut or malformed transcripts are noted and leave the hook's record
intact."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from store_builder import ClaudeSession, journal, make_repo

from auditlog import verify
from auditlog.paths import session_folder_name


@pytest.fixture
def session(tmp_path: Path, store: Path) -> ClaudeSession:
    s = ClaudeSession(make_repo(tmp_path / "proj", {"a.txt": "one\n"}))
    s.start()
    s.prompt("change a.txt")
    s.think("The file holds one line.\nI will edit it.")
    s.say("Editing a.txt now.")
    s.edit("a.txt", "one", "two")
    s.say("Checking it.")
    s.read("a.txt")
    return s


def _folder(store: Path, s: ClaudeSession) -> Path:
    return store / "sessions" / session_folder_name(s.session_id)


def _joined(store: Path, s: ClaudeSession) -> list[dict]:
    return [r for r in journal(store, s.session_id) if r.get("origin") == "transcript"]


def test_stop_adds_the_words_between_tool_calls_before_its_own_record(session: ClaudeSession, store: Path) -> None:
    session.stop("a.txt now says two.")
    records = journal(store, session.session_id)
    assert [r["seq"] for r in records] == list(range(1, len(records) + 1))
    assert verify.verify_session(str(_folder(store, session)))[0] == []
    joined = _joined(store, session)
    assert [r["event"] for r in joined] == ["TranscriptMessage"] * 3
    assert records[-1]["event"] == "Stop" and records[-2] is not None and records[-2]["origin"] == "transcript"
    first, second, final = (r["payload"] for r in joined)
    assert first["text"] == "Editing a.txt now." and first["tool_uses"][0]["name"] == "Edit"
    assert first["thinking"] == "The file holds one line. …" and first["thinking_chars"] == len(
        "The file holds one line.\nI will edit it."
    )
    assert second["text"] == "Checking it." and final["final"] is True
    assert {p["model"] for p in (first, second)} == {"claude-sonnet-4-5-20250929"}
    assert first["usage"]["output_tokens"] == 20
    text = (_folder(store, session) / "conversation.md").read_text()
    assert text.index("Editing a.txt now.") < text.index("Checking it.") < text.index("a.txt now says two.")
    assert text.count("a.txt now says two.") == 1  # shown by the Stop record; the join does not repeat them
    assert "*thinking:* The file holds one line." in text


def test_a_second_stop_reads_only_the_new_bytes(session: ClaudeSession, store: Path) -> None:
    session.stop("first turn done")
    state = json.loads((_folder(store, session) / "state" / "transcripts.json").read_text())
    assert state[str(session.transcript)]["offset"] == session.transcript.stat().st_size
    session.prompt("and again")
    session.say("Second turn words.")
    session.read("a.txt")
    session.stop("second turn done")
    texts = [r["payload"].get("text") for r in _joined(store, session)]
    assert texts.count("Editing a.txt now.") == 1 and texts.count("Second turn words.") == 1
    assert len(texts) == 5


def test_other_events_do_not_touch_the_transcript(session: ClaudeSession, store: Path) -> None:
    assert _joined(store, session) == []
    assert not (_folder(store, session) / "state" / "transcripts.json").exists()


def test_thinking_whole_on_request(session: ClaudeSession, store: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AUDITLOG_THINKING", "full")
    session.stop("done")
    assert _joined(store, session)[0]["payload"]["thinking"] == "The file holds one line.\nI will edit it."


def test_a_missing_transcript_is_noted_once(tmp_path: Path, store: Path) -> None:
    s = ClaudeSession(make_repo(tmp_path / "proj", {"a.txt": "x\n"}), transcript=False)
    s.start()
    s.prompt("hi")
    s.stop("first")
    s.stop("second")
    records = journal(store, s.session_id)
    notes = [r for r in records if r["event"] == "TranscriptNote"]
    assert len(notes) == 1 and notes[0]["payload"]["problem"] == "missing" and notes[0]["kind"] == "other"
    assert [r["event"] for r in records if not r.get("origin")] == ["SessionStart", "UserPromptSubmit", "Stop", "Stop"]
    assert not (store / "errors.log").exists()


def test_rewritten_and_malformed_transcripts_are_noted(session: ClaudeSession, store: Path) -> None:
    session.stop("turn one")
    with open(session.transcript, "ab") as f:
        f.write(b'{"type": "assistant", "message": {"id": "m-cut"\n')  # a complete line that is not JSON
    session.prompt("more")
    session.say("Still here.")
    session.read("a.txt")
    session.stop("turn two")
    problems = [r["payload"]["problem"] for r in journal(store, session.session_id) if r["event"] == "TranscriptNote"]
    assert problems == ["malformed"]
    assert "Still here." in [r["payload"].get("text") for r in _joined(store, session)]
    session.transcript.write_text(session.transcript.read_text()[:200])  # cut short: smaller than the offset
    session.stop("turn three")
    records = journal(store, session.session_id)
    assert records[-2]["payload"]["problem"] == "rewritten" and records[-1]["event"] == "Stop"
    assert verify.verify_session(str(_folder(store, session)))[0] == []


def test_a_line_still_being_written_waits_for_the_next_join(session: ClaudeSession, store: Path) -> None:
    with open(session.transcript, "a") as f:
        f.write('{"type": "assistant", "message": {"id": "m-late", "role": "assistant", "content": [{"type": "te')
    session.send(session.base("Stop", stop_hook_active=False, last_assistant_message="done"))
    state = json.loads((_folder(store, session) / "state" / "transcripts.json").read_text())
    assert state[str(session.transcript)]["offset"] < session.transcript.stat().st_size
    with open(session.transcript, "a") as f:
        f.write('xt", "text": "Late words."}], "model": "m"}}\n')
    session.end()
    assert _joined(store, session)[-1]["payload"]["text"] == "Late words."


def test_subagent_transcript_joins_at_subagent_stop(session: ClaudeSession, store: Path, tmp_path: Path) -> None:
    agent_file = tmp_path / "agent-a1.jsonl"
    line = {"type": "assistant", "isSidechain": True, "agentId": "a1", "uuid": "u-1",
            "timestamp": "2026-01-02T03:04:05.678Z",
            "message": {"id": "msg-sub", "model": "claude-haiku-4-5", "role": "assistant",
                        "content": [{"type": "text", "text": "Found 3 files."}],
                        "usage": {"input_tokens": 10, "output_tokens": 5}}}
    agent_file.write_text(json.dumps(line) + "\n")
    session.send(session.base("SubagentStop", agent_id="a1", agent_type="Explore",
                              agent_transcript_path=str(agent_file), last_assistant_message="Found 3 files.",
                              stop_hook_active=False))
    sub = [r for r in _joined(store, session) if r.get("subagent") == "Explore"]
    assert len(sub) == 1 and sub[0]["payload"]["final"] is True and sub[0]["ts"] == "2026-01-02T03:04:05.678Z"
