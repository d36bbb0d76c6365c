"""What a screen may show of the cards, for the leak checks of both tiers: a card's code as the
server sends it, and which codes a seat may know at a table.

The in-process tier scans every element the server holds for a client (``shown_codes`` against
``known_to``; Continental plays two decks, so a hidden card whose twin is public cannot be told
apart from it);
the browser tier reads the websocket frames (tests/e2e/table_browser.py). A review of a finished
hand shows, at each step, what its seat knew then (``known_in_review``). Both look for a card's
code where the screens put one: a ``data-card`` attribute or a card picture's address."""
from __future__ import annotations

import dataclasses
import json
import re
from collections.abc import Iterable
from typing import Any

from app.engine.cards import Card, french_deck, spanish_deck

# a card's code as the screens carry it: a data-card attribute (in markup, in props, or in a live
# patch's [element, "data-card", code]; escaped or not), or the picture's address
_CARD_PREFIX = r'(?:data-card\\?["\']?\s*[:=,]\s*\\?["\']|/cards/(?:es|fr4?)/)'   # fr4: four colours
CARD_CODE = re.compile(_CARD_PREFIX + r'((?:1[012]|[1-9])[oceb]|(?:10|[2-9AJQK])[shdc]|JK)\b')
# a card's code on its own, as the engine's public events write it ("12c", "10h", "JK")
BARE_CODE = re.compile(r'(?<![\w/])((?:1[012]|[1-9])[oceb]|(?:10|[2-9AJQK])[shdc]|JK)(?![\w])')

EVERY_CARD = frozenset(str(card) for card in spanish_deck() + french_deck())


def codes(*texts: str) -> set[str]:
    """Every card code the screens' markup or messages carry in these texts."""
    return {match for text in texts for match in CARD_CODE.findall(text)}


def cards_in(value: object) -> set[str]:
    """The codes of every card a view (or any part of it) holds."""
    if isinstance(value, Card):
        return {str(value)}
    if isinstance(value, (tuple, list, set, frozenset)):
        return {code for item in value for code in cards_in(item)}
    if isinstance(value, dict):
        return {code for item in value.values() for code in cards_in(item)}
    if dataclasses.is_dataclass(value):
        return {code for field in dataclasses.fields(value) for code in cards_in(getattr(value, field.name))}
    return set()


def known_to(table: Any, seat: int) -> set[str]:
    """What this seat may know (SPECTATOR: what anybody may know): its view (hand, discard top, melds, piles...) and every card the
    table's public events have named (a card thrown earlier is public, even once covered)."""
    public = {code for entry in table.log for code in BARE_CODE.findall(json.dumps(entry))}
    return cards_in(table.view(seat)) | public


def known_in_review(hand: Any, index: int, seat: int) -> set[str]:
    """What a review of a finished hand may show at step ``index`` from ``seat`` before "with all
    the cards" is asked for: what that seat knew at that moment (its view then, which holds the
    public cards and, after the hand, its count). A hand still being played is never reviewed."""
    return cards_in(hand.steps[index].views[seat])


def element_text(element: Any) -> str:
    """Everything an element sends to its browser that could name a card: its props (attributes,
    markup), its text, its markup, its picture."""
    parts = [json.dumps(dict(element.props), default=str)]
    parts += [str(getattr(element, name, '') or '') for name in ('text', 'content', 'source')]
    return ' '.join(parts)


def shown_codes(elements: Iterable[Any]) -> dict[str, str]:
    """Each card code on these elements -> an excerpt of the first element that carries it."""
    found: dict[str, str] = {}
    for element in elements:
        text = element_text(element)
        for match in CARD_CODE.finditer(text):
            found.setdefault(match.group(1), f'{type(element).__name__}: {text[max(0, match.start() - 200):match.end() + 60]}')
    return found


def screen_text(client: Any) -> str:
    """Everything every element of this client's screen holds, as one text."""
    return '\n'.join(element_text(element) for element in client.elements.values())
