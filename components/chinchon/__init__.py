"""The Chinchón table's screens: setup, table, count, log."""
