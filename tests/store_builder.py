"""Writing real stores for tests: through the real hook (a subprocess running the
installed ``auditlog-hook``), from payloads shaped as Claude Code sends them."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import uuid
from pathlib import Path

HOOK = [os.path.join(os.path.dirname(sys.executable), "auditlog-hook")]
if not os.access(HOOK[0], os.X_OK):  # not installed as a console script: run the module
    HOOK = [sys.executable, "-m", "auditlog.hooks.entry"]


def run_hook(
    payload: bytes | dict, *args: str, env: dict | None = None, timeout: float = 30, cwd: str | None = None
) -> subprocess.CompletedProcess:
    data = payload if isinstance(payload, bytes) else json.dumps(payload).encode()
    return subprocess.run(
        [*HOOK, *(args or ("--agent", "claude"))],
        input=data,
        capture_output=True,
        env=env,
        timeout=timeout,
        cwd=cwd,
        check=False,
    )


def git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(repo), *args], capture_output=True, text=True, check=True).stdout


def make_repo(path: Path, files: dict[str, str]) -> Path:
    path.mkdir(parents=True, exist_ok=True)
    git(path, "init", "-q", "-b", "main")
    for name, text in files.items():
        (path / name).parent.mkdir(parents=True, exist_ok=True)
        (path / name).write_text(text)
    git(path, "add", "-A")
    git(path, "commit", "-qm", "initial")
    return path


MODEL = "claude-sonnet-4-5-20250929"
USAGE = {"input_tokens": 100, "output_tokens": 20, "cache_read_input_tokens": 1000, "cache_creation_input_tokens": 0}


class ClaudeSession:
    """Builds and sends the payloads of one Claude Code session (2.1.3xx shapes), doing
    each tool's effect on disk between its PreToolUse and PostToolUse, as Claude does,
    and writing its transcript as Claude Code does (beside the project, unless
    ``transcript=False``: then the payloads name a transcript that does not exist)."""

    def __init__(self, project: Path, session_id: str | None = None, *, transcript: bool = True) -> None:
        self.project = project
        self.session_id = session_id or str(uuid.uuid4())
        self.prompt_id: str | None = None
        self.objects_before = ""
        folder = project.parent / "claude-projects"
        self.transcript = folder / f"{self.session_id}.jsonl" if transcript else None
        if self.transcript:
            folder.mkdir(exist_ok=True)
        self.said: list[dict] = []  # blocks for the next assistant message (say, think)
        self.hooks_on = True  # False: tool calls reach the transcript only (a hook that missed them)

    def line(self, entry: dict) -> None:
        """Append one transcript line (Claude Code's shape: one content block per line)."""
        if self.transcript is None:
            return
        entry = {"sessionId": self.session_id, "cwd": str(self.project), "uuid": str(uuid.uuid4()),
                 "timestamp": time.strftime("%Y-%m-%dT%H:%M:%S.000Z", time.gmtime()), "isSidechain": False, **entry}
        with open(self.transcript, "a") as f:
            f.write(json.dumps(entry) + "\n")

    def assistant(self, blocks: list[dict]) -> None:
        """One model call: its blocks (after anything ``say``/``think`` queued), one line each."""
        message_id = "msg_" + uuid.uuid4().hex[:20]
        for block in [*self.said, *blocks]:
            self.line({"type": "assistant", "message": {"id": message_id, "type": "message", "role": "assistant",
                       "model": MODEL, "content": [block], "usage": USAGE}})
        self.said = []

    def say(self, text: str) -> None:
        self.said.append({"type": "text", "text": text})

    def think(self, text: str) -> None:
        self.said.append({"type": "thinking", "thinking": text, "signature": "sig"})

    def base(self, event: str, **fields: object) -> dict:
        payload = {
            "session_id": self.session_id,
            "transcript_path": str(self.transcript or f"/nonexistent/.claude/projects/x/{self.session_id}.jsonl"),
            "cwd": str(self.project),
            "hook_event_name": event,
        }
        if self.prompt_id:
            payload["prompt_id"] = self.prompt_id
        payload.update(fields)
        return payload

    def send(self, payload: dict) -> subprocess.CompletedProcess:
        done = run_hook(payload, cwd=str(self.project))
        assert done.returncode == 0 and done.stdout == b"", done
        return done

    def start(self) -> None:
        self.send(self.base("SessionStart", source="startup"))

    def prompt(self, text: str) -> None:
        self.prompt_id = str(uuid.uuid4())
        self.line({"type": "user", "promptId": self.prompt_id, "message": {"role": "user", "content": text}})
        self.send(self.base("UserPromptSubmit", prompt=text, permission_mode="bypassPermissions"))

    def _tool(self, tool: str, tool_input: dict, effect, response) -> None:
        tool_use_id = "toolu_" + uuid.uuid4().hex[:20]
        self.assistant([{"type": "tool_use", "id": tool_use_id, "name": tool, "input": tool_input}])
        if not self.hooks_on:
            self._tool_result(tool_use_id, effect, response)
            return
        self.send(self.base("PreToolUse", tool_name=tool, tool_input=tool_input, tool_use_id=tool_use_id))
        resp = self._tool_result(tool_use_id, effect, response)
        if isinstance(resp, Exception):
            self.send(
                self.base(
                    "PostToolUseFailure",
                    tool_name=tool,
                    tool_input=tool_input,
                    tool_use_id=tool_use_id,
                    error=str(resp),
                    is_interrupt=False,
                    duration_ms=5,
                )
            )
        else:
            self.send(
                self.base(
                    "PostToolUse",
                    tool_name=tool,
                    tool_input=tool_input,
                    tool_response=resp,
                    tool_use_id=tool_use_id,
                    duration_ms=7,
                )
            )
        self.send(
            self.base(
                "PostToolBatch",
                tool_calls=[
                    {"tool_name": tool, "tool_input": tool_input, "tool_use_id": tool_use_id, "tool_response": "ok"}
                ],
            )
        )

    def _tool_result(self, tool_use_id: str, effect, response) -> object:
        outcome = effect() if effect else None
        resp = response(outcome) if callable(response) else response
        failed = isinstance(resp, Exception)
        self.line({"type": "user", "promptId": self.prompt_id, "toolUseResult": f"Error: {resp}" if failed else resp,
                   "message": {"role": "user", "content": [{"type": "tool_result", "tool_use_id": tool_use_id,
                                                             "content": str(resp), "is_error": failed}]}})
        return resp

    def write(self, rel: str, content: str) -> None:
        path = self.project / rel
        existed = path.exists()
        original = path.read_text() if existed else None

        def effect() -> None:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(content)

        self._tool(
            "Write",
            {"file_path": str(path), "content": content},
            effect,
            {
                "type": "update" if existed else "create",
                "filePath": str(path),
                "content": content,
                "structuredPatch": [],
                "originalFile": original,
            },
        )

    def edit(self, rel: str, old: str, new: str) -> None:
        path = self.project / rel
        original = path.read_text()

        def effect() -> None:
            path.write_text(original.replace(old, new, 1))

        self._tool(
            "Edit",
            {"file_path": str(path), "old_string": old, "new_string": new, "replace_all": False},
            effect,
            {
                "filePath": str(path),
                "oldString": old,
                "newString": new,
                "originalFile": original,
                "structuredPatch": [],
                "userModified": False,
                "replaceAll": False,
            },
        )

    def read(self, rel: str) -> None:
        path = self.project / rel
        self._tool(
            "Read",
            {"file_path": str(path)},
            None,
            {"type": "text", "file": {"filePath": str(path), "content": path.read_text()}},
        )

    def bash(self, command: str, *, fails: bool = False, report_diff: bool = False) -> None:
        """Run a real shell command in the project. ``report_diff`` adds a 2.1.3xx style
        ``bashEditDiff`` (here left out, so the git snapshot path is exercised)."""

        def effect() -> subprocess.CompletedProcess:
            return subprocess.run(command, shell=True, cwd=self.project, capture_output=True, text=True, check=False)

        def response(done: subprocess.CompletedProcess):
            if fails or done.returncode != 0:
                return RuntimeError(f"Exit code {done.returncode}")
            return {"stdout": done.stdout, "stderr": done.stderr, "interrupted": False, "isImage": False}

        self._tool("Bash", {"command": command, "description": "run a command"}, effect, response)

    def stop(self, message: str) -> None:
        self.assistant([{"type": "text", "text": message}])
        self.send(self.base("Stop", stop_hook_active=False, last_assistant_message=message))

    def end(self, reason: str = "other") -> None:
        self.send(self.base("SessionEnd", reason=reason))


def journal(store: Path, session_id: str) -> list[dict]:
    from auditlog.paths import session_folder_name

    path = store / "sessions" / session_folder_name(session_id) / "events.jsonl"
    return [json.loads(line) for line in path.read_bytes().splitlines()]
