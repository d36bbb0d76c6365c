"""The daily deal: one deal per game and UTC day, the same cards and the same computers for
everyone, one try per account (or guest browser), scored against the whole field.

- ``field``: the day's tries held against each other (matchpoints, the month, the streak), pure;
- ``tries``: the day's seed, its fingerprint, starting or resuming a try and ending the day, over
  the database (its unique rows hold across every process) and the tables' registry.

Why the promise holds: a daily table's game seed is derived from the day's seed, and every hand is
dealt from the game's own generator (``app.tables.table.hand_seeds``); the computers choose from
the game seed, their seat and the table's version, which only steps move. So two people who make
the same moves see the same game. The seed stays in the database until the day is over; the
pages show its fingerprint (SHA-256) before, and the seed after.
"""
