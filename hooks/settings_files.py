"""Registering ``auditlog-hook`` in an agent's JSON configuration, and taking it out again.

Every installer shares these rules: the merge touches only our own entries (recognised by
the ``auditlog-hook --agent NAME`` command), keeps every other hook and setting as it
was, adds nothing when run twice, never overwrites a file it cannot read, and leaves a
backup of any file it changes. Agents nest hooks two ways: Claude Code, Codex, Gemini
CLI and hel group them (``{"matcher": …, "hooks": [{…command…}]}``), Cursor lists them
flat (``{"command": …}``); both are handled here.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import sys
import time
from collections.abc import Callable

HOOKS = "hooks"


def hook_executable() -> list[str]:
    """This installation's hook: the console script beside the running interpreter."""
    beside = os.path.join(os.path.dirname(sys.executable), "auditlog-hook")
    if os.access(beside, os.X_OK):
        return [beside]
    found = shutil.which("auditlog-hook")
    if found:
        return [os.path.abspath(found)]
    return [sys.executable, "-m", "auditlog.hooks.entry"]


def hook_command(agent: str) -> str:
    return " ".join(shlex.quote(part) for part in [*hook_executable(), "--agent", agent])


def ours_pattern(agent: str) -> re.Pattern[str]:
    """Matches the command of an auditlog hook registered for ``agent``, from this or
    any other installation (a moved virtualenv, ``python -m``)."""
    name = re.escape(agent)
    return re.compile(rf"auditlog-hook['\"]?\s+--agent[ =]{name}\b|-m auditlog\.hooks\.entry\s+--agent[ =]{name}\b")


def is_ours(entry: object, pattern: re.Pattern[str]) -> bool:
    return isinstance(entry, dict) and isinstance(entry.get("command"), str) and bool(pattern.search(entry["command"]))


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


def config_path(scope: str, directory: str | None, folder: str, name: str, *, label: str,
                scopes: tuple[str, ...], user_dir: str | None = None) -> str:
    """``DIR/<folder>/<name>`` for the project scope, ``~/<folder>/<name>`` (or
    ``user_dir``) for the user scope; a scope the agent does not have is an error."""
    if scope not in scopes:
        raise ValueError(f"{label} has no {scope!r} scope; use {' or '.join(scopes)}")
    if scope == "user":
        return os.path.join(user_dir or os.path.join(os.path.expanduser("~"), folder), name)
    return os.path.join(os.path.abspath(directory or os.getcwd()), folder, name)


def _strip(entries: list, pattern: re.Pattern[str]) -> list:
    """``entries`` (one event's list) without our hooks: flat entries that are ours go,
    and so do groups left empty by taking ours out of them."""
    kept = []
    for entry in entries:
        if is_ours(entry, pattern):
            continue
        if isinstance(entry, dict) and isinstance(entry.get(HOOKS), list):
            inner = [h for h in entry[HOOKS] if not is_ours(h, pattern)]
            if not inner and len(inner) != len(entry[HOOKS]):
                continue
            entry = {**entry, HOOKS: inner}
        kept.append(entry)
    return kept


def without_ours(settings: dict, pattern: re.Pattern[str]) -> dict:
    """``settings`` with every auditlog hook entry removed (and events left empty by
    that removal dropped; a ``hooks`` object left empty goes too)."""
    hooks = settings.get(HOOKS)
    if not isinstance(hooks, dict):
        return dict(settings)  # a copy: callers add to it, and must not change the original
    new_hooks = {}
    for event, entries in hooks.items():
        if not isinstance(entries, list):
            new_hooks[event] = entries
            continue
        kept = _strip(entries, pattern)
        if kept or not entries:
            new_hooks[event] = kept
    result = dict(settings)
    if new_hooks:
        result[HOOKS] = new_hooks
    else:
        result.pop(HOOKS, None)
    return result


def with_ours(settings: dict, pattern: re.Pattern[str], events: tuple[str, ...],
              entry: Callable[[str], dict]) -> dict:
    """``settings`` with ``entry(event)`` appended on every event (replacing any earlier
    auditlog entry, e.g. from another installation)."""
    result = without_ours(settings, pattern)
    hooks = dict(result.get(HOOKS) if isinstance(result.get(HOOKS), dict) else {})
    for event in events:
        existing = hooks.get(event) if isinstance(hooks.get(event), list) else []
        hooks[event] = [*existing, entry(event)]
    result[HOOKS] = hooks
    return result


def registered_in(settings: dict, pattern: re.Pattern[str]) -> list[str]:
    """The events for which an auditlog hook is registered in ``settings``."""
    hooks = settings.get(HOOKS) if isinstance(settings.get(HOOKS), dict) else {}
    return [event for event, entries in hooks.items()
            if isinstance(entries, list) and _strip(entries, pattern) != entries]


def ours_in(settings: dict, pattern: re.Pattern[str]) -> list[dict]:
    """Our hook handlers in ``settings`` (flat or grouped), as the objects themselves."""
    hooks = settings.get(HOOKS) if isinstance(settings.get(HOOKS), dict) else {}
    found = []
    for entries in hooks.values():
        for entry in entries if isinstance(entries, list) else []:
            inner = entry.get(HOOKS) if isinstance(entry, dict) and isinstance(entry.get(HOOKS), list) else [entry]
            found += [h for h in inner if is_ours(h, pattern)]
    return found


# What an agent's file needs besides our hooks, given the file as it was (``before``)
# and with our hooks merged in or taken out (``after``).
Extra = Callable[[dict, dict], dict]


def _unchanged(before: dict, after: dict) -> dict:
    return after


class JsonHooks:
    """One agent's JSON hook file: how each of our entries looks, and what else the file
    needs while our hooks are in it (``require``, e.g. Cursor's ``"version": 1``) and no
    longer needs once they are gone (``release``)."""

    def __init__(self, agent: str, events: tuple[str, ...], entry: Callable[[str, str], dict],
                 require: Extra = _unchanged, release: Extra = _unchanged) -> None:
        self.agent = agent
        self.events = events
        self.entry = entry
        self.pattern = ours_pattern(agent)
        self.require = require
        self.release = release

    def install(self, path: str) -> tuple[str, str | None, bool]:
        """Register the hook; returns (settings path, backup path, whether anything changed)."""
        before = read_settings(path)
        command = hook_command(self.agent)
        after = self.require(before, with_ours(before, self.pattern, self.events, lambda e: self.entry(e, command)))
        backup = write_settings(path, before, after)
        return path, backup, before != after

    def uninstall(self, path: str) -> tuple[str, str | None, bool]:
        if not os.path.exists(path):
            return path, None, False
        before = read_settings(path)
        after = self.release(before, without_ours(before, self.pattern))
        if before == after:
            return path, None, False
        return path, write_settings(path, before, after), True

    def registered_events(self, path: str) -> list[str]:
        """The events for which an auditlog hook is registered in the file at ``path``."""
        return registered_in(read_settings(path), self.pattern)

    def bind(self, settings_path: Callable[[str, str | None], str]) -> tuple[Callable, Callable]:
        """The ``install(scope, directory)`` and ``uninstall(scope, directory)`` an
        installer module offers (see :mod:`auditlog.hooks.installers`), for its file."""

        def install(scope: str = "project", directory: str | None = None) -> tuple[str, str | None, bool]:
            """Register the hook; returns (settings path, backup path, whether anything changed)."""
            return self.install(settings_path(scope, directory))

        def uninstall(scope: str = "project", directory: str | None = None) -> tuple[str, str | None, bool]:
            """Remove exactly what install added; returns as install does."""
            return self.uninstall(settings_path(scope, directory))

        return install, uninstall
