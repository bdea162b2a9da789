"""Which adapter turns which agent's payload into an observation."""

from __future__ import annotations

from auditlog.observation import Observation


def observe(agent: str, payload: dict) -> Observation:
    """The adapter for ``agent``; an agent we have no adapter for is still recorded,
    raw, as ``other`` events (never dropped)."""
    if agent in ("claude", "claude-code"):
        from auditlog.hooks import claude

        return claude.observe(payload)
    return generic_observation(agent, payload)


def generic_observation(agent: str, payload: dict) -> Observation:
    event = next((payload[k] for k in ("hook_event_name", "event", "hookEventName")
                  if isinstance(payload.get(k), str) and payload[k]), "unknown")
    session = next((str(payload[k]) for k in ("session_id", "sessionId", "conversation_id")
                    if payload.get(k)), "")
    obs = Observation(agent, event, "other", session, payload)
    obs.cwd = payload.get("cwd") if isinstance(payload.get("cwd"), str) else None
    obs.summary = f"{event} (recorded raw: no adapter for {agent})"
    return obs
