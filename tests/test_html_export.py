"""The HTML export in a real browser: headless Chromium renders the self-contained page
(no network), the DOM holds the prompts, the files and the diffs, and a screenshot is made."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from store_builder import ClaudeSession, make_repo

CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync"]


@pytest.fixture
def chromium() -> str:
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    if not found:
        if os.environ.get("CI") == "true":
            pytest.fail("CI=true but chromium is missing (.ci/run installs it)")
        pytest.skip("headless Chromium is not installed (apt-get install chromium)")
    return found


def test_html_export_renders_in_chromium(chromium: str, store: Path, tmp_path: Path) -> None:
    project = make_repo(tmp_path / "proj", {"config.ini": "port=7000\n"})
    s = ClaudeSession(project, "html-export-session")
    s.start()
    s.prompt("change the port to 8000 please")
    s.edit("config.ini", "port=7000", "port=8000")
    s.write("hello.py", "print('<b>not markup</b>')\n")
    s.stop("Port changed and hello.py added.")
    page = tmp_path / "trail.html"
    done = subprocess.run([sys.executable, "-m", "auditlog.cli", "export", "last", "--format", "html", "-o", str(page)],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    html = page.read_text()
    assert "<script" not in html and "http://" not in html.replace("http://www.w3.org", "")
    profile = tmp_path / "profile"
    dom = subprocess.run([chromium, *CHROMIUM_FLAGS, f"--user-data-dir={profile}", "--dump-dom", page.as_uri()],
                         capture_output=True, text=True, timeout=120, check=False)
    assert dom.returncode == 0, dom.stderr[-2000:]
    rendered = dom.stdout
    assert "change the port to 8000 please" in rendered
    assert 'class="del">-port=7000</span>' in rendered and 'class="add">+port=8000</span>' in rendered
    assert "hello.py" in rendered and "&lt;b&gt;not markup&lt;/b&gt;" in rendered
    assert 'href="#s-html-export-' in rendered  # the table of contents links to the session
    shot = tmp_path / "trail.png"
    subprocess.run([chromium, *CHROMIUM_FLAGS, f"--user-data-dir={profile}", "--window-size=1280,900",
                    f"--screenshot={shot}", page.as_uri()], capture_output=True, timeout=120, check=True)
    assert shot.stat().st_size > 10_000
    assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
