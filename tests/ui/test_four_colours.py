"""The four-colour French deck: a choice of this browser, offered where Continental is set up,
that changes every French card the tables draw (and only the French ones), kept for next time."""
from __future__ import annotations

import re

from nicegui import app
from nicegui.testing import User

from app.engine.cards import Card, FrenchSuit, SpanishSuit, french_card
from app.pages.tables import table_path
from app.visitor import TABLES_KEY
from components.card_art import card_svg
from components.card_parts import FOUR_COLOURS, SYMBOLS
from screen import drawing, one
from seams import until


def pip_colours(svg: str) -> set[str]:
    return set(re.findall(r'<path d="[^"]*" fill="(#[0-9a-f]{6})"/>', svg))


def test_four_colours_give_every_french_suit_a_colour_of_its_own() -> None:
    two = {suit: pip_colours(card_svg(french_card(f'7{suit.value}'))) for suit in FrenchSuit}
    four = {suit: pip_colours(card_svg(french_card(f'7{suit.value}'), four_colours=True)) for suit in FrenchSuit}
    assert two[FrenchSuit.HEARTS] == two[FrenchSuit.DIAMONDS] and two[FrenchSuit.SPADES] == two[FrenchSuit.CLUBS]
    assert all(four[suit] == {FOUR_COLOURS[suit]} for suit in FrenchSuit)
    assert len({FOUR_COLOURS[suit] for suit in FrenchSuit}) == 4


async def test_the_choice_changes_the_cards_the_table_draws_and_is_kept(user: User) -> None:
    await user.open('/play/continental')
    assert '/cards/fr/7d.svg' in drawing(user, 'setup-colours')
    one(user, 'opt-four-colours').value = True
    await until(lambda: '/cards/fr4/7d.svg' in drawing(user, 'setup-colours'))
    user.find(marker='start').click()
    await user.open(table_path(app.storage.user[TABLES_KEY]['continental']))   # where the button goes
    await user.should_see(marker='hand')
    hand = drawing(user, 'hand')
    assert re.findall(r'src="/cards/(\w+)/', hand) and set(re.findall(r'src="/cards/(fr4?)/', hand)) == {'fr4'}
    face = await user.http_client.get('/cards/fr4/7d.svg')
    assert FOUR_COLOURS[FrenchSuit.DIAMONDS] in face.text
    await user.open('/play/continental')   # remembered by this browser
    assert one(user, 'opt-four-colours').value is True


async def test_spanish_games_offer_no_such_choice(user: User) -> None:
    await user.open('/play/chinchon')
    await user.should_see('Pistas')
    await user.should_not_see(marker='opt-four-colours')


def without_colour(markup: str) -> str:
    return re.sub(r'(fill|stroke)="[^"]*"', '', markup)


def test_spanish_suits_tell_apart_without_colour() -> None:
    """Colour-blind players read a Spanish suit from its shape: each face carries its suit's own
    symbol at both corner indexes (what a fan of cards leaves in view), and the corners of the
    four suits differ with every colour taken out."""
    corners = {}
    for suit in SpanishSuit:
        shape = without_colour(SYMBOLS[suit])
        for rank in (1, 7, 10, 11, 12):
            face = without_colour(card_svg(Card(rank, suit)))
            assert face.count(shape) >= 2, (suit, rank)
        corners[suit] = shape
    assert len(set(corners.values())) == 4
