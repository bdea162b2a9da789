"""hel adapter: a ``.hel/hooks.json`` command-hook payload becomes an Observation.

hel fires ``PreToolUse`` and ``PostToolUse`` only, with Claude Code's field names. Its
tools are ``read_file {path}``, ``search_replace {path, search, replace}``, ``write_file
{path, content}`` and ``bash``; ``tool_response`` is a string. ``PostToolUse`` follows
successful calls only, so a failed call shows as a ``tool_call`` with no result.
"""

from __future__ import annotations

from auditlog.hooks.adapter_common import (
    absolute_paths,
    dict_field,
    encoded,
    first_text,
    kind_summary,
    new_observation,
    state_key,
    watch_files,
    watch_tree,
)

from auditlog.observation import Observation

AGENT = "hel"

EVENT_KINDS = {"PreToolUse": "tool_call", "PostToolUse": "tool_result"}
EVENTS = tuple(EVENT_KINDS)
EDIT_TOOLS = frozenset(("search_replace", "write_file"))
SHELL_TOOLS = frozenset(("bash",))


def _after_fallback(tool: str, tool_input: dict, paths: list[str]) -> dict[str, object] | None:
    """What the payload says a file became, for when it is not on this machine: a
    write's content (a search/replace depends on the old text, which only disk has)."""
    if tool != "write_file" or not paths:
        return None
    return {paths[0]: encoded(tool_input.get("content"))}


def observe(payload: dict) -> Observation:
    """Normalise one hel hook payload."""
    obs = new_observation(AGENT, payload, EVENT_KINDS, ("session_id", "sessionId"))
    tool_input = dict_field(payload, "tool_input")
    tool, before = obs.tool or "", obs.event == "PreToolUse"
    if obs.kind in ("tool_call", "tool_result"):
        if tool in EDIT_TOOLS:
            paths = absolute_paths(tool_input, obs.cwd, ("path", "file_path"))
            watch_files(obs, state_key(payload), before, paths, _after_fallback(tool, tool_input, paths))
        elif tool in SHELL_TOOLS:
            watch_tree(obs, state_key(payload), before)
    obs.summary = kind_summary(obs, text=first_text(payload, "prompt", "message", "reason"))
    return obs
