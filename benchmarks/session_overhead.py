#!/usr/bin/env python3
"""Measure what auditlog's hook costs a real Claude Code session.

Why: Claude Code waits for every command hook before it goes on, so a hook's
latency is added to the user's session, event after event.  This benchmark
runs the standard scripted session (Write, Read, Edit, Bash, failing Bash,
two parallel Reads, answer; ~26 hook events) against the real binary and the
scripted model on loopback, in two configurations that differ only in the
hook command registered on every event:

* ``noop``: ``python3 -c "import sys; sys.stdin.buffer.read()"`` with the
  project's own interpreter (``sys.executable``), i.e. the unavoidable cost of
  starting a Python hook at all;
* ``auditlog``: ``--hook-command`` (default: ``auditlog-hook --agent claude``
  next to ``sys.executable``), registered exactly like the no-op; or, with
  ``--via-installer``, whatever ``auditlog install --agent claude --scope
  project --dir PROJECT`` registers.

The two configurations alternate (noop, auditlog, noop, ...) so that drift in
machine load hits both alike, after one unmeasured warm-up session each (the
first start of a 370 MB binary pays for the page cache).  Each run gets a
fresh git project and a fresh HOME; the auditlog runs share one ``AUDITLOG_HOME``, as a
user's sessions do (created by the warm-up session, with the package's bytecode written
first, as an installed package has it).  The median
wall time of each is printed, and the last line is
``session_overhead_ratio=<auditlog/noop>``, for CI logs and scripts to grep.

Exit status: 0 on success; 2 when the Claude Code binary or the hook command
is missing; 1 when a session fails (a broken session makes the timing
meaningless).
"""

from __future__ import annotations

import argparse
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO_ROOT / "tests" / "e2e"))

sys.path.insert(0, str(REPO_ROOT / "benchmarks"))
from claude_driver import (  # noqa: E402 - the harness lives beside the tests, not in the package
    INSTALL_COMMAND,
    STANDARD_PROMPT,
    SessionResult,
    command_hook_settings,
    find_claude_binary,
    make_git_project,
    run_session,
    standard_script,
    write_project_settings,
)
from hook_timing import precompile  # noqa: E402

NOOP_COMMAND = shlex.join([sys.executable, "-c", "import sys; sys.stdin.buffer.read()"])
DEFAULT_HOOK_COMMAND = shlex.join([str(Path(sys.executable).parent / "auditlog-hook"), "--agent", "claude"])
AUDITLOG_CLI = Path(sys.executable).parent / "auditlog"

#: A function that registers a configuration's hooks in a fresh project.
Registrar = Callable[[Path], None]


def register_command(command: str) -> Registrar:
    """Register ``command`` on every hook event, with the harness's match-all matcher."""

    def register(project: Path) -> None:
        write_project_settings(project, command_hook_settings(command))

    return register


def register_via_installer(project: Path) -> None:
    """Let auditlog's own installer register its hook, as a user would."""
    subprocess.run(
        [str(AUDITLOG_CLI), "install", "--agent", "claude", "--scope", "project", "--dir", str(project)],
        check=True,
        capture_output=True,
    )


def run_once(claude_bin: str, workdir: Path, register: Registrar, timeout: float, store: Path) -> SessionResult:
    """One measured session in a fresh project and HOME; raise if it did not do its job.

    Every auditlog run records into the same store, as a user's sessions do: the store
    and its index are created once, by the warm-up session, not by every measured one.
    """
    project = make_git_project(workdir / "project")
    register(project)
    result = run_session(
        project,
        workdir / "home",
        standard_script(project),
        STANDARD_PROMPT,
        extra_env={"AUDITLOG_HOME": str(store)},
        timeout=timeout,
        claude_bin=claude_bin,
    )
    if result.exit_code != 0 or (project / "config.ini").read_text() != "port=8000\n":
        raise RuntimeError(f"the scripted session failed:\n{result.describe()}")
    return result


def command_exists(command: str) -> bool:
    """Whether the program a shell command starts can be found."""
    words = shlex.split(command)
    return bool(words) and shutil.which(words[0]) is not None


def main(argv: list[str] | None = None) -> int:
    """Parse arguments, alternate the two configurations, report medians and the ratio."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0])
    parser.add_argument("--runs", type=int, default=5, help="measured sessions per configuration (default 5)")
    parser.add_argument("--warmup", type=int, default=1, help="unmeasured sessions per configuration first")
    parser.add_argument("--hook-command", default=DEFAULT_HOOK_COMMAND, help="auditlog's hook command")
    parser.add_argument(
        "--via-installer",
        action="store_true",
        help="register auditlog with `auditlog install --agent claude --scope project` instead",
    )
    parser.add_argument("--claude-bin", help="Claude Code binary (default: AUDITLOG_CLAUDE_BIN or .e2e)")
    parser.add_argument("--timeout", type=float, default=120, help="seconds allowed per session")
    parser.add_argument("--keep", action="store_true", help="keep the run directories and print where")
    args = parser.parse_args(argv)
    if args.runs < 1 or args.warmup < 0:
        parser.error("--runs must be at least 1 and --warmup at least 0")

    claude_bin = args.claude_bin or find_claude_binary()
    if claude_bin is None:
        print(
            "error: Claude Code binary not found; set AUDITLOG_CLAUDE_BIN or install the pinned release "
            f"from the repository root with: {INSTALL_COMMAND}",
            file=sys.stderr,
        )
        return 2
    if args.via_installer:
        if not AUDITLOG_CLI.exists():
            print(
                f"error: {AUDITLOG_CLI} not found; install the project first (pip install -e .)",
                file=sys.stderr,
            )
            return 2
        auditlog_registrar: Registrar = register_via_installer
        auditlog_label = f"{AUDITLOG_CLI} install --agent claude --scope project"
    else:
        if not command_exists(args.hook_command):
            print(
                f"error: hook command not found: {args.hook_command!r}; "
                "install the project (pip install -e .) or pass --hook-command",
                file=sys.stderr,
            )
            return 2
        auditlog_registrar = register_command(args.hook_command)
        auditlog_label = args.hook_command
    configs: dict[str, Registrar] = {"noop": register_command(NOOP_COMMAND), "auditlog": auditlog_registrar}
    print(f"claude: {claude_bin}")
    print(f"noop hook: {NOOP_COMMAND}")
    print(f"auditlog hook: {auditlog_label}")

    precompile()
    root = Path(tempfile.mkdtemp(prefix="auditlog-overhead-"))
    audit_home = root / "auditlog-home"
    times: dict[str, list[float]] = {name: [] for name in configs}
    warned = False
    try:
        total = args.warmup + args.runs
        for index in range(total):
            measured = index >= args.warmup
            for name, register in configs.items():
                result = run_once(claude_bin, root / f"{index:02d}-{name}", register, args.timeout, audit_home)
                if measured:
                    times[name].append(result.wall_time)
                label = f"run {index - args.warmup + 1}/{args.runs}" if measured else "warm-up"
                print(f"{label:>10} {name:<8} {result.wall_time:6.2f}s", flush=True)
                if name == "auditlog" and not warned and not any(audit_home.glob("*")):
                    print(f"warning: the auditlog hook wrote nothing to {audit_home}", file=sys.stderr)
                    warned = True
    except RuntimeError as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    finally:
        if args.keep:
            print(f"run directories kept in {root}")
        else:
            shutil.rmtree(root, ignore_errors=True)

    noop = statistics.median(times["noop"])
    auditlog = statistics.median(times["auditlog"])
    print(f"noop_median_s={noop:.3f}")
    print(f"auditlog_median_s={auditlog:.3f}")
    print(f"session_overhead_ratio={auditlog / noop:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
