"""``auditlog install/uninstall/doctor --agent claude`` on real settings files."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from auditlog.hooks import claude_install
from auditlog.hooks.claude import EVENTS

CLI = [sys.executable, "-m", "auditlog.cli"]
EXISTING = {
    "model": "opus",
    "permissions": {"allow": ["Bash(npm test)"]},
    "hooks": {
        "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "my-guard.sh"}]}],
        "Stop": [{"hooks": [{"type": "command", "command": "notify-send done"}]}],
    },
}


def cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([*CLI, *args], capture_output=True, text=True, check=False)


def test_install_merges_without_disturbing_and_is_idempotent(tmp_path: Path) -> None:
    settings = tmp_path / ".claude" / "settings.json"
    settings.parent.mkdir()
    settings.write_text(json.dumps(EXISTING, indent=2))
    done = cli("install", "--agent", "claude", "--dir", str(tmp_path))
    assert done.returncode == 0, done.stderr
    after = json.loads(settings.read_text())
    assert after["model"] == "opus" and after["permissions"] == EXISTING["permissions"]
    assert after["hooks"]["PreToolUse"][0] == EXISTING["hooks"]["PreToolUse"][0]
    assert after["hooks"]["Stop"][0] == EXISTING["hooks"]["Stop"][0]
    assert sorted(claude_install.registered_events(str(settings))) == sorted(EVENTS)
    command = after["hooks"]["SessionStart"][0]["hooks"][0]["command"]
    assert command.split()[0].startswith("/") and command.endswith("--agent claude")
    backups = list(settings.parent.glob("settings.json.auditlog-backup-*"))
    assert len(backups) == 1 and json.loads(backups[0].read_text()) == EXISTING
    again = cli("install", "--agent", "claude", "--dir", str(tmp_path))
    assert again.returncode == 0 and "nothing changed" in again.stdout
    assert json.loads(settings.read_text()) == after
    assert len(list(settings.parent.glob("settings.json.auditlog-backup-*"))) == 1


def test_uninstall_removes_exactly_what_install_added(tmp_path: Path) -> None:
    settings = tmp_path / ".claude" / "settings.json"
    settings.parent.mkdir()
    settings.write_text(json.dumps(EXISTING))
    assert cli("install", "--agent", "claude", "--dir", str(tmp_path)).returncode == 0
    assert cli("uninstall", "--agent", "claude", "--dir", str(tmp_path)).returncode == 0
    assert json.loads(settings.read_text()) == EXISTING


def test_install_on_a_fresh_project_and_user_scope(tmp_path: Path, isolated_home: Path) -> None:
    assert cli("install", "--agent", "claude", "--dir", str(tmp_path)).returncode == 0
    assert (tmp_path / ".claude" / "settings.json").exists()
    assert cli("install", "--agent", "claude", "--scope", "user").returncode == 0
    user = isolated_home / ".claude" / "settings.json"
    assert sorted(claude_install.registered_events(str(user))) == sorted(EVENTS)
    assert cli("uninstall", "--agent", "claude", "--scope", "user").returncode == 0
    assert json.loads(user.read_text()) == {}


def test_install_refuses_a_broken_settings_file(tmp_path: Path) -> None:
    settings = tmp_path / ".claude" / "settings.json"
    settings.parent.mkdir()
    settings.write_text("{ not json")
    done = cli("install", "--agent", "claude", "--dir", str(tmp_path))
    assert done.returncode == 1 and "not valid JSON" in done.stderr and done.stderr.count("\n") == 1
    assert settings.read_text() == "{ not json"


def test_doctor_reports_working_capture(tmp_path: Path, store: Path) -> None:
    assert cli("doctor", "--dir", str(tmp_path)).returncode == 1  # nothing registered yet
    cli("install", "--agent", "claude", "--dir", str(tmp_path))
    done = cli("doctor", "--dir", str(tmp_path))
    assert done.returncode == 0, done.stdout
    assert "33 events" in done.stdout and "3 of 3 test events recorded" in done.stdout
    assert not (store / "sessions").exists()  # the test events went to a scratch store


def test_plugin_hooks_json_registers_every_event() -> None:
    plugin = json.loads((Path(__file__).resolve().parent.parent / "hooks" / "hooks.json").read_text())
    assert sorted(plugin["hooks"]) == sorted(EVENTS)
    for groups in plugin["hooks"].values():
        assert groups[0]["hooks"][0]["command"].startswith('"${CLAUDE_PLUGIN_ROOT}/hooks/auditlog-hook.sh"')
