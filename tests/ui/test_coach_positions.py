"""The coach on situations a player meets, in each game, through NiceGUI's simulated user and the
review screen, in both languages: a known error is labelled and its sentence names the better
choice; the right choice in the same situation is not.

The person's seat is played as the normal computer would (``computer_choice``, through the
table as the screen sends it), except at the first moment of the situation, where it makes the
wrong choice, or, on a twin table dealt the same (the same deals: the same game up to that
moment), the right one. The computers play the other seats. Once the hand is counted, its review
is opened and the coach's mark and sentence on that move are read."""
from __future__ import annotations

import re
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from html import unescape
from typing import Any

from nicegui.testing import User
from seams import sees, until
from test_whole_games import sit_at

from app.ai.ronda_robada import obs_from_view, score_plans
from app.engine.cards import JOKER
from app.engine.chinchon import Close, Discard
from app.engine.chinchon.melds import best_arrangement, best_count, card_value
from app.engine.continental import Discard as ContinentalDiscard
from app.engine.continental import GoDown, LayOff
from app.engine.ronda_robada import Confirm, TakePile
from app.i18n import language_scope, t
from app.coach import BEST, LABELS
from app.review.sources import table_source
from app.tables import registry
from app.tables.services import SeededDeals
from app.tables.worker import computer_choice
from components.card import the_card
from components.review.coach import capital, option_words
from screen import choose, coach_marks as marks, coach_summary as summary, html_of

MOST_TURNS = 3000   # far above any hand's length: a hand that never ends fails
WRONG, RIGHT = 'wrong', 'right'
Plans = tuple[tuple[Any, ...], tuple[Any, ...]]   # (the wrong choice, the right one), each a turn's actions
# each game's deals, chosen for a first hand where its situation comes up (most deals have none)
DEALS = {'chinchon': 'coach-positions:chinchon:4', 'ronda-robada': 'coach-positions:ronda-robada:2',
         'continental': 'coach-positions:continental:0'}


@dataclass
class Scripted:
    """The person's seat: the normal computer's moves, but at the first moment ``situation``
    finds in a view, the wrong or the right choice it gives (``play``); ``step`` is where that
    choice begins in the hand's replay, ``view`` the seat's view just before it."""
    game_id: str
    situation: Callable[[Any], Plans | None]
    play: str
    step: int | None = None
    view: Any = None
    chosen: tuple[Any, ...] = ()
    planned: tuple[Any, ...] = ()

    def __call__(self, table) -> None:
        view = table.view(0)
        if self.planned:   # the rest of the choice's turn
            action, self.planned = self.planned[0], self.planned[1:]
        elif self.step is None and (found := self.situation(view)) is not None:
            self.step = 1 + (len(table.moves[0]) if table.moves else 0)   # step 0 of a replay is the deal
            self.view, self.chosen = view, found[0] if self.play == WRONG else found[1]
            action, self.planned = self.chosen[0], self.chosen[1:]
        else:
            action = computer_choice(self.game_id, 'normal', f'person:{table.version}', view)
        table.act(0, action, table.version)


async def reviewed(user: User, game_id: str, situation: Callable[[Any], Plans | None], play: str, *,
                   seats: int = 2, **rules) -> tuple[Any, Scripted]:
    """A table dealt from this game's own seed, its first hand played to its count with the
    person's seat ``Scripted``, and its review open with the coach done."""
    registry.configure(deals=SeededDeals(DEALS[game_id]))   # conftest puts the test's own back
    table = await sit_at(user, game_id, seats=seats, **rules)
    person = Scripted(game_id, situation, play)
    for _ in range(MOST_TURNS):
        await table.settle()
        if table.pause == 'count' or table.is_over():
            break
        person(table)
    else:
        raise AssertionError('the first hand did not end')
    assert person.step is not None, (f'no {situation.__name__} in the first hand of this deal: '
                                     'choose another of DEALS')
    step = table_source(table, 0).hand(1).steps[person.step]
    assert (step.seat, step.action) == (0, person.chosen[0]), 'the step remembered is not the choice made'
    user.find(marker='review').click()
    await sees(user, marker='coach')
    await until(lambda: bool(summary(user)))
    return table, person


async def in_english(user: User, table) -> None:
    """The language switched on the review, and the review again (what the switch's reload shows)."""
    user.find(marker='language-switch').click()
    await user.open(f'/table/{table.id}/review/1')
    await until(lambda: bool(summary(user)))


def coach_at(user: User, step: int) -> tuple[str, str, str]:
    """At move ``step`` of the list: its mark, and the label and words of the coach's sentence."""
    choose(user, 'replay-steps', f'step:{step}')
    found = re.search(r'data-testid="coach-words" data-label="(\w*)">([^<]*)<', html_of(user, 'coach-say'))
    assert found is not None, f'no words of the coach at step {step}: {html_of(user, "coach-say")}'
    return marks(user)[step], found[1], unescape(found[2])


# Chinchón --------------------------------------------------------------------------------------

def lone_king(view) -> Plans | None:
    """Your discard with a king nothing in your hand could meld with (no other king, not the
    caballo of its suit), the only loose card worth ten, beside melded cards: throwing the melded
    card that leaves most points loose, or the king (closing with it when the table allows)."""
    if view.phase != 'discard' or view.current_seat != view.seat:
        return None
    legal = {action.card: action for action in view.legal_actions if type(action) is Discard}
    arranged = best_arrangement(view.hand)
    tens = [card for card in arranged.loose if card_value(card) == 10]
    melded = [card for meld in arranged.melds for card in meld if card in legal]
    if len(tens) != 1 or tens[0].rank != 12 or tens[0] not in legal or not melded:
        return None
    king = tens[0]
    if any(card != king and (card.rank == 12 or (card.rank, card.suit) == (11, king.suit)) for card in view.hand):
        return None

    def left(card) -> int:
        rest = list(view.hand)
        rest.remove(card)
        return best_count(rest)

    throw_king = Close(king) if Close(king) in view.legal_actions else Discard(king)
    return (legal[max(melded, key=left)],), (throw_king,)


def costly(language: str, chosen: str) -> re.Pattern:
    """The coach's sentence on a labelled choice, ``chosen`` in words (as the sentence starts), the
    better option caught as ``best``."""
    sentence = {'es': r'{chosen} te costó unos \d+ puntos?: mejor (?P<best>.+)\.',
                'en': r'{chosen} cost you about \d+ points?: (?P<best>.+) was better\.'}[language]
    return re.compile(sentence.replace('{chosen}', re.escape(chosen)))


async def labelled_in_each_language(user: User, table, person: Scripted) -> AsyncIterator[tuple[str, str]]:
    """The coach's sentence on the wrong choice, in Spanish then in English (the browser switched
    to it), once it is checked that the move's mark and the sentence carry the same label, and
    that it is one of ``LABELS``."""
    for language in ('es', 'en'):
        if language == 'en':
            await in_english(user, table)
        mark, label, words = coach_at(user, person.step)
        assert mark == label and label in LABELS, (language, mark, words)
        yield language, words


async def the_same_moment_played_right(user: User, wrong: Scripted, language: str, **rules) -> None:
    """On a twin table dealt the same, the same moment comes and the right choice is played there:
    the coach does not label it (best, or within the margin), and says so in ``language``, the
    one the browser has chosen."""
    twin, right = await reviewed(user, wrong.game_id, wrong.situation, RIGHT, **rules)
    assert (right.step, right.view) == (wrong.step, wrong.view), 'the twin table did not come to the same moment'
    mark, label, words = coach_at(user, right.step)
    assert mark == label and label in (BEST, ''), (mark, words)
    with language_scope(language):
        chosen = capital(option_words(wrong.game_id)(right.chosen, right.view, table_source(twin, 0).names))
    assert words.startswith(chosen), (chosen, words)


async def test_chinchon_throwing_a_melded_card_while_a_lone_king_could_go_is_labelled_and_the_king_is_not(
        user: User) -> None:
    table, person = await reviewed(user, 'chinchon', lone_king, WRONG, limit=50)
    (melded,), (king,) = lone_king(person.view)
    async for language, words in labelled_in_each_language(user, table, person):
        throwing = {'es': 'Tirar', 'en': 'Throwing'}[language]
        with language_scope(language):
            said = costly(language, f'{throwing} {the_card(melded.card)}').fullmatch(words)
            assert said is not None, (language, words)
            assert said['best'].endswith(the_card(king.card)), (language, words)   # throwing it, or closing with it
    await the_same_moment_played_right(user, person, 'en', limit=50)


# Ronda Robada ----------------------------------------------------------------------------------

BIG = 5   # cards in a pile that make it well worth a run's going on


def big_pile(view) -> Plans | None:
    """Your turn, with a run that can go on into another seat's pile of ``BIG`` cards or more,
    the first pile on its way: stopping the run just before it, or the normal player's best plan
    that goes on into it."""
    if view.current_seat != view.seat or view.run is not None:
        return None
    for plan in score_plans(obs_from_view(view)):   # best first
        piles = [index for index, action in enumerate(plan.actions) if type(action) is TakePile]
        if piles and plan.actions[piles[0]].owner != view.seat \
                and view.pile_sizes[plan.actions[piles[0]].owner] >= BIG:
            return plan.actions[:piles[0]] + (Confirm(),), plan.actions
    return None


def the_big_pile(person: Scripted) -> int:
    """Whose pile the situation's run could go on into."""
    return next(action.owner for action in big_pile(person.view)[1] if type(action) is TakePile)


async def test_ronda_robada_stopping_a_run_before_a_big_pile_is_labelled_and_going_on_is_not(user: User) -> None:
    table, person = await reviewed(user, 'ronda-robada', big_pile, WRONG)
    names = table_source(table, 0).names
    owner = the_big_pile(person)
    stopping_said = {'es': r'Jugar (el|la) .+ y parar la escalera en (el|la) .+',
                     'en': r'Playing the .+ and stopping the run at the .+'}
    async for language, words in labelled_in_each_language(user, table, person):
        stopping = stopping_said[language]
        with language_scope(language):
            chosen = capital(option_words('ronda-robada')(person.chosen, person.view, names))
            pile = t('coach.ronda.pile', name=names[owner])
        assert re.fullmatch(stopping, chosen), chosen
        said = costly(language, chosen).fullmatch(words)
        assert said is not None, (language, words)
        assert pile in said['best'], (language, words)   # the better plan goes on into the pile
    await the_same_moment_played_right(user, person, 'en')


# Continental -----------------------------------------------------------------------------------

def joker_thrown(view) -> Plans | None:
    """Your discard, not down yet and holding a joker, with nothing to go down with or lay off:
    throwing the joker, or the normal player's discard, a natural card."""
    if view.phase != 'play' or view.current_seat != view.seat or view.down[view.seat]:
        return None
    legal = view.legal_actions
    if any(type(action) in (GoDown, LayOff) for action in legal) or ContinentalDiscard(JOKER) not in legal:
        return None
    normal = computer_choice('continental', 'normal', 'coach-positions', view)   # it draws nothing at random here
    if type(normal) is not ContinentalDiscard or normal.card.is_joker:
        return None
    return (ContinentalDiscard(JOKER),), (normal,)


async def test_continental_throwing_a_joker_when_a_natural_card_could_go_is_labelled_and_the_natural_card_is_not(
        user: User) -> None:
    table, person = await reviewed(user, 'continental', joker_thrown, WRONG)
    async for language, words in labelled_in_each_language(user, table, person):
        throwing = {'es': 'Tirar', 'en': 'Throwing'}[language]
        with language_scope(language):
            said = costly(language, f'{throwing} {the_card(JOKER)}').fullmatch(words)
            assert said is not None, (language, words)
            assert said['best'].startswith(throwing.lower()) and the_card(JOKER) not in said['best'], (language, words)
    await the_same_moment_played_right(user, person, 'en')
