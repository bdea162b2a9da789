"""Content-addressed blobs: large strings (file pre-images, big tool output) kept once.

A record keeps ``{"$blob": "sha256:<hex>", "bytes": N}`` in place of a string longer than
16 KiB, so lines stay small enough to read and hash quickly, and a file written ten times
is stored once. The blob's hash is in the record, so editing a blob breaks verification.
"""

from __future__ import annotations

import os

from auditlog import paths
from auditlog.digests import sha256_hex

BLOB_THRESHOLD = 16 * 1024
BLOBS = "blobs"


def encode_text(text: str) -> bytes:
    # surrogatepass keeps lone surrogates from odd payloads round-trippable.
    return text.encode("utf-8", "surrogatepass")


def decode_text(data: bytes) -> str:
    return data.decode("utf-8", "surrogatepass")


def put_blob(folder: str, data: bytes) -> str:
    """Store ``data`` under ``blobs/<sha256>`` (once) and return the hex digest."""
    digest = sha256_hex(data)
    blob_dir = os.path.join(folder, BLOBS)
    target = os.path.join(blob_dir, digest)
    if not os.path.exists(target):
        paths.ensure_dir(blob_dir)
        paths.write_private_file(target, data)
    return digest


def blob_path(folder: str, digest: str) -> str:
    if len(digest) != 64 or not all(c in "0123456789abcdef" for c in digest):
        raise ValueError(f"not a blob digest: {digest!r}")
    return os.path.join(folder, BLOBS, digest)


def read_blob(folder: str, digest: str) -> bytes:
    with open(blob_path(folder, digest), "rb") as f:
        return f.read()


def blob_ref(digest: str, size: int) -> dict:
    return {"$blob": f"sha256:{digest}", "bytes": size}


def is_blob_ref(value: object) -> bool:
    return isinstance(value, dict) and isinstance(value.get("$blob"), str) and len(value) == 2


def externalize(value: object, folder: str) -> object:
    """Return ``value`` with every string over the threshold replaced by a blob reference."""
    if isinstance(value, str):
        if len(value) > BLOB_THRESHOLD // 4:  # cheap length test before encoding
            data = encode_text(value)
            if len(data) > BLOB_THRESHOLD:
                return blob_ref(put_blob(folder, data), len(data))
        return value
    if isinstance(value, dict):
        return {k: externalize(v, folder) for k, v in value.items()}
    if isinstance(value, list):
        return [externalize(v, folder) for v in value]
    return value


def internalize(value: object, folder: str) -> object:
    """The inverse of :func:`externalize`: blob references read back into strings."""
    if is_blob_ref(value):
        return decode_text(read_blob(folder, value["$blob"].split(":", 1)[1]))
    if isinstance(value, dict):
        return {k: internalize(v, folder) for k, v in value.items()}
    if isinstance(value, list):
        return [internalize(v, folder) for v in value]
    return value
