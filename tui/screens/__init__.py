"""One screen per task: sessions, one session, diff replay, search, help."""
