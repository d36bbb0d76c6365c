import re
import string

import pytest

from app.games import GAMES
from app.i18n import CATALOGS, LANGUAGES, language_from_header, translate


def placeholders(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def test_both_catalogs_have_the_same_keys():
    es, en = CATALOGS['es'], CATALOGS['en']
    assert sorted(set(es) - set(en)) == [] and sorted(set(en) - set(es)) == []


@pytest.mark.parametrize('language', LANGUAGES)
def test_no_empty_messages(language):
    empty = [key for key, text in CATALOGS[language].items() if not text.strip()]
    assert empty == []


def test_placeholders_agree_between_languages():
    mismatched = [key for key in CATALOGS['es']
                  if placeholders(CATALOGS['es'][key]) != placeholders(CATALOGS['en'][key])]
    assert mismatched == []


def test_every_game_has_a_name_and_summary_in_both_languages():
    for game in GAMES:
        for language in LANGUAGES:
            assert translate(language, game.name_key)
            assert translate(language, game.summary_key)
            assert translate(language, f'deck.{game.deck}')


def test_translate_fills_parameters():
    assert translate('es', 'home.players', min=2, max=6) == '2–6 jugadores'
    assert translate('en', 'home.players', min=2, max=4) == '2–4 players'


@pytest.mark.parametrize('header, expected', [
    (None, 'es'),
    ('', 'es'),
    ('en-US,en;q=0.9', 'en'),
    ('es-ES,es;q=0.9,en;q=0.8', 'es'),
    ('fr-FR,fr;q=0.9,en;q=0.5,es;q=0.4', 'en'),
    ('de-DE,de;q=0.9', 'es'),
    ('en;q=0.3,es;q=0.7', 'es'),
    ('EN-gb', 'en'),
    ('en;q=0', 'es'),
    ('en;q=garbage', 'es'),
])
def test_language_from_accept_language(header, expected):
    assert language_from_header(header) == expected


def test_spanish_catalog_is_really_spanish():
    # a cheap guard against pasting English into the Spanish catalog
    assert CATALOGS['es']['home.play'] == 'Jugar' and CATALOGS['en']['home.play'] == 'Play'
    assert not re.search(r'\bthe\b', ' '.join(CATALOGS['es'].values()))
