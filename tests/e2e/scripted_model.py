#!/usr/bin/env python3
"""A scripted stand-in for the Anthropic Messages API, served on loopback.

Why this exists: the only honest proof that auditlog captures what Claude Code
really sends to its hooks is to run the real Claude Code binary.  The binary
needs a model to talk to; this server plays that model from a fixed script, so
a whole session runs offline, deterministically, in a few seconds, and every
hook event it fires is the genuine one.

Usage::

    python3 scripted_model.py --script SCRIPT.json [--log REQUESTS.log]
                              [--port 0] [--port-file PORT.txt]

``--port 0`` (the default) lets the kernel choose a free port so that parallel
test runs never collide; the chosen port is written atomically to
``--port-file`` (when given) and announced on stdout as
``scripted-model listening on http://127.0.0.1:PORT``.

SCRIPT.json is a JSON list of steps, played in order:

* ``{"tool": NAME, "input": {...}, "say": "optional text"}`` -- one tool call,
  optionally preceded by a text block.
* ``{"parallel": [{"tool": ..., "input": ...}, ...], "say": "..."}`` -- several
  tool calls in one assistant message (Claude Code runs the read-only ones
  concurrently).
* ``{"text": "..."}`` -- a final answer; it ends the agent's turn, so it only
  makes sense as the last step.

The step to play is chosen from the request itself: it is the number of
assistant messages in the conversation that already contain ``tool_use``
blocks.  That keeps the server stateless (retries and concurrent side requests
cannot desynchronise it).  Requests that carry no ``tools`` are side requests
(titles, summaries, classifiers); they get a short ``"ok"`` answer and never
consume a step.  Once the script is exhausted the model answers ``"Done."``.

Every request (method, path and parsed JSON body) is appended as one JSON line
to the log file, so tests can assert what reached the model's context -- for
example that a hook leaked nothing into it.

Both streaming (server-sent events) and non-streaming ``/v1/messages`` are
supported, as is ``/v1/messages/count_tokens``.  Stdlib only, on purpose: the
harness must run wherever the project's Python runs, with nothing installed.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import threading
import time
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

Step = dict[str, Any]
Block = dict[str, Any]

#: Answer given once the script has run out, or to a request the script cannot serve.
FALLBACK_TEXT = "Done."
#: Answer given to side requests (no ``tools`` in the body): titles, summaries, etc.
SIDE_REQUEST_TEXT = "ok"


def calls_of(step: Step) -> list[Step]:
    """The tool calls a step makes: its ``parallel`` list, itself, or none for a text step."""
    if "tool" in step:
        return [step]
    return step.get("parallel", [])


def validate_script(steps: Any) -> list[Step]:
    """Check the script's shape up front, so a typo fails loudly instead of stalling a session."""
    if not isinstance(steps, list):
        raise ValueError("script must be a JSON list of steps")
    for index, step in enumerate(steps):
        if not isinstance(step, dict):
            raise ValueError(f"step {index} is not an object: {step!r}")
        kinds = [key for key in ("tool", "parallel", "text") if key in step]
        if len(kinds) != 1:
            raise ValueError(f"step {index} needs exactly one of tool/parallel/text: {step!r}")
        calls = calls_of(step)
        if "parallel" in step and (not isinstance(calls, list) or not calls):
            raise ValueError(f"step {index}: 'parallel' must be a non-empty list")
        for call in calls:
            if not isinstance(call, dict) or not isinstance(call.get("tool"), str):
                raise ValueError(f"step {index}: each call needs a 'tool' name: {call!r}")
            if not isinstance(call.get("input", {}), dict):
                raise ValueError(f"step {index}: 'input' must be an object: {call!r}")
    return steps


def count_tool_turns(messages: Any) -> int:
    """Count assistant messages that made tool calls: that is how far the script has got."""
    if not isinstance(messages, list):
        return 0
    turns = 0
    for message in messages:
        if not isinstance(message, dict) or message.get("role") != "assistant":
            continue
        content = message.get("content")
        if isinstance(content, list) and any(
            isinstance(block, dict) and block.get("type") == "tool_use" for block in content
        ):
            turns += 1
    return turns


def choose_step(script: list[Step], body: dict[str, Any]) -> Step:
    """Pick the step that answers this request (see the module docstring for the rule)."""
    if not body.get("tools"):
        return {"text": SIDE_REQUEST_TEXT}
    index = count_tool_turns(body.get("messages"))
    return script[index] if index < len(script) else {"text": FALLBACK_TEXT}


def content_for(step: Step) -> tuple[list[Block], str]:
    """Turn a step into the assistant's content blocks and its stop reason."""
    calls = calls_of(step)
    blocks: list[Block] = []
    if step.get("say"):
        blocks.append({"type": "text", "text": str(step["say"])})
    if calls:
        for call in calls:
            blocks.append(
                {
                    "type": "tool_use",
                    "id": "toolu_" + uuid.uuid4().hex[:24],
                    "name": call["tool"],
                    "input": call.get("input", {}),
                }
            )
        return blocks, "tool_use"
    return [{"type": "text", "text": str(step.get("text", FALLBACK_TEXT))}], "end_turn"


def usage_for(body: dict[str, Any]) -> dict[str, int]:
    """A plausible usage record: the client only needs well-formed numbers."""
    return {
        "input_tokens": max(1, len(json.dumps(body)) // 4),
        "output_tokens": 5,
        "cache_creation_input_tokens": 0,
        "cache_read_input_tokens": 0,
    }


def sse_events(message: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """Split a complete message into the Messages API streaming events, in order."""
    start = dict(message, content=[], stop_reason=None, stop_sequence=None)
    events: list[tuple[str, dict[str, Any]]] = [
        ("message_start", {"type": "message_start", "message": start})
    ]
    for index, block in enumerate(message["content"]):
        if block["type"] == "tool_use":
            opening = dict(block, input={})
            delta = {"type": "input_json_delta", "partial_json": json.dumps(block["input"])}
        else:
            opening = {"type": "text", "text": ""}
            delta = {"type": "text_delta", "text": block["text"]}
        events += [
            (
                "content_block_start",
                {"type": "content_block_start", "index": index, "content_block": opening},
            ),
            ("content_block_delta", {"type": "content_block_delta", "index": index, "delta": delta}),
            ("content_block_stop", {"type": "content_block_stop", "index": index}),
        ]
    events += [
        (
            "message_delta",
            {
                "type": "message_delta",
                "delta": {"stop_reason": message["stop_reason"], "stop_sequence": None},
                "usage": {"output_tokens": message["usage"]["output_tokens"]},
            },
        ),
        ("message_stop", {"type": "message_stop"}),
    ]
    return events


class RequestLog:
    """Append-only JSON-lines log shared by the handler threads."""

    def __init__(self, path: Path | None) -> None:
        self._lock = threading.Lock()
        self._file = path.open("a", encoding="utf-8") if path else None

    def write(self, method: str, path: str, body: Any) -> None:
        """Record one request; flushed at once so a killed server loses nothing."""
        if self._file is None:
            return
        line = json.dumps({"time": time.time(), "method": method, "path": path, "body": body})
        with self._lock:
            self._file.write(line + "\n")
            self._file.flush()


class ScriptedModelServer(ThreadingHTTPServer):
    """The HTTP server, carrying the script and the request log for its handlers."""

    daemon_threads = True

    def __init__(self, address: tuple[str, int], script: list[Step], log: RequestLog) -> None:
        super().__init__(address, ScriptedModelHandler)
        self.script = script
        self.request_log = log


class ScriptedModelHandler(BaseHTTPRequestHandler):
    """Serves ``/v1/messages`` (streamed or not) and ``/v1/messages/count_tokens``."""

    protocol_version = "HTTP/1.1"
    server: ScriptedModelServer

    def log_message(self, format: str, *args: Any) -> None:
        """Silence the default per-request stderr line; the JSON log is the record."""

    def _reply_json(self, status: int, payload: Any) -> None:
        data = json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(data)))
        self.send_header("request-id", "req_" + uuid.uuid4().hex[:24])
        self.end_headers()
        self.wfile.write(data)

    def _read_body(self) -> Any:
        length = int(self.headers.get("content-length") or 0)
        raw = self.rfile.read(length) if length else b""
        if not raw:
            return None
        try:
            return json.loads(raw)
        except ValueError:
            return raw.decode("utf-8", "replace")

    def do_GET(self) -> None:
        """Answer any probe with an empty object, so the client never blocks on it."""
        self.server.request_log.write("GET", self.path, None)
        self._reply_json(200, {})

    def do_HEAD(self) -> None:
        """Connectivity checks only want a 200."""
        self.server.request_log.write("HEAD", self.path, None)
        self.send_response(200)
        self.send_header("content-length", "0")
        self.end_headers()

    def do_POST(self) -> None:
        """Log the request, then answer it from the script."""
        body = self._read_body()
        self.server.request_log.write("POST", self.path, body)
        if not isinstance(body, dict):
            body = {}
        route = self.path.split("?", 1)[0]
        if route.endswith("/count_tokens"):
            self._reply_json(200, {"input_tokens": usage_for(body)["input_tokens"]})
            return
        if not route.endswith("/messages"):
            self._reply_json(404, {"type": "error", "error": {"type": "not_found_error", "message": route}})
            return
        blocks, stop_reason = content_for(choose_step(self.server.script, body))
        message = {
            "id": "msg_" + uuid.uuid4().hex[:24],
            "type": "message",
            "role": "assistant",
            "model": body.get("model", "claude-scripted"),
            "content": blocks,
            "stop_reason": stop_reason,
            "stop_sequence": None,
            "usage": usage_for(body),
        }
        if body.get("stream"):
            self._stream(message)
        else:
            self._reply_json(200, message)

    def _stream(self, message: dict[str, Any]) -> None:
        """Send the message as server-sent events, then close: no chunked encoding needed."""
        self.send_response(200)
        self.send_header("content-type", "text/event-stream")
        self.send_header("cache-control", "no-cache")
        self.send_header("connection", "close")
        self.send_header("request-id", "req_" + uuid.uuid4().hex[:24])
        self.end_headers()
        for event, data in sse_events(message):
            self.wfile.write(f"event: {event}\ndata: {json.dumps(data)}\n\n".encode())
        self.wfile.flush()
        self.close_connection = True


def write_port_file(path: Path, port: int) -> None:
    """Publish the port atomically, so a reader never sees a half-written number."""
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".port-")
    with os.fdopen(fd, "w") as handle:
        handle.write(f"{port}\n")
    os.replace(tmp, path)


def make_server(
    script: list[Step], log_path: Path | None, host: str = "127.0.0.1", port: int = 0
) -> ScriptedModelServer:
    """Bind the server (port 0: a free port) without serving yet; ``server_address`` has the port."""
    return ScriptedModelServer((host, port), validate_script(script), RequestLog(log_path))


def main(argv: list[str] | None = None) -> int:
    """Command-line entry point: bind, announce the port, serve until killed."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0])
    parser.add_argument("--script", type=Path, required=True, help="JSON list of steps")
    parser.add_argument("--log", type=Path, help="append one JSON line per request here")
    parser.add_argument("--host", default="127.0.0.1", help="bind address (keep it on loopback)")
    parser.add_argument("--port", type=int, default=0, help="0 picks a free port")
    parser.add_argument("--port-file", type=Path, help="write the chosen port here")
    args = parser.parse_args(argv)

    script = json.loads(args.script.read_text(encoding="utf-8"))
    server = make_server(script, args.log, args.host, args.port)
    port = server.server_address[1]
    if args.port_file:
        write_port_file(args.port_file, port)
    print(f"scripted-model listening on http://{args.host}:{port}", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
