"""Reviewing finished hands: from what a table records of every move (``app.tables.moves``), the
exact replay of one hand from its game's first dealer, its seeds and its moves (``replay.replay_hand``),
and where a review's moves come from: a live table, or an account's history (``sources``)."""
