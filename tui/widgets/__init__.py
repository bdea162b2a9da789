"""The browser's own widgets: filter bar, sessions table, timeline, detail pane and the
lazily highlighted code view that diff replay and the detail pane share."""
