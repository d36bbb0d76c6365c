"""The coach in a review, through NiceGUI's simulated user on seeded deals: every decision of your
seat gets its mark as it is weighed (inline here, in the process pool on the site), the hand is
summed up, each of your moves is said in words; an analysis is made once, kept with the table for a
guest and in the database for an account, whose history then plots its accuracy."""
from __future__ import annotations


from nicegui.testing import User
from people import log_in_and_see_history, new_account
from seams import sees, until
from test_review import first_hand_over
from test_whole_games import as_the_normal_player, play_through, sit_at

from app.games import GAMES_BY_ID
from app.i18n import language_scope
from app.coach import decision_seed, decisions, evaluate
from app.review.sources import table_source
from app.tables import registry
from app.tables.services import InlineThinker
from components.review.coach import judgement_words
from models.db import session_scope
from models.tables import HandCoach
from screen import choose, coach_marks as marks, coach_summary as summary, html_of, one

CHINCHON = GAMES_BY_ID['chinchon']


class Counting(InlineThinker):
    def __init__(self) -> None:
        self.computed = 0

    async def compute(self, function, *args):
        self.computed += 1
        return await super().compute(function, *args)


async def test_the_coach_marks_each_of_your_decisions_and_sums_up_the_hand(user: User) -> None:
    thinker = Counting()
    old = registry.configure(thinker=thinker)
    try:
        table = await sit_at(user, 'chinchon', seats=2, limit=50)
        await first_hand_over(user, table)
        hand = table_source(table, 0).hand(1)
        expected = {decision.step: evaluate(CHINCHON.coach, decision, decision_seed(hand.seed, 0, decision.step))
                    for decision in decisions(hand, 0)}
        user.find(marker='review').click()
        await sees(user, marker='coach')
        await until(lambda: bool(summary(user)))
        assert marks(user) == {step: judged.label(CHINCHON.coach_thresholds) or '' for step, judged in expected.items()}
        assert int(summary(user)['decisions']) == len(expected) > 3
        accuracy = 100 * sum(judged.label(CHINCHON.coach_thresholds) in ('best', None) for judged in expected.values()) / len(expected)
        assert float(summary(user)['accuracy']) == round(accuracy, 1)
        assert summary(user)['words'].startswith(f'Esta mano: precisión {accuracy:.0f} % · {len(expected)} decisiones')
        # at one of your moves, the coach's sentence; at another's, where to look
        step, judged = next(iter(expected.items()))
        choose(user, 'replay-steps', f'step:{step}')
        with language_scope('es'):
            words = judgement_words('chinchon', judged, hand.steps[step - 1].views[0])
        assert f'data-testid="coach-words" data-label="{judged.label(CHINCHON.coach_thresholds) or ""}">{words}<' in html_of(user, 'coach-say')
        other = next(index for index, moment in enumerate(hand.steps) if moment.seat == 1)
        choose(user, 'replay-steps', f'step:{other}')
        assert 'Esta jugada no fue tuya' in html_of(user, 'coach-say')
        # made once: opened again, the table's analysis is shown as it is
        assert thinker.computed == len(expected)
        user.find(marker='replay-first').click()
        await user.open(f'/table/{table.id}/review/1')
        await until(lambda: bool(summary(user)))
        assert thinker.computed == len(expected)
    finally:
        registry.configure(**vars(old))


async def test_an_accounts_analysis_is_kept_and_its_accuracy_plotted_in_the_history(user: User, fresh_accounts) -> None:
    thinker = Counting()
    old = registry.configure(thinker=thinker)
    try:
        ana = new_account('Ana')
        await log_in_and_see_history(user, 'Ana')
        table = await sit_at(user, 'ronda-robada', seats=2)
        table.claim(0, ana, 'Ana')
        await first_hand_over(user, table)
        await table.settle()
        await user.open('/history')
        record = int(user.find(marker='game-link').elements.pop().props['href'].rsplit('/', 1)[1])
        await user.open(f'/history/{record}/review/1')
        await until(lambda: bool(summary(user)))
        computed = thinker.computed
        assert computed > 0
        with session_scope() as session:
            kept = session.get(HandCoach, (record, 1))
            assert kept is not None and kept.decisions == int(summary(user)['decisions']) == computed
        await user.open(f'/history/{record}/review/1')   # read back, not weighed again
        await until(lambda: bool(summary(user)))
        assert thinker.computed == computed
        await user.open('/history')
        plot = one(user, 'accuracy-plot')
        assert plot.props['data-games'] == '1'
    finally:
        registry.configure(**vars(old))


async def test_a_hand_reviewed_at_the_table_is_kept_with_the_game_once_it_is_recorded(user: User, fresh_accounts) -> None:
    """An account reviews a hand while the game goes on (no record yet: the analysis lives on the
    table); when the game ends and is recorded, the analysis goes with it, and the history's
    review reads it back instead of weighing the hand again."""
    thinker = Counting()
    old = registry.configure(thinker=thinker)
    try:
        ana = new_account('Ana')
        await log_in_and_see_history(user, 'Ana')
        table = await sit_at(user, 'chinchon', seats=2, limit=50)
        table.claim(0, ana, 'Ana')
        await first_hand_over(user, table)
        await user.open(f'/table/{table.id}/review/1')
        await until(lambda: bool(summary(user)))
        computed, judged = thinker.computed, summary(user)
        assert computed > 0
        await user.open(f'/table/{table.id}')
        await play_through(user, table, as_the_normal_player('chinchon'))
        await user.open('/history')
        record = int(user.find(marker='game-link').elements.pop().props['href'].rsplit('/', 1)[1])
        with session_scope() as session:
            kept = session.get(HandCoach, (record, 1))
            assert kept is not None and kept.decisions == int(judged['decisions']) == computed
        await user.open(f'/history/{record}/review/1')
        await until(lambda: bool(summary(user)))
        assert summary(user) == judged and thinker.computed == computed
    finally:
        registry.configure(**vars(old))
