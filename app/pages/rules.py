"""The rules pages: one per game and language at its own address (/reglas/<id>, /rules/<id>).

The address decides the language of the page; only the switch stores a choice. Examples are
drawn with the tables' own card component, and the values and contracts tables are computed from
the engines' constants, so the page cannot disagree with the game.
"""
from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from html import escape
from typing import Any

from nicegui import ui
from nicegui.elements.mixins.text_element import TextElement

from app.engine import continental
from app.engine.cards import FRENCH_RANKS, JOKER, SPANISH_RANKS, Card, FrenchSuit, SpanishSuit
from app.games import GAMES, GAMES_BY_ID
from app.i18n import LANGUAGES, current_language, t, use_page_language
from app.routes import route_exists, rules_path
from app.rules import Block, CardRow, Rules, Section, Subheading, Table, Text, load_rules
from components.card import card_name, playing_card
from components.frame import frame
from components.table_parts import TABLE_CSS

# the sample cards the values table lists, per deck (what each is worth is its game's card_value)
VALUE_CARDS: dict[str, tuple[Card, ...]] = {
    'spanish40': tuple(Card(rank, SpanishSuit.OROS) for rank in SPANISH_RANKS),
    'french108': tuple(Card(rank, FrenchSuit.HEARTS) for rank in FRENCH_RANKS) + (JOKER,),
}

RULES_CSS = '''
.hod-rules { display: grid; grid-template-columns: minmax(0, 1fr); gap: 32px; width: 100%; }
@media (min-width: 1024px) { .hod-rules { grid-template-columns: 220px minmax(0, 1fr); } }
.hod-rules article { max-width: 46rem; min-width: 0; }
.hod-rules h1 { font-size: 2rem; line-height: 1.2; font-weight: 800; color: var(--hod-felt-dark); margin: 4px 0 12px; }
.hod-rules h2 { font-size: 1.5rem; font-weight: 700; color: var(--hod-felt); margin: 28px 0 8px;
  padding-bottom: 4px; border-bottom: 2px solid rgba(31,95,58,.2); }
.hod-rules h3 { font-size: 1.15rem; font-weight: 700; margin: 18px 0 6px; }
.hod-rules h1, .hod-rules h2, .hod-rules h3 { line-height: 1.25; letter-spacing: normal; }
.hod-rules h2, .hod-rules h3 { scroll-margin-top: 72px; }
.hod-rules .nicegui-markdown { line-height: 1.6; font-size: 1.02rem; }
.hod-rules .nicegui-markdown p { margin: 0 0 10px; }
.hod-rules .nicegui-markdown ul, .hod-rules .nicegui-markdown ol { margin: 0 0 10px; padding-left: 1.4rem; }
.hod-rules .nicegui-markdown ul { list-style: disc; } .hod-rules .nicegui-markdown ol { list-style: decimal; }
.hod-rules .nicegui-markdown li { margin: 3px 0; }
.hod-toc a { color: var(--hod-felt); text-decoration: none; display: block; padding: 3px 6px; border-radius: 6px; }
.hod-toc a:hover { background: rgba(31,95,58,.1); text-decoration: underline; }
.hod-toc-side { position: sticky; top: 72px; align-self: start; max-height: calc(100vh - 90px); overflow-y: auto;
  font-size: .9rem; }
.hod-toc-side a { padding: 2px 6px; }
.hod-toc-box { background: #fff; border: 1px solid rgba(31,95,58,.25); border-radius: 10px; padding: 8px 12px; }
.hod-toc-box summary { cursor: pointer; font-weight: 700; color: var(--hod-felt-dark); list-style: none; }
.hod-toc-box summary::before { content: '▸'; display: inline-block; width: 1.1em; transition: transform .15s; }
.hod-toc-box[open] summary::before { transform: rotate(90deg); }
.hod-toc-box ol { columns: 2 150px; column-gap: 16px; margin-top: 6px; }
.hod-example { margin: 12px 0 14px; display: flex; flex-direction: column; align-items: flex-start; gap: 6px; }
.hod-example-felt { display: flex; flex-wrap: wrap; align-items: center; gap: 8px; padding: 10px; max-width: 100%; }
.hod-example-group { display: flex; gap: 4px; padding: 4px; border-radius: 10px; }
.hod-example-added { outline: 2px dashed var(--hod-gold); background: rgba(224,179,65,.22); }
.hod-example-plus { font-size: 1.7rem; font-weight: 800; color: var(--hod-gold); line-height: 1; }
.hod-example .hod-card-md { width: clamp(34px, 10.4vw, 68px); }
.hod-example figcaption { font-size: .92rem; color: #4b5563; font-style: italic; }
.hod-rules-table { border-collapse: collapse; margin: 10px 0 16px; background: #fff; border-radius: 10px;
  overflow: hidden; box-shadow: 0 1px 3px rgba(0,0,0,.12); min-width: 270px; }
.hod-rules-table caption { caption-side: top; text-align: left; font-weight: 700; padding: 0 0 6px; }
.hod-rules-table th, .hod-rules-table td { padding: 4px 12px; text-align: left; vertical-align: middle; }
.hod-rules-table .hod-card-xs { width: 24px; border-radius: 3px; }
.hod-rules-table thead th { background: var(--hod-felt); color: #fff; font-weight: 700; }
.hod-rules-table tbody tr:nth-child(even) { background: #f4f1e8; }
.hod-rules-table .hod-num { text-align: right; font-variant-numeric: tabular-nums; font-weight: 700; }
'''


class text_tag(TextElement):
    """An element of any tag holding plain text: headings, table cells, captions."""

    def __init__(self, tag: str, text: str) -> None:
        super().__init__(tag=tag, text=text)


@contextmanager
def address_language(language: str) -> Iterator[None]:
    """Build the page in the address's language without touching the visitor's own choice."""
    use_page_language(language)
    yield


def register_rules_pages() -> None:
    """Each game and language at its own route (so `route_exists` finds it); anything else under
    the two prefixes gets the not-found page in that language."""
    for language in LANGUAGES:
        for game in GAMES:
            ui.page(rules_path(game.id, language))(_rules_page_for(game.id, language))
        ui.page(rules_path('{game_id}', language))(_not_found_page_for(language))


def _rules_page_for(game_id: str, language: str) -> Callable[[], None]:
    def page() -> None:
        rules_page(game_id, language)
    return page


def _not_found_page_for(language: str) -> Callable[[str], None]:
    def page(game_id: str) -> None:
        rules_not_found(game_id, language)
    return page


def rules_page(game_id: str, language: str) -> None:
    rules = load_rules(game_id, language)
    with address_language(language):
        with frame(rules.heading, description=rules.description,
                   other_language_path=lambda other: rules_path(game_id, other)):
            ui.page_title(rules.title)
            ui.add_css(TABLE_CSS + RULES_CSS)
            with ui.element('div').classes('hod-rules'):
                with ui.element('nav').classes('hod-toc hod-toc-side max-lg:hidden') \
                        .props(f'aria-label="{escape(t("rules.contents"))}"'):
                    text_tag('div', t('rules.contents')).classes('font-bold mb-1 px-1.5')
                    contents_list(rules.sections)
                with ui.element('article').mark('rules-article'):
                    text_tag('h1', rules.heading)
                    blocks(rules.intro, rules)
                    with ui.element('details').classes('hod-toc hod-toc-box lg:hidden my-3').mark('toc-compact'):
                        text_tag('summary', t('rules.contents'))
                        with ui.element('nav').props(f'aria-label="{escape(t("rules.contents"))}"'):
                            contents_list(rules.sections)
                    play_button(game_id)
                    for section in rules.sections:
                        rules_section(section, rules)
                    more_rules(game_id)


def contents_list(sections: tuple[Section, ...]) -> None:
    with ui.element('ol'):
        for section in sections:
            with ui.element('li'):
                ui.link(section.title, f'#{section.id}').mark(f'toc-{section.id}')


def rules_section(section: Section, rules: Rules) -> None:
    with ui.element('section').props(f'aria-labelledby="{section.id}"').mark(f'section-{section.id}'):
        text_tag('h2', section.title).props(f'id="{section.id}"')
        blocks(section.blocks, rules)


def blocks(content: tuple[Block, ...], rules: Rules) -> None:
    for block in content:
        BLOCK_BUILDERS[type(block)](block, rules)


def card_example(row: CardRow) -> None:
    """A row of cards on the felt with its caption; cards added to the first group (a lay-off, a
    steal) come after a plus sign, outlined."""
    with ui.element('figure').classes('hod-example').mark('rules-example'):
        with ui.element('div').classes('hod-felt hod-example-felt'):
            for index, group in enumerate(row.groups):
                if index:
                    ui.html(f'<span class="hod-example-plus" role="img" aria-label="{escape(t("rules.added"))}">+</span>',
                            sanitize=False)
                with ui.element('div').classes('hod-example-group' + (' hod-example-added' if index else '')):
                    for card in group:
                        playing_card(card, size='md')
        if row.caption:
            text_tag('figcaption', row.caption)


def value_rows(game_id: str) -> list[tuple[Card, int]]:
    game = GAMES_BY_ID[game_id]
    return [(card, game.card_value(card)) for card in VALUE_CARDS[game.deck]]


def rank_name(card: Card) -> str:
    if card.is_joker:
        return t('card.joker')
    name = t(f"card.{'es' if card.is_spanish else 'fr'}.rank.{card.rank}")
    return name[:1].upper() + name[1:]


def values_table(game_id: str) -> None:
    with ui.element('table').classes('hod-rules-table').mark('values-table'):
        text_tag('caption', t(f'rules.values.caption.{game_id}'))
        table_head(t('rules.table.card'), t(GAMES_BY_ID[game_id].value_header))
        with ui.element('tbody'):
            for card, value in value_rows(game_id):
                with ui.element('tr').mark('values-row'):
                    with ui.element('th').props('scope=row'):
                        with ui.row().classes('items-center gap-3 no-wrap font-normal'):
                            playing_card(card, size='xs', label=card_name(card)).props('aria-hidden=true')
                            text_tag('span', rank_name(card)).mark('cell')
                    text_tag('td', str(value)).classes('hod-num').mark('cell')


def contract_text(sets: int, runs: int) -> str:
    parts = [t('rules.contract.set' if sets == 1 else 'rules.contract.sets', count=sets)] if sets else []
    parts += [t('rules.contract.run' if runs == 1 else 'rules.contract.runs', count=runs)] if runs else []
    return parts[0] if len(parts) == 1 else t('rules.contract.and', first=parts[0], second=parts[1])


def contracts_table(game_id: str) -> None:
    with ui.element('table').classes('hod-rules-table').mark('contracts-table'):
        text_tag('caption', t('rules.contracts.caption'))
        table_head(t('rules.contracts.hand'), t('rules.contracts.contract'), t('rules.contracts.cards'))
        with ui.element('tbody'):
            for contract in continental.CONTRACTS:
                with ui.element('tr').mark('contracts-row'):
                    text_tag('th', str(contract.number)).props('scope=row').classes('hod-num').mark('cell')
                    text_tag('td', contract_text(contract.sets, contract.runs)).mark('cell')
                    text_tag('td', str(contract.cards)).classes('hod-num').mark('cell')


def table_head(*titles: str) -> None:
    with ui.element('thead'):
        with ui.element('tr'):
            for title in titles:
                text_tag('th', title).props('scope=col')


TABLE_BUILDERS: dict[str, Callable[[str], None]] = {'values': values_table, 'contracts': contracts_table}
BLOCK_BUILDERS: dict[type, Callable[[Any, Rules], None]] = {
    Text: lambda block, _: ui.markdown(block.markdown),
    Subheading: lambda block, _: text_tag('h3', block.title).props(f'id="{block.id}"'),
    CardRow: lambda block, _: card_example(block),
    Table: lambda block, rules: TABLE_BUILDERS[block.kind](rules.game_id),
}


def play_button(game_id: str) -> None:
    game = GAMES_BY_ID[game_id]
    if route_exists(game.play_path):
        ui.button(t('rules.play', game=t(game.name_key)), on_click=lambda: ui.navigate.to(game.play_path)) \
            .props('unelevated no-caps').classes('my-2 self-start').mark('rules-play')


def more_rules(game_id: str) -> None:
    language = current_language()
    with ui.element('nav').classes('mt-8 pt-4 border-t border-gray-300 flex flex-col gap-2') \
            .props(f'aria-label="{escape(t("rules.other_games"))}"'):
        with ui.row().classes('items-center gap-x-4 gap-y-1'):
            ui.link(t('rules.back_to_top'), '#main').classes('text-[#1f5f3a]')
            for other in GAMES:
                if other.id != game_id:
                    ui.link(t('rules.rules_of', game=t(other.name_key)), rules_path(other.id, language)) \
                        .classes('text-[#1f5f3a]').mark(f'other-rules-{other.id}')
        play_button(game_id)


def rules_not_found(game_id: str, language: str) -> None:
    with address_language(language):
        ui.status_code(404)
        with frame(t('rules.not_found.title'), other_language_path=lambda other: rules_path(game_id, other)):
            with ui.element('article').classes('hod-rules-missing flex flex-col gap-3'):
                text_tag('h1', t('rules.not_found.title')).classes('text-3xl font-bold text-[#143d26]')
                ui.label(t('rules.not_found.text', game=game_id)).classes('text-lg')
                with ui.element('ul').classes('list-disc pl-6 text-lg'):
                    for game in GAMES:
                        with ui.element('li'):
                            ui.link(t('rules.rules_of', game=t(game.name_key)), rules_path(game.id, language)) \
                                .mark(f'missing-rules-{game.id}')
                ui.link(t('error.back_home'), '/')
