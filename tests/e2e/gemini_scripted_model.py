"""A scripted model speaking the Gemini API (``streamGenerateContent`` with server-sent
events, and ``generateContent``), on loopback.

Why: Gemini CLI reaches its model through ``GOOGLE_GEMINI_BASE_URL``; answering from a
script makes a whole Gemini CLI session run offline, with its real hooks firing.

Each content request consumes the next step of the script (a JSON list):
``{"call": NAME, "args": {...}}`` (one function call) or ``{"text": "..."}`` (the
answer). Token counts and anything else get small fixed answers and consume nothing.

Usage: ``python3 gemini_scripted_model.py --script S.json --log R.log --port 0 --port-file P``
"""

from __future__ import annotations

import json
from collections.abc import Callable

from scripted_server import main, sse


def answer(step: dict) -> dict:
    """A GenerateContentResponse holding ``step``."""
    part = {"functionCall": {"name": step["call"], "args": step.get("args", {})}} if "call" in step \
        else {"text": step.get("text", "Done.")}
    return {"candidates": [{"content": {"role": "model", "parts": [part]}, "finishReason": "STOP", "index": 0}],
            "usageMetadata": {"promptTokenCount": 1, "candidatesTokenCount": 1, "totalTokenCount": 2},
            "modelVersion": "scripted"}


def respond(method: str, path: str, next_step: Callable[[], dict]) -> tuple[int, str, bytes]:
    if ":streamGenerateContent" in path:
        return 200, "text/event-stream", sse([(None, answer(next_step()))])
    if ":generateContent" in path:
        return 200, "application/json", json.dumps(answer(next_step())).encode()
    if ":countTokens" in path:
        return 200, "application/json", b'{"totalTokens": 1}'
    return 200, "application/json", b'{"models": []}' if method == "GET" else b"{}"


if __name__ == "__main__":
    main(__doc__.splitlines()[0], respond)
