"""The card art is well-formed SVG, one distinct picture per card, safe to inline many times."""
import xml.etree.ElementTree as ET

import pytest

from app.engine.cards import JOKER, Card, FrenchSuit, french_card, spanish_card, spanish_deck
from components.card_art import back_svg, card_svg, empty_slot_svg

SVG = '{http://www.w3.org/2000/svg}svg'
SPANISH = spanish_deck()
FRENCH = [Card(rank, suit) for suit in FrenchSuit for rank in range(1, 14)]
EVERY_CARD = SPANISH + FRENCH + [JOKER]


def parse(svg: str) -> ET.Element:
    root = ET.fromstring(svg)
    assert root.tag == SVG
    assert root.get('viewBox') == '0 0 100 150'
    return root


@pytest.mark.parametrize('card', EVERY_CARD, ids=str)
def test_every_card_is_a_well_formed_svg_image(card):
    root = parse(card_svg(card, label=str(card)))
    assert root.get('role') == 'img'
    assert root.get('aria-label') == str(card)
    assert root.get('width') is None and root.get('height') is None  # CSS sizes it


def test_each_card_has_its_own_art():
    faces = {card_svg(card) for card in EVERY_CARD}
    assert len(faces) == len(EVERY_CARD)
    assert back_svg() not in faces and empty_slot_svg() not in faces


def test_no_ids_so_many_cards_can_share_a_page():
    for svg in [card_svg(card) for card in EVERY_CARD] + [back_svg(), empty_slot_svg()]:
        assert all(element.get('id') is None for element in parse(svg).iter())
        assert 'url(#' not in svg and 'href' not in svg


def test_label_is_escaped_into_the_attribute():
    label = 'Sota de "copas" & <más>'
    root = parse(card_svg(spanish_card('10c'), label=label))
    assert root.get('aria-label') == label


def test_no_label_means_no_aria_label():
    assert parse(card_svg(french_card('Qh'))).get('aria-label') is None


def test_back_and_empty_slot_are_svg_images():
    assert parse(back_svg()).get('role') == 'img'
    assert parse(empty_slot_svg()).get('role') == 'img'


def test_nothing_is_fetched():
    for svg in [card_svg(card) for card in EVERY_CARD] + [back_svg()]:
        assert 'http' not in svg.replace('http://www.w3.org/2000/svg', '')
        assert '<image' not in svg and '@import' not in svg


def test_faces_are_cached_and_compact():
    card = spanish_card('7o')
    assert card_svg(card, label='7 de oros') is card_svg(card, label='7 de oros')
    assert max(len(card_svg(card)) for card in EVERY_CARD) < 12_000
