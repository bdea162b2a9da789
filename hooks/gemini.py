"""Gemini CLI adapter: a ``settings.json`` command-hook payload becomes an Observation.

Gemini's events have their own names (``BeforeTool``/``AfterTool``, ``BeforeAgent``/
``AfterAgent``, ``PreCompress``) and every payload carries ``timestamp``. Tools are
``write_file`` and ``replace`` (edits), ``run_shell_command`` (shell), MCP tools as
``mcp__server__tool``. ``AfterTool`` follows failures too: ``tool_response.error`` says so.
No payload carries a tool-call id, so a call is paired with its result by tool name and
input (which ``AfterTool`` repeats as the model sent it).
"""

from __future__ import annotations

import re

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

from auditlog.observation import FileEdit, Observation

AGENT = "gemini-cli"

EVENT_KINDS = {
    "SessionStart": "session_start",
    "SessionEnd": "session_end",
    "BeforeAgent": "prompt",
    "AfterAgent": "assistant",
    "BeforeTool": "tool_call",
    "AfterTool": "tool_result",
    "PreCompress": "compact",
    "Notification": "notification",
    "BeforeModel": "other",
    "AfterModel": "other",
    "BeforeToolSelection": "other",
}
# The events the installer registers by default: BeforeModel/AfterModel fire for every
# streamed chunk (each payload repeating the whole request), so they are opt-in.
EVENTS = tuple(e for e in EVENT_KINDS if e not in ("BeforeModel", "AfterModel", "BeforeToolSelection"))
MODEL_EVENTS = ("BeforeModel", "AfterModel")
EDIT_TOOLS = frozenset(("write_file", "replace"))
SHELL_TOOLS = frozenset(("run_shell_command",))
CONTEXT_EVENTS = frozenset(("SessionStart", "AfterAgent", "SessionEnd"))
_EXIT_CODE = re.compile(r"^Exit Code: (-?\d+)$", re.M)


def _error(response: object) -> str | None:
    """The failure ``tool_response.error`` reports (a string or ``{message, type}``), or
    a shell command's non-zero exit, which Gemini CLI 0.61 reports only in the text
    (``Exit Code: 3`` in ``llmContent``)."""
    if not isinstance(response, dict):
        return None
    if not response.get("error"):
        text = response.get("llmContent")
        found = _EXIT_CODE.search(text) if isinstance(text, str) else None
        return f"exit code {found.group(1)}" if found and found.group(1) != "0" else None
    error = response["error"]
    if isinstance(error, dict):
        return first_text(error, "message", "type") or "failed"
    return error if isinstance(error, str) else "failed"


def _file_edit(path: str, tool: str, tool_input: dict, response: object) -> FileEdit:
    """An edit tool's change with what ``AfterTool`` says of its images: Gemini CLI's
    ``returnDisplay`` carries ``originalContent``/``newContent``/``isNewFile`` (the
    snapshot, when there is one, still wins for the before-image)."""
    display = dict_field(response, "returnDisplay") if isinstance(response, dict) else {}
    after = display.get("newContent")
    edit = FileEdit(path, after_fallback=encoded(after if isinstance(after, str) else
                                                 tool_input.get("content") if tool == "write_file" else None))
    if display.get("isNewFile") is True:
        edit.before = None
    elif isinstance(display.get("originalContent"), str):
        edit.before = encoded(display["originalContent"])
    return edit


def observe(payload: dict) -> Observation:
    """Normalise one Gemini CLI hook payload."""
    obs = new_observation(AGENT, payload, EVENT_KINDS, ("session_id", "sessionId"))
    obs.context_wanted = obs.event in CONTEXT_EVENTS
    error = _error(payload.get("tool_response")) if obs.event == "AfterTool" else None
    if error is not None:
        obs.kind = "tool_error"
    obs.failed = error is not None
    if obs.event == "Notification" and payload.get("notification_type") == "ToolPermission":
        obs.kind = "permission"
    tool_input = dict_field(payload, "tool_input")
    tool, before = obs.tool or "", obs.event == "BeforeTool"
    if obs.event in ("BeforeTool", "AfterTool"):
        if tool in EDIT_TOOLS:
            paths = absolute_paths(tool_input, obs.cwd, ("file_path", "absolute_path", "path"))
            watch_files(obs, state_key(payload), before, paths)
            if not before and paths:
                obs.file_edits = [_file_edit(paths[0], tool, tool_input, payload.get("tool_response"))]
        elif tool in SHELL_TOOLS:
            watch_tree(obs, state_key(payload), before)
    if obs.kind == "permission":
        obs.summary = "Permission asked: " + (first_text(payload, "message") or "tool call")
    else:
        text = error or first_text(payload, "prompt_response", "prompt", "message", "reason")
        obs.summary = kind_summary(obs, text=text, name=first_text(payload, "source", "reason", "trigger"))
    return obs
