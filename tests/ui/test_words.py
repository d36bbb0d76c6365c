"""The words match the site (issue 56): what the site says of itself names every way to play it,
defaults that differ say why, a past day's deal speaks in the past, numbers and dates are written
as each language writes them, Spanish guesses no person's gender, a waiting table in the lobby says
when it starts (by its own deadline on the server's clock), and the browser's tab shows the app's
icon. Each through the page a person opens, in Spanish and English."""
from __future__ import annotations

from datetime import date

import pytest
from nicegui import app, ui
from nicegui.testing import User
from screen import one
from seams import sees, until
from test_public_tables import quick

from app.daily import tries
from app.engine import chinchon
from app.engine.cards import spanish_card
from app.engine.chinchon import Close, DrawStock
from app.games import GAMES, GAMES_BY_ID
from app.i18n import CATALOGS, LANGUAGES, language_scope
from app.installable import STATIC_DIR
from app.lobby import quick_wait
from app.rules import Text, load_rules
from app.tables.registry import add_table, new_table, services
from app.tables.seats import Seat, TableOptions
from app.visitor import TABLES_KEY, guest_token
from components.daily import histogram_html, share_text

ES, EN = CATALOGS['es'], CATALOGS['en']
HEADERS = {'es': 'es-ES,es;q=0.9', 'en': 'en-US,en;q=0.9'}
# the ways to play besides the computer, as each language names them
PEOPLE = {'es': ('amigos', 'gente'), 'en': ('friends', 'people')}
NOBODY_ELSE = {'es': 'sin esperar a nadie', 'en': 'no waiting for anyone'}


def speaks_of_people(text: str, language: str) -> bool:
    lowered = text.lower()
    return all(word in lowered for word in PEOPLE[language]) and NOBODY_ELSE[language] not in lowered


def labels(user: User) -> list[str]:
    return [element.text for element in user.find(ui.label).elements]


@pytest.mark.parametrize('language', LANGUAGES)
async def test_home_footer_manifest_and_rules_say_you_play_people_too(user: User, language: str) -> None:
    user.http_client.headers['Accept-Language'] = HEADERS[language]
    await user.open('/')
    catalog = CATALOGS[language]
    shown = labels(user)
    assert catalog['home.intro'] in shown and catalog['footer.about'] in shown
    assert speaks_of_people(catalog['home.intro'], language)
    assert speaks_of_people(catalog['footer.about'], language)
    manifest = (await user.http_client.get('/manifest.webmanifest')).json()
    assert speaks_of_people(manifest['description'], language)
    for game in GAMES:   # the paragraph that opens each game's rules page
        intro = ' '.join(block.markdown for block in load_rules(game.id, language).intro if isinstance(block, Text))
        assert speaks_of_people(intro, language), game.id


@pytest.mark.parametrize('language', LANGUAGES)
async def test_quick_match_says_why_it_suggests_fewer_seats_than_the_form(user: User, language: str) -> None:
    user.http_client.headers['Accept-Language'] = HEADERS[language]
    await user.open('/play/chinchon')
    assert one(user, 'quick-seats').value == 2 and one(user, 'opt-seats').value == 4
    assert one(user, 'quick-seats-help').text == CATALOGS[language]['quick.seats_help']


@pytest.mark.usefixtures('fresh_accounts')
@pytest.mark.parametrize('language', LANGUAGES)
async def test_a_past_days_page_speaks_of_its_day_in_the_past(user: User, clock, language: str) -> None:
    user.http_client.headers['Accept-Language'] = HEADERS[language]
    catalog = CATALOGS[language]
    day = tries.today()
    await user.open('/daily/chinchon')   # today's deal is made; nobody plays it (a guest is shown the practice)
    assert one(user, 'daily-practice-fingerprint-help').text == catalog['daily.fingerprint_help']
    await user.should_see(catalog['daily.board.empty'])
    await clock.advance(tries.seconds_left_today() + 1)
    await user.open(f'/daily/chinchon/{day.isoformat()}')
    await sees(user, marker='daily-seed')
    assert one(user, 'daily-fingerprint-help').text == catalog['daily.fingerprint_help_past']
    assert one(user, 'daily-practice-fingerprint-help').text == catalog['daily.fingerprint_help_past']
    assert one(user, 'daily-board-empty').text == catalog['daily.board.empty_past']
    shown = labels(user)
    assert catalog['daily.fingerprint_help'] not in shown and catalog['daily.board.empty'] not in shown


@pytest.mark.parametrize('language, scale', [('es', ['0 %', '50 %', '100 %']), ('en', ['0%', '50%', '100%'])])
def test_the_histograms_scale_writes_percent_as_its_language_does(language: str, scale: list[str]) -> None:
    with language_scope(language):
        html = histogram_html([10.0, 50.0, 90.0], 50.0)
    assert html.endswith(''.join(f'<span>{value}</span>' for value in scale) + '</div>')


@pytest.mark.parametrize('language, written', [('es', 'reparto del 7 de diciembre de 2026'),
                                               ('en', 'daily deal of December 7, 2026')])
def test_the_share_text_dates_the_day_in_the_readers_language(language: str, written: str) -> None:
    with language_scope(language):
        text = share_text('Chinchón', date(2026, 12, 7), 62.0, 'https://example.org/daily/chinchon')
    assert written in text.splitlines()[0] and '2026-12-07' not in text


def _last_one_standing(winner: Seat | None):
    """A two-seat Chinchón, this browser's, that ends at its person's close (seat 0): with 99
    points they go over, and ``winner`` (seat 1, nothing against it) is the last one under the
    limit; with no ``winner``, seat 1 (99 points) goes over and this browser's person wins."""
    game = GAMES_BY_ID['chinchon']
    options = TableOptions(seats=2, level='easy', speed='instant', hints=False, rules={'limit': 100})
    me = Seat('person', guest=guest_token())
    reader_wins = winner is None
    seats = [me, Seat('person', name='Luis', guest='luis-browser-0123456789')] if reader_wins else [me, winner]
    state = chinchon.from_position(game.make_rules(options.rules), seats=2,
                                   hands={0: '1c 2c 3c 4e 5e 6e 5b', 1: '1o 3b 6o 7c 10o 12b 11e'},
                                   discard='', stock_top='4b', current=0, scores=[0, 99] if reader_wins else [99, 0],
                                   seed=7, hand_seeds=services().deals.hand_seed)
    table = new_table(game, options, seats, state=state, seed=7)
    add_table(table)
    app.storage.user[TABLES_KEY] = {game.id: table.id}
    return table


@pytest.mark.parametrize('winner, spanish', [
    (Seat('person', name='Lucía', guest='lucia-browser-0123456789'), 'Nadie más queda sin pasarse.'),
    (Seat('computer', name='Lucía', level='easy'), 'Es la última que queda sin pasarse.'),
    (Seat('computer', name='Mateo', level='easy'), 'Es el último que queda sin pasarse.'),
    (None, 'Nadie más que tú queda sin pasarse.'),   # you: your gender is not known either
])
async def test_the_last_one_standing_is_named_without_guessing_a_persons_gender(user: User, winner, spanish) -> None:
    await user.open('/')
    table = _last_one_standing(winner)
    await user.open(f'/table/{table.id}')
    await sees(user, marker='table')
    table.act(0, DrawStock(), table.version)
    table.act(0, Close(spanish_card('4b')), table.version)
    await table.settle()
    await until(lambda: table.is_over())
    assert table.state.outcome().reason == 'last_standing'
    await sees(user, marker='over-reason')
    assert one(user, 'over-reason').text == spanish


@pytest.mark.usefixtures('fresh_accounts')
@pytest.mark.parametrize('language', LANGUAGES)
async def test_a_waiting_quick_match_in_the_lobby_says_when_it_starts_by_its_own_deadline(
        user: User, create_user, clock, language: str) -> None:
    table_id = await quick(user, name='Ana')
    eva = create_user()
    eva.http_client.headers['Accept-Language'] = HEADERS[language]
    await eva.open('/lobby')
    await sees(eva, marker='lobby-starts')
    catalog = CATALOGS[language]
    assert one(eva, 'lobby-starts').text == catalog['lobby.starts_in'].format(seconds=round(quick_wait()))
    await clock.advance(12)   # the tables' clock, not the browser's: the page reads the deadline on it
    await eva.open('/lobby')
    assert one(eva, 'lobby-starts').text == catalog['lobby.starts_in'].format(seconds=round(quick_wait()) - 12)
    assert one(eva, 'lobby-starts').parent_slot.parent.parent_slot.parent.props['data-table'] == table_id


def test_a_public_room_and_a_quick_match_past_its_wait_say_how_they_start() -> None:
    from components.lobby import start_words

    with language_scope('es'):
        assert start_words({'stage': 'waiting', 'fill_at': None}, 0.0) == ES['lobby.starts_host']
        assert start_words({'stage': 'waiting', 'fill_at': 100.0}, 100.0) == ES['lobby.starts_now']
        assert start_words({'stage': 'waiting', 'fill_at': 100.0}, 99.2) == 'Empieza en 1 s o al llenarse'
        assert start_words({'stage': 'playing', 'fill_at': None}, 0.0) is None
    with language_scope('en'):
        assert start_words({'stage': 'waiting', 'fill_at': 130.0}, 105.0) == 'Starts in 25 s or when full'


async def test_the_browsers_tab_shows_the_apps_icon(user: User) -> None:
    page = await user.http_client.get('/')
    assert '<link href="/favicon.ico" rel="shortcut icon"' in page.text
    icon = await user.http_client.get('/favicon.ico')
    assert icon.status_code == 200 and icon.headers['content-type'] == 'image/png'
    assert icon.content == (STATIC_DIR / 'icon-192.png').read_bytes()   # the installed app's own icon
