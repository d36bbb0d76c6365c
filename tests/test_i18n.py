import ast
import re
import string
import subprocess
import sys
from pathlib import Path

import pytest

from app.games import GAMES
from app.i18n import CATALOGS, LANGUAGES, language_from_header, translate


def placeholders(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


# forms only some languages need: Spanish agrees with a woman's or a man's name (.f, .m) and tells
# one from several (.one) where English says the same words; app.i18n.personal falls back to the base key
GRAMMAR = re.compile(r'^(?P<base>.+?)(?:\.one)?(?:\.[fm])?$')


def base_key(key: str) -> str:
    return GRAMMAR.match(key).group('base') if key.endswith(('.f', '.m', '.one')) else key


def test_both_catalogs_have_the_same_keys():
    es, en = CATALOGS['es'], CATALOGS['en']
    shared = {key for key in es if base_key(key) == key} | {key for key in en if base_key(key) == key}
    assert sorted(shared - set(en)) == [] and sorted(shared - set(es)) == []


@pytest.mark.parametrize('language', LANGUAGES)
def test_grammatical_forms_go_with_a_message_of_both_languages(language):
    """A '.f', '.m' or '.one' form needs its base message in both catalogs, and no placeholder of its own."""
    for key, text in CATALOGS[language].items():
        base = base_key(key)
        if base != key:
            assert base in CATALOGS['es'] and base in CATALOGS['en'], key
            assert placeholders(text) <= placeholders(CATALOGS[language][base]), key


@pytest.mark.parametrize('language', LANGUAGES)
def test_no_empty_messages(language):
    empty = [key for key, text in CATALOGS[language].items() if not text.strip()]
    assert empty == []


def test_placeholders_agree_between_languages():
    mismatched = [key for key in CATALOGS['es'] if key in CATALOGS['en']
                  and placeholders(CATALOGS['es'][key]) != placeholders(CATALOGS['en'][key])]
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


ROOT = Path(__file__).resolve().parents[1]
STORAGE_LAYERS = ('app.accounts', 'models', 'sqlmodel', 'sqlalchemy')


def storage_layers(modules: list[str]) -> list[str]:
    return [name for name in modules
            if any(name == layer or name.startswith(f'{layer}.') for layer in STORAGE_LAYERS)]


def imports_in(source: Path) -> list[str]:
    """Every module a file imports, at the top or inside a function (``from a import b`` gives
    both ``a`` and ``a.b``, since b may be a module)."""
    names = []
    for node in ast.walk(ast.parse(source.read_text())):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module:
            names += [node.module] + [f'{node.module}.{alias.name}' for alias in node.names]
    return names


def test_i18n_imports_neither_accounts_nor_the_database():
    """Pages hand i18n the language; saving it to an account is the page frame's business."""
    loaded = subprocess.run([sys.executable, '-c', 'import sys, app.i18n; print(*sys.modules)'],
                            cwd=ROOT, capture_output=True, text=True, check=True).stdout.split()
    assert storage_layers(loaded) == []
    # an import inside a function loads only on its first call: read the sources as well
    sources = (ROOT / 'app' / 'i18n').glob('*.py')
    assert storage_layers([name for source in sources for name in imports_in(source)]) == []


# placeholders that hold a name, which starts with a capital of its own
NAME_PLACEHOLDERS = {'name', 'names', 'dealer', 'owner', 'game', 'first', 'min', 'hand', 'count', 'n', 'path',
                     'chosen'}   # the coach's option, capitalised where it opens a sentence (components/review/coach.py)
SENTENCE_END = ('.', '!', '?', '…')


@pytest.mark.parametrize('language', LANGUAGES)
def test_sentences_start_with_a_capital(language):
    """A message that ends like a sentence starts like one: with a capital, or with a name. A card
    said in a sentence has its article ("la sota de copas"), so it never opens one."""
    wrong = []
    for key, text in CATALOGS[language].items():
        if not text.rstrip().endswith(SENTENCE_END):
            continue
        start = text.lstrip('¡¿')
        opening = re.match(r'\{(\w+)\}', start)
        if opening and opening.group(1) not in NAME_PLACEHOLDERS or not opening and start[:1].islower():
            wrong.append((key, text))
    assert wrong == []


COUNTED = re.compile(r'\{\w+\} (?:cartas|cards|puntos|points|manos|hands|pts)\b')
RULE_CONSTANTS = {'meld.reason.set_size', 'meld.reason.run_size'}   # counts that are never 1


@pytest.mark.parametrize('language', LANGUAGES)
def test_a_count_before_its_noun_has_a_form_for_one(language):
    """"{count} cartas" needs its ".one" form, chosen by app.i18n.counted: never "1 cartas"."""
    catalog = CATALOGS[language]
    missing = [key for key, text in catalog.items()
               if COUNTED.search(text) and base_key(key) not in RULE_CONSTANTS and f'{base_key(key)}.one' not in catalog]
    assert missing == []


def test_a_card_in_a_sentence_is_given_its_article_once():
    """The card's name comes with its article (components.card.the_card): a message adding one
    would say "the the jack"."""
    doubled = {'es': re.compile(r'\b(?:el|la|al|del) \{(?:card|top|loose)\}'),
               'en': re.compile(r'\bthe \{(?:card|top|loose)\}')}
    assert [(language, key) for language in LANGUAGES for key, text in CATALOGS[language].items()
            if doubled[language].search(text) and not key.startswith('card.the')] == []


def test_spanish_card_names_agree_with_their_article():
    from app.engine.cards import JOKER, french_deck, spanish_deck
    from app.i18n import language_scope
    from components.card import the_card
    with language_scope('es'):
        named = {the_card(card) for card in [*spanish_deck(), *french_deck(), JOKER]}
    feminine = {name for name in named if name.startswith('la ')}
    assert {name.split(' de ')[0] for name in feminine} == {'la sota', 'la jota', 'la reina'}
    assert all(name.startswith(('el ', 'la ')) for name in named) and 'el comodín' in named
    with language_scope('en'):
        assert all(the_card(card).startswith('the ') for card in spanish_deck())


@pytest.mark.parametrize('game', ['chinchon', 'ronda_robada'])
def test_the_rules_pages_name_the_caballo_as_the_table_does(game):
    """The English rules call the caballo a knight: the table's names say the same."""
    text = (ROOT / 'app' / 'rules' / f'{game}.en.md').read_text()
    knight = translate('en', 'card.es.rank.11')
    assert f'caballo ({knight})' in text and 'queen' not in text.lower()
