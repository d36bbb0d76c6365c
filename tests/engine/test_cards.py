"""cards.py: notation, decks and the fair-deal helpers shared by all games."""
import random

import pytest

from app.engine.cards import (JOKER, Card, FrenchSuit, SpanishSuit, cards_str, commitment, french_deck,
                              new_hand_seed, parse_french, parse_spanish, shuffled, spanish_deck)


def test_deck_sizes():
    assert len(spanish_deck()) == 40
    assert len(set(spanish_deck())) == 40
    assert len(spanish_deck(2)) == 80
    assert len(set(spanish_deck(2))) == 40
    assert len(french_deck()) == 108
    assert french_deck().count(JOKER) == 4


@pytest.mark.parametrize('deck', [spanish_deck(), spanish_deck(2)])
def test_spanish_text_round_trip(deck):
    assert parse_spanish(cards_str(deck)) == deck


def test_french_text_round_trip():
    assert parse_french(cards_str(french_deck())) == french_deck()


def test_spanish_notation():
    assert parse_spanish('1o 7c 10e 12b') == [Card(1, SpanishSuit.OROS), Card(7, SpanishSuit.COPAS),
                                             Card(10, SpanishSuit.ESPADAS), Card(12, SpanishSuit.BASTOS)]
    assert [str(card) for card in parse_spanish('1o 7c 10e 12b')] == ['1o', '7c', '10e', '12b']


def test_french_notation():
    assert parse_french('As 10h Qd JK') == [Card(1, FrenchSuit.SPADES), Card(10, FrenchSuit.HEARTS),
                                           Card(12, FrenchSuit.DIAMONDS), JOKER]


@pytest.mark.parametrize('token', ['8o', '9c', '13b', '0e', '1x', 'o', '12', 'As', 'JK', '1O'])
def test_spanish_parse_error_names_the_bad_token(token):
    with pytest.raises(ValueError, match=repr(token)):
        parse_spanish(f'1o {token} 2c')


@pytest.mark.parametrize('token', ['1s', '11h', 'Ks2', 'Ao', 'Jk', '10'])
def test_french_parse_error_names_the_bad_token(token):
    with pytest.raises(ValueError, match=repr(token)):
        parse_french(f'As {token}')


def test_hand_seed_shuffle_and_commitment_are_reproducible():
    seed = new_hand_seed(random.Random(4))
    assert len(seed) == 32 and seed == new_hand_seed(random.Random(4))
    assert shuffled(spanish_deck(), seed) == shuffled(spanish_deck(), seed)
    assert sorted(shuffled(spanish_deck(), seed)) == sorted(spanish_deck())
    assert len(commitment(seed)) == 64 and commitment(seed) != commitment(seed[::-1])
