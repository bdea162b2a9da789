"""``auditlog-hook``: the command every agent runs on every hook event.

The contract (docs/hooks.md): read stdin as bytes with a cap and a deadline, print
nothing on stdout, exit 0 whatever happens, and report internal failures as one line on
stderr and in ``errors.log``. The agent is never blocked or slowed by a broken logger.
Imports: the standard library and the auditlog core only.
"""

from __future__ import annotations

import os
import sys

AGENTS = ("claude", "codex", "gemini", "cursor", "hel")
IGNORE_FILE = ".auditlog-ignore"


def _parse_agent(argv: list[str]) -> str | None:
    for i, arg in enumerate(argv):
        if arg == "--agent" and i + 1 < len(argv):
            return argv[i + 1]
        if arg.startswith("--agent="):
            return arg.split("=", 1)[1]
    return None


def ignored(cwd: str | None) -> bool:
    """A ``.auditlog-ignore`` file in the cwd or any folder above it switches capture off."""
    if not cwd or not os.path.isabs(cwd):
        return False
    current = os.path.normpath(cwd)
    while True:
        if os.path.exists(os.path.join(current, IGNORE_FILE)):
            return True
        parent = os.path.dirname(current)
        if parent == current:
            return False
        current = parent


def _quarantine(home: str, raw: bytes, why: str) -> None:
    """Keep input we cannot record (so nothing is lost), redacted where it is text."""
    from auditlog import paths
    from auditlog.record import utc_timestamp

    folder = os.path.join(home, "rejected")
    paths.ensure_dir(folder)
    data = raw[: 16 * 1024 * 1024]
    try:
        data = _redactor(home).redact_text(data.decode("utf-8"))[0].encode("utf-8")
    except Exception:
        data = f"({len(raw)} bytes, not UTF-8 text: not kept)\n".encode()
    name = f"{utc_timestamp().replace(':', '')}-{os.getpid()}.txt"
    paths.write_private_file(os.path.join(folder, name), f"# {why}\n".encode() + data)


def _redactor(home: str, key: bytes | None = None):
    from auditlog import store_key
    from auditlog.redaction import Redactor

    return Redactor(key or store_key.load_or_create(home))


class Outcome:
    """What the hook owes the agent on stdout (almost always nothing)."""

    reply: bytes | None = None


def run(argv: list[str], stdin_fd: int = 0, outcome: Outcome | None = None) -> None:
    """Record one hook event. Raises on internal failure (``main`` reports it); a reply
    the agent's protocol requires is put in ``outcome`` before anything can fail."""
    from auditlog.paths import ensure_dir, store_home
    from auditlog.record import utc_timestamp

    received = utc_timestamp()
    disabled = os.environ.get("AUDITLOG_DISABLE") == "1"
    if disabled and _parse_agent(argv) in ("claude", "codex", "gemini", "hel"):
        return  # these agents want no answer: skip even reading the payload
    from auditlog.hooks.stdin_reader import read_payload

    raw = read_payload(stdin_fd)
    home = store_home()
    import json

    try:
        payload = json.loads(raw)
    except ValueError as exc:
        if disabled:
            return
        ensure_dir(home)
        _quarantine(home, raw, f"not JSON: {exc}")
        raise ValueError(f"payload is not JSON ({len(raw)} bytes; kept in rejected/): {exc}") from None
    if not isinstance(payload, dict):
        if disabled:
            return
        ensure_dir(home)
        _quarantine(home, raw, f"a JSON {type(payload).__name__}, not an object")
        raise ValueError(f"payload is a JSON {type(payload).__name__}, not an object (kept in rejected/)")
    agent = _parse_agent(argv) or detect_agent(payload)
    from auditlog.hooks import adapters

    obs = adapters.observe(agent, payload)
    if outcome is not None:
        outcome.reply = obs.reply  # owed even when nothing is recorded (Cursor's before-hooks)
    if disabled or ignored(obs.cwd):
        return
    if not obs.session_id:
        ensure_dir(home)
        _quarantine(home, raw, "no session id")
        raise ValueError(f"{obs.event} payload has no session id (kept in rejected/)")
    from auditlog import store_key
    from auditlog.capture import Capture

    ensure_dir(home)
    key = store_key.load_or_create(home)
    Capture(home, _redactor(home, key), key).record(obs, received)


# Event names only Gemini CLI uses; SessionStart, SessionEnd and Notification it shares
# with Claude Code, and tells apart by the ``timestamp`` field every Gemini payload has.
GEMINI_EVENTS = frozenset(("BeforeTool", "AfterTool", "BeforeAgent", "AfterAgent", "BeforeModel", "AfterModel",
                           "BeforeToolSelection", "PreCompress"))
GEMINI_SHARED_EVENTS = frozenset(("SessionStart", "SessionEnd", "Notification"))


def detect_agent(payload: dict) -> str:
    """Which agent sent a payload when ``--agent`` is missing (docs/agents.md): Cursor
    by ``cursor_version``/``conversation_id``, Gemini CLI by its event names (and
    ``timestamp``), Codex by ``turn_id``; anything else is taken for Claude Code. The
    installers always pass ``--agent``, so this serves hand-written configurations."""
    if "cursor_version" in payload or "conversation_id" in payload:
        return "cursor"
    event = payload.get("hook_event_name")
    if event in GEMINI_EVENTS or ("timestamp" in payload and event in GEMINI_SHARED_EVENTS):
        return "gemini"
    if "turn_id" in payload:
        return "codex"
    return "claude"


def main(argv: list[str] | None = None, stdin_fd: int = 0) -> int:
    argv = sys.argv[1:] if argv is None else argv
    os.umask(0o077)
    real_stdout = sys.stdout
    sys.stdout = sys.stderr  # nothing we do may ever reach the agent's stdout
    outcome = Outcome()
    try:
        run(argv, stdin_fd, outcome=outcome)
    except BaseException as exc:
        if isinstance(exc, SystemExit | KeyboardInterrupt) and not str(exc):
            return 0
        from auditlog.errors_log import report
        from auditlog.paths import store_home

        home = None
        try:
            home = store_home()
        except Exception:
            pass
        report(home, "hook", f"{type(exc).__name__}: {exc}")
    finally:
        sys.stdout = real_stdout
        if outcome.reply:
            try:
                real_stdout.buffer.write(outcome.reply)
                real_stdout.flush()
            except Exception:
                pass
    return 0


def console_main() -> None:
    """The ``auditlog-hook`` console script: ``main``, then an immediate exit.

    Everything the hook writes is on disk by now (unbuffered writes, committed SQLite
    transactions), so interpreter teardown (module finalisation, and SQLite checkpointing
    the WAL when its last connection closes) would only add to the agent's wait.
    """
    code = main()
    try:
        sys.stderr.flush()
    finally:
        os._exit(code)


if __name__ == "__main__":
    console_main()
