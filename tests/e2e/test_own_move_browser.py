"""Your own move shows as the click lands, before the server has answered, and the answer
confirms it or undoes it. The server's answer is held on its way to the page (the test sits on
the page's websocket and lets the server's messages through only when it says), so "before the
answer" is a fact of the test, not a race against the server."""
from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import Page, WebSocketRoute, expect

from table_browser import start_game as deal, wait_for
from test_chinchon_browser import hand, start_game
from test_table_feel_browser import reach_my_draw

GUESSES = '[data-hod-guessed], .hod-guess-card'   # the marks of a move shown before its answer


class HeldAnswers:
    """The page's websocket through the test: what the page sends goes on at once; what the
    server sends waits while ``hold`` is on, and reaches the page, in order, at ``release``."""

    def __init__(self, page: Page) -> None:
        self.held: list[tuple[WebSocketRoute, str | bytes]] | None = None
        page.route_web_socket(re.compile(r'/_nicegui_ws/'), self._route)

    def _route(self, page_side: WebSocketRoute) -> None:
        server = page_side.connect_to_server()
        server.on_message(lambda message: self._to_page(page_side, message))
        page_side.on_message(server.send)

    def _to_page(self, page_side: WebSocketRoute, message: str | bytes) -> None:
        if self.held is None:
            page_side.send(message)
        else:
            self.held.append((page_side, message))

    def hold(self) -> None:
        self.held = []

    def release(self) -> None:
        held, self.held = self.held or [], None
        for page_side, message in held:
            page_side.send(message)


@pytest.fixture
def answers(page: Page) -> Iterator[HeldAnswers]:
    held = HeldAnswers(page)
    yield held
    held.release()


def table(page: Page):
    return page.get_by_test_id('table')


def select(page: Page, card: str) -> None:
    page.locator(f'[data-testid=hand-card][data-card="{card}"]').click()
    expect(page.locator(f'[data-testid=hand-card][data-card="{card}"]')).to_have_class(re.compile('hod-selected'))


def test_a_draw_and_a_discard_show_before_the_answer_which_confirms_them(page: Page, answers: HeldAnswers) -> None:
    """Drawn with the keyboard, thrown by dragging (the buttons' clicks: the tests below)."""
    start_game(page, speed='Rápida')
    reach_my_draw(page, speed='Rápida')
    cards = hand(page)

    answers.hold()
    page.get_by_test_id('stock').focus()
    page.keyboard.press('Enter')
    # the answer has not reached the page: a card has come to your hand, the stock is pressed
    expect(page.locator('[data-testid=hand] .hod-guess-card')).to_be_visible()
    expect(page.get_by_test_id('stock')).to_have_attribute('data-hod-guessed', 'drawn')
    expect(table(page)).to_have_attribute('data-phase', 'draw')
    assert hand(page) == cards
    answers.release()
    expect(table(page)).to_have_attribute('data-phase', 'discard')
    expect(page.get_by_test_id('hand-card')).to_have_count(len(cards) + 1)
    expect(page.locator(GUESSES)).to_have_count(0)

    thrown = hand(page)[0]
    answers.hold()
    page.locator(f'[data-testid=hand-card][data-card="{thrown}"]').drag_to(page.get_by_test_id('discard'))
    # your card has left your hand and lies on the discard pile, the table still waits for your discard
    expect(page.locator(f'[data-testid=hand-card][data-card="{thrown}"]')).to_be_hidden()
    expect(page.locator('[data-testid=discard] .hod-guess-card')).to_be_visible()
    expect(page.locator('[data-testid=discard] .hod-guess-card')).to_have_attribute('src', re.compile(f'/{thrown}.svg'))
    expect(table(page)).to_have_attribute('data-phase', 'discard')
    answers.release()
    expect(table(page)).not_to_have_attribute('data-phase', 'discard')
    expect(page.locator(f'[data-testid=hand-card][data-card="{thrown}"]')).to_have_count(0)
    expect(page.locator(GUESSES)).to_have_count(0)


def test_a_move_the_table_refuses_is_undone(page: Page, answers: HeldAnswers) -> None:
    """The card you have just taken from the discard pile cannot be thrown back this turn: the page
    shows it thrown all the same (it decides nothing), and the refusal brings it back."""
    start_game(page, speed='Rápida')
    reach_my_draw(page, speed='Rápida')
    taken = page.get_by_test_id('discard').get_attribute('data-card')
    page.get_by_test_id('discard').click()
    expect(table(page)).to_have_attribute('data-phase', 'discard')
    select(page, taken)

    answers.hold()
    page.get_by_test_id('discard-button').click()
    expect(page.locator(f'[data-testid=hand-card][data-card="{taken}"]')).to_be_hidden()
    expect(page.locator('[data-testid=discard] .hod-guess-card')).to_be_visible()
    answers.release()
    expect(page.get_by_test_id('notice')).to_be_visible()   # the refusal, in words
    expect(page.locator(f'[data-testid=hand-card][data-card="{taken}"]')).to_be_visible()
    expect(page.locator(GUESSES)).to_have_count(0)
    expect(table(page)).to_have_attribute('data-phase', 'discard')
    expect(page.get_by_test_id('discard')).not_to_have_attribute('data-card', taken)


def test_a_card_dropped_in_the_centre_shows_before_the_answer(page: Page, answers: HeldAnswers) -> None:
    """Ronda Robada: your chosen card lies among the loose cards before the table has taken it."""
    deal(page, 'ronda-robada', seats=2)
    wait_for(page, 'start')
    card = page.get_by_test_id('hand-card').first.get_attribute('data-card')
    select(page, card)
    answers.hold()
    page.get_by_test_id('drop').click()
    expect(page.locator('.hod-rr-loose .hod-guess-card')).to_be_visible()
    expect(page.locator(f'[data-testid=hand] [data-testid=hand-card][data-card="{card}"]')).to_be_hidden()
    expect(page.locator(f'[data-testid=loose-card][data-card="{card}"]')).to_have_count(0)   # not the table's yet
    answers.release()
    expect(page.locator(f'[data-testid=loose-card][data-card="{card}"]')).to_have_count(1)
    expect(page.locator(f'[data-testid=hand] [data-testid=hand-card][data-card="{card}"]')).to_have_count(0)
    expect(page.locator(GUESSES)).to_have_count(0)


def test_a_move_never_answered_is_undone_in_a_few_seconds(page: Page, answers: HeldAnswers) -> None:
    """An answer lost on its way leaves no fake card behind: the page's clock is the test's, moved
    on past the bound while the answer is held."""
    page.clock.install()
    start_game(page, speed='Rápida')
    reach_my_draw(page, speed='Rápida')
    cards = hand(page)
    answers.hold()
    page.clock.pause_at(page.evaluate('() => Date.now()') + 1000)
    page.get_by_test_id('stock').click()
    expect(page.locator('[data-testid=hand] .hod-guess-card')).to_have_count(1)
    page.clock.run_for(3000)
    expect(page.locator('[data-testid=hand] .hod-guess-card')).to_have_count(1)   # not yet
    page.clock.run_for(1500)
    expect(page.locator(GUESSES)).to_have_count(0)
    assert hand(page) == cards
    page.clock.resume()
    answers.release()   # the late answer still shows the card drawn
    expect(page.get_by_test_id('hand-card')).to_have_count(len(cards) + 1)
