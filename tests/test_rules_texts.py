"""The rules texts: both languages of a game agree, every directive parses, and the tables the
pages draw agree with the engines for every card of the deck."""
import re

import pytest

from app.engine import chinchon, continental, ronda_robada
from app.engine.cards import french_deck, spanish_deck
from app.games import GAMES
from app.i18n import LANGUAGES
from app.rules import CardRow, RulesFormatError, Subheading, Table, load_rules, parse_rules, rules_file

GAME_IDS = [game.id for game in GAMES]


def directives(rules):
    """Every card row and table of a text, in order, without the captions (which are translated)."""
    parts = [('', rules.intro)] + [(section.id, section.blocks) for section in rules.sections]
    return [(part, block.groups if isinstance(block, CardRow) else block.kind)
            for part, blocks in parts for block in blocks if isinstance(block, (CardRow, Table))]


@pytest.mark.parametrize('game_id', GAME_IDS)
def test_both_languages_have_the_same_sections_in_the_same_order(game_id):
    spanish, english = load_rules(game_id, 'es'), load_rules(game_id, 'en')
    assert [section.id for section in spanish.sections] == [section.id for section in english.sections]
    assert len(spanish.sections) >= 10
    for es_section, en_section in zip(spanish.sections, english.sections):
        es_subs = [block.id for block in es_section.blocks if isinstance(block, Subheading)]
        en_subs = [block.id for block in en_section.blocks if isinstance(block, Subheading)]
        assert es_subs == en_subs, es_section.id


@pytest.mark.parametrize('game_id', GAME_IDS)
def test_both_languages_show_the_same_examples_and_tables(game_id):
    assert directives(load_rules(game_id, 'es')) == directives(load_rules(game_id, 'en'))
    assert any(isinstance(kind, tuple) for _, kind in directives(load_rules(game_id, 'es')))


@pytest.mark.parametrize('language', LANGUAGES)
@pytest.mark.parametrize('game_id', GAME_IDS)
def test_every_directive_parses_into_a_card_row_or_a_table(game_id, language):
    text = rules_file(game_id, language).read_text(encoding='utf-8')
    rules = load_rules(game_id, language)
    card_lines = re.findall(r'^\[\[cards:.*\]\]$', text, flags=re.M)
    table_lines = re.findall(r'^\[\[table:.*\]\]$', text, flags=re.M)
    rows = [block for section in rules.sections for block in section.blocks if isinstance(block, CardRow)]
    tables = [block for section in rules.sections for block in section.blocks if isinstance(block, Table)]
    assert len(rows) == len(card_lines) > 0 and len(tables) == len(table_lines) > 0
    assert all(row.caption and 1 <= len(row.groups) <= 2 and all(row.groups) for row in rows)
    assert '[[' not in str([block for section in rules.sections for block in section.blocks
                            if not isinstance(block, (CardRow, Table))])
    assert rules.title and rules.description and rules.heading and rules.intro


def test_the_titles_and_descriptions_are_per_language():
    for game_id in GAME_IDS:
        spanish, english = load_rules(game_id, 'es'), load_rules(game_id, 'en')
        assert spanish.title != english.title and spanish.description != english.description
        assert 'House Of Decks' not in spanish.heading + english.heading


def test_a_bad_card_is_refused_with_file_and_line():
    text = '---\ntitle: T\ndescription: D\n---\n\nIntro.\n\n## Aim {#aim}\n\n[[cards: 5o 9o | nine]]\n'
    with pytest.raises(RulesFormatError, match=r'x\.md:10: .*9o'):
        parse_rules(text, game_id='chinchon', language='es', source='x.md')
    with pytest.raises(RulesFormatError, match='unknown table'):
        parse_rules(text.replace('[[cards: 5o 9o | nine]]', '[[table: prizes]]'), game_id='chinchon', language='es')
    french = parse_rules(text.replace('5o 9o', 'As 10h + JK'), game_id='continental', language='en')
    assert [[str(card) for card in group] for group in french.sections[0].blocks[0].groups] == [['As', '10h'], ['JK']]


@pytest.mark.parametrize('game_id, deck, engine_value', [
    ('chinchon', spanish_deck(), chinchon.card_value),
    ('ronda-robada', spanish_deck(), ronda_robada.card_points),
    ('continental', french_deck(), continental.card_points),
])
def test_the_values_table_gives_every_card_of_the_deck_its_engine_value(game_id, deck, engine_value):
    from app.pages.rules import value_rows

    by_rank = {(card.rank, card.is_joker): value for card, value in value_rows(game_id)}
    assert {(card.rank, card.is_joker) for card in deck} == set(by_rank)   # one row per rank, none missing
    assert all(by_rank[card.rank, card.is_joker] == engine_value(card) for card in deck)   # whatever the suit
