#!/usr/bin/env python3
"""One diff-replay step on a 5,000-line patch (budget: <= 50 ms).

The session is written through the real hook (``tests/store_builder.py``): a few Write
calls, each creating a 5,000-line Python file, so each step's patch is 5,000 lines and
more. A step is timed from the key press until the code view holds the new step's lines
and has rendered every line visible on screen (the view builds lines lazily, so a
rendered viewport is the proof the frame could be drawn).

Two figures: "cold" clears the replay's step cache before each press (the worker reads
and parses the patch: the worst case, and the one the budget is judged on) and "warm"
lets the neighbour prefetch work as it does for a user stepping forward. Prints medians
and, last, ``tui_replay_step_ms=<cold median>`` and ``tui_replay_step_ratio=<cold/50 ms>``.
"""

from __future__ import annotations

import argparse
import asyncio
import faulthandler
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "tests"))

BUDGET_MS = 50.0
LINES = 5000


def big_file(n: int, variant: int) -> str:
    return "".join(f"def f_{variant}_{i}(x: int) -> int:  # step {variant}\n    return x * {i} + {variant}\n"
                   for i in range(n // 2))


def build(tmp: Path, steps: int) -> str:
    from store_builder import ClaudeSession, make_repo

    project = make_repo(tmp / "project", {"README.md": "bench\n"})
    session = ClaudeSession(project, session_id="bench-replay-0000-4000-8000-000000000001")
    session.start()
    session.prompt("Generate the big modules")
    for i in range(steps):
        session.write(f"src/module_{i}.py", big_file(LINES, i))
    session.stop("done")
    session.end()
    return session.session_id


async def run(home: str, session_id: str, presses: int) -> tuple[list[float], list[float], int]:
    from auditlog.tui.app import AuditlogApp
    from auditlog.tui.screens.replay import ReplayScreen
    from auditlog.tui.screens.session import SessionScreen
    from auditlog.tui.widgets.code_view import CodeView
    from textual import events

    app = AuditlogApp(home=home, session=session_id)
    async with app.run_test(size=(120, 40)) as pilot:
        while not (isinstance(app.screen, SessionScreen) and app.screen.data is not None and app.warmed):
            await asyncio.sleep(0.01)  # the app warms pygments and freezes its start-up heap after a second
        await pilot.press("d")
        while not (isinstance(app.screen, ReplayScreen) and app.screen.query_one(CodeView).lines):
            await asyncio.sleep(0.01)
        replay = app.screen
        view = replay.query_one(CodeView)
        patch_lines = len(view.lines)

        async def step(key: str) -> float:
            before = view.lines
            start = time.perf_counter()
            app.post_message(events.Key(key, None))  # as the terminal driver delivers a key
            while view.lines is before or len(view._cache) < min(len(view.lines), view.size.height):
                await asyncio.sleep(0.001)  # sleeping (not spinning) leaves the GIL to the worker, as an idle UI does
                if time.perf_counter() - start > 10:
                    raise RuntimeError(f"step {key!r} from position {replay.state.position} never drew")
            return (time.perf_counter() - start) * 1000

        async def timed(cold: bool) -> list[float]:
            replay.prefetch = not cold
            await app.workers.wait_for_complete()
            out = []
            for i in range(presses):
                forward = i % (2 * (replay.state.count - 1)) < replay.state.count - 1
                if cold:
                    replay.cache.clear()
                else:
                    await app.workers.wait_for_complete()  # let the prefetch of the neighbour finish
                    await pilot.pause(0.05)
                out.append(await step("right" if forward else "left"))
            return out

        await step("right")  # warm-up: pygments' first lexer lookup, Python's caches
        await step("left")
        cold = await timed(True)
        warm = await timed(False)
    return cold, warm, patch_lines


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=4, help="file changes in the session")
    parser.add_argument("--presses", type=int, default=30, help="timed key presses per mode")
    args = parser.parse_args()
    faulthandler.dump_traceback_later(600, exit=True)  # a hang prints where it is instead of waiting forever
    with tempfile.TemporaryDirectory(prefix="auditlog-bench-replay-") as tmp:
        home = Path(tmp) / "store"
        os.environ["AUDITLOG_HOME"] = str(home)
        for name, value in (("GIT_AUTHOR_NAME", "bench"), ("GIT_AUTHOR_EMAIL", "bench@example.com"),
                            ("GIT_COMMITTER_NAME", "bench"), ("GIT_COMMITTER_EMAIL", "bench@example.com")):
            os.environ.setdefault(name, value)
        started = time.perf_counter()
        session_id = build(Path(tmp), args.steps)
        print(f"wrote {args.steps} changes of {LINES} lines through the hook in {time.perf_counter() - started:.1f} s")
        cold, warm, patch_lines = asyncio.run(run(str(home), session_id, args.presses))
    cold_ms, warm_ms = statistics.median(cold), statistics.median(warm)
    print(f"patch size: {patch_lines} lines on screen model per step (a {LINES}-line file added)")
    print(f"replay step, cold (read + unidiff + draw): {cold_ms:.1f} ms median, {max(cold):.1f} ms max "
          f"of {len(cold)}")
    print(f"replay step, warm (prefetched neighbour):  {warm_ms:.1f} ms median, {max(warm):.1f} ms max "
          f"of {len(warm)}")
    print(f"budget: <= {BUDGET_MS:.0f} ms ({'met' if cold_ms <= BUDGET_MS else 'NOT met'})")
    print(f"tui_replay_step_ms={cold_ms:.1f}")
    print(f"tui_replay_step_warm_ms={warm_ms:.1f}")
    print(f"tui_replay_step_ratio={cold_ms / BUDGET_MS:.2f}")
    return 0 if cold_ms <= BUDGET_MS else 1


if __name__ == "__main__":
    sys.exit(main())
