"""Stories of a visitor reading the rules: each game in each language at its own address, the
examples drawn with cards, the tables computed from the engines, the switch to the other
language, and a friendly page for a game that does not exist."""
import re

import pytest
from nicegui import ElementFilter, ui
from nicegui.testing import User

from app.engine import chinchon, continental, ronda_robada
from app.engine.cards import JOKER, SPANISH_RANKS, Card, FrenchSuit, SpanishSuit
from app.games import GAMES
from app.i18n import CATALOGS, LANGUAGES
from components.table_parts import rules_link_html
from app.routes import rules_path
from app.rules import CardRow, load_rules
from components.card import playing_card

SPANISH_CARDS = [Card(rank, SpanishSuit.COPAS) for rank in SPANISH_RANKS]
FRENCH_CARDS = [Card(rank, FrenchSuit.SPADES) for rank in range(1, 14)] + [JOKER]
ENGINE_VALUES = {
    'chinchon': (SPANISH_CARDS, chinchon.card_value),
    'ronda-robada': (SPANISH_CARDS, ronda_robada.card_points),
    'continental': (FRENCH_CARDS, continental.card_points),
}


def cells(user: User, row_marker: str) -> list[list[str]]:
    """The text of each rendered row's cells, in page order."""
    with user:
        return [[cell.text for cell in ElementFilter(marker='cell').within(instance=row)]
                for row in ElementFilter(marker=row_marker)]


def rank_name(language: str, card: Card) -> str:
    if card.is_joker:
        return CATALOGS[language]['card.joker']
    deck = 'es' if card.is_spanish else 'fr'
    return CATALOGS[language][f'card.{deck}.rank.{card.rank}'].capitalize()


@pytest.mark.parametrize('language', LANGUAGES)
@pytest.mark.parametrize('game_id', [game.id for game in GAMES])
async def test_each_game_has_its_rules_page_in_each_language(user: User, game_id: str, language: str) -> None:
    rules = load_rules(game_id, language)
    await user.open(rules_path(game_id, language))
    await user.should_see(rules.heading, kind=ui.element)
    for section in rules.sections:
        await user.should_see(marker=f'section-{section.id}')
        await user.should_see(section.title)
        await user.should_see(marker=f'toc-{section.id}')
    examples = [block for section in rules.sections for block in section.blocks if isinstance(block, CardRow)]
    for example in examples:
        await user.should_see(example.caption)
    shown = [' '.join(card.props['data-card'] for card in figure.descendants() if isinstance(card, playing_card))
             for figure in user.find(marker='rules-example').elements]
    assert sorted(shown) == sorted(' '.join(str(card) for group in example.groups for card in group)
                                   for example in examples)


@pytest.mark.parametrize('language', LANGUAGES)
@pytest.mark.parametrize('game_id', [game.id for game in GAMES])
async def test_values_table_shows_the_engine_values(user: User, game_id: str, language: str) -> None:
    cards, value = ENGINE_VALUES[game_id]
    await user.open(rules_path(game_id, language))
    assert cells(user, 'values-row') == [[rank_name(language, card), str(value(card))] for card in cards]


@pytest.mark.parametrize('language, set_word, run_word, joiner', [
    ('es', ('trío', 'tríos'), ('escalera', 'escaleras'), ' y '),
    ('en', ('set', 'sets'), ('run', 'runs'), ' and '),
])
async def test_contracts_table_shows_the_engine_contracts(user: User, language, set_word, run_word, joiner) -> None:
    def words(count: int, word: tuple[str, str]) -> list[str]:
        return [f'{count} {word[count > 1]}'] if count else []

    await user.open(rules_path('continental', language))
    expected = [[str(contract.number), joiner.join(words(contract.sets, set_word) + words(contract.runs, run_word)),
                 str(contract.cards)] for contract in continental.CONTRACTS]
    assert len(expected) == 7
    assert cells(user, 'contracts-row') == expected


async def test_the_switch_lands_on_the_same_game_in_the_other_language_and_is_kept(user: User) -> None:
    await user.open('/reglas/ronda-robada')
    await user.should_see('Reglas de la Ronda Robada')
    user.find(marker='language-switch').click()
    await user.should_see('Ronda Robada rules')
    assert user.back_history[-1] == '/rules/ronda-robada'
    user.find(marker='language-switch').click()
    await user.should_see('Reglas de la Ronda Robada')
    assert user.back_history[-1] == '/reglas/ronda-robada'
    await user.open('/')  # the last switch chose Spanish
    await user.should_see('Juegos de cartas españoles')


async def test_the_address_decides_the_language_and_stores_nothing(user: User) -> None:
    user.http_client.headers['Accept-Language'] = 'en-GB,en;q=0.9'
    await user.open('/reglas/continental')
    await user.should_see('Reglas del Continental')
    await user.should_see('Los siete contratos')
    await user.should_see('English', marker='language-switch')   # the frame speaks the page's language
    await user.open('/')
    await user.should_see('Spanish card games')   # the browser's English, not the page's Spanish


async def test_home_and_frame_link_to_the_rules(user: User) -> None:
    await user.open('/')
    for game in GAMES:
        await user.should_see(marker=f'rules-{game.id}')
        await user.should_see(f"Reglas: {CATALOGS['es'][game.name_key]}")
    user.find(marker='rules-continental').click()
    await user.should_see('Reglas del Continental')


async def test_tables_link_to_the_rules_in_a_new_tab(user: User) -> None:
    @ui.page('/a-table')
    def table_page() -> None:
        ui.html(rules_link_html('continental'), sanitize=False).mark('link')

    await user.open('/a-table')
    link = next(iter(user.find(marker='link').elements)).content
    assert 'href="/reglas/continental"' in link and 'target="_blank"' in link and 'rel="noopener"' in link
    assert re.search(r'aria-label="[^"]*pestaña nueva[^"]*"', link)


@pytest.mark.parametrize('path, title, links', [
    ('/reglas/poker', 'No encontramos esas reglas', ['/reglas/chinchon', '/reglas/ronda-robada', '/reglas/continental']),
    ('/rules/poker', 'We could not find those rules', ['/rules/chinchon', '/rules/ronda-robada', '/rules/continental']),
])
async def test_an_unknown_game_gets_a_translated_not_found_page(user: User, path, title, links) -> None:
    response = await user.http_client.get(path)
    assert response.status_code == 404
    assert title in response.text and 'poker' in response.text
    assert all(f'"href":"{link}"' in response.text.replace(' ', '') for link in links)


@pytest.mark.parametrize('language', LANGUAGES)
async def test_title_and_description_come_from_the_text(user: User, language: str) -> None:
    rules = load_rules('chinchon', language)
    response = await user.http_client.get(rules_path('chinchon', language))
    assert f'<title>{rules.title}</title>' in response.text
    assert f'<meta name="description" content="{rules.description}">' in response.text
