"""Helpers every agent adapter shares: reading untrusted payload fields, one-line
summaries, and the keys that pair a before-event with its after-event.

Adapters run in the hook on every tool call, so this module imports only the standard
library and the auditlog core, and the core lazily.
"""

from __future__ import annotations

import json

from auditlog.digests import sha256_hex
from auditlog.observation import MISSING, FileEdit, Observation

# Which input field names a tool's target, for the one-line summary.
TARGET_FIELDS = ("file_path", "notebook_path", "path", "absolute_path", "target_file", "command", "pattern",
                 "url", "query", "skill", "description", "subject", "prompt")
PATH_FIELDS = frozenset(("file_path", "notebook_path", "path", "absolute_path", "target_file"))
SUMMARY_WIDTH = 100


def text_field(value: object) -> str | None:
    """``value`` when it is a non-empty string; payload fields are untrusted and optional."""
    return value if isinstance(value, str) and value else None


def first_text(payload: dict, *names: str) -> str | None:
    """The first of ``names`` that holds a non-empty string in ``payload``."""
    return next((v for n in names if (v := text_field(payload.get(n)))), None)


def one_line(text: str, width: int = SUMMARY_WIDTH) -> str:
    """First line of ``text``, shortened to ``width`` characters."""
    first = text.strip().splitlines()[0] if text.strip() else ""
    more = len(text.strip().splitlines()) > 1
    if len(first) > width:
        return first[: width - 1] + "…"
    return first + (" …" if more else "")


def tool_target(tool_input: object, cwd: str | None) -> str:
    """The thing a tool call acts on (a path relative to cwd, a command, a pattern …)."""
    if not isinstance(tool_input, dict):
        return ""
    for field in TARGET_FIELDS:
        value = text_field(tool_input.get(field))
        if value:
            if field in PATH_FIELDS and cwd:
                from auditlog.gitrefs import relative_to_root

                value = relative_to_root(value, cwd, cwd)
            return one_line(value, 80)
    return ""


def digest_key(basis: str) -> str:
    """A short, file-name-safe key for ``basis`` (state files are named after it)."""
    return sha256_hex(basis.encode("utf-8", "surrogatepass"))[:32]


def state_key(payload: dict) -> str:
    """Pairs a before-tool event with its after-tool event: the tool_use_id, or (for
    agents and versions that send none) a hash of the tool name and input, which both
    events carry unchanged."""
    tool_use_id = text_field(payload.get("tool_use_id"))
    basis = tool_use_id or json.dumps([payload.get("tool_name"), payload.get("tool_input")], sort_keys=True)
    return digest_key(basis)


def encoded(text: object) -> object:
    """A payload string as bytes, or ``MISSING`` when the payload does not give one."""
    return text.encode("utf-8", "surrogatepass") if isinstance(text, str) else MISSING


def dict_field(payload: dict, name: str) -> dict:
    value = payload.get(name)
    return value if isinstance(value, dict) else {}


def new_observation(agent: str, payload: dict, event_kinds: dict[str, str], session_fields: tuple[str, ...],
                    event: str | None = None) -> Observation:
    """An observation with the fields every adapter fills the same way; an unknown event
    is kept under its own name with kind ``other``."""
    event = event or text_field(payload.get("hook_event_name")) or "Unknown"
    session = next((str(payload[f]) for f in session_fields if payload.get(f) not in (None, "")), "")
    obs = Observation(agent, event, event_kinds.get(event, "other"), session, payload)
    obs.cwd = text_field(payload.get("cwd"))
    obs.tool = text_field(payload.get("tool_name"))
    obs.tool_use_id = text_field(payload.get("tool_use_id"))
    return obs


def absolute_paths(tool_input: dict, cwd: str | None, fields: tuple[str, ...]) -> list[str]:
    """The file a tool acts on, absolute (as snapshot and patch must both name it), from
    the first of ``fields`` it has; an empty list when it names none."""
    from auditlog.apply_patch_format import resolve

    path = first_text(tool_input, *fields)
    return [resolve(path, cwd)] if path else []


def watch_files(obs: Observation, key: str, before: bool, paths: list[str],
                fallbacks: dict[str, object] | None = None) -> None:
    """Edit-type tools: keep the files' pre-images at the before-event; at the after-event
    patch them against disk (or ``fallbacks``, what the payload says the file became,
    where the file is not on this machine)."""
    obs.state_key = key
    if before:
        obs.snapshot_paths = paths
    else:
        obs.file_edits = [FileEdit(p, after_fallback=(fallbacks or {}).get(p, MISSING)) for p in paths]


def watch_tree(obs: Observation, key: str, before: bool) -> None:
    """Shell tools: snapshot the git working tree before the command, diff it after."""
    obs.state_key = key
    if before:
        obs.snapshot_tree = True
    else:
        obs.diff_tree = True


# How a summary reads for each kind; {call} is "<tool> <target>", {text} the event's own
# words (prompt, message, reason …) and {name} a subagent, source or trigger.
_KIND_FORMATS = {
    "prompt": "{text}",
    "tool_call": "{call}",
    "tool_result": "{call}",
    "tool_error": "{call}: {text}",
    "permission": "Permission asked: {call}",
    "notification": "{text}",
    "assistant": "{text}",
    "session_start": "Session started ({name})",
    "session_end": "Session ended ({name})",
    "subagent_start": "Subagent {name} started",
    "subagent_stop": "Subagent {name} finished",
    "compact": "Compacting context ({name})",
}
_KIND_DEFAULTS = {"prompt": "(empty prompt)", "tool_error": "failed", "notification": "notification",
                  "assistant": "Turn finished"}


def kind_summary(obs: Observation, *, text: str | None = None, name: str | None = None,
                 call: str | None = None) -> str:
    """The one-line summary of an event, written the same way for every agent."""
    if call is None:
        payload = obs.payload if isinstance(obs.payload, dict) else {}
        call = f"{obs.tool or ''} {tool_target(payload.get('tool_input'), obs.cwd)}".strip()
    words = one_line(text, 80 if obs.kind == "tool_error" else SUMMARY_WIDTH) if text else ""
    fmt = _KIND_FORMATS.get(obs.kind)
    if fmt is None:
        return f"{obs.event} {one_line(text or '', 80)}".strip()
    summary = fmt.format(call=call, text=words or _KIND_DEFAULTS.get(obs.kind, ""), name=name or "unknown")
    return summary.replace("  ", " ").strip()
