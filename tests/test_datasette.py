"""The index opens in Datasette, and its full-text search works there (docs/storage.md)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from store_builder import ClaudeSession, make_repo

datasette_app = pytest.importorskip("datasette.app", reason="datasette is a dev dependency (pip install -e '.[dev]')")


def test_datasette_searches_the_index(store: Path, tmp_path: Path) -> None:
    project = make_repo(tmp_path / "proj", {"config.ini": "port=7000\n"})
    s = ClaudeSession(project, "datasette-session")
    s.start()
    s.prompt("make the frobnicator configurable")
    s.edit("config.ini", "port=7000", "port=8000")
    s.stop("done")

    async def fetch(path: str) -> dict:
        ds = datasette_app.Datasette([str(store / "index.sqlite")])
        response = await ds.client.get(path)
        assert response.status_code == 200, response.text
        return response.json()

    hits = asyncio.run(fetch("/index/search.json?_search=frobnicator&_shape=objects"))["rows"]
    assert [(h["session"], h["kind"]) for h in hits] == [("datasette-session", "prompt")]
    sessions = asyncio.run(fetch("/index/sessions.json?_shape=objects"))["rows"]
    assert sessions[0]["first_prompt"] == "make the frobnicator configurable"
    changes = asyncio.run(fetch("/index/changes.json?name=config.ini&_shape=objects"))["rows"]
    assert changes[0]["session"] == "datasette-session"
