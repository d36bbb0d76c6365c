"""The Continental table: its board with the offer round, the meld builder and lay-offs, its log and its count."""
