"""Claude Code transcripts, read after the fact: a transcript's prompts and tool calls as
the observations the hooks would have made (``auditlog import`` and ``auditlog
backfill``). Each is shaped as the hook payload Claude Code sends (``UserPromptSubmit``,
``PostToolUse``, ``PostToolUseFailure``; ``PreToolUse`` for a call never answered) and
read by the same adapter, so summaries and edit images are the hook's own; the payload
keeps the transcript line's ``uuid``, which makes a second import add nothing.
"""

from __future__ import annotations

from auditlog.hooks import claude
from auditlog.hooks.adapter_common import text_field

from auditlog.claude_transcript import Step
from auditlog.file_images import apply_hunks
from auditlog.observation import MISSING, Observation


def _base(entry: dict, session_id: str, transcript: str) -> dict:
    payload = {"session_id": session_id, "transcript_path": transcript, "cwd": text_field(entry.get("cwd")),
               "uuid": text_field(entry.get("uuid"))}
    if text_field(entry.get("promptId")):
        payload["prompt_id"] = entry["promptId"]
    return {k: v for k, v in payload.items() if v is not None}


def _observe(payload: dict, origin: str, subagent: str | None) -> Observation:
    obs = claude.observe(payload)
    obs.origin = origin
    obs.transcripts = []
    obs.subagent = subagent or obs.subagent
    obs.shell_diffs, obs.diff_tree = None, False  # a past command's files are not on disk as it left them
    return obs


def prompt_observation(step: Step, session_id: str, transcript: str, origin: str) -> Observation:
    payload = {**_base(step.entry, session_id, transcript), "hook_event_name": "UserPromptSubmit",
               "prompt": step.text}
    return _observe(payload, origin, None)


def _result_text(result: dict) -> str:
    content = result.get("content")
    if isinstance(content, list):
        return "\n".join(str(b.get("text") or "") for b in content if isinstance(b, dict) and b.get("type") == "text")
    return content if isinstance(content, str) else ""


def tool_observation(step: Step, session_id: str, transcript: str, origin: str,
                     subagent: str | None = None) -> Observation:
    """A tool call with its result; an Edit's post-image from ``structuredPatch`` when
    replaying the edit on ``originalFile`` does not give it."""
    call = step.call or {}
    payload = {**_base(step.entry, session_id, transcript), "tool_name": call.get("name"),
               "tool_input": call.get("input") if isinstance(call.get("input"), dict) else {},
               "tool_use_id": call.get("id")}
    result = step.result
    if result is None:
        payload["hook_event_name"] = "PreToolUse"
    elif result.get("is_error"):
        payload.update(hook_event_name="PostToolUseFailure", error=_result_text(result))
    else:
        response = step.entry.get("toolUseResult")
        payload.update(hook_event_name="PostToolUse", tool_response=response if response is not None
                       else _result_text(result))
    obs = _observe(payload, origin, subagent)
    response = payload.get("tool_response")
    for edit in obs.file_edits:
        hunks = response.get("structuredPatch") if isinstance(response, dict) else None
        if edit.after_fallback is MISSING and isinstance(edit.before, bytes) and isinstance(hunks, list) and hunks:
            after = apply_hunks(edit.before.decode("utf-8", "surrogatepass"), hunks)
            if after is not None:
                edit.after_fallback = after.encode("utf-8", "surrogatepass")
    return obs
