"""Registering ``auditlog-hook`` in Gemini CLI's ``settings.json``, and taking it out again.

Gemini CLI reads ``hooks`` from ``.gemini/settings.json`` of the project and from
``~/.gemini/settings.json``, grouped like Claude Code's but with ``timeout`` in
milliseconds and a ``name`` (Gemini runs one hook of a given name and command once even
when several files list it). Releases before hooks were on by default need
``hooksConfig.enabled``: install sets it when the file does not say (and marks its own
entries so), and uninstall takes it out again.

``BeforeModel``/``AfterModel`` fire for every streamed chunk, each payload repeating the
whole request: they are registered only when ``AUDITLOG_GEMINI_MODEL_EVENTS=1`` is set
while installing.
"""

from __future__ import annotations

import os

from auditlog.hooks.gemini import EVENTS, MODEL_EVENTS
from auditlog.hooks.settings_files import HOOKS as HOOKS_KEY
from auditlog.hooks.settings_files import JsonHooks, config_path, hook_command, ours_in, ours_pattern

LABEL = "Gemini CLI"
SCOPES = ("project", "user")
TOOL_EVENTS = frozenset(("BeforeTool", "AfterTool"))
HOOK_TIMEOUT_MS = 30000
HOOK_NAME = "auditlog"
SWITCH = "hooksConfig"
DESCRIPTION = "auditlog: record this event in the audit trail"
# Our entries carry this description when install turned the hooks system on, so that
# uninstall knows the switch is ours to take back (settings.json has no comments).
DESCRIPTION_SWITCHED = DESCRIPTION + " (auditlog install set hooksConfig.enabled)"
PATTERN = ours_pattern("gemini")


def _entry(event: str, command: str) -> dict:
    # Tool events match tool names ("*": all); the others match a source or reason
    # exactly, so they get no matcher, which matches everything.
    group: dict = {"matcher": "*"} if event in TOOL_EVENTS else {}
    group[HOOKS_KEY] = [{"name": HOOK_NAME, "type": "command", "command": command, "timeout": HOOK_TIMEOUT_MS,
                         "description": DESCRIPTION}]
    return group


def _switch_is_ours(before: dict) -> bool:
    """Whether an earlier install set ``hooksConfig.enabled`` (our entries say so)."""
    return any(h.get("description") == DESCRIPTION_SWITCHED for h in ours_in(before, PATTERN))


def _require(before: dict, after: dict) -> dict:
    switch = after.get(SWITCH) if isinstance(after.get(SWITCH), dict) else {}
    if "enabled" in switch and not _switch_is_ours(before):
        return after  # the user's own choice, kept (install_notes says when it is off)
    for handler in ours_in(after, PATTERN):  # fresh objects: with_ours made them
        handler["description"] = DESCRIPTION_SWITCHED
    return {**after, SWITCH: {**switch, "enabled": True}}


def _release(before: dict, after: dict) -> dict:
    if not _switch_is_ours(before) or not isinstance(after.get(SWITCH), dict):
        return after
    switch = {k: v for k, v in after[SWITCH].items() if k != "enabled"}
    result = {k: v for k, v in after.items() if k != SWITCH}
    return {**result, SWITCH: switch} if switch else result


def events() -> tuple[str, ...]:
    """The events to register: the model events only when asked for."""
    return EVENTS + MODEL_EVENTS if os.environ.get("AUDITLOG_GEMINI_MODEL_EVENTS") == "1" else EVENTS


def _hooks() -> JsonHooks:
    return JsonHooks("gemini", events(), _entry, _require, _release)


def settings_path(scope: str, directory: str | None) -> str:
    return config_path(scope, directory, ".gemini", "settings.json", label=LABEL, scopes=SCOPES)


def registered_events(path: str) -> list[str]:
    return _hooks().registered_events(path)


def install_notes() -> list[str]:
    return [f"Hook command: {hook_command('gemini')}",
            "hooksConfig.enabled is set to true unless the file already said; if it says false, Gemini CLI runs "
            "no hooks at all.",
            "BeforeModel/AfterModel are not registered (they fire per streamed chunk); install with "
            "AUDITLOG_GEMINI_MODEL_EVENTS=1 to record them too."]


def install(scope: str = "project", directory: str | None = None) -> tuple[str, str | None, bool]:
    return _hooks().install(settings_path(scope, directory))


def uninstall(scope: str = "project", directory: str | None = None) -> tuple[str, str | None, bool]:
    return _hooks().uninstall(settings_path(scope, directory))
