r"""Drive the real Claude Code binary against the scripted model on loopback.

Why this exists: auditlog is a Claude Code command hook, and only the real
binary shows which events it fires, with which payloads, in which order, and
how long it waits for hooks.  This module has no pytest dependency, so the
tests, the benchmark (``benchmarks/session_overhead.py``) and a developer at a
shell can all use it.

Getting the binary (pinned; the ``.e2e/`` folder is git-ignored)::

    mkdir -p .e2e/claude-code && cd .e2e/claude-code \
        && npm install @anthropic-ai/claude-code@2.1.328

The npm package is a thin wrapper: the real program is a native executable in
a per-platform optional dependency, here
``.e2e/claude-code/node_modules/@anthropic-ai/claude-code-linux-x64/claude``.
Its postinstall step hard-links that file over
``node_modules/@anthropic-ai/claude-code/bin/claude.exe``, which is what
``node_modules/.bin/claude`` points at.  ``npm`` warns that the package wants
Node >= 22; Node 20 installs and runs it fine, since Node never runs it.

What was learnt by experiment with 2.1.328 (``--debug-file`` shows the hook
runner's decisions):

* Accepted hook events.  An unknown key under ``"hooks"`` is skipped, not
  fatal: in ``-p`` mode it is only logged (``Invalid setting skipped ...:
  hooks.Bogus: Unknown hook event "Bogus" was ignored. Valid events: ...``),
  and that list is :data:`CLAUDE_HOOK_EVENTS`: 33 names, the 30 that
  auditlog set out to record plus ``PreModelSwitch``, ``PostModelSwitch`` and
  ``DirectoryAdded``.
  All 33 are accepted without complaint.
* Matchers.  For ``PreToolUse``, ``PostToolUse`` and ``PostToolUseFailure``
  the matcher is a pattern on the tool name: an omitted ``matcher``, ``""``,
  ``"*"`` and ``".*"`` all match every tool, and ``"Read|Edit"`` matches
  those two.  ``UserPromptSubmit``, ``Stop`` and
  ``PostToolBatch`` ignore the matcher (``"Nope"`` still fires), but
  ``SessionEnd`` does not: its matcher is tested against the end ``reason``
  (``"other"`` for a ``-p`` run), so a wrong one silently drops the event;
  ``SessionStart`` likewise matches on its ``source``.  Writing
  ``"matcher": "*"`` everywhere is right for every event.
* Execution.  Each command runs through a shell (the hook's parent is an
  ``sh``, not ``claude``), with cwd = the project directory and
  ``CLAUDE_PROJECT_DIR``, ``CLAUDE_CODE_SESSION_ID`` etc. in its environment.
  The payload arrives on stdin as one line of compact JSON ending in ``\n``,
  then stdin is closed; a hook that never reads stdin is fine.  Claude Code
  waits for the hooks of an event before going on, so hook latency is session
  latency; but all hooks registered on one event start at once (in
  parallel), and so do the ``PreToolUse``/``PostToolUse`` hooks of the tool
  calls of one parallel batch.
* Timeouts.  ``"timeout"`` (seconds) on a handler is enforced: the hook is
  killed (``timed out after 1000ms``) and the session goes on as if it had
  succeeded.  A non-zero exit other than 2 is logged as a hook error and is
  not blocking; the tool still runs.
* Stdout.  Empty stdout is fine.  Plain-text stdout of ``SessionStart`` and
  ``UserPromptSubmit`` hooks is added to the model's context (it shows up in
  the next request body); that of ``PreToolUse``, ``PostToolUse``,
  ``PostToolBatch`` and ``Stop`` hooks does not.  A hook that must stay
  invisible to the model prints nothing.
* Deduplication.  A command registered twice on one event (two matcher
  groups, or user ``~/.claude/settings.json`` plus project settings) runs only
  once per firing; distinct commands all run.  Hooks in both files apply.
* Cost.  The standard scenario (:func:`standard_script`, 26 hook events)
  takes about 0.9 s with no hooks, about 1.85 s with a no-op Python hook on
  every event and about 2.2 s with the capture hook on every event.
"""

from __future__ import annotations

import contextlib
import copy
import json
import os
import platform
import shlex
import signal
import subprocess
import sys
import time
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

#: The Claude Code release the harness is pinned to (and was studied with).
CLAUDE_VERSION = "2.1.328"

#: Every hook event name that Claude Code 2.1.328 accepts in settings.json,
#: in the order the binary itself lists them.
CLAUDE_HOOK_EVENTS: tuple[str, ...] = (
    "PreToolUse",
    "PostToolUse",
    "PostToolUseFailure",
    "PostToolBatch",
    "Notification",
    "UserPromptSubmit",
    "UserPromptExpansion",
    "SessionStart",
    "SessionEnd",
    "Stop",
    "StopFailure",
    "SubagentStart",
    "SubagentStop",
    "PreCompact",
    "PostCompact",
    "PreModelSwitch",
    "PostModelSwitch",
    "PermissionRequest",
    "PermissionDenied",
    "Setup",
    "TeammateIdle",
    "TaskCreated",
    "TaskCompleted",
    "Elicitation",
    "ElicitationResult",
    "ConfigChange",
    "WorktreeCreate",
    "WorktreeRemove",
    "InstructionsLoaded",
    "CwdChanged",
    "FileChanged",
    "DirectoryAdded",
    "MessageDisplay",
)

#: A matcher that matches every tool (and every sub-kind of the other events).
MATCH_ALL = "*"

HERE = Path(__file__).resolve().parent
REPO_ROOT = HERE.parent.parent
SCRIPTED_MODEL = HERE / "scripted_model.py"
CAPTURE_HOOK = HERE / "capture_hook.py"
E2E_INSTALL_DIR = REPO_ROOT / ".e2e" / "claude-code"
INSTALL_COMMAND = (
    "mkdir -p .e2e/claude-code && cd .e2e/claude-code && "
    f"npm install @anthropic-ai/claude-code@{CLAUDE_VERSION}"
)

#: Parent-environment prefixes scrubbed before starting Claude Code, so that
#: running the tests from inside another Claude Code session (or with real
#: credentials exported) can neither redirect nor alter the scripted run.
SCRUBBED_ENV_PREFIXES = ("ANTHROPIC_", "CLAUDE")


def _platform_package_names() -> list[str]:
    """Names of the per-platform npm packages that may hold the native binary here."""
    machine = platform.machine().lower()
    cpu = {"x86_64": "x64", "amd64": "x64", "aarch64": "arm64", "arm64": "arm64"}.get(machine, machine)
    system = sys.platform
    if system.startswith("linux"):
        libc = platform.libc_ver()[0]
        flavours = ["", "-musl"] if libc != "musl" else ["-musl", ""]
        return [f"claude-code-linux-{cpu}{flavour}" for flavour in flavours]
    if system == "darwin":
        return [f"claude-code-darwin-{cpu}"]
    return [f"claude-code-win32-{cpu}"]


def _is_executable(path: Path) -> bool:
    return path.is_file() and os.access(path, os.X_OK)


def find_claude_binary() -> str | None:
    """Locate the Claude Code binary, or return None when it is not installed.

    Order: ``$AUDITLOG_CLAUDE_BIN`` (used as given, and only if executable),
    then the native binary of the pinned install under ``<repo>/.e2e``, then
    that install's ``node_modules/.bin/claude``.  ``PATH`` is deliberately not
    searched: a developer's own, differently versioned ``claude`` would make
    the results depend on the machine.
    """
    override = os.environ.get("AUDITLOG_CLAUDE_BIN")
    if override:
        candidate = Path(override).expanduser()
        return str(candidate) if _is_executable(candidate) else None
    modules = E2E_INSTALL_DIR / "node_modules"
    candidates = [modules / "@anthropic-ai" / name / "claude" for name in _platform_package_names()]
    candidates.append(modules / ".bin" / "claude")
    for candidate in candidates:
        if _is_executable(candidate):
            return str(candidate)
    return None


def claude_version(binary: str) -> str:
    """The binary's ``--version`` line, e.g. ``2.1.328 (Claude Code)``."""
    done = subprocess.run(
        [binary, "--version"], capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL
    )
    return done.stdout.strip()


# --------------------------------------------------------------------------- scripted model


@dataclass
class ModelServer:
    """A running scripted model: where to reach it and where it logs."""

    url: str
    port: int
    log_path: Path
    process: subprocess.Popen[bytes]

    def requests(self) -> list[dict[str, Any]]:
        """Every logged request record (method, path, body), oldest first."""
        return read_request_log(self.log_path)


def read_request_log(log_path: Path) -> list[dict[str, Any]]:
    """Parse the scripted model's JSON-lines request log (missing file: no requests)."""
    if not log_path.exists():
        return []
    lines = log_path.read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines if line.strip()]


def _stop_process(process: subprocess.Popen[bytes], grace: float = 5.0) -> None:
    """Terminate a process we started (and its process group), politely first."""
    if process.poll() is not None:
        return
    with contextlib.suppress(ProcessLookupError):
        os.killpg(process.pid, signal.SIGTERM)
    try:
        process.wait(timeout=grace)
    except subprocess.TimeoutExpired:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
        process.wait()


@contextlib.contextmanager
def scripted_model(
    script_steps: Sequence[Mapping[str, Any]], workdir: Path, startup_timeout: float = 15.0
) -> Iterator[ModelServer]:
    """Run the scripted model in a subprocess on a free loopback port.

    A subprocess rather than a thread, so that the model answers promptly
    however busy the calling process is, and so that timing measurements
    (the benchmark) are not skewed by the caller's GIL.  The port is chosen by
    the kernel (port 0) and read back from a port file, so concurrent runs
    never collide.  ``workdir`` receives ``script.json``, ``requests.log``,
    ``port.txt`` and the server's own ``model.out``.
    """
    workdir.mkdir(parents=True, exist_ok=True)
    script_path = workdir / "script.json"
    log_path = workdir / "requests.log"
    port_path = workdir / "port.txt"
    output_path = workdir / "model.out"
    script_path.write_text(json.dumps(list(script_steps), indent=1), encoding="utf-8")
    port_path.unlink(missing_ok=True)
    command = [
        sys.executable,
        str(SCRIPTED_MODEL),
        "--script",
        str(script_path),
        "--log",
        str(log_path),
        "--port",
        "0",
        "--port-file",
        str(port_path),
    ]
    with output_path.open("wb") as output:
        process = subprocess.Popen(
            command, stdin=subprocess.DEVNULL, stdout=output, stderr=subprocess.STDOUT, start_new_session=True
        )
    try:
        deadline = time.monotonic() + startup_timeout
        while not port_path.exists():
            if process.poll() is not None:
                raise RuntimeError(f"scripted model exited early:\n{output_path.read_text(errors='replace')}")
            if time.monotonic() > deadline:
                raise RuntimeError(f"scripted model did not publish its port within {startup_timeout}s")
            time.sleep(0.02)
        port = int(port_path.read_text().strip())
        yield ModelServer(url=f"http://127.0.0.1:{port}", port=port, log_path=log_path, process=process)
    finally:
        _stop_process(process)


# --------------------------------------------------------------------------- sessions


@dataclass
class SessionResult:
    """What one ``claude -p`` run produced, for assertions and for timing."""

    exit_code: int | None
    stdout: str
    stderr: str
    wall_time: float
    requests: list[Any]
    request_log: Path
    command: list[str]
    timed_out: bool = False
    env_overrides: dict[str, str] = field(default_factory=dict)

    def output_json(self) -> dict[str, Any]:
        """The ``--output-format json`` result object printed on stdout."""
        return json.loads(self.stdout)

    def describe(self) -> str:
        """A compact account of the run, meant for assertion messages."""
        return (
            f"command: {shlex.join(self.command)}\n"
            f"exit code: {self.exit_code} (timed out: {self.timed_out}) after {self.wall_time:.2f}s\n"
            f"model requests: {len(self.requests)}\n"
            f"stdout:\n{self.stdout[-4000:]}\nstderr:\n{self.stderr[-4000:]}"
        )


def session_env(
    home_dir: Path, base_url: str, extra_env: Mapping[str, str] | None = None
) -> tuple[dict[str, str], dict[str, str]]:
    """Build Claude Code's environment: (full environment, the variables we set).

    The parent's ``ANTHROPIC_*`` and ``CLAUDE*`` variables are dropped so that
    nothing but the scripted model can be reached, and ``HOME`` points at a
    throw-away directory so the run never reads or writes a real
    ``~/.claude``.  Everything else (``PATH``, ``AUDITLOG_HOME``...) passes
    through, then ``extra_env`` is applied last.
    """
    env = {key: value for key, value in os.environ.items() if not key.startswith(SCRUBBED_ENV_PREFIXES)}
    overrides = {
        "HOME": str(home_dir),
        "ANTHROPIC_BASE_URL": base_url,
        "ANTHROPIC_API_KEY": "sk-ant-test-dummy-key",
        "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
        "DISABLE_AUTOUPDATER": "1",
        # Running as root, Claude Code refuses --dangerously-skip-permissions unless sandboxed.
        "IS_SANDBOX": "1",
    }
    overrides.update(extra_env or {})
    env.update(overrides)
    return env, overrides


def run_session(
    project_dir: Path | str,
    home_dir: Path | str,
    script_steps: Sequence[Mapping[str, Any]],
    prompt: str,
    extra_env: Mapping[str, str] | None = None,
    timeout: float = 120,
    *,
    claude_bin: str | None = None,
    model_dir: Path | str | None = None,
    extra_args: Sequence[str] = (),
) -> SessionResult:
    """Run one headless Claude Code session against a fresh scripted model.

    Runs ``claude -p PROMPT --dangerously-skip-permissions --output-format
    json`` in ``project_dir`` with stdin closed (as in CI).  ``wall_time``
    covers the ``claude`` process alone, from spawn to exit, not the model's
    start-up.  On timeout the whole process group is killed and the result
    says ``timed_out``; it never raises for a failed session, so callers can
    put :meth:`SessionResult.describe` in their assertion message.  The model's
    files go to ``model_dir`` (default ``home_dir/scripted-model``).
    """
    binary = claude_bin or find_claude_binary()
    if binary is None:
        raise FileNotFoundError(f"Claude Code binary not found; install it with: {INSTALL_COMMAND}")
    project = Path(project_dir)
    home = Path(home_dir)
    home.mkdir(parents=True, exist_ok=True)
    workdir = Path(model_dir) if model_dir is not None else home / "scripted-model"
    command = [
        binary,
        "-p",
        prompt,
        "--dangerously-skip-permissions",
        "--output-format",
        "json",
        *extra_args,
    ]
    with scripted_model(script_steps, workdir) as model:
        env, overrides = session_env(home, model.url, extra_env)
        started = time.monotonic()
        process = subprocess.Popen(
            command,
            cwd=project,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            start_new_session=True,
        )
        timed_out = False
        try:
            raw_out, raw_err = process.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            timed_out = True
            _stop_process(process, grace=2.0)
            raw_out, raw_err = process.communicate()
        wall_time = time.monotonic() - started
        records = model.requests()
    return SessionResult(
        exit_code=None if timed_out else process.returncode,
        stdout=raw_out.decode("utf-8", "replace"),
        stderr=raw_err.decode("utf-8", "replace"),
        wall_time=wall_time,
        requests=[record["body"] for record in records if record.get("method") == "POST"],
        request_log=model.log_path,
        command=command,
        timed_out=timed_out,
        env_overrides=overrides,
    )


# --------------------------------------------------------------------------- hook settings


def command_hook_settings(
    command_for_event: str | Mapping[str, str],
    events: Sequence[str] = CLAUDE_HOOK_EVENTS,
    timeout: int | None = None,
) -> dict[str, Any]:
    """A settings ``hooks`` block running a command on each of ``events``.

    ``command_for_event`` is one command for all events, or a mapping from
    event name to command.  Every group uses ``"matcher": "*"`` (see the
    module docstring for why that is right for every event).
    """
    hooks: dict[str, Any] = {}
    for event in events:
        command = command_for_event if isinstance(command_for_event, str) else command_for_event[event]
        handler: dict[str, Any] = {"type": "command", "command": command}
        if timeout is not None:
            handler["timeout"] = timeout
        hooks[event] = [{"matcher": MATCH_ALL, "hooks": [handler]}]
    return {"hooks": hooks}


def capture_hook_command(capture_dir: Path | str, event: str) -> str:
    """The shell command that runs the independent capture hook for one event."""
    return shlex.join([sys.executable, str(CAPTURE_HOOK), str(capture_dir), event])


def independent_capture_hook_settings(capture_dir: Path | str) -> dict[str, Any]:
    """Settings registering :mod:`capture_hook` on every event Claude Code knows.

    The event name is passed on the command line too, so each capture file is
    named after the event it was registered for, whatever the payload says.
    """
    commands = {event: capture_hook_command(capture_dir, event) for event in CLAUDE_HOOK_EVENTS}
    return command_hook_settings(commands)


def merge_hooks(settings_a: Mapping[str, Any], settings_b: Mapping[str, Any]) -> dict[str, Any]:
    """Merge two settings objects so that both sets of hooks stay registered.

    Top-level keys other than ``hooks`` come from ``settings_a`` and are then
    overridden by ``settings_b``.  Under ``hooks``, each event gets ``a``'s
    matcher groups followed by ``b``'s, with exact duplicates dropped, so
    merging the same settings twice is harmless.  Neither input is modified.
    """
    merged = copy.deepcopy(dict(settings_a))
    for key, value in settings_b.items():
        if key != "hooks":
            merged[key] = copy.deepcopy(value)
    hooks: dict[str, list[Any]] = merged.setdefault("hooks", {})
    for event, groups in settings_b.get("hooks", {}).items():
        target = hooks.setdefault(event, [])
        for group in groups:
            if group not in target:
                target.append(copy.deepcopy(group))
    return merged


def write_project_settings(
    project_dir: Path | str, settings: Mapping[str, Any], *, merge: bool = True
) -> Path:
    """Write ``PROJECT/.claude/settings.json``; by default merged into what is there.

    Merging lets a test install auditlog's hooks first (with auditlog's own
    installer) and then add the capture hook beside them, or the other way round.
    """
    path = Path(project_dir) / ".claude" / "settings.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    current: dict[str, Any] = {}
    if merge and path.exists():
        current = json.loads(path.read_text(encoding="utf-8"))
    path.write_text(json.dumps(merge_hooks(current, settings), indent=2) + "\n", encoding="utf-8")
    return path


# --------------------------------------------------------------------------- captures


@dataclass(frozen=True)
class Capture:
    """One payload saved by the capture hook."""

    path: Path
    event: str
    raw: bytes
    meta: dict[str, Any]

    @property
    def payload(self) -> dict[str, Any]:
        """The payload parsed as JSON."""
        return json.loads(self.raw)


def read_captures(capture_dir: Path | str) -> list[Capture]:
    """Captured payloads in the order their hooks started (file names sort by start time)."""
    directory = Path(capture_dir)
    if not directory.exists():
        return []
    captures = []
    for path in sorted(directory.glob("[0-9]*.json")):
        if path.name.endswith(".meta.json"):
            continue
        meta_path = path.with_name(path.name[: -len(".json")] + ".meta.json")
        meta = json.loads(meta_path.read_text()) if meta_path.exists() else {}
        event = meta.get("event_arg") or path.stem.split("-")[2]
        captures.append(Capture(path=path, event=event, raw=path.read_bytes(), meta=meta))
    return captures


# --------------------------------------------------------------------------- the standard scenario


def _git(project: Path, *args: str) -> None:
    """Run git in ``project`` with an environment that ignores user and system config."""
    env = dict(os.environ, GIT_CONFIG_NOSYSTEM="1", GIT_CONFIG_GLOBAL=os.devnull, GIT_TERMINAL_PROMPT="0")
    subprocess.run(["git", *args], cwd=project, env=env, check=True, capture_output=True)


def make_git_project(project: Path | str) -> Path:
    """Create a real git repository with one commit holding ``config.ini`` (``port=7000``).

    The identity is set in the repository itself, so committing works whatever
    the machine's (or a temporary HOME's) git configuration is.  Returns the
    resolved path, since Claude Code reports resolved paths in its payloads.
    """
    path = Path(project)
    path.mkdir(parents=True, exist_ok=False)
    _git(path, "init", "--quiet", "--initial-branch=main")
    _git(path, "config", "user.name", "Auditlog E2E")
    _git(path, "config", "user.email", "e2e@auditlog.invalid")
    _git(path, "config", "commit.gpgsign", "false")
    (path / "config.ini").write_text("port=7000\n", encoding="utf-8")
    _git(path, "add", "config.ini")
    _git(path, "commit", "--quiet", "-m", "Initial commit")
    return path.resolve()


def standard_script(project_dir: Path | str) -> list[dict[str, Any]]:
    """The scripted session shared by the harness test and the overhead benchmark.

    Write a new file, Read, Edit ``config.ini`` (port 7000 -> 8000), a Bash
    that appends to ``notes.txt``, a failing Bash, two Reads in parallel, then
    a final answer.  Paths are absolute, as Claude Code's file tools require.
    """
    project = Path(project_dir).resolve()
    config = str(project / "config.ini")
    created = str(project / "hello.txt")
    return [
        {
            "say": "I will create a file first.",
            "tool": "Write",
            "input": {"file_path": created, "content": "hello from the scripted model\n"},
        },
        {"tool": "Read", "input": {"file_path": config}},
        {
            "tool": "Edit",
            "input": {"file_path": config, "old_string": "port=7000", "new_string": "port=8000"},
        },
        {
            "tool": "Bash",
            "input": {"command": "echo 'edited config' >> notes.txt", "description": "Append a note"},
        },
        {"tool": "Bash", "input": {"command": "false", "description": "A command that fails"}},
        {
            "parallel": [
                {"tool": "Read", "input": {"file_path": config}},
                {"tool": "Read", "input": {"file_path": created}},
            ]
        },
        {"text": "All done: port is now 8000."},
    ]


#: The prompt of the standard scenario; distinctive, so tests can find it in logs.
STANDARD_PROMPT = "Please bump the port in config.ini to 8000 and take notes (auditlog-e2e)."
