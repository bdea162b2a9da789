"""The store's secret key: fingerprints of redacted secrets and signed checkpoints.

Created once per store (32 random bytes, mode 0600). Whoever holds it can forge
fingerprints and checkpoints, so it never leaves the store (see docs/integrity.md).
"""

from __future__ import annotations

import os

from auditlog import paths

KEY_FILE = "store.key"
KEY_BYTES = 32


def load_or_create(home: str) -> bytes:
    path = os.path.join(home, KEY_FILE)
    try:
        with open(path, "rb") as f:
            key = f.read()
        if len(key) == KEY_BYTES:
            return key
    except FileNotFoundError:
        pass
    try:
        fd = paths.open_private(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL)
    except FileExistsError:  # another hook created it meanwhile
        with open(path, "rb") as f:
            key = f.read()
        if len(key) != KEY_BYTES:
            raise OSError(f"{path} is damaged ({len(key)} bytes); restore it from a backup") from None
        return key
    key = os.urandom(KEY_BYTES)
    try:
        os.write(fd, key)
    finally:
        os.close(fd)
    return key
