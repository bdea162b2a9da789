"""Cursor adapter: a ``.cursor/hooks.json`` (version 1) payload becomes an Observation.

Cursor's events are camelCase and keyed by ``conversation_id``; ``cwd`` may be empty
(``workspace_roots[0]`` is the project then). It fires a generic event (``preToolUse``,
``postToolUse``) and a specific one (``beforeShellExecution``, ``afterFileEdit`` …) for
the same call: both are recorded, and only the specific after-events make patches.

``afterFileEdit`` says only ``edits[{old_string, new_string}]``: the pre-image is the
snapshot kept at ``preToolUse`` (keyed by path, since ``afterFileEdit`` has no tool-use
id) or, failing that, the file on disk with the edits reversed. Before-hooks that expect
an answer get the neutral one: allow, with no message; never a denial.
"""

from __future__ import annotations

from auditlog.hooks.adapter_common import (
    absolute_paths,
    dict_field,
    digest_key,
    first_text,
    kind_summary,
    new_observation,
    one_line,
    text_field,
    watch_files,
    watch_tree,
)

from auditlog.observation import MISSING, FileEdit, Observation

AGENT = "cursor"

EVENT_KINDS = {
    "sessionStart": "session_start",
    "sessionEnd": "session_end",
    "beforeSubmitPrompt": "prompt",
    "preToolUse": "tool_call",
    "postToolUse": "tool_result",
    "postToolUseFailure": "tool_error",
    "beforeShellExecution": "tool_call",
    "afterShellExecution": "tool_result",
    "beforeMCPExecution": "tool_call",
    "afterMCPExecution": "tool_result",
    "beforeReadFile": "tool_call",
    "afterFileEdit": "tool_result",
    "afterAgentResponse": "assistant",
    "afterAgentThought": "other",
    "subagentStart": "subagent_start",
    "subagentStop": "subagent_stop",
    "preCompact": "compact",
    "stop": "assistant",
}
EVENTS = tuple(EVENT_KINDS)
# The tool each specific event stands for (the generic events name theirs).
EVENT_TOOLS = {"beforeShellExecution": "Shell", "afterShellExecution": "Shell", "beforeReadFile": "Read",
               "afterFileEdit": "Edit"}
ALLOW = b'{"permission": "allow"}\n'
REPLIES = {"beforeShellExecution": ALLOW, "beforeMCPExecution": ALLOW, "beforeReadFile": ALLOW,
           "preToolUse": ALLOW, "subagentStart": ALLOW, "beforeSubmitPrompt": b'{"continue": true}\n'}
EDIT_TOOLS = frozenset(("Write", "Edit", "StrReplace", "MultiEdit", "Delete", "edit_file", "search_replace"))
PATH_FIELDS = ("file_path", "path", "target_file")
CONTEXT_EVENTS = frozenset(("sessionStart", "stop", "sessionEnd"))


def file_key(path: str) -> str:
    """Pairs the snapshot taken at ``preToolUse`` with ``afterFileEdit`` (no shared id)."""
    return digest_key("file\0" + path)


def reverse_edits(after: str, edits: list) -> str | None:
    """The text before ``edits`` were applied, given the text after them; ``None`` when
    the file did not exist (one edit wrote it whole). Raises ``ValueError`` when that
    cannot be told: an edit's new text is missing, repeated, or was a deletion."""
    if len(edits) == 1 and isinstance(edits[0], dict) and edits[0].get("old_string") == "" \
            and edits[0].get("new_string") == after:
        return None  # the whole file was written: it did not exist before
    text = after
    for edit in reversed(edits):
        old, new = (edit.get("old_string"), edit.get("new_string")) if isinstance(edit, dict) else (None, None)
        if not isinstance(old, str) or not isinstance(new, str):
            raise ValueError("edit without old_string/new_string")
        if old == new:
            continue
        if new == "" or text.count(new) != 1:
            raise ValueError("the edit's new text is not found exactly once")
        text = text.replace(new, old, 1)
    return text


def _file_edit(path: str, edits: object) -> FileEdit:
    """``afterFileEdit``'s change; its pre-image is rebuilt here only for when capture
    has no snapshot of the file (capture prefers the snapshot)."""
    edit = FileEdit(path)
    if not isinstance(edits, list) or not edits:
        return edit
    from auditlog.file_images import on_this_machine, read_disk

    try:
        data = read_disk(path)[0] if on_this_machine(path) else None
        if data is not None:
            before = reverse_edits(data.decode("utf-8", "surrogateescape"), edits)
            edit.before = None if before is None else before.encode("utf-8", "surrogateescape")
    except (OSError, ValueError):
        edit.before = MISSING
    return edit


def _cwd(payload: dict) -> str | None:
    roots = payload.get("workspace_roots")
    root = roots[0] if isinstance(roots, list) and roots else None
    return text_field(payload.get("cwd")) or text_field(root)


def _plan_files(obs: Observation, payload: dict, tool_input: dict) -> None:
    event, tool = obs.event, obs.tool or ""
    if event == "afterFileEdit":
        paths = absolute_paths(payload, obs.cwd, PATH_FIELDS)
        if paths:
            obs.state_key = file_key(paths[0])
            obs.file_edits = [_file_edit(paths[0], payload.get("edits"))]
        return
    if tool not in EDIT_TOOLS or event not in ("preToolUse", "postToolUse"):
        return
    paths = absolute_paths(tool_input, obs.cwd, PATH_FIELDS)
    if event == "preToolUse" and paths:
        watch_files(obs, file_key(paths[0]), True, paths)
    elif tool == "Delete" and paths:  # no afterFileEdit follows a deletion
        watch_files(obs, file_key(paths[0]), False, paths, {paths[0]: None})


def _call(obs: Observation, payload: dict) -> str | None:
    """What a specific event acts on (its fields sit at the top level, not in tool_input)."""
    target = first_text(payload, "command", "file_path")
    if target and obs.event in EVENT_TOOLS:
        if obs.event in ("beforeReadFile", "afterFileEdit") and obs.cwd:
            from auditlog.gitrefs import relative_to_root

            target = relative_to_root(target, obs.cwd, obs.cwd)
        return f"{obs.tool} {one_line(target, 80)}"
    return None


def observe(payload: dict) -> Observation:
    """Normalise one Cursor hook payload."""
    obs = new_observation(AGENT, payload, EVENT_KINDS, ("conversation_id", "session_id"))
    obs.cwd = _cwd(payload)
    obs.tool = EVENT_TOOLS.get(obs.event) or obs.tool
    obs.turn = text_field(payload.get("generation_id"))
    obs.subagent = first_text(payload, "subagent_type", "agent_type", "subagent_id") \
        if obs.event.startswith("subagent") else None
    obs.reply = REPLIES.get(obs.event)
    obs.context_wanted = obs.event in CONTEXT_EVENTS
    exit_code = payload.get("exit_code")
    obs.failed = obs.kind == "tool_error" or (isinstance(exit_code, int) and exit_code != 0) \
        or (obs.event == "stop" and payload.get("status") == "error")
    tool_input = dict_field(payload, "tool_input")
    if obs.event in ("beforeShellExecution", "afterShellExecution") and text_field(payload.get("command")):
        watch_tree(obs, digest_key(f"shell\0{obs.cwd}\0{payload['command']}"), obs.event.startswith("before"))
    else:
        _plan_files(obs, payload, tool_input)
    text = first_text(payload, "prompt", "text", "error_message", "error", "message", "reason", "status")
    name = first_text(payload, "source", "reason", "trigger", "subagent_type", "agent_type")
    if obs.event == "stop":
        obs.summary = f"Turn finished ({text_field(payload.get('status')) or 'unknown'})"
    elif obs.event == "afterAgentThought":
        obs.summary = "Thought: " + one_line(first_text(payload, "text") or "", 80)
    else:
        obs.summary = kind_summary(obs, text=text, name=name, call=_call(obs, payload))
    return obs
