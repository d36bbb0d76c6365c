"""Ratings of people per game: openskill's Plackett-Luce model fed with a game's final placings.

Pure: no database, no screen, no clock. The lobby and the end of a table call these functions with
what they read from the table and the accounts, and store what comes back.

- ``Rating``: a person's (or a computer level's) skill, its uncertainty and the games rated.
- ``rate_game``: the new ratings of the people at a finished rated game.
- ``is_rated``: which games count.
- ``COMPUTER_RATINGS``: each computer level's fixed rating per game, fitted from the arena with
  ``python -m app.bench.computer_ratings``; ``GameInfo.computer_ratings`` points at its game's.

No rating maths is written here: every update is ``PlackettLuce.rate``; this module only chooses
who stands where, keeps the computers still, halves a change (or cuts it to a cap: ``within``)
and draws the number people see.
"""
from __future__ import annotations

import math
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType

from openskill.models import PlackettLuce

# openskill's own defaults (mu 25, sigma 25/3, beta 25/6, tau 25/300), named so the display's scale
# below can be worked out from them. tau widens every sigma a little before each game, so a rating
# never freezes: someone who improves after a thousand games can still climb. Shared and never
# changed: rate() is only ever called without limit_sigma, the one argument that would alter it.
MODEL = PlackettLuce()

DISPLAY_NEW = 1500
"""What a new player shows: the familiar starting number of Elo and Glicko sites (lichess, chess.com)."""

DISPLAY_SCALE = 400 / (math.log(10) * math.sqrt(2) * MODEL.beta)
"""Display points per unit of mu (about 29.5).

Chosen so that a gap means what it means in chess: between two settled players, Plackett-Luce's
chance of the higher one finishing ahead is logistic in ``gap / (sqrt(2) * beta)`` (the sigmas
become small next to beta), and Elo's is logistic in ``gap * ln(10) / 400``; this scale makes the
two the same, so 400 points ahead is 10 to 1, 200 points about 3 to 1, as people who know ratings
expect. (Settled sigmas of 1.5 to 2 are not quite nothing: the real chances are about a tenth
flatter, which app.bench.computer_ratings shows as fitted gaps a tenth wider than the measured
ones.) A game with much luck (Chinchón) then shows its levels close together, honestly, instead
of a spread that suggests a chess-like gap. A new player's sigma (8.33) reads as about ±246."""

PROVISIONAL_SIGMA = 5.0
"""A rating is provisional (shown with a mark, like lichess's "?") while its sigma is above this.

Three fifths of a new player's 8.33, about ±147 display points. Measured on 200 seeded runs of
random placings (tests/test_ratings.py's ``games_until_settled``): 9 to 15 games (median 11) take a
new player below it against settled players (sigma 2), at two seats or at four; 17 to 24 against
computers alone, whose changes are halved; about 29 against players as new as oneself, who teach
little. So the mark goes when the leaderboard's 10 rated games would admit a player."""


@dataclass(frozen=True, slots=True)
class Rating:
    """One person's rating in one game (or a computer level's fixed one): openskill's mu and sigma,
    and how many rated games made it. ``Rating()`` is a new player's."""

    mu: float = MODEL.mu
    sigma: float = MODEL.sigma
    games: int = 0

    def display(self) -> int:
        """The whole number people see: a linear map of mu, 1500 for a new player.

        mu and not the conservative ``mu - 3 sigma``: with the conservative figure a new player
        would start near 0 (or every number would climb just by playing), and a lost game could
        raise the number because sigma shrinks. With mu, a win shows as a gain and a loss as a loss,
        and the uncertainty has its own sign, ``provisional``. A leaderboard that wants to rank
        the sure above the lucky can still sort by ``conservative``."""
        return round(DISPLAY_NEW + (self.mu - MODEL.mu) * DISPLAY_SCALE)

    @property
    def conservative(self) -> float:
        """openskill's ordinal, ``mu - 3 sigma``: very probably no higher than the true skill."""
        return self.mu - 3 * self.sigma

    @property
    def provisional(self) -> bool:
        return self.sigma > PROVISIONAL_SIGMA

    def seat_mark(self) -> tuple[int, bool]:
        """What a seat shows of it at a table and in the lobby: the number and the provisional mark."""
        return self.display(), self.provisional


def computer(mu: float, sigma: float) -> Rating:
    """A computer level's fixed rating (games is meaningless for it and stays 0)."""
    return Rating(mu, sigma)


# Fitted with: python -m app.bench.computer_ratings --games 200000 --seed 40   (2026-12-04)
# from the arena's two-seat head-to-head win rates on fresh seeds (4040, 4041), listed in that
# script: Chinchón hard-normal 54.6 %, normal-easy 75.1 %, hard-easy 84.0 %; Ronda Robada 60.2 %,
# 68.0 %, 76.5 %; Continental 93.2 %, 85.7 %, 99.3 %. Normal is anchored at a new player's mu
# (25.0, shown 1500): a newcomer is assumed to play like normal until their games say otherwise.
# Other seeds of the fit move a level by about 10 shown points. The sigma is where openskill's tau
# holds a much-measured rating. Fitted at two seats; used at any number (Plackett-Luce's premise).
COMPUTER_RATINGS: Mapping[str, Mapping[str, Rating]] = MappingProxyType({
    # shown 1292, 1500, 1545: Chinchón's luck keeps its levels close
    'chinchon': MappingProxyType({'easy': computer(17.94, 1.56), 'normal': computer(25.0, 1.55),
                                  'hard': computer(26.53, 1.51)}),
    # shown 1358, 1500, 1574
    'ronda-robada': MappingProxyType({'easy': computer(20.18, 1.51), 'normal': computer(25.0, 1.49),
                                      'hard': computer(27.51, 1.5)}),
    # shown 1156, 1500, 2005: Continental's hard player wins 93 % against normal
    'continental': MappingProxyType({'easy': computer(13.33, 1.74), 'normal': computer(25.0, 1.76),
                                     'hard': computer(42.13, 2.1)}),
})


def is_rated(*, public: bool, accounts: int, guests: int, computers: int, wanted: bool = True) -> bool:
    """Whether a game changes ratings, from who sits at it when it starts.

    ``public``: the table was opened public (a private table or a room with friends is never
    rated: friends could trade wins); ``accounts``: people signed in; ``guests``: people not signed
    in (one is enough to make the game unrated: their result could not be kept, and a second
    account could farm wins off a guest seat); ``computers``: seats dealt to computer levels
    (not a computer standing in for an away person: that seat is still its person's);
    ``wanted``: the table was opened as rated (quick match and the lobby offer rated or not).

    Rated: at least two people, all signed in; or one signed-in person against computers only
    (issue 40: "games against computers alone can be rated too", each computer holding a fixed
    rating)."""
    if not (public and wanted) or guests > 0:
        return False
    return accounts >= 2 or (accounts == 1 and computers >= 1)


def rate_game(players: Mapping[int, Rating], placements: Sequence[int], *, leavers: Collection[int] = (),
              computers: Mapping[int, Rating] = MappingProxyType({})) -> dict[int, Rating]:
    """The people's new ratings after a rated game; the computers' never change.

    ``placements``: one per seat, 1 the best, equal numbers tie (``app.tables.records.placements``);
    ``players``: seat -> the person's rating before the game; ``computers``: seat -> that level's
    fixed rating (``COMPUTER_RATINGS``); every seat is in exactly one of the two. ``leavers``: seats
    of people who left before the end (not back within the reconnect window): they are placed below
    everyone whatever their seat scored, tied among themselves if several left (BGA's rule: leaving
    must never pay better than losing).

    With a computer dealt in, each person's change is halved, as lichess does in rated games
    against bots: the new mu is the old one plus half openskill's change, and the new sigma the
    old one plus half its change (half the reduction: a person also gains only half the
    certainty, so the provisional mark lasts about twice as many games against computers alone).
    The reasons are lichess's: a computer can be played again and again at will, the same way,
    and its fixed rating is an estimate from the arena, so a game against it teaches less than one
    against people. The halving applies to the whole game, people against people included, as
    soon as one seat was dealt to a computer level. Returns seat -> new rating, people only."""
    seats = range(len(placements))
    if set(players) & set(computers) or set(players) | set(computers) != set(seats):
        raise ValueError(f'every seat of {len(placements)} must be a person or a computer, once: '
                         f'people {sorted(players)}, computers {sorted(computers)}')
    if not players or len(placements) < 2:
        raise ValueError('a rated game has at least one person and two seats')
    if not set(leavers) <= set(players):
        raise ValueError(f'only people leave: leavers {sorted(leavers)}, people {sorted(players)}')
    last = max(placements) + 1
    ranks = [float(last if seat in leavers else placements[seat]) for seat in seats]
    before = [players[seat] if seat in players else computers[seat] for seat in seats]
    teams = [[MODEL.rating(mu=rating.mu, sigma=rating.sigma)] for rating in before]
    after = MODEL.rate(teams, ranks=ranks)
    share = 0.5 if computers else 1.0
    return {seat: Rating(mu=players[seat].mu + share * (after[seat][0].mu - players[seat].mu),
                         sigma=players[seat].sigma + share * (after[seat][0].sigma - players[seat].sigma),
                         games=players[seat].games + 1)
            for seat in players}


def within(before: Rating, after: Rating, low: int, high: int) -> Rating:
    """``after``, its change cut so that the shown change (``after.display() - before.display()``)
    lies within ``low..high`` (``low <= 0 <= high``), the way a computer's game halves one: mu and
    sigma each move the same share of openskill's change (a pair's daily cap, app.fairplay.pairs).
    Unchanged when it is within already."""
    shown = after.display() - before.display()
    allowed = min(high, max(low, shown))
    if allowed == shown:
        return after
    # the mu that shows exactly before's number plus what is allowed
    target = MODEL.mu + (before.display() + allowed - DISPLAY_NEW) / DISPLAY_SCALE
    share = min(1.0, max(0.0, (target - before.mu) / (after.mu - before.mu)))
    return Rating(mu=before.mu + share * (after.mu - before.mu),
                  sigma=before.sigma + share * (after.sigma - before.sigma), games=after.games)
