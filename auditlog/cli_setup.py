"""``auditlog install``, ``uninstall`` and ``doctor``: getting capture in place and
proving that it works."""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import tempfile
import time

from rich.console import Console

from auditlog import paths
from auditlog.hooks import installers

console = Console(highlight=False)


def cmd_install(args: argparse.Namespace) -> int:
    module = installers.installer(args.agent)
    path, backup, changed = module.install(args.scope, args.dir)
    if changed:
        console.print(
            f"[green]✓[/] Registered [bold]auditlog-hook[/] for {len(module.EVENTS)} {module.LABEL} events in {path}"
        )
        if backup:
            console.print(f"  Backup of the previous file: {backup}")
    else:
        console.print(f"[green]✓[/] Already registered in {path}; nothing changed")
    for note in module.install_notes():
        console.print(f"  {note}")
    console.print(f"  Store: {paths.store_home()}")
    console.print(
        f"  Next: start a {module.LABEL} session here, then run [bold]auditlog browse[/] or [bold]auditlog sessions[/]."
    )
    return 0


def cmd_uninstall(args: argparse.Namespace) -> int:
    path, backup, changed = installers.installer(args.agent).uninstall(args.scope, args.dir)
    if changed:
        console.print(f"[green]✓[/] Removed the auditlog hooks from {path}")
        if backup:
            console.print(f"  Backup of the previous file: {backup}")
    else:
        console.print(f"No auditlog hooks in {path}; nothing changed")
    return 0


def _check_settings(module, label: str, path: str) -> bool:
    try:
        events = module.registered_events(path) if os.path.exists(path) else []
    except ValueError as exc:
        console.print(f"[red]✗[/] {label}: {exc}")
        return False
    if not events:
        console.print(f"[dim]·[/] {label}: no auditlog hooks ({path})")
        return False
    missing = [e for e in module.EVENTS if e not in events]
    note = f" ({len(missing)} events not registered: {', '.join(missing)})" if missing else ""
    console.print(f"[green]✓[/] {label}: hooks on {len(events)} events in {path}{note}")
    return True


def _last_line(path: str) -> str | None:
    if not os.path.exists(path):
        return None
    with open(path, encoding="utf-8", errors="replace") as f:
        lines = f.read().strip().splitlines()
    return lines[-1] if lines else None


def _time_test_event(runs: int = 3) -> tuple[bool, float, str]:
    """Run the installed hook on a synthetic event into a scratch store; returns whether
    it was recorded, the median time in ms, and a message."""
    from auditlog.hooks.claude_install import hook_executable

    command = [*hook_executable(), "--agent", "claude"]
    timings = []
    with tempfile.TemporaryDirectory(prefix="auditlog-doctor-") as scratch:
        env = {**os.environ, "AUDITLOG_HOME": scratch}
        env.pop("AUDITLOG_DISABLE", None)
        payload = json.dumps(
            {
                "session_id": "doctor-test",
                "hook_event_name": "UserPromptSubmit",
                "cwd": scratch,
                "prompt": "auditlog doctor test event",
            }
        ).encode()
        for _ in range(runs):
            start = time.perf_counter()
            done = subprocess.run(command, input=payload, capture_output=True, env=env, timeout=30, check=False)
            timings.append((time.perf_counter() - start) * 1000)
            if done.stdout:
                return False, 0.0, f"the hook printed on stdout: {done.stdout[:200]!r}"
            if done.returncode != 0:
                return False, 0.0, f"the hook exited {done.returncode}"
        journal_path = os.path.join(scratch, "sessions", "doctor-test", "events.jsonl")
        if not os.path.exists(journal_path):
            log = os.path.join(scratch, "errors.log")
            why = _last_line(log) or "no error was logged"
            return False, 0.0, f"no event was recorded: {why}"
        with open(journal_path, "rb") as f:
            count = sum(1 for _ in f)
    return count == runs, statistics.median(timings), f"{count} of {runs} test events recorded"


def cmd_doctor(args: argparse.Namespace) -> int:
    ok = True
    console.print("[bold]Hooks[/]")
    found = []
    for agent in installers.agents():
        module = installers.installer(agent)
        for scope in module.SCOPES:
            label = f"{module.LABEL}, {scope}"
            found.append(_check_settings(module, label, module.settings_path(scope, args.dir)))
    if not any(found):
        ok = False
        console.print("  Run [bold]auditlog install --agent claude[/] (or another agent) to register the hook.")
    console.print("[bold]Store[/]")
    home = paths.store_home()
    try:
        paths.ensure_dir(home)
        probe = os.path.join(home, f".doctor-probe-{os.getpid()}")
        paths.write_private_file(probe, b"ok")
        os.unlink(probe)
        mode = os.stat(home).st_mode & 0o777
        console.print(f"[green]✓[/] {home} is writable (mode {mode:o})")
        if os.environ.get("AUDITLOG_DISABLE") == "1":
            console.print("[yellow]![/] AUDITLOG_DISABLE=1 is set: nothing is recorded while it is")
            ok = False
    except OSError as exc:
        console.print(f"[red]✗[/] {home} is not writable: {exc}")
        ok = False
    log = os.path.join(home, "errors.log")
    if os.path.exists(log):
        last = _last_line(log)
        if last:
            console.print(f"[yellow]![/] errors.log is not empty; the last line: {last}")
    console.print("[bold]Test event[/]")
    recorded, median_ms, message = _time_test_event()
    if recorded:
        console.print(f"[green]✓[/] {message}; the hook takes {median_ms:.0f} ms (median)")
    else:
        console.print(f"[red]✗[/] {message}")
        ok = False
    return 0 if ok else 1
