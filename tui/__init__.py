"""The Textual browser (``auditlog browse``): reads the store only through
``auditlog.query``, in workers, so the interface never waits on the disk."""
