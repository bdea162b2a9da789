"""What the browser knows, kept apart from how it is drawn: reads through
``auditlog.query`` (``reader``), the filter bar's state, the replay's steps, the
diff and JSON line models, and the live-follow decision."""
