"""Which adapter turns which agent's payload into an observation."""

from __future__ import annotations

import importlib

from auditlog.observation import Observation

# Agent names as ``--agent`` takes them (and as records name them) → adapter module.
ADAPTERS = {
    "claude": "auditlog.hooks.claude",
    "claude-code": "auditlog.hooks.claude",
    "codex": "auditlog.hooks.codex",
    "gemini": "auditlog.hooks.gemini",
    "gemini-cli": "auditlog.hooks.gemini",
    "cursor": "auditlog.hooks.cursor",
    "hel": "auditlog.hooks.hel",
}


def observe(agent: str, payload: dict) -> Observation:
    """The adapter for ``agent``; an agent we have no adapter for is still recorded,
    raw, as ``other`` events (never dropped). Only the one adapter is imported: the
    hook runs on every tool call."""
    module = ADAPTERS.get(agent)
    if module is None:
        return generic_observation(agent, payload)
    return importlib.import_module(module).observe(payload)


def generic_observation(agent: str, payload: dict) -> Observation:
    event = next((payload[k] for k in ("hook_event_name", "event", "hookEventName")
                  if isinstance(payload.get(k), str) and payload[k]), "unknown")
    session = next((str(payload[k]) for k in ("session_id", "sessionId", "conversation_id")
                    if payload.get(k)), "")
    obs = Observation(agent, event, "other", session, payload)
    obs.cwd = payload.get("cwd") if isinstance(payload.get("cwd"), str) else None
    obs.summary = f"{event} (recorded raw: no adapter for {agent})"
    return obs
