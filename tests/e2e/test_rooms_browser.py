"""A room with a friend in two real browsers: Ana makes a Chinchón room, Luis joins through the
invite link, a computer takes the third seat, a third browser watches, and they play by hand
until every browser has read enough frames; then the server makes their decisions (serve.py's
/test-play-out) to the game's end, on Ana's screen. Each websocket frame every browser
receives is held against what that browser has shown: nobody receives another person's cards, or a
stock card, before they are public. (A whole room game, every screen scanned, is played in
process: tests/ui/test_whole_games.py.)"""
from __future__ import annotations

import re

from playwright.sync_api import Browser, Page, expect

from table_browser import FrameWatch, people_play, version
from test_chinchon_browser import phase

PUBLIC_PLACES = ('hand-card', 'discard', 'seat')
COUNT_FRAME = '"data-testid":"count"'   # a frame that draws a count (every hand, on purpose)
# the count asks to buy back or to go on, or the next hand is on already
COUNT_ASKS_OR_MOVED_ON = """() => document.querySelector('[data-testid=table]').dataset.phase !== 'count'
  || document.querySelector('[data-testid=next-hand], [data-testid=buyback-no]') !== null"""
# how often a wait looks again, in ms: Playwright's default looks at every animation frame, which
# keeps each waiting tab drawing 60 frames a second for as long as a computer or the server takes
POLL = 50
ROUNDS = 40   # bounded: each round, either person makes the decision their page asks for, if any
READ = {'person': 7, 'spectator': 3}   # the frames' cards each browser must have read, and more, by hand


def step(page: Page, pressed: dict[int, str]) -> bool:
    """One decision of a simple player if this page has one (draw from the stock, close when
    allowed, else discard the card drawn; go on from a count once), without waiting for the
    others; True when it made one."""
    current = phase(page)
    seen = version(page)
    if current == 'draw':
        page.get_by_test_id('stock').click()
        page.wait_for_function("document.querySelector('[data-testid=table]').dataset.phase !== 'draw'", polling=POLL)
    elif current == 'discard':
        if page.get_by_test_id('close').is_enabled():
            page.get_by_test_id('close').click()
            page.get_by_test_id('close-yes').click()
        else:
            page.get_by_test_id('hand-card').last.click()
            page.get_by_test_id('discard-button').click()
        page.wait_for_function(f"document.querySelector('[data-testid=table]').dataset.version !== '{seen}'",
                               polling=POLL)
    elif current == 'count' and pressed.get(id(page)) != seen:
        # the count's panel may follow its phase by a moment, and the version may be the next
        # hand's a moment before the phase is: wait for the panel's question, or for the hand
        page.wait_for_function(COUNT_ASKS_OR_MOVED_ON, polling=POLL)
        if phase(page) != 'count':
            return False
        pressed[id(page)] = seen
        if page.get_by_test_id('buyback-no').count():
            page.get_by_test_id('buyback-no').click()
        elif page.get_by_test_id('next-hand').is_enabled():   # not if you went on already
            page.get_by_test_id('next-hand').click()
    else:
        return False
    return True


def reaction_over_the_senders_seat(sender: Page, reader: Page, name: str) -> None:
    """A reaction shows over the top edge of its sender's seat box, on the other person's screen
    (unless a computer's chinchón has already brought the count, which hides the seats)."""
    sender.get_by_test_id('reaction').filter(has_text='¡Bien jugado!').click()
    said = reader.get_by_test_id('reaction-shown').filter(has_text='¡Bien jugado!')
    expect(said).to_be_visible()
    if phase(reader) in ('count', 'over'):
        return
    expect(said).to_have_class(re.compile(r'\bhod-pinned\b'))
    seat, bubble = reader.get_by_test_id('seat').filter(has_text=name).bounding_box(), said.bounding_box()
    assert seat['x'] < bubble['x'] + bubble['width'] / 2 < seat['x'] + seat['width'], 'not over the seat'
    assert bubble['y'] < seat['y'] < bubble['y'] + bubble['height'], 'not on the seat\'s top edge'


# true once the turn clock on the page has gone down; a clock drawn anew (the next turn) starts over
CLOCK_WENT_DOWN = """() => { const clock = document.querySelector('[data-testid=turn-clock]');
  if (!clock) return false;
  const seconds = Number(clock.querySelector('b').textContent);
  if (window.__clock !== clock) { window.__clock = clock; window.__clockFrom = seconds; return false; }
  return seconds < window.__clockFrom; }"""


def the_clock_counts_down(page: Page) -> None:
    """The turn clock's seconds go down in the browser between the server's redraws (unless a
    computer's chinchón has brought the count, where no clock runs until somebody goes on)."""
    if phase(page) in ('count', 'over'):
        return
    page.wait_for_function(CLOCK_WENT_DOWN, polling=POLL, timeout=5000)


def test_two_people_and_a_computer_play_through_an_invite_link_and_a_third_browser_watches(browser: Browser, base_url: str) -> None:
    ana_context = browser.new_context(base_url=base_url, locale='es-ES')
    luis_context = browser.new_context(base_url=base_url, locale='es-ES')
    ana, luis = ana_context.new_page(), luis_context.new_page()
    watches = {id(ana): FrameWatch(ana, PUBLIC_PLACES), id(luis): FrameWatch(luis, PUBLIC_PLACES)}
    try:
        ana.goto('/play/chinchon?new=true')
        ana.get_by_role('button', name='3', exact=True).click()
        ana.get_by_role('button', name='50 (partida corta)').click()
        ana.get_by_role('button', name='Al instante').click()
        ana.get_by_test_id('friends').click()
        ana.get_by_label('Tu nombre en la mesa').fill('Ana')
        ana.get_by_role('button', name='60 s').click()
        ana.get_by_test_id('start').click()
        link = ana.get_by_test_id('invite-link').text_content()
        assert link.startswith(base_url) and '/room/' in link

        luis.goto(link)
        luis.get_by_test_id('join-name').fill('Luis')
        luis.get_by_test_id('join').click()
        expect(luis.get_by_test_id('waiting-for-start')).to_contain_text('Esperando a que Ana empiece')
        expect(ana.get_by_test_id('room-seat').filter(has_text='Luis')).to_be_visible()   # at once, no reload
        ana.get_by_test_id('start-room').click()
        for page in (ana, luis):
            expect(page.get_by_test_id('table')).to_be_visible()
            watches[id(page)].begin()
        expect(luis.get_by_test_id('seat').filter(has_text='Ana')).to_be_visible()
        reaction_over_the_senders_seat(sender=luis, reader=ana, name='Luis')
        the_clock_counts_down(ana)
        # the room is full: a third browser opening the link watches, with no hand of anybody's
        eva_context = browser.new_context(base_url=base_url, locale='es-ES')
        eva = eva_context.new_page()
        eva_watch = FrameWatch(eva, ('discard', 'seat'))
        eva.goto(link)
        expect(eva.get_by_test_id('spectator')).to_be_visible()
        expect(eva.get_by_test_id('table')).to_be_visible()
        eva_watch.begin()
        expect(eva.get_by_test_id('hand-card')).to_have_count(0)

        pressed: dict[int, str] = {}
        sent = {id(ana): 0, id(luis): 0}
        eva_sent = 0
        for _ in range(ROUNDS):
            if phase(ana) == 'over' and phase(luis) == 'over':
                break
            eva_watch.frames[:] = [frame for frame in eva_watch.frames if COUNT_FRAME not in frame]
            if 'draw' in (phase(ana), phase(luis)):   # the game waits for a person: nothing in flight
                eva_sent = eva_watch.check()
            if min(sent.values()) > READ['person'] and eva_sent > READ['spectator']:
                break   # the hand's clicks and every browser's frames are checked: the server plays on
            # read before the phases: a page may not have heard the last move yet
            versions, acted = {id(page): int(version(page)) for page in (ana, luis)}, False
            for page in (ana, luis):
                current = phase(page)
                watch = watches[id(page)]
                # the count shows every hand on purpose: the frames that draw it are left out
                watch.frames[:] = [frame for frame in watch.frames if COUNT_FRAME not in frame]
                if current in ('draw', 'discard'):   # the game waits for this person: no count is on its way
                    sent[id(page)] = max(sent[id(page)], watch.check())
                elif current == 'count' and pressed.get(id(page)) != version(page):
                    watch.check()
                    watch.restart()   # the next hand's cards start afresh
                acted = step(page, pressed) or acted
            if not acted:
                newest = max(versions.values())
                behind = [page for page in (ana, luis) if versions[id(page)] < newest]
                if behind:   # the other page heard a move this one has not yet: it is on its way
                    behind[0].wait_for_function(
                        f"Number(document.querySelector('[data-testid=table]').dataset.version) >= {newest}",
                        polling=POLL)
                else:   # the computer is on turn: the next round starts once it has moved
                    ana.wait_for_function(
                        f"document.querySelector('[data-testid=table]').dataset.version !== '{newest}'",
                        polling=POLL)
        assert min(sent.values()) > READ['person'] and eva_sent > READ['spectator']   # the frames were read
        eva_context.close()   # their parts are checked: no tab redraws the rest for them
        luis_context.close()

        ana.emulate_media(reduced_motion='reduce')   # no card flies from here on: only the frames are looked at
        people_play(base_url, ana)   # every decision left: the game's end without a click per move
        expect(ana.get_by_test_id('table')).to_have_attribute('data-phase', 'over', timeout=60000)
        watch = watches[id(ana)]   # and every move to the end kept the others' cards from Ana's browser
        watch.frames[:] = [frame for frame in watch.frames if COUNT_FRAME not in frame]
        watch.check()
    finally:
        ana_context.close()
        luis_context.close()
