"""A scripted model speaking the OpenAI Responses API (streaming), on loopback.

Why: Codex CLI talks to its model through ``POST {base_url}/responses`` with
``"stream": true`` and reads server-sent events. Answering from a script instead of a
real model makes a whole Codex session run offline in seconds, with Codex's real hooks
firing with their real payloads.

Each POST to ``/responses`` consumes the next step of the script (a JSON list):

* ``{"call": NAME, "arguments": {...}}`` - one function call (e.g. ``exec_command``);
* ``{"custom": NAME, "input": "..."}`` - one freeform tool call (e.g. ``apply_patch``);
* ``{"text": "..."}`` - the final answer.

Usage: ``python3 openai_scripted_model.py --script S.json --log R.log --port 0 --port-file P``
"""

from __future__ import annotations

import json
from collections.abc import Callable

from scripted_server import main, sse

USAGE = {"input_tokens": 1, "input_tokens_details": None, "output_tokens": 1, "output_tokens_details": None,
         "total_tokens": 2}


def item(step: dict, n: int) -> dict:
    """The one output item answering a request with ``step``."""
    if "call" in step:
        return {"type": "function_call", "id": f"fc_{n}", "call_id": f"call_{n}", "name": step["call"],
                "arguments": json.dumps(step.get("arguments", {}))}
    if "custom" in step:
        return {"type": "custom_tool_call", "id": f"ctc_{n}", "call_id": f"call_{n}", "name": step["custom"],
                "input": step.get("input", "")}
    return {"type": "message", "role": "assistant", "id": f"msg_{n}",
            "content": [{"type": "output_text", "text": step.get("text", "Done.")}]}


_count = iter(range(1_000_000))


def respond(method: str, path: str, next_step: Callable[[], dict]) -> tuple[int, str, bytes]:
    if method != "POST" or not path.rstrip("/").endswith("/responses"):
        return 404, "application/json", b"{}"
    n = next(_count)
    rid = f"resp_{n}"
    return 200, "text/event-stream", sse([
        ("response.created", {"type": "response.created", "response": {"id": rid}}),
        ("response.output_item.done", {"type": "response.output_item.done", "output_index": 0,
                                       "item": item(next_step(), n)}),
        ("response.completed", {"type": "response.completed", "response": {"id": rid, "usage": USAGE}}),
    ])


if __name__ == "__main__":
    main(__doc__.splitlines()[0], respond)
