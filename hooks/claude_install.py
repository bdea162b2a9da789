"""Registering ``auditlog-hook`` in Claude Code's settings, and taking it out again.

The merge rules (only our entries touched, idempotent, backup, exact uninstall) are
shared by every agent's installer: see :mod:`auditlog.hooks.settings_files`.
"""

from __future__ import annotations

import os

from auditlog.hooks.claude import EVENTS
from auditlog.hooks.settings_files import JsonHooks, hook_command, hook_executable, read_settings, write_settings

LABEL = "Claude Code"
SCOPES = ("project", "user", "local")

# "*" matches every tool, source, reason and notification type; Claude Code 2.1.3xx tests
# the matcher of SessionStart and SessionEnd too, so it is set on every event.
MATCH_ALL = "*"
HOOK_TIMEOUT_SECONDS = 30

__all__ = ["EVENTS", "LABEL", "SCOPES", "hook_command", "hook_executable", "install", "install_notes",
           "read_settings", "registered_events", "settings_path", "uninstall", "write_settings"]


def _entry(event: str, command: str) -> dict:
    return {"matcher": MATCH_ALL, "hooks": [{"type": "command", "command": command, "timeout": HOOK_TIMEOUT_SECONDS}]}


HOOKS = JsonHooks("claude", EVENTS, _entry)


def settings_path(scope: str, directory: str | None) -> str:
    if scope == "user":
        return os.path.join(os.path.expanduser("~"), ".claude", "settings.json")
    if scope == "local":
        return os.path.join(os.path.abspath(directory or os.getcwd()), ".claude", "settings.local.json")
    return os.path.join(os.path.abspath(directory or os.getcwd()), ".claude", "settings.json")


registered_events = HOOKS.registered_events


def install_notes() -> list[str]:
    return [f"Hook command: {hook_command('claude')}"]


install, uninstall = HOOKS.bind(settings_path)
