"""SHA-256, SHA-1 and HMAC-SHA256 from CPython's built-in hash modules.

``import hashlib`` loads the OpenSSL binding, about 2 ms on every hook call (a good part
of the hook's whole budget); the built-in modules give the same digests for free.
"""

from __future__ import annotations

try:  # CPython 3.11
    from _sha256 import sha256
except ImportError:  # pragma: no cover - CPython 3.12+ keeps it in _sha2
    try:
        from _sha2 import sha256  # type: ignore[no-redef]
    except ImportError:
        from hashlib import sha256  # type: ignore[no-redef]
try:
    from _sha1 import sha1
except ImportError:  # pragma: no cover
    from hashlib import sha1  # type: ignore[no-redef]

_BLOCK = 64
_IPAD = bytes(x ^ 0x36 for x in range(256))
_OPAD = bytes(x ^ 0x5C for x in range(256))


def sha256_hex(data: bytes) -> str:
    return sha256(data).hexdigest()


def sha1_hex(data: bytes) -> str:
    return sha1(data).hexdigest()


def hmac_sha256(key: bytes, message: bytes) -> bytes:
    """HMAC-SHA256 (RFC 2104), equal to ``hmac.new(key, message, "sha256").digest()``."""
    if len(key) > _BLOCK:
        key = sha256(key).digest()
    key = key.ljust(_BLOCK, b"\0")
    inner = sha256(key.translate(_IPAD) + message).digest()
    return sha256(key.translate(_OPAD) + inner).digest()
