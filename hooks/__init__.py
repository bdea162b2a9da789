"""The agent side of auditlog: the hook entry point, one adapter per agent (payload to
normalised observation) and one installer per agent (settings merge)."""
