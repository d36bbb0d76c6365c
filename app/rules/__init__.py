"""The rules texts (``<engine>.<language>.md`` next to this module) read into plain values.

The format: front matter (``title``, ``description``), an intro, then ``## Heading {#id}`` sections
with ``###`` sub-headings, Markdown paragraphs and lists, and directives alone on a line:
``[[cards: 5o 6o 7o + 10o 11o | caption]]`` (a row of cards in the game's notation; after `` + ``
the cards added to the first group) and ``[[table: values]]`` / ``[[table: contracts]]``.
Pure: no UI, so a test can check every text without a page.
"""
from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from app.engine.cards import Card, parse_french, parse_spanish
from app.games import GAMES_BY_ID

TABLES = ('values', 'contracts')
_FOLDER = Path(__file__).parent
_CARD_PARSERS: dict[str, Callable[[str], list[Card]]] = {'spanish': parse_spanish, 'french': parse_french}
_SECTION = re.compile(r'^## +(?P<title>.+?) +\{#(?P<id>[a-z0-9-]+)\}\s*$')
_SUBHEADING = re.compile(r'^### +(?P<title>.+?)\s*$')
_DIRECTIVE = re.compile(r'^\[\[(?P<kind>\w+):\s*(?P<body>.*?)\s*\]\]\s*$')


class RulesFormatError(ValueError):
    """A rules text that does not follow the format; the message names the file and line."""


@dataclass(frozen=True, slots=True)
class Text:
    markdown: str


@dataclass(frozen=True, slots=True)
class Subheading:
    title: str
    id: str


@dataclass(frozen=True, slots=True)
class CardRow:
    """``groups[0]`` is the example; any later group is added to it (a lay-off, a steal)."""
    groups: tuple[tuple[Card, ...], ...]
    caption: str


@dataclass(frozen=True, slots=True)
class Table:
    kind: str   # one of TABLES


Block = Text | Subheading | CardRow | Table


@dataclass(frozen=True, slots=True)
class Section:
    id: str
    title: str
    blocks: tuple[Block, ...]


@dataclass(frozen=True, slots=True)
class Rules:
    game_id: str
    language: str
    title: str          # the page <title>
    description: str    # its meta description
    intro: tuple[Block, ...]
    sections: tuple[Section, ...]

    @property
    def heading(self) -> str:
        """The title without the site name after the dash: the page's h1."""
        return re.split(r'\s+[—–-]\s+', self.title, maxsplit=1)[0]


def rules_file(game_id: str, language: str) -> Path:
    return _FOLDER / f'{GAMES_BY_ID[game_id].engine}.{language}.md'


@cache  # the files ship with the code and never change while it runs
def load_rules(game_id: str, language: str) -> Rules:
    path = rules_file(game_id, language)
    return parse_rules(path.read_text(encoding='utf-8'), game_id=game_id, language=language, source=path.name)


def parse_rules(text: str, *, game_id: str, language: str, source: str = '<text>') -> Rules:
    deck = GAMES_BY_ID[game_id].deck
    parse_cards = next(parser for prefix, parser in _CARD_PARSERS.items() if deck.startswith(prefix))
    meta, body, first_line = _front_matter(text, source)
    intro: list[Block] = []
    sections: list[tuple[str, str, list[Block]]] = []
    paragraph: list[str] = []

    def blocks() -> list[Block]:
        return sections[-1][2] if sections else intro

    def flush() -> None:
        if ''.join(paragraph).strip():
            blocks().append(Text('\n'.join(paragraph).strip('\n')))
        paragraph.clear()

    for number, line in enumerate(body, start=first_line):
        where = f'{source}:{number}'
        if section := _SECTION.match(line):
            flush()
            sections.append((section['id'], section['title'], []))
        elif line.startswith('#'):
            if not (sub := _SUBHEADING.match(line)) or not sections:
                raise RulesFormatError(f'{where}: only "## Title {{#id}}" sections and "###" inside them: {line!r}')
            flush()
            section_id, _, section_blocks = sections[-1]
            index = 1 + sum(isinstance(block, Subheading) for block in section_blocks)
            section_blocks.append(Subheading(sub['title'], f'{section_id}-{index}'))
        elif directive := _DIRECTIVE.match(line):
            flush()
            blocks().append(_directive(directive['kind'], directive['body'], parse_cards, where))
        elif line.lstrip().startswith('[['):
            raise RulesFormatError(f'{where}: a directive must be alone on its line: {line!r}')
        else:
            paragraph.append(line)
    flush()

    ids = [section_id for section_id, _, _ in sections]
    if len(set(ids)) != len(ids):
        raise RulesFormatError(f'{source}: section ids repeat: {ids}')
    return Rules(game_id=game_id, language=language, title=meta['title'], description=meta['description'],
                 intro=tuple(intro),
                 sections=tuple(Section(section_id, title, tuple(content)) for section_id, title, content in sections))


def _front_matter(text: str, source: str) -> tuple[dict[str, str], list[str], int]:
    lines = text.splitlines()
    if not lines or lines[0].strip() != '---' or '---' not in (line.strip() for line in lines[1:]):
        raise RulesFormatError(f'{source}: the text must open with a front matter block between "---" lines')
    end = next(i for i in range(1, len(lines)) if lines[i].strip() == '---')
    meta = {}
    for line in lines[1:end]:
        key, colon, value = line.partition(':')
        if colon:
            meta[key.strip()] = value.strip()
    missing = {'title', 'description'} - {key for key, value in meta.items() if value}
    if missing:
        raise RulesFormatError(f'{source}: the front matter lacks {sorted(missing)}')
    return meta, lines[end + 1:], end + 2


def _directive(kind: str, body: str, parse_cards: Callable[[str], list[Card]], where: str) -> Block:
    if kind == 'table':
        if body not in TABLES:
            raise RulesFormatError(f'{where}: unknown table {body!r}; known: {", ".join(TABLES)}')
        return Table(body)
    if kind == 'cards':
        cards_text, _, caption = body.partition('|')
        try:
            groups = tuple(tuple(parse_cards(group)) for group in cards_text.split(' + '))
        except ValueError as error:
            raise RulesFormatError(f'{where}: {error}') from None
        if not all(groups) or len(groups) > 2:
            raise RulesFormatError(f'{where}: expected "cards" or "cards + added cards": {body!r}')
        return CardRow(groups, caption.strip())
    raise RulesFormatError(f'{where}: unknown directive {kind!r}')
