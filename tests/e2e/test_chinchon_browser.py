"""The Chinchón table in a real Chromium: drag to reorder, the keyboard, the skip link. (No hidden
card reaches the browser: test_hidden_cards_browser.py; whole games: tests/ui/test_whole_games.py.)"""
from __future__ import annotations

from playwright.sync_api import Page, expect

def start_game(page: Page, *, seats: int = 2, limit: str = '50 (partida corta)', speed: str = 'Al instante') -> None:
    page.goto('/play/chinchon?new=true')
    page.get_by_role('button', name=str(seats), exact=True).click()
    page.get_by_role('button', name=limit).click()
    page.get_by_role('button', name=speed).click()
    page.get_by_test_id('start').click()
    expect(page.get_by_test_id('table')).to_be_visible()


def phase(page: Page) -> str:
    return page.get_by_test_id('table').get_attribute('data-phase')


def wait_for_my_decision(page: Page) -> str:
    page.wait_for_function(
        "['draw','discard','count','over'].includes(document.querySelector('[data-testid=table]')"
        "?.getAttribute('data-phase'))", timeout=20000)
    return phase(page)


def hand(page: Page) -> list[str]:
    return page.get_by_test_id('hand-card').evaluate_all('cards => cards.map(c => c.dataset.card)')


def play_one_step(page: Page) -> str:
    """One decision of a simple human: draw from the stock, close when allowed, else discard the
    card just drawn; go on after the count; refuse buy-back."""
    current = wait_for_my_decision(page)
    if current == 'draw':
        page.get_by_test_id('stock').click()
        page.wait_for_function("document.querySelector('[data-testid=table]').dataset.phase !== 'draw'")
    elif current == 'discard':
        if page.get_by_test_id('close').is_enabled():
            page.get_by_test_id('close').click()       # no card chosen: confirm the one the table offers
            page.get_by_test_id('close-yes').click()
            page.wait_for_function("document.querySelector('[data-testid=table]').dataset.phase !== 'discard'")
        else:
            before = len(hand(page))
            page.get_by_test_id('hand-card').last.click()
            page.get_by_test_id('discard-button').click()
            page.wait_for_function(f"document.querySelectorAll('[data-testid=hand-card]').length !== {before}"
                                   " || document.querySelector('[data-testid=table]').dataset.phase !== 'discard'")
    elif current == 'count':
        # the count's panel may follow its phase by a moment: it asks either to buy back or to go on
        page.wait_for_selector('[data-testid=next-hand], [data-testid=buyback-no]')
        if page.get_by_test_id('buyback-no').count():
            page.get_by_test_id('buyback-no').click()
        else:
            page.get_by_test_id('next-hand').click()
        page.wait_for_function("document.querySelector('[data-testid=table]').dataset.phase !== 'count'"
                               " || document.querySelector('[data-testid=buyback-no]') !== null")
    return current


def reach_my_move(page: Page, **deal) -> str:
    """Play on until the human has a move in a hand: a computer may close before our first turn
    (about one deal in seventy), and then the count comes first; should its chinchón end the
    game at once, deal again with the same options (``deal``, as for ``start_game``)."""
    while (current := wait_for_my_decision(page)) not in ('draw', 'discard'):
        if current == 'over':
            start_game(page, **deal)
        else:
            play_one_step(page)
    return current


def test_drag_reorders_the_hand(page: Page) -> None:
    start_game(page, speed='Rápida')
    reach_my_move(page, speed='Rápida')
    before = hand(page)
    cards = page.get_by_test_id('hand-card')
    cards.nth(0).drag_to(cards.nth(4))
    page.wait_for_function(f"document.querySelector('[data-testid=hand-card]').dataset.card !== '{before[0]}'")
    after = hand(page)
    assert sorted(after) == sorted(before)
    assert after[4] == before[0] and after[:4] == before[1:5]
    page.reload()
    expect(page.get_by_test_id('hand-card').first).to_have_attribute('data-card', after[0])
    # dragging a card onto the discard pile discards it
    page.get_by_test_id('stock').click()
    page.wait_for_function("document.querySelector('[data-testid=table]').dataset.phase === 'discard'")
    dropped = hand(page)[-1]
    page.get_by_test_id('hand-card').last.drag_to(page.get_by_test_id('discard'))
    page.wait_for_function("document.querySelectorAll('[data-testid=hand-card]').length === 7")
    assert dropped not in hand(page)


def test_keyboard_play(page: Page) -> None:
    """Draw, pick, move and discard with the keyboard alone; focus survives every redraw."""
    start_game(page, speed='Rápida')
    assert reach_my_move(page, speed='Rápida') == 'draw'
    page.get_by_test_id('stock').focus()
    page.keyboard.press('Enter')
    page.wait_for_function("document.querySelector('[data-testid=table]').dataset.phase === 'discard'")
    before = hand(page)
    page.get_by_test_id('hand-card').first.focus()
    page.keyboard.press('Enter')
    expect(page.get_by_test_id('hand-card').first).to_have_attribute('aria-pressed', 'true')
    page.wait_for_function("document.activeElement?.dataset.index === '0'")   # still on the same card
    page.keyboard.press('Shift+ArrowRight')
    page.wait_for_function(f"document.querySelector('[data-testid=hand-card]').dataset.card !== '{before[0]}'")
    assert hand(page)[1] == before[0]
    expect(page.get_by_test_id('hand-card').nth(1)).to_have_attribute('aria-pressed', 'true')   # it moved selected
    # the focus went with the card: a second press moves it one place further
    page.wait_for_function("document.activeElement?.dataset.index === '1'")
    page.keyboard.press('Shift+ArrowRight')
    page.wait_for_function(f"document.querySelectorAll('[data-testid=hand-card]')[2]?.dataset.card === '{before[0]}'")
    assert hand(page)[:3] == [before[1], before[2], before[0]]
    page.get_by_test_id('discard-button').focus()
    page.keyboard.press('Enter')
    page.wait_for_function("document.querySelectorAll('[data-testid=hand-card]').length === 7")
    assert before[0] not in hand(page)
    # your next move is a draw: the focus waits on the stock
    page.wait_for_function("document.activeElement?.dataset.testid === 'stock'")


def test_the_skip_link_comes_first(page: Page) -> None:
    start_game(page)
    page.keyboard.press('Tab')
    expect(page.locator(':focus')).to_have_attribute('data-testid', 'skip-link')
    page.keyboard.press('Enter')
    expect(page.locator('#main')).to_be_focused()
