"""A hand's analysis under way or done, and where it is kept.

An ``Analysis`` judges the decisions of one seat in one replayed hand one at a time, each through
the thinker's ``compute`` (a worker process in production: the event loop keeps answering), so
that every screen showing it can count the decisions done as they come. It is computed once: a
guest's is kept on the Table (by the hand's seed, which no other hand has), an account's in the
database beside its recorded game (``handcoach``), and a screen opened meanwhile waits for the
same analysis instead of starting another.
"""
from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Callable
from typing import Any

from sqlalchemy.exc import SQLAlchemyError

from app.coach import Judgement, decision_seed, decisions, evaluate, summarise
from app.review.replay import HandReplay
from models.db import session_scope
from models.tables import HandCoach, coach_of, keep_coach

logger = logging.getLogger(__name__)


class Analysis:
    """The judgements of one seat's decisions in one hand, as they come. ``listeners`` are called
    after each one (and once more when it ends); ``failed`` when the analysis stopped on a fault."""

    def __init__(self, hand: HandReplay, seat: int, judgements: list[Judgement] | None = None) -> None:
        self.hand, self.seat = hand, seat
        self.decisions = decisions(hand, seat)
        self.judgements: list[Judgement] = list(judgements or [])
        self.done = judgements is not None
        self.failed = False
        self.listeners: list[Callable[[], None]] = []
        self._task: asyncio.Task | None = None

    @property
    def total(self) -> int:
        return len(self.decisions)

    def summary(self):
        return summarise(self.hand.game.coach_thresholds, self.judgements)

    def start(self, thinker: Any, keep: Callable[['Analysis'], None] | None = None) -> None:
        """Judge the decisions not judged yet, unless that is under way or done."""
        if self.done or self._task is not None:
            return
        self._task = asyncio.get_running_loop().create_task(self._run(thinker, keep))

    async def _run(self, thinker: Any, keep: Callable[['Analysis'], None] | None) -> None:
        game_id = self.hand.game.id
        try:
            for decision in self.decisions[len(self.judgements):]:
                judged = await thinker.compute(evaluate, self.hand.game.coach, decision,
                                               decision_seed(self.hand.seed, self.seat, decision.step))
                if judged is None:   # the server is stopping
                    return
                self.judgements.append(judged)
                self._tell()
            self.done = True
            if keep is not None:
                keep(self)
        except Exception:   # noqa: BLE001 - a fault in one analysis must not take the page down: it says so
            logger.exception('the coach failed on hand %s of %s', self.hand.number, game_id)
            self.failed = True
        finally:
            self._task = None
        self._tell()

    def _tell(self) -> None:
        for listener in list(self.listeners):
            listener()

    def keep(self, record_id: int, number: int) -> None:
        """Keep this analysis beside a game's record, as hand ``number`` (a game at a table is
        recorded once it ends: the hands reviewed meanwhile go with it)."""
        keep_analysis(record_id, number, self)

    def by_step(self) -> dict[int, Judgement]:
        return {judgement.step: judgement for judgement in self.judgements}


def table_analysis(table: Any, hand: HandReplay, seat: int) -> Analysis:
    """The analysis of a table's hand for a seat, kept with the table while it lives."""
    key = (seat, hand.seed)
    found = table.coach.get(key)
    if found is None:
        found = table.coach[key] = Analysis(hand, seat)
    return found


def record_analysis(record_id: int, hand: HandReplay, seat: int) -> tuple[Analysis, Callable[[Analysis], None]]:
    """The analysis of a recorded game's hand, read from the database when it was made before, and
    how to keep it there once done."""
    kept = None
    try:
        with session_scope() as session:
            row = coach_of(session=session, played_game_id=record_id, hand=hand.number)
            if row is not None:
                kept = [Judgement.from_json(item) for item in json.loads(row.judgements_json)]
    except (SQLAlchemyError, ValueError, KeyError, TypeError):   # unreadable or unreachable: analyse again
        logger.warning('the coach of record %s hand %s could not be read', record_id, hand.number, exc_info=True)

    return Analysis(hand, seat, kept), lambda analysis: keep_analysis(record_id, hand.number, analysis)


def keep_analysis(record_id: int, number: int, analysis: Analysis) -> None:
    """Keep a finished analysis beside hand ``number`` of a recorded game."""
    summary = analysis.summary()
    row = HandCoach(played_game_id=record_id, hand=number, decisions=summary.decisions,
                    labelled=sum(summary.labelled.values()), points_lost=round(summary.points_lost, 3),
                    judgements_json=json.dumps([judgement.to_json() for judgement in analysis.judgements]))
    try:
        with session_scope() as session:
            keep_coach(session=session, coach=row)
    except SQLAlchemyError:   # shown all the same; it is analysed again next time
        logger.warning('the coach of record %s hand %s could not be kept', record_id, number, exc_info=True)


def analysis_for(source: Any, hand: HandReplay) -> tuple[Analysis, Callable[[Analysis], None] | None]:
    """The analysis of a review's hand from its reader's seat, and how to keep it when done."""
    if source.record_id is not None:
        return record_analysis(source.record_id, hand, source.seat)
    return table_analysis(source.table, hand, source.seat), None
