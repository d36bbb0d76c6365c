"""The daily deal: one deal per game and UTC day, the same cards and the same computers for
everyone, one try per account, scored against the whole field; signed out, one try per browser at
the day's practice deal (the same format, another deal, ranked against nobody).

- ``field``: the day's tries held against each other (matchpoints, the month, the streak), pure;
- ``tries``: the day's seed, its fingerprint, starting or resuming a try and ending the day, over
  the database (its unique rows hold across every process) and the tables' registry.

Why the promise holds: a daily table's game seed is derived from the day's seed, and every hand is
dealt from the game's own generator (``app.tables.table.hand_seeds``); the computers choose from
the game seed, their seat and the table's version, which only steps move. So two people who make
the same moves see the same game. The seed stays in the database until the day is over; the
pages show its fingerprint (SHA-256) before, and the seed after. So do a daily table's hands:
their seeds are held back (app.tables.snapshot.seeds_withheld) until the day is over, since each
is that hand's whole deck for everyone who has not played it yet.
"""
