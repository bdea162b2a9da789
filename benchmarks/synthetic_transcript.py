"""Claude Code transcripts of any size for the benchmarks, shaped as 2.x writes them: a
prompt, assistant lines (thinking, text, tool_use: one content block per line, the
message's usage repeated), and tool results whose ``toolUseResult`` carries what Read
returned or what Edit and Write changed (``originalFile``, ``structuredPatch``)."""

from __future__ import annotations

import json
import uuid
from pathlib import Path

CODE = "".join(f"def function_{i}(value):\n    return value * {i}  # keeps the numbers honest\n\n" for i in range(120))
USAGE = {"input_tokens": 12, "output_tokens": 240, "cache_read_input_tokens": 40000,
         "cache_creation_input_tokens": 900, "cache_creation": {"ephemeral_5m_input_tokens": 900}}


class TranscriptWriter:
    """Appends turns to one transcript file."""

    def __init__(self, path: Path, session: str, cwd: str = "/home/dev/project") -> None:
        self.path = path
        self.session = session
        self.cwd = cwd
        self.turn = 0

    def _line(self, entry: dict) -> str:
        clock = f"2026-03-01T10:{self.turn // 60 % 60:02d}:{self.turn % 60:02d}.000Z"
        entry = {"parentUuid": None, "isSidechain": False, "userType": "external", "cwd": self.cwd,
                 "sessionId": self.session, "version": "2.1.62", "gitBranch": "main", **entry,
                 "uuid": str(uuid.uuid4()), "timestamp": clock}
        return json.dumps(entry, separators=(",", ":")) + "\n"

    def _assistant(self, message_id: str, block: dict) -> str:
        return self._line({"type": "assistant", "requestId": "req_" + message_id, "message": {
            "model": "claude-opus-4-6", "id": message_id, "type": "message", "role": "assistant", "content": [block],
            "stop_reason": None, "usage": USAGE}})

    def turn_lines(self) -> str:
        """One user prompt and a model call that thinks, says something, reads a file and
        edits it, with both results (about 40 KB)."""
        self.turn += 1
        n = self.turn
        path = f"{self.cwd}/src/module_{n % 50}.py"
        message = f"msg_{uuid.uuid4().hex[:24]}"
        read_id, edit_id = f"toolu_r{uuid.uuid4().hex[:20]}", f"toolu_e{uuid.uuid4().hex[:20]}"
        edited = CODE.replace("return value * 7 ", f"return value * {n} ", 1)
        out = [
            self._line({"type": "user", "message": {"role": "user", "content": f"Step {n}: change {path}"}}),
            self._assistant(message, {"type": "thinking", "thinking": f"Turn {n}: the user wants function_7 changed.\n"
                                      + "I should read the file first. " * 20, "signature": "EsMC" + "A" * 400}),
            self._assistant(message, {"type": "text", "text": f"Reading {path} before changing it (turn {n})."}),
            self._assistant(message, {"type": "tool_use", "id": read_id, "name": "Read", "input": {"file_path": path}}),
            self._line({"type": "user", "message": {"role": "user", "content": [
                {"tool_use_id": read_id, "type": "tool_result", "content": CODE}]},
                "toolUseResult": {"type": "text", "file": {"filePath": path, "content": CODE, "numLines": 360}}}),
            self._assistant(message, {"type": "tool_use", "id": edit_id, "name": "Edit", "input": {
                "file_path": path, "old_string": "return value * 7 ", "new_string": f"return value * {n} "}}),
            self._line({"type": "user", "message": {"role": "user", "content": [
                {"tool_use_id": edit_id, "type": "tool_result", "content": f"The file {path} has been updated."}]},
                "toolUseResult": {"filePath": path, "oldString": "return value * 7 ",
                                  "newString": f"return value * {n} ", "originalFile": CODE, "structuredPatch": [
                                      {"oldStart": 23, "oldLines": 1, "newStart": 23, "newLines": 1,
                                       "lines": ["-    return value * 7  # keeps the numbers honest",
                                                 f"+    return value * {n}  # keeps the numbers honest"]}],
                                  "userModified": False, "replaceAll": False}}),
            self._line({"type": "attachment", "attachment": {"type": "edited_text_file", "filename": path,
                                                             "snippet": edited[:6000]}}),
        ]
        return "".join(out)

    def hook_progress(self, size: int) -> None:
        """Hook progress lines (as 2.x writes for every hook it runs) up to ``size`` bytes."""
        with open(self.path, "a") as f:
            written = 0
            while written < size:
                data = {"type": "hook_progress", "hookEvent": "PreToolUse", "hookName": "PreToolUse:Read",
                        "command": "auditlog-hook"}
                line = self._line({"type": "progress", "data": data})
                f.write(line)
                written += len(line)

    def grow_to(self, size: int) -> None:
        with open(self.path, "a") as f:
            written = self.path.stat().st_size if self.path.exists() else 0
            while written < size:
                lines = self.turn_lines()
                f.write(lines)
                written += len(lines.encode())
