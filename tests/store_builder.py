"""Writing real stores for tests: through the real hook (a subprocess running the
installed ``auditlog-hook``), from payloads shaped as Claude Code sends them."""

from __future__ import annotations

import json
import os
import subprocess
import sys
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


class ClaudeSession:
    """Builds and sends the payloads of one Claude Code session (2.1.3xx shapes), doing
    each tool's effect on disk between its PreToolUse and PostToolUse, as Claude does."""

    def __init__(self, project: Path, session_id: str | None = None) -> None:
        self.project = project
        self.session_id = session_id or str(uuid.uuid4())
        self.prompt_id: str | None = None
        self.objects_before = ""

    def base(self, event: str, **fields: object) -> dict:
        payload = {
            "session_id": self.session_id,
            "transcript_path": f"/nonexistent/.claude/projects/x/{self.session_id}.jsonl",
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
        self.send(self.base("UserPromptSubmit", prompt=text, permission_mode="bypassPermissions"))

    def _tool(self, tool: str, tool_input: dict, effect, response) -> None:
        tool_use_id = "toolu_" + uuid.uuid4().hex[:20]
        self.send(self.base("PreToolUse", tool_name=tool, tool_input=tool_input, tool_use_id=tool_use_id))
        outcome = effect() if effect else None
        resp = response(outcome) if callable(response) else response
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
        self.send(self.base("Stop", stop_hook_active=False, last_assistant_message=message))

    def end(self, reason: str = "other") -> None:
        self.send(self.base("SessionEnd", reason=reason))


def journal(store: Path, session_id: str) -> list[dict]:
    from auditlog.paths import session_folder_name

    path = store / "sessions" / session_folder_name(session_id) / "events.jsonl"
    return [json.loads(line) for line in path.read_bytes().splitlines()]
