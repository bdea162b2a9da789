"""The plumbing every scripted model here shares: a threaded HTTP server on a free
loopback port (published in a port file), a JSON-lines log of every request, and a
script of steps consumed one per model request.

Each model module supplies only ``respond(method, path, next_step)`` returning
``(status, content_type, body)``; ``next_step()`` takes the script's next step (or
``{"text": "Done."}`` once it has run out). Standard library only: it runs as a script.
"""

from __future__ import annotations

import argparse
import json
import threading
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

Respond = Callable[[str, str, Callable[[], dict]], tuple[int, str, bytes]]


def make_handler(steps: list[dict], log_path: Path, respond: Respond) -> type[BaseHTTPRequestHandler]:
    lock = threading.Lock()
    remaining = list(steps)

    def next_step() -> dict:
        with lock:
            return remaining.pop(0) if remaining else {"text": "Done."}

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args: object) -> None:  # keep stderr quiet
            pass

        def _serve(self) -> None:
            body = self.rfile.read(int(self.headers.get("content-length") or 0))
            record = {"method": self.command, "path": self.path, "body": body.decode("utf-8", "replace")}
            with lock, log_path.open("a", encoding="utf-8") as log:
                log.write(json.dumps(record) + "\n")
            status, content_type, payload = respond(self.command, self.path, next_step)
            self.send_response(status)
            self.send_header("content-type", content_type)
            self.send_header("content-length", str(len(payload)))
            self.end_headers()
            self.wfile.write(payload)
            self.wfile.flush()

        do_GET = do_POST = _serve

    return Handler


def main(description: str, respond: Respond) -> None:
    """``--script S.json --log R.log --port 0 --port-file P`` (the command line
    :func:`claude_driver.scripted_model` gives every scripted model)."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--script", required=True)
    parser.add_argument("--log", required=True)
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--port-file", required=True)
    args = parser.parse_args()
    steps = json.loads(Path(args.script).read_text(encoding="utf-8"))
    server = ThreadingHTTPServer(("127.0.0.1", args.port), make_handler(steps, Path(args.log), respond))
    # Written aside and renamed: the driver reads the file as soon as it exists.
    tmp = Path(args.port_file + ".tmp")
    tmp.write_text(str(server.server_address[1]), encoding="utf-8")
    tmp.replace(args.port_file)
    server.serve_forever()


def sse(events: list[tuple[str | None, dict]]) -> bytes:
    """Server-sent events: ``event:`` lines where named, one ``data:`` line each."""
    return "".join((f"event: {name}\n" if name else "") + f"data: {json.dumps(data)}\n\n"
                   for name, data in events).encode()
