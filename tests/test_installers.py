"""Every agent's installer: merges into an existing configuration without disturbing it,
adds nothing when run twice, uninstalls exactly what it added; and the commands they
install, run as the agents run them, fill one store with all five agents side by side."""

from __future__ import annotations

import json
import os
import sqlite3
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from auditlog.hooks import codex_install, installers, settings_files
from store_builder import make_repo

AGENTS = ("claude", "codex", "gemini", "cursor", "hel")
# Settings a user already has: another tool's hooks on an event we also use, and keys
# that are none of our business.
EXISTING = {
    "claude": {"model": "opus", "hooks": {"Stop": [{"matcher": "*", "hooks": [{"type": "command",
                                                                                "command": "say done"}]}]}},
    "codex": {"description": "team hooks", "hooks": {"PreToolUse": [{"matcher": "^Bash$", "hooks": [
        {"type": "command", "command": "python3 policy.py", "timeout": 5}]}]}},
    "gemini": {"ui": {"theme": "Dracula"}, "hooks": {"BeforeTool": [{"matcher": "write_file", "hooks": [
        {"name": "fmt", "type": "command", "command": "./fmt.sh"}]}]}},
    "cursor": {"version": 1, "hooks": {"afterFileEdit": [{"command": "./format.sh"}]}},
    "hel": {"hooks": {"PostToolUse": [{"matcher": "write_file", "hooks": [{"type": "command",
                                                                             "command": "make lint"}]}]}},
}


@pytest.mark.parametrize("agent", AGENTS)
def test_merge_is_idempotent_and_uninstall_exact(agent: str, tmp_path: Path) -> None:
    module = installers.installer(agent)
    path = Path(module.settings_path("project", str(tmp_path)))
    path.parent.mkdir(parents=True)
    path.write_text(json.dumps(EXISTING[agent], indent=2))
    path.chmod(0o640)

    written, backup, changed = module.install("project", str(tmp_path))
    assert (written, changed) == (str(path), True)
    assert backup and json.loads(Path(backup).read_text()) == EXISTING[agent]
    after = json.loads(path.read_text())
    assert sorted(module.registered_events(str(path))) == sorted(module.EVENTS)
    assert stat.S_IMODE(path.stat().st_mode) == 0o640  # the file keeps its mode
    for key, value in EXISTING[agent].items():  # everything that was there is still there
        if key != "hooks":
            assert after[key] == value
    for event, entries in EXISTING[agent]["hooks"].items():
        assert after["hooks"][event][: len(entries)] == entries

    assert module.install("project", str(tmp_path))[1:] == (None, False)
    assert json.loads(path.read_text()) == after
    assert module.uninstall("project", str(tmp_path))[2] is True
    assert json.loads(path.read_text()) == EXISTING[agent]
    assert module.uninstall("project", str(tmp_path))[1:] == (None, False)


@pytest.mark.parametrize("agent", AGENTS)
def test_install_into_nothing_and_back(agent: str, tmp_path: Path) -> None:
    module = installers.installer(agent)
    path = Path(module.install("project", str(tmp_path))[0])
    config = json.loads(path.read_text())
    commands = [h.get("command") for entries in config["hooks"].values() for e in entries
                for h in (e.get("hooks") or [e])]
    assert commands and all(c.endswith(f"--agent {agent}") for c in commands)
    if agent == "cursor":
        assert config["version"] == 1 and all(set(e) == {"command"} for v in config["hooks"].values() for e in v)
    if agent == "gemini":
        assert config["hooksConfig"] == {"enabled": True}
        assert all(h["timeout"] == 30000 for v in config["hooks"].values() for g in v for h in g["hooks"])
    module.uninstall("project", str(tmp_path))
    assert json.loads(path.read_text()) == {}


@pytest.mark.parametrize("agent", AGENTS)
def test_a_file_without_hooks_gets_them(agent: str, tmp_path: Path) -> None:
    """A settings file with no ``hooks`` key yet (the common case) is merged into, not
    mistaken for one already registered."""
    module = installers.installer(agent)
    path = Path(module.settings_path("project", str(tmp_path)))
    path.parent.mkdir(parents=True)
    path.write_text('{"theme": "dark"}')
    assert module.install("project", str(tmp_path))[2] is True
    assert json.loads(path.read_text())["theme"] == "dark" and module.registered_events(str(path))
    module.uninstall("project", str(tmp_path))
    assert json.loads(path.read_text()) == {"theme": "dark"}


def test_scopes_and_their_files(tmp_path: Path, isolated_home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    expected = {"claude": ".claude/settings.json", "codex": ".codex/hooks.json", "gemini": ".gemini/settings.json",
                "cursor": ".cursor/hooks.json", "hel": ".hel/hooks.json"}
    for agent, rel in expected.items():
        module = installers.installer(agent)
        assert module.settings_path("project", str(tmp_path)) == str(tmp_path / rel)
        if "user" in module.SCOPES:
            assert module.settings_path("user", None) == str(isolated_home / rel)
        assert module.LABEL and module.install_notes()
    with pytest.raises(ValueError, match="hel has no 'user' scope"):
        installers.installer("hel").install("user", None)
    with pytest.raises(ValueError, match="no 'local' scope"):
        installers.installer("cursor").settings_path("local", str(tmp_path))
    monkeypatch.setenv("CODEX_HOME", str(tmp_path / "codex-home"))
    assert codex_install.settings_path("user", None) == str(tmp_path / "codex-home" / "hooks.json")


def test_unreadable_configuration_is_left_alone(tmp_path: Path) -> None:
    path = tmp_path / ".cursor" / "hooks.json"
    path.parent.mkdir()
    path.write_text("{ not json")
    with pytest.raises(ValueError, match="not valid JSON"):
        installers.installer("cursor").install("project", str(tmp_path))
    assert path.read_text() == "{ not json"


def test_gemini_keeps_the_users_switch(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    module = installers.installer("gemini")
    path = Path(module.settings_path("project", str(tmp_path)))
    path.parent.mkdir()
    path.write_text(json.dumps({"hooksConfig": {"enabled": False}}))
    module.install("project", str(tmp_path))
    assert json.loads(path.read_text())["hooksConfig"] == {"enabled": False}
    monkeypatch.setenv("AUDITLOG_GEMINI_MODEL_EVENTS", "1")
    module.install("project", str(tmp_path))
    assert {"BeforeModel", "AfterModel"} <= set(module.registered_events(str(path)))


def _fake_codex(bin_dir: Path, version: str) -> None:
    bin_dir.mkdir(exist_ok=True)
    script = bin_dir / "codex"
    script.write_text(f"#!/bin/sh\necho 'codex-cli {version}'\n")
    script.chmod(0o755)


def test_codex_feature_flag_only_where_the_version_needs_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PATH", f"{tmp_path / 'bin'}{os.pathsep}{os.environ['PATH']}")
    config = tmp_path / ".codex" / "config.toml"
    config.parent.mkdir()
    config.write_text('model = "gpt-5"\n\n[features]\nweb_search = true\n')
    _fake_codex(tmp_path / "bin", "0.169.0")
    codex_install.install("project", str(tmp_path))
    assert "codex_hooks" not in config.read_text()
    _fake_codex(tmp_path / "bin", "0.120.0")
    codex_install.install("project", str(tmp_path))
    text = config.read_text()
    assert "codex_hooks = true" in text
    import tomllib

    assert tomllib.loads(text)["features"] == {"web_search": True, "codex_hooks": True}
    codex_install.uninstall("project", str(tmp_path))
    assert config.read_text() == 'model = "gpt-5"\n\n[features]\nweb_search = true\n'
    config.write_text("[features]\nhooks = false\n")  # the user's explicit choice stays
    codex_install.install("project", str(tmp_path))
    assert config.read_text() == "[features]\nhooks = false\n"


def test_codex_flag_in_a_new_config(tmp_path: Path) -> None:
    text = codex_install.with_flag("")
    assert text == "[features]  # added by auditlog install\ncodex_hooks = true  # added by auditlog install\n"
    assert codex_install.without_flag(text) == ""
    user_added = text + "web_search = true\n"
    assert "[features]" in codex_install.without_flag(user_added)  # their key keeps its table


def _run_installed(command: str, payload: dict, cwd: Path) -> subprocess.CompletedProcess:
    """Run a hook command as the agents do: through a shell, payload on stdin."""
    return subprocess.run(command, shell=True, input=json.dumps(payload).encode(), capture_output=True,
                          cwd=cwd, timeout=30, check=False)


def _commands(agent: str, project: Path) -> set[str]:
    config = settings_files.read_settings(installers.installer(agent).settings_path("project", str(project)))
    return {h["command"] for entries in config["hooks"].values() for e in entries for h in (e.get("hooks") or [e])}


def _sessions(project: Path) -> dict[str, list]:
    """A few payloads per agent; a callable between them is the tool's effect on disk."""
    p, s = str(project), "sess"
    edit = {"tool_input": {"file_path": f"{p}/a.txt", "old_string": "a", "new_string": "b"}}
    return {
        "claude": [{"session_id": f"claude-{s}", "cwd": p, "hook_event_name": "UserPromptSubmit", "prompt": "one"},
                   {"session_id": f"claude-{s}", "cwd": p, "hook_event_name": "PreToolUse", "tool_name": "Edit",
                    "tool_use_id": "t1", **edit},
                   lambda: (project / "a.txt").write_text("b\n"),
                   {"session_id": f"claude-{s}", "cwd": p, "hook_event_name": "PostToolUse", "tool_name": "Edit",
                    "tool_use_id": "t1", **edit, "tool_response": {"originalFile": "a\n"}}],
        "codex": [{"session_id": f"codex-{s}", "turn_id": "t", "cwd": p, "hook_event_name": "UserPromptSubmit",
                   "prompt": "two"},
                  {"session_id": f"codex-{s}", "turn_id": "t", "cwd": p, "hook_event_name": "PostToolUse",
                   "tool_name": "Bash", "tool_use_id": "c1", "tool_input": {"command": "true"}, "tool_response": ""}],
        "gemini": [{"session_id": f"gemini-{s}", "cwd": p, "timestamp": "2026-11-29T10:00:00Z",
                    "hook_event_name": "BeforeAgent", "prompt": "three"}],
        "cursor": [{"conversation_id": f"cursor-{s}", "workspace_roots": [p], "hook_event_name": "beforeSubmitPrompt",
                    "prompt": "four"}],
        "hel": [{"session_id": f"hel-{s}", "cwd": p, "hook_event_name": "PreToolUse", "tool_name": "bash",
                 "tool_input": {"command": "ls"}}],
    }


def test_one_store_for_all_five_agents(tmp_path: Path, store: Path) -> None:
    project = make_repo(tmp_path / "proj", {"a.txt": "a\n"})
    auditlog = [sys.executable, "-m", "auditlog.cli"]
    for agent in AGENTS:
        done = subprocess.run([*auditlog, "install", "--agent", agent, "--dir", str(project)], capture_output=True,
                              text=True, check=False)
        assert done.returncode == 0, done.stderr
    for agent, payloads in _sessions(project).items():
        (command,) = _commands(agent, project)
        for payload in payloads:
            if callable(payload):
                payload()
                continue
            done = _run_installed(command, payload, project)
            assert done.returncode == 0 and done.stderr == b"", (agent, done)
            expected = b'{"continue": true}\n' if agent == "cursor" else b""
            assert done.stdout == expected
    conn = sqlite3.connect(store / "index.sqlite")
    rows = dict(conn.execute("SELECT agent, count(*) FROM sessions GROUP BY agent").fetchall())
    assert rows == {"claude-code": 1, "codex": 1, "gemini-cli": 1, "cursor": 1, "hel": 1}
    prompts = dict(conn.execute("SELECT s.agent, p.text FROM prompts p JOIN sessions s ON s.id = p.session"))
    assert prompts == {"claude-code": "one", "codex": "two", "gemini-cli": "three", "cursor": "four"}
    assert conn.execute("SELECT session, path FROM changes").fetchall() == [("claude-sess", "a.txt")]
    doctor = subprocess.run([*auditlog, "doctor", "--dir", str(project)], capture_output=True, text=True, check=False)
    for label in ("Claude Code, project", "Codex CLI, project", "Gemini CLI, project", "Cursor, project",
                  "hel, project"):
        assert f"✓ {label}: hooks on" in doctor.stdout, doctor.stdout
    verify = subprocess.run([*auditlog, "verify"], capture_output=True, text=True, check=False)
    assert verify.returncode == 0, verify.stdout + verify.stderr


PROBE = """
import json, os, sys
from auditlog.hooks import entry
agent, payload = sys.argv[1], json.loads(sys.argv[2])
r, w = os.pipe()
os.write(w, json.dumps(payload).encode()); os.close(w)
entry.run(["--agent", agent], stdin_fd=r)
print(json.dumps(sorted(sys.modules)))
"""
HEAVY = ("click", "rich", "textual", "sqlite_utils", "unidiff", "hashlib", "auditlog.cli", "auditlog.tui",
         "auditlog.query", "auditlog.hooks.claude_install", "auditlog.hooks.settings_files")


@pytest.mark.parametrize(("agent", "payload"), [
    ("codex", {"hook_event_name": "PostToolUse", "turn_id": "t", "tool_name": "apply_patch", "tool_use_id": "c",
               "tool_input": {"command": "*** Begin Patch\n*** Add File: n.txt\n+x\n*** End Patch\n"}}),
    ("gemini", {"hook_event_name": "AfterTool", "tool_name": "replace", "tool_input": {"file_path": "n.txt"}}),
    ("cursor", {"hook_event_name": "afterFileEdit", "file_path": "n.txt", "edits": [{"old_string": "",
                                                                                     "new_string": "x\n"}]}),
    ("hel", {"hook_event_name": "PostToolUse", "tool_name": "write_file", "tool_input": {"path": "n.txt"}}),
])
def test_every_adapter_keeps_the_hook_light(agent: str, payload: dict, tmp_path: Path, store: Path) -> None:
    """The hook runs on every tool call: each adapter's path imports only the standard
    library and the core (the index is migrated first, which may import sqlite-utils)."""
    (tmp_path / "n.txt").write_text("x\n")
    base = {"session_id": f"light-{agent}", "conversation_id": f"light-{agent}", "cwd": str(tmp_path),
            "workspace_roots": [str(tmp_path)]}
    warm = {**base, "hook_event_name": "SessionStart"}
    subprocess.run([sys.executable, "-c", PROBE, agent, json.dumps(warm)], check=True, capture_output=True)
    done = subprocess.run([sys.executable, "-c", PROBE, agent, json.dumps({**base, **payload})], check=True,
                          capture_output=True, text=True)
    modules = json.loads(done.stdout.splitlines()[-1])
    assert [m for m in modules if any(m == h or m.startswith(h + ".") for h in HEAVY)] == []
    assert "auditlog.capture" in modules
