"""Registering ``auditlog-hook`` in Cursor's ``hooks.json`` (version 1), and taking it out.

Cursor lists hooks flat, ``{"version": 1, "hooks": {"<event>": [{"command": …}]}}``, in
``.cursor/hooks.json`` of the project or ``~/.cursor/hooks.json``; both run when both
exist. The merge rules are those of every installer (:mod:`.settings_files`).
"""

from __future__ import annotations

from auditlog.hooks.cursor import EVENTS
from auditlog.hooks.settings_files import JsonHooks, config_path, hook_command

LABEL = "Cursor"
SCOPES = ("project", "user")
VERSION = 1


def _entry(event: str, command: str) -> dict:
    return {"command": command}


def _require(before: dict, after: dict) -> dict:
    """Cursor ignores a hooks file without its format version."""
    return after if "version" in after else {"version": VERSION, **after}


def _release(before: dict, after: dict) -> dict:
    """Once no hook is left, the format version is inert: it goes with our hooks (install
    adds it whenever it is missing, so it is ours in the usual case)."""
    if "hooks" in after or after.get("version") != VERSION:
        return after
    return {k: v for k, v in after.items() if k != "version"}


HOOKS = JsonHooks("cursor", EVENTS, _entry, _require, _release)


def settings_path(scope: str, directory: str | None) -> str:
    return config_path(scope, directory, ".cursor", "hooks.json", label=LABEL, scopes=SCOPES)


registered_events = HOOKS.registered_events


def install_notes() -> list[str]:
    return [f"Hook command: {hook_command('cursor')}",
            "Before-hooks (beforeShellExecution, beforeMCPExecution, beforeReadFile, preToolUse, beforeSubmitPrompt, "
            "subagentStart) always answer allow with no message; auditlog never blocks Cursor.",
            "Cursor reads hooks.json when it starts: restart it (or open a new window) to begin capturing."]


install, uninstall = HOOKS.bind(settings_path)
