"""errors.log: one line per failure, redacted like everything else the store keeps."""

from __future__ import annotations

from pathlib import Path

from auditlog import errors_log, store_key

TOKEN = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"


def test_a_failure_message_is_one_redacted_line(store: Path, capsys) -> None:
    store.mkdir()
    store_key.load_or_create(str(store))
    errors_log.report(str(store), "git", f"clone failed:\n  https://x:{TOKEN}@example.com/r.git")
    logged = (store / "errors.log").read_text()
    assert logged.count("\n") == 1 and TOKEN not in logged and "[REDACTED:" in logged
    err = capsys.readouterr().err
    assert err.startswith("auditlog: ") and TOKEN not in err


def test_without_a_store_key_the_line_is_still_written(store: Path) -> None:
    store.mkdir()
    errors_log.report(str(store), "hook", "plain failure", to_stderr=False)
    assert "hook: plain failure" in (store / "errors.log").read_text()
