"""Registering ``auditlog-hook`` in hel's ``.hel/hooks.json``, and taking it out again.

hel reads project hooks only, for ``PreToolUse`` and ``PostToolUse``, grouped by a
``matcher`` (a regular expression on the tool name) with ``type: command`` handlers whose
``timeout`` is in seconds. It keeps a SHA-256 of the file in ``.hel/hooks-trust.json``
and asks the user to trust the file again after any change, ours included.
"""

from __future__ import annotations

from auditlog.hooks.hel import EVENTS
from auditlog.hooks.settings_files import JsonHooks, config_path, hook_command

LABEL = "hel"
SCOPES = ("project",)
MATCH_ALL = ".*"
HOOK_TIMEOUT_SECONDS = 30


def _entry(event: str, command: str) -> dict:
    return {"matcher": MATCH_ALL, "hooks": [{"type": "command", "command": command, "timeout": HOOK_TIMEOUT_SECONDS}]}


HOOKS = JsonHooks("hel", EVENTS, _entry)


def settings_path(scope: str, directory: str | None) -> str:
    return config_path(scope, directory, ".hel", "hooks.json", label=LABEL, scopes=SCOPES)


registered_events = HOOKS.registered_events


def install_notes() -> list[str]:
    return [f"Hook command: {hook_command('hel')}",
            "hel keeps a SHA-256 of .hel/hooks.json in .hel/hooks-trust.json: at its next start it shows the changed "
            "hooks and asks you to trust them; nothing is captured until you do."]


install, uninstall = HOOKS.bind(settings_path)
