"""Registering ``auditlog-hook`` in Claude Code's settings, and taking it out again.

The merge touches only our own entries (recognised by the ``auditlog-hook`` command),
keeps every other hook and setting as it was, adds nothing when run twice, and leaves a
backup of the file it changed.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import sys
import time

from auditlog.hooks.claude import EVENTS

LABEL = "Claude Code"
SCOPES = ("project", "user", "local")

# "*" matches every tool, source, reason and notification type; Claude Code 2.1.3xx tests
# the matcher of SessionStart and SessionEnd too, so it is set on every event.
MATCH_ALL = "*"
HOOK_TIMEOUT_SECONDS = 30
_OURS = re.compile(r"auditlog-hook['\"]?\s+--agent[ =]claude\b|-m auditlog\.hooks\.entry\s+--agent[ =]claude\b")


def hook_executable() -> list[str]:
    """This installation's hook: the console script beside the running interpreter."""
    beside = os.path.join(os.path.dirname(sys.executable), "auditlog-hook")
    if os.access(beside, os.X_OK):
        return [beside]
    found = shutil.which("auditlog-hook")
    if found:
        return [os.path.abspath(found)]
    return [sys.executable, "-m", "auditlog.hooks.entry"]


def hook_command(agent: str = "claude") -> str:
    return " ".join(shlex.quote(part) for part in [*hook_executable(), "--agent", agent])


def settings_path(scope: str, directory: str | None) -> str:
    if scope == "user":
        return os.path.join(os.path.expanduser("~"), ".claude", "settings.json")
    if scope == "local":
        return os.path.join(os.path.abspath(directory or os.getcwd()), ".claude", "settings.local.json")
    return os.path.join(os.path.abspath(directory or os.getcwd()), ".claude", "settings.json")


def is_ours(entry: object) -> bool:
    return isinstance(entry, dict) and isinstance(entry.get("command"), str) and bool(_OURS.search(entry["command"]))


def read_settings(path: str) -> dict:
    """The settings file as a dict ({} when absent). A file that is not a JSON object is
    an error: we never overwrite what we cannot read."""
    if not os.path.exists(path):
        return {}
    with open(path, encoding="utf-8") as f:
        text = f.read()
    if not text.strip():
        return {}
    try:
        data = json.loads(text)
    except ValueError as exc:
        raise ValueError(f"{path} is not valid JSON ({exc}); fix it, then run install again") from None
    if not isinstance(data, dict):
        raise ValueError(f"{path} does not hold a JSON object; fix it, then run install again")
    return data


def without_ours(settings: dict) -> dict:
    """``settings`` with every auditlog hook entry removed (and groups/events left empty
    by that removal dropped)."""
    hooks = settings.get("hooks")
    if not isinstance(hooks, dict):
        return settings
    new_hooks = {}
    for event, groups in hooks.items():
        if not isinstance(groups, list):
            new_hooks[event] = groups
            continue
        kept_groups = []
        for group in groups:
            if isinstance(group, dict) and isinstance(group.get("hooks"), list):
                kept = [h for h in group["hooks"] if not is_ours(h)]
                if not kept and len(kept) != len(group["hooks"]):
                    continue
                group = {**group, "hooks": kept}
            kept_groups.append(group)
        if kept_groups or not groups:
            new_hooks[event] = kept_groups
    result = dict(settings)
    if new_hooks:
        result["hooks"] = new_hooks
    else:
        result.pop("hooks", None)
    return result


def with_ours(settings: dict, command: str) -> dict:
    """``settings`` with one auditlog hook on every Claude Code event (replacing any
    earlier auditlog entry, e.g. from another installation)."""
    result = without_ours(settings)
    hooks = result.get("hooks") if isinstance(result.get("hooks"), dict) else {}
    hooks = dict(hooks)
    for event in EVENTS:
        group = {"matcher": MATCH_ALL,
                 "hooks": [{"type": "command", "command": command, "timeout": HOOK_TIMEOUT_SECONDS}]}
        existing = hooks.get(event) if isinstance(hooks.get(event), list) else []
        hooks[event] = [*existing, group]
    result["hooks"] = hooks
    return result


def write_settings(path: str, before: dict, after: dict) -> str | None:
    """Write ``after`` if it differs from ``before``; returns the backup's path, if any."""
    if before == after and os.path.exists(path):
        return None
    os.makedirs(os.path.dirname(path), exist_ok=True)
    backup = None
    if os.path.exists(path):
        backup = f"{path}.auditlog-backup-{time.strftime('%Y%m%d-%H%M%S')}"
        shutil.copy2(path, backup)
    tmp = f"{path}.tmp{os.getpid()}"
    with open(tmp, "w", encoding="utf-8") as f:
        json.dump(after, f, indent=2, ensure_ascii=False)
        f.write("\n")
    if os.path.exists(path):
        shutil.copymode(path, tmp)
    os.replace(tmp, path)
    return backup


def registered_events(path: str) -> list[str]:
    """The events for which an auditlog hook is registered in the settings at ``path``."""
    return registered_in(read_settings(path))


def registered_in(settings: dict) -> list[str]:
    hooks = settings.get("hooks") if isinstance(settings.get("hooks"), dict) else {}
    found = []
    for event, groups in hooks.items():
        if isinstance(groups, list) and any(
            isinstance(g, dict) and isinstance(g.get("hooks"), list) and any(is_ours(h) for h in g["hooks"])
            for g in groups
        ):
            found.append(event)
    return found


def install_notes() -> list[str]:
    return [f"Hook command: {hook_command('claude')}"]


def install(scope: str = "project", directory: str | None = None) -> tuple[str, str | None, bool]:
    """Register the hook; returns (settings path, backup path, whether anything changed)."""
    path = settings_path(scope, directory)
    before = read_settings(path)
    after = with_ours(before, hook_command("claude"))
    backup = write_settings(path, before, after)
    return path, backup, before != after


def uninstall(scope: str = "project", directory: str | None = None) -> tuple[str, str | None, bool]:
    path = settings_path(scope, directory)
    if not os.path.exists(path):
        return path, None, False
    before = read_settings(path)
    after = without_ours(before)
    if before == after:
        return path, None, False
    return path, write_settings(path, before, after), True
