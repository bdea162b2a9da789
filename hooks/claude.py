"""Claude Code adapter: a hook payload becomes an :class:`~auditlog.observation.Observation`.

Every field is optional: payloads differ from 1.0.x (no ``tool_use_id``, no
``permission_mode``) to 2.1.3xx (``prompt_id``, ``effort``, ``bashEditDiff``), and some
arrive wrapped by other loggers. Unknown events and tools are recorded as ``other``.
"""

from __future__ import annotations

from auditlog.hooks.adapter_common import encoded as _encoded
from auditlog.hooks.adapter_common import one_line, state_key, tool_target
from auditlog.hooks.adapter_common import text_field as _str

from auditlog.observation import MISSING, FileEdit, Observation, ShellFileDiff

AGENT = "claude-code"

# Every hook event Claude Code documents, and the normalised kind it maps to.
EVENT_KINDS = {
    "SessionStart": "session_start",
    "SessionEnd": "session_end",
    "Setup": "other",
    "UserPromptSubmit": "prompt",
    "UserPromptExpansion": "other",
    "PreToolUse": "tool_call",
    "PostToolUse": "tool_result",
    "PostToolUseFailure": "tool_error",
    "PostToolBatch": "tool_batch",
    "PermissionRequest": "permission",
    "PermissionDenied": "permission",
    "Notification": "notification",
    "Stop": "assistant",
    "StopFailure": "assistant",
    "SubagentStart": "subagent_start",
    "SubagentStop": "subagent_stop",
    "PreCompact": "compact",
    "PostCompact": "compact",
    "InstructionsLoaded": "other",
    "ConfigChange": "other",
    "CwdChanged": "other",
    "FileChanged": "other",
    "WorktreeCreate": "other",
    "WorktreeRemove": "other",
    "TaskCreated": "other",
    "TaskCompleted": "other",
    "TeammateIdle": "other",
    "Elicitation": "other",
    "ElicitationResult": "other",
    "MessageDisplay": "other",
    "PreModelSwitch": "other",
    "PostModelSwitch": "other",
    "DirectoryAdded": "other",
}
EVENTS = tuple(EVENT_KINDS)
EDIT_TOOLS = frozenset(("Write", "Edit", "MultiEdit", "NotebookEdit"))
SHELL_TOOLS = frozenset(("Bash", "PowerShell"))
CONTEXT_EVENTS = frozenset(("SessionStart", "Stop", "SessionEnd"))
# Events at which the transcript's new lines are joined (docs/transcripts.md): the end of a
# turn, of a subagent, before compaction rewrites the context, and the end of the session.
JOIN_EVENTS = frozenset(("Stop", "SubagentStop", "PreCompact", "SessionEnd"))


def transcripts(event: str, payload: dict, subagent: str | None) -> list[tuple[str, str | None, str | None]]:
    """What to join at this event: the session's transcript, and at SubagentStop the
    subagent's own (``agent_transcript_path``, 2.1.x), each with the final message the
    payload already carries (``last_assistant_message``), so it is not shown twice."""
    if event not in JOIN_EVENTS:
        return []
    final = _str(payload.get("last_assistant_message"))
    main, agent = _str(payload.get("transcript_path")), _str(payload.get("agent_transcript_path"))
    out: list[tuple[str, str | None, str | None]] = []
    if main:
        out.append((main, None, final if event == "Stop" else None))
    if agent and event == "SubagentStop":
        out.append((agent, subagent or _str(payload.get("agent_id")) or "subagent", final))
    return out


def _edit_list(tool: str, tool_input: dict) -> list[tuple[str, str, bool]] | None:
    if tool == "Edit":
        old, new = tool_input.get("old_string"), tool_input.get("new_string")
        if isinstance(old, str) and isinstance(new, str):
            return [(old, new, bool(tool_input.get("replace_all")))]
        return None
    edits = tool_input.get("edits")
    if tool != "MultiEdit" or not isinstance(edits, list):
        return None
    out = []
    for edit in edits:
        if not isinstance(edit, dict):
            return None
        old, new = edit.get("old_string"), edit.get("new_string")
        if not (isinstance(old, str) and isinstance(new, str)):
            return None
        out.append((old, new, bool(edit.get("replace_all"))))
    return out


def file_edit(tool: str, tool_input: dict, response: object) -> FileEdit | None:
    """The file change an edit-type tool made, with what the payload says of its images."""
    path = _str(tool_input.get("file_path")) or _str(tool_input.get("notebook_path"))
    if not path:
        return None
    resp = response if isinstance(response, dict) else {}
    edit = FileEdit(path)
    original = resp.get("originalFile", resp.get("originalFileContents", MISSING))
    if resp.get("type") == "create":
        edit.before = None
    elif isinstance(original, str):
        edit.before = original.encode("utf-8", "surrogatepass")
    if tool == "Write":
        edit.after_fallback = _encoded(tool_input.get("content"))
    elif isinstance(original, str):
        edits = _edit_list(tool, tool_input)
        if edits is not None:
            from auditlog.file_images import apply_string_edits

            result = apply_string_edits(original, edits)
            if result is not None:
                edit.after_fallback = result.encode("utf-8", "surrogatepass")
    return edit


def shell_diffs(response: object) -> list[ShellFileDiff] | None:
    """Files a Bash command changed, from ``tool_response.bashEditDiff`` (2.1.3xx);
    ``None`` when the payload does not carry it (older versions, or a failure)."""
    if not isinstance(response, dict) or not isinstance(response.get("bashEditDiff"), dict):
        return None
    report = response["bashEditDiff"]
    diffs = []
    for entry in report.get("files") or []:
        if isinstance(entry, dict) and _str(entry.get("filePath")):
            diffs.append(ShellFileDiff(entry["filePath"], entry.get("hunks") or [],
                                       created=bool(entry.get("created")), deleted=bool(entry.get("deleted"))))
    return diffs


def _summary(obs: Observation, payload: dict) -> str:
    event, tool = obs.event, obs.tool or ""
    target = tool_target(payload.get("tool_input"), obs.cwd)
    call = f"{tool} {target}".strip()
    if event == "UserPromptSubmit":
        return one_line(_str(payload.get("prompt")) or "(empty prompt)")
    if event == "PreToolUse":
        return call
    if event == "PostToolUse":
        return call
    if event == "PostToolUseFailure":
        return f"{call}: {one_line(str(payload.get('error') or 'failed'), 80)}"
    if event == "PostToolBatch":
        calls = payload.get("tool_calls")
        return f"{len(calls) if isinstance(calls, list) else 0} tool call(s) finished"
    if event in ("PermissionRequest", "PermissionDenied"):
        verb = "asked" if event == "PermissionRequest" else "denied"
        return f"Permission {verb}: {call}".strip()
    if event == "Notification":
        return one_line(_str(payload.get("message")) or "notification")
    if event == "Stop":
        return one_line(_str(payload.get("last_assistant_message")) or "Turn finished")
    if event == "StopFailure":
        return "Turn failed: " + one_line(str(payload.get("error") or payload.get("reason") or "unknown error"), 80)
    if event == "SessionStart":
        return f"Session started ({_str(payload.get('source')) or 'startup'})"
    if event == "SessionEnd":
        return f"Session ended ({_str(payload.get('reason')) or 'unknown'})"
    if event in ("SubagentStart", "SubagentStop"):
        verb = "started" if event == "SubagentStart" else "finished"
        return f"Subagent {obs.subagent or ''} {verb}".replace("  ", " ")
    if event in ("PreCompact", "PostCompact"):
        when = "Compacting" if event == "PreCompact" else "Compacted"
        return f"{when} context ({_str(payload.get('trigger')) or 'manual'})"
    detail = next((one_line(v, 80) for k in ("file_path", "message", "reason", "source", "name", "cwd")
                   if (v := _str(payload.get(k)))), "")
    return f"{event} {detail}".strip()


def observe(payload: dict) -> Observation:
    """Normalise one Claude Code hook payload."""
    event = _str(payload.get("hook_event_name")) or "Unknown"
    kind = EVENT_KINDS.get(event, "other")
    obs = Observation(AGENT, event, kind, str(payload.get("session_id") or ""), payload)
    obs.cwd = _str(payload.get("cwd"))
    obs.tool = _str(payload.get("tool_name"))
    obs.tool_use_id = _str(payload.get("tool_use_id"))
    obs.turn = _str(payload.get("prompt_id"))
    if _str(payload.get("agent_id")) or _str(payload.get("agent_type")):
        obs.subagent = _str(payload.get("agent_type")) or _str(payload.get("agent_id"))
    obs.failed = event in ("PostToolUseFailure", "StopFailure")
    obs.context_wanted = event in CONTEXT_EVENTS
    tool_input = payload.get("tool_input") if isinstance(payload.get("tool_input"), dict) else {}
    tool = obs.tool or ""
    if event in ("PreToolUse", "PostToolUse", "PostToolUseFailure") and (tool in EDIT_TOOLS or tool in SHELL_TOOLS):
        obs.state_key = state_key(payload)
        if event == "PreToolUse":
            if tool in EDIT_TOOLS:
                path = _str(tool_input.get("file_path")) or _str(tool_input.get("notebook_path"))
                obs.snapshot_paths = [path] if path else []
            else:
                obs.snapshot_tree = True  # capture skips it once the session reports bashEditDiff
        elif tool in EDIT_TOOLS and event == "PostToolUse":
            edit = file_edit(tool, tool_input, payload.get("tool_response"))
            obs.file_edits = [edit] if edit else []
        elif tool in SHELL_TOOLS:
            obs.shell_diffs = shell_diffs(payload.get("tool_response"))
            response = payload.get("tool_response")
            report = response.get("bashEditDiff") if isinstance(response, dict) else None
            more = report.get("moreFiles") if isinstance(report, dict) else 0
            # No report (older versions, failures), or a report cut short: use the tree snapshot.
            obs.diff_tree = obs.shell_diffs is None or bool(isinstance(more, int) and more > 0)
    obs.transcripts = transcripts(event, payload, obs.subagent)
    obs.summary = _summary(obs, payload)
    return obs
