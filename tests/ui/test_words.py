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
