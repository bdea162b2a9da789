"""auditlog: a local, append-only, hash-chained audit trail of AI coding-agent sessions.

This package is imported by the hook on every agent event, so it must stay free of
imports: each submodule pulls in only what it needs.
"""

__version__ = "0.1.0"
