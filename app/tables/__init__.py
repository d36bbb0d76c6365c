"""Tables in progress: the Table authority, the id -> Table registry, and history records."""
