"""Codex CLI adapter: a ``hooks.json`` command-hook payload becomes an Observation.

Codex's payloads follow Claude Code's names (``session_id``, ``hook_event_name``,
``tool_name``, ``tool_input``, ``tool_use_id``) and add ``turn_id`` and ``model``. File
edits arrive as ``apply_patch`` calls whose ``tool_input.command`` is the raw
``*** Begin Patch`` text; shell commands as ``Bash``; MCP tools as ``mcp__server__tool``.
Codex has no "tool failed" event: a failure shows in ``tool_response`` when at all.
"""

from __future__ import annotations

import re

from auditlog.hooks.adapter_common import (
    dict_field,
    first_text,
    kind_summary,
    new_observation,
    one_line,
    state_key,
    text_field,
    watch_tree,
)

from auditlog.observation import Observation

AGENT = "codex"

EVENT_KINDS = {
    "SessionStart": "session_start",
    "SessionEnd": "session_end",
    "UserPromptSubmit": "prompt",
    "PreToolUse": "tool_call",
    "PostToolUse": "tool_result",
    "PermissionRequest": "permission",
    "PreCompact": "compact",
    "PostCompact": "compact",
    "SubagentStart": "subagent_start",
    "SubagentStop": "subagent_stop",
    "Stop": "assistant",
    "StopFailure": "assistant",
}
EVENTS = tuple(EVENT_KINDS)
PATCH_TOOLS = frozenset(("apply_patch",))
SHELL_TOOLS = frozenset(("Bash", "shell", "local_shell", "exec_command"))
CONTEXT_EVENTS = frozenset(("SessionStart", "Stop", "SessionEnd"))
_EXIT_LINE = re.compile(r"Exit code: (-?\d+)")


def _failed_response(response: object) -> bool:
    """Whether ``tool_response`` says the tool failed (Codex sends no failure event):
    a non-zero exit code, as a field or as the ``Exit code: N`` line that starts the
    text Codex 0.169 sends for ``apply_patch``; a shell command's response is often
    just its output, which tells nothing."""
    if isinstance(response, str):
        found = _EXIT_LINE.match(response)
        return bool(found and found.group(1) != "0")
    if not isinstance(response, dict):
        return False
    code = next((response[k] for k in ("exit_code", "exitCode") if isinstance(response.get(k), int)), 0)
    return bool(code) or response.get("success") is False or bool(response.get("error"))


def _patch_call(obs: Observation, patch_text: str) -> str:
    from auditlog.apply_patch_format import touched_paths
    from auditlog.gitrefs import relative_to_root

    names = [relative_to_root(p, obs.cwd, obs.cwd) for p in touched_paths(patch_text, obs.cwd)]
    shown = ", ".join(names[:3]) + (f" and {len(names) - 3} more" if len(names) > 3 else "")
    return f"{obs.tool} {shown}".strip()


def _summary(obs: Observation, payload: dict, tool_input: dict) -> str:
    event = obs.event
    call = None
    if obs.tool in PATCH_TOOLS and text_field(tool_input.get("command")):
        call = _patch_call(obs, tool_input["command"])
    text = first_text(payload, "prompt", "last_assistant_message", "message", "reason")
    name = first_text(payload, "source", "reason", "trigger", "agent_type", "agent_id")
    if event == "SessionStart" and text_field(payload.get("model")):
        name = f"{name or 'startup'}, {payload['model']}"
    if event == "StopFailure":
        detail = first_text(payload, "error_details", "error") or "unknown error"
        return "Turn failed: " + one_line(detail, 80)
    if event == "PostCompact":
        return f"Compacted context ({name or 'unknown'})"
    if obs.kind == "tool_error":
        text = first_text(dict_field(payload, "tool_response"), "error", "stderr", "output") or "failed"
    return kind_summary(obs, text=text, name=name, call=call)


def observe(payload: dict) -> Observation:
    """Normalise one Codex hook payload."""
    obs = new_observation(AGENT, payload, EVENT_KINDS, ("session_id",))
    obs.turn = text_field(payload.get("turn_id"))
    obs.subagent = first_text(payload, "agent_type", "agent_id")
    obs.context_wanted = obs.event in CONTEXT_EVENTS
    response = payload.get("tool_response")
    if obs.event == "PostToolUse" and _failed_response(response):
        obs.kind = "tool_error"
    obs.failed = obs.event == "StopFailure" or obs.kind == "tool_error"
    tool_input = dict_field(payload, "tool_input")
    tool, before = obs.tool or "", obs.event == "PreToolUse"
    if obs.event in ("PreToolUse", "PostToolUse"):
        patch_text = text_field(tool_input.get("command"))
        if tool in PATCH_TOOLS and patch_text:
            from auditlog import apply_patch_format

            obs.state_key = state_key(payload)
            if before:
                obs.snapshot_paths = apply_patch_format.touched_paths(patch_text, obs.cwd)
            else:
                obs.file_edits = apply_patch_format.file_edits(patch_text, obs.cwd)
        elif tool in SHELL_TOOLS:
            watch_tree(obs, state_key(payload), before)
    obs.summary = _summary(obs, payload, tool_input)
    return obs
