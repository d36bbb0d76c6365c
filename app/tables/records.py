"""A finished table becomes a history record of each account holder seated at it. The record is
made from the seats, whoever's request or task happened to make the last move. A table left
unfinished becomes an abandoned record (`record_abandoned`), with the scores it had reached."""
from __future__ import annotations

import logging
from datetime import UTC, datetime

from sqlalchemy.exc import SQLAlchemyError

from app import fairplay, metrics
from app.engine.protocol import SeatView
from app.history import BETTER, Better, SeatResult, record_finished_game
from app.playban import record_leave
from app.ratings import is_rated
from app.standings import rating_of, record_rated_game
from app.tables.room import room_event
from app.tables.table import Table
from models.db import session_scope
from models.tables import finish_daily_try

logger = logging.getLogger(__name__)


def placements(scores: tuple[int, ...], winners: tuple[int, ...], better: Better) -> list[int]:
    """1 for the winners, then by score (equal scores share a place)."""
    def rank_key(seat: int) -> tuple[int, int]:
        return (0 if seat in winners else 1, scores[seat] if better is Better.LOWER else -scores[seat])

    keys = [rank_key(seat) for seat in range(len(scores))]
    return [1 + sum(1 for other in keys if other < key) for key in keys]


def deal_commitments(view: SeatView) -> list[tuple[str, str]]:
    """(published commitment, revealed seed) per finished hand, as the history keeps them."""
    return [(deal.commitment, deal.seed) for deal in view.past_deals]


def hand_points(table: Table, view: SeatView) -> dict[int, tuple[int, ...] | None]:
    """Hand number -> the points each seat scored in that finished hand (None for a void hand)."""
    return view.points_by_hand(table.hand_results)


def running_scores(view: SeatView) -> tuple[int, ...]:
    """The scores reached so far by an unfinished game (zeros where the game keeps them hidden)."""
    return tuple(view.scores)


def record_table(table: Table) -> list[int]:
    """Record the finished game once for every seated account holder; returns the record ids.
    A failure to record is logged and never breaks the table."""
    outcome = table.state.outcome()
    if outcome is None or table.recorded:
        return []
    if table.options.daily:
        end_daily_try(table, outcome.scores, 'finished')
    rate_table(table, outcome.scores, outcome.winners)
    ids = _record(table, outcome.scores, outcome.winners, abandoned=False)
    table.save_soon()
    return ids


def rate_table(table: Table, scores: tuple[int, ...], winners: tuple[int, ...]) -> dict[int, tuple[int, int]]:
    """A rated game's end changes its people's ratings (app.standings, once per table): placed by
    the game's own order, whoever left and never came back last (and that leave is kept for them,
    app.playban). The seats then show the new numbers. Not rated: a game aborted by a leaver
    (app.tables.aborts), and one where two of the accounts used one browser in the last 30 days
    (app.fairplay: the log says so); two seen at one address are rated and marked. Returns user
    id -> (before, after), empty for a game that is not rated."""
    room = table.room
    people = {seat: table.seats[seat].user_id for seat in table.person_seats()}
    computers = {seat: person.level or 'normal' for seat, person in enumerate(table.seats) if not person.is_person}
    if room is None or room.unrated is not None or not is_rated(
            public=room.public, wanted=room.rated, computers=len(computers),
            accounts=sum(user is not None for user in people.values()),
            guests=sum(user is None for user in people.values())):
        return {}
    at = datetime.fromtimestamp(table.clock.wall(), UTC)
    seen = datetime.now(UTC)   # sightings are kept in real time (sign-in, visits), not on the tables' clock
    try:
        if fairplay.shared_browsers(people.values(), seen):
            room.unrated = 'shared_browser'
            table.changed(notes=[room_event('unrated', None, reason='shared_browser')])
            return {}
        marked = {user_id for pair in fairplay.shared_addresses(people.values(), seen) for user_id in pair}
    except SQLAlchemyError:   # rated later never: better unrated than rated past the rules
        logger.exception('could not read who shared a browser at table %s', table.id)
        return {}
    leavers = set(table.presence.leavers())
    changes = record_rated_game(game_id=table.game.id, table_id=table.id, people=people, computers=computers,
                                placements=placements(scores, winners, BETTER[table.game.id]),
                                leavers=leavers, marked=marked, at=at)
    for seat in sorted(leavers):
        record_leave(user_id=people[seat], table_id=table.id, game_id=table.game.id, aborted=False, at=at)
    for seat, user_id in people.items():
        if user_id in changes:
            before, after = changes[user_id]
            room.ratings[seat] = (after, rating_of(user_id=user_id, game_id=table.game.id).provisional)
            room.rating_changes[seat] = after - before
    if changes:
        metrics.RATED_GAMES.labels(table.game.id).inc()
    return changes


def end_daily_try(table: Table, scores: tuple[int, ...], status: str) -> None:
    """A daily deal's try ends with its person's points (app.daily reads them from the try)."""
    person = table.person_seats()[0]
    try:
        with session_scope() as session:
            finish_daily_try(session=session, table_id=table.id, points=scores[person],
                             at=datetime.fromtimestamp(table.clock.wall(), UTC),
                             status=status)
    except SQLAlchemyError:   # the try stays open: the day's end scores it from the saved table
        logger.exception('could not end the daily try of table %s', table.id)


def record_abandoned(table: Table) -> list[int]:
    """Record the unfinished game as abandoned for every seated account holder (once; a finished
    or already recorded table gives nothing). The caller has closed the table for good. A rated
    game is rated as it stands, as any rated game's end is: whoever is not at it has left, and is
    placed last (a public game ends so when nobody has been at it for minutes)."""
    if table.is_over() or table.recorded:
        return []
    scores = running_scores(table.view(0))
    if table.room is not None and table.room.started:
        table.presence.gone_for_good([seat for seat in table.person_seats() if not table.watching(seat)])
        rate_table(table, scores, ())
    return _record(table, scores, (), abandoned=True)


def _record(table: Table, scores: tuple[int, ...], winners: tuple[int, ...], *, abandoned: bool) -> list[int]:
    table.recorded = True
    places = placements(scores, winners, BETTER[table.game.id])
    ended_at = datetime.now(UTC)
    ids, failed = [], False
    for own in table.person_seats():
        user_id = table.seats[own].user_id
        if user_id is None:
            continue
        seats = [SeatResult(seat.name if seat.is_person else (seat.level or ''), is_human=index == own,
                            final_score=scores[index], placement=places[index], is_winner=index in winners,
                            name=seat.name)
                 for index, seat in enumerate(table.seats)]
        view = table.view(own)
        deals = view.past_deals
        points = hand_points(table, view)
        try:
            record = record_finished_game(
                user_id=user_id, game_id=table.game.id, options=table.options.to_dict(),
                started_at=datetime.fromtimestamp(table.started_at, UTC), ended_at=ended_at,
                hands_played=len(table.hand_results) if abandoned else max(1, len(table.hand_results)),
                seats=seats, deal_commitments=[(deal.commitment, deal.seed) for deal in deals],
                hand_points=[points.get(deal.hand_number) for deal in deals], abandoned=abandoned,
                replay=None if table.moves is None else (table.dealer, table.moves))
        except (SQLAlchemyError, ValueError):   # losing the record must not break the table
            logger.exception('could not record a%s %s game for account %s', 'n abandoned' if abandoned else ' finished',
                             table.game.id, user_id)
            failed = True
            continue
        if record is not None:
            ids.append(record)
            numbers = {deal.seed: deal.hand_number for deal in deals}
            for (judged, seed), analysis in list(table.coach.items()):   # hands reviewed while the game went on
                if judged == own and analysis.done and seed in numbers:
                    analysis.keep(record, numbers[seed])
    # the database was down for every account: a finished game is recorded once saving works again
    table.recorded = not (failed and not ids)
    return ids
