"""Every kind of log line of the three games, in both languages, with you as the one who acts and
as the one acted on: you are spoken to in the second person, never named in the third, and
Spanish agrees with the computer players' names."""
from __future__ import annotations

import re

import pytest

from app.engine.cards import JOKER, french_deck, spanish_deck
from app.i18n import language_scope
from components.card import card_name, the_card
from components.chinchon.log import event_line as chinchon_line, out_words
from components.continental.log import event_line as continental_line
from components.ronda_robada.log import event_line as ronda_line

NAMES = {'es': ['Tú', 'Lucía', 'Mateo', 'Carmen'], 'en': ['You', 'Lucía', 'Mateo', 'Carmen']}
FEMININE = [False, True, False, True]
RUN = {'owner': 1, 'kind': 'run', 'start': 5,
       'cards': [{'card': code, 'position': 5 + i} for i, code in enumerate(['5h', '6h', '7h', '8h'])]}


def events(seat: int, other: int) -> list[tuple[str, dict]]:
    """(game, event) of every kind, acted by ``seat`` and, where someone is acted on, on ``other``."""
    chinchon = [
        {'kind': 'deal', 'seat': None, 'data': {'hand': 2, 'dealer': seat, 'first_discard': '7c'}},
        {'kind': 'draw_stock', 'seat': seat, 'data': {}},
        {'kind': 'draw_discard', 'seat': seat, 'data': {'card': '7c'}},
        {'kind': 'discard', 'seat': seat, 'data': {'card': '12o'}},
        {'kind': 'close', 'seat': seat, 'data': {'score': 3}},
        {'kind': 'close', 'seat': seat, 'data': {'chinchon': True}},
        {'kind': 'buyback', 'seat': seat, 'data': {'accept': True, 'score': 88}},
        {'kind': 'buyback', 'seat': seat, 'data': {'accept': False}},
        {'kind': 'eliminated', 'seat': None, 'data': {'seats': [seat]}},
        {'kind': 'game_over', 'seat': None, 'data': {'winners': [seat]}},
        {'kind': 'reshuffle', 'seat': None, 'data': {'number': 2}},
        {'kind': 'void_hand', 'seat': None, 'data': {'hand': 3}},
    ]
    ronda = [
        {'kind': 'deal', 'seat': seat, 'data': {'loose': ['5c', '7o'], 'stock': 24}},
        {'kind': 'start_run', 'seat': seat, 'data': {'card': '5o', 'loose': '5c'}},
        {'kind': 'take_loose', 'seat': seat, 'data': {'card': '6e'}},
        {'kind': 'take_pile', 'seat': seat, 'data': {'owner': other, 'top': '7b', 'size': 12}},
        {'kind': 'take_pile', 'seat': seat, 'data': {'owner': seat, 'top': '7b', 'size': 12}},
        {'kind': 'confirm', 'seat': seat, 'data': {'top': '5o', 'cards': 15, 'pile_size': 20}},
        {'kind': 'drop', 'seat': seat, 'data': {'card': '3b'}},
        {'kind': 'sweep', 'seat': seat, 'data': {'cards': ['1c'], 'to': seat}},
        {'kind': 'game_over', 'seat': None, 'data': {'winners': [seat]}},
        {'kind': 'redeal', 'seat': None, 'data': {'stock': 12}},
    ]
    meld = {**RUN, 'owner': other}
    continental = [
        {'kind': 'deal', 'seat': seat, 'data': {'hand': 3, 'contract': {'sets': 0, 'runs': 2}}},
        {'kind': 'take_offer', 'seat': seat, 'data': {'card': 'Jd', 'out_of_turn': False}},
        {'kind': 'take_offer', 'seat': seat, 'data': {'card': '7d', 'out_of_turn': True}},
        {'kind': 'pass_offer', 'seat': seat, 'data': {'card': '7d'}},
        {'kind': 'draw_stock', 'seat': seat, 'data': {}},
        {'kind': 'go_down', 'seat': seat, 'data': {'melds': [RUN]}},
        {'kind': 'lay_off', 'seat': seat, 'data': {'card': '9h', 'meld': meld}},
        {'kind': 'lay_off', 'seat': seat, 'data': {'card': '9h', 'meld': {**RUN, 'owner': seat}}},
        {'kind': 'discard', 'seat': seat, 'data': {'card': 'Ks'}},
        {'kind': 'hand_end', 'seat': None, 'data': {'reason': 'out', 'out_seat': seat, 'hand': 3,
                                                     'points': [-20 if s == seat else 30 for s in range(4)]}},
        {'kind': 'hand_end', 'seat': None, 'data': {'reason': 'out', 'out_seat': seat, 'hand': 3,
                                                     'points': [0 if s == seat else 30 for s in range(4)]}},
        {'kind': 'game_over', 'seat': None, 'data': {'winners': [seat]}},
        {'kind': 'reshuffle', 'seat': None, 'data': {'stock_size': 40, 'rebuild': 1}},
        {'kind': 'hand_end', 'seat': None, 'data': {'reason': 'no_draw', 'out_seat': None, 'hand': 4,
                                                     'points': [1, 2, 3, 4]}},
    ]
    return [('chinchon', e) for e in chinchon] + [('ronda', e) for e in ronda] + \
        [('continental', e) for e in continental]


LINES = {'chinchon': lambda e, names: chinchon_line(e, names, 0, FEMININE),
         'ronda': lambda e, names: ronda_line(e, names, 0),
         'continental': lambda e, names: continental_line(e, names, 0)}
# the reader named in the third person, or a verb that does not agree with "you"
THIRD_PERSON = {'es': re.compile(r'\bTú\b'),
                'en': re.compile(r"\bYou(?:'s| (?:closes|deals|discards|takes|draws|passes|keeps|goes|lays|drops"
                                 r"|starts|confirms|buys|does|is))\b")}


@pytest.mark.parametrize('language', ['es', 'en'])
def test_every_line_speaks_to_you_in_the_second_person(language: str) -> None:
    names = NAMES[language]
    with language_scope(language):
        for seat, other in ((0, 1), (1, 0), (2, 1)):   # you act; you are acted on; neither
            for game, event in events(seat, other):
                line = LINES[game](event, names)
                assert line, (game, event)
                assert not THIRD_PERSON[language].search(line), (game, event, line)
                assert '{' not in line, line


@pytest.mark.parametrize('language, expected', [
    ('es', ['Mano 2: repartes. Se destapa el siete de copas.', 'Cierras y te apuntas 3.',
            'Tiras el rey de oros.', 'Lucía tira el rey de oros.', 'Te llevas el seis de espadas.',
            'Lucía suelta el tres de bastos en el centro.', 'Te quedas la jota de diamantes.',
            'Te pasas del tope y quedas fuera.', 'Fin de la partida: ganas tú.',
            'Lucía se lleva tu montón (12 cartas, el siete de bastos encima).',
            'Lucía coloca el nueve de corazones en tu jugada (5♥ 6♥ 7♥ 8♥).',
            'Se acaba el mazo: se baraja el descarte (2.ª vez).',
            'Mano 3: te bajas y te quedas sin cartas en el mismo turno: −20.']),
    ('en', ['Hand 2: you deal. Turned up: the seven of cups.', 'You close and score 3.',
            'You discard the king of coins.', 'Lucía discards the king of coins.', 'You take the six of swords.',
            'Lucía drops the three of clubs in the centre.', 'You keep the jack of diamonds.',
            'You went over the limit: you are out of the game.', 'Game over: you win.',
            'Lucía takes your pile (12 cards, the seven of clubs on top).',
            'Lucía lays the nine of hearts off on your meld (5♥ 6♥ 7♥ 8♥).',
            'The stock ran out: the discard pile is reshuffled (for the 2nd time).',
            'Hand 3: you went down and out in one turn: −20.']),
])
def test_known_lines_about_you(language: str, expected: list[str]) -> None:
    names = NAMES[language]
    with language_scope(language):
        mine = [LINES[game](event, names) for game, event in events(0, 1)]
        theirs = [LINES[game](event, names) for game, event in events(1, 0)]
    for line in expected:
        assert line in mine + theirs, line


def test_spanish_agrees_with_each_name() -> None:
    names = NAMES['es']
    with language_scope('es'):
        assert out_words([1], names, 0, FEMININE, 'log.chinchon.eliminated') == 'Eliminada: Lucía.'
        assert out_words([2], names, 0, FEMININE, 'log.chinchon.eliminated') == 'Eliminado: Mateo.'
        assert out_words([1, 3], names, 0, FEMININE, 'log.chinchon.eliminated') == 'Eliminadas: Lucía, Carmen.'
        assert out_words([1, 2], names, 0, FEMININE, 'log.chinchon.eliminated') == 'Eliminados: Lucía, Mateo.'
        assert out_words([0, 2], names, 0, FEMININE, 'count.eliminated') == 'Te pasas del tope. Se pasa del tope: Mateo.'


def every_line(language: str, events_of=events) -> list[tuple[str, dict, str]]:
    """(game, event, line) of every kind of line, read by each kind of reader."""
    names = NAMES[language]
    with language_scope(language):
        return [(game, event, LINES[game](event, names))
                for seat, other in ((0, 1), (1, 0), (2, 1)) for game, event in events_of(seat, other)]


def ones(seat: int, other: int) -> list[tuple[str, dict]]:
    """The events whose counts can be exactly one: a pile of one card, a stock of one..."""
    return [('ronda', {'kind': 'take_pile', 'seat': seat, 'data': {'owner': other, 'top': '7b', 'size': 1}}),
            ('ronda', {'kind': 'deal', 'seat': seat, 'data': {'loose': ['5c'], 'stock': 1}}),
            ('ronda', {'kind': 'confirm', 'seat': seat, 'data': {'top': '5o', 'cards': 1, 'pile_size': 1}}),
            ('chinchon', {'kind': 'buyback', 'seat': seat, 'data': {'accept': True, 'score': 1}}),
            ('chinchon', {'kind': 'reshuffle', 'seat': None, 'data': {'number': 1}}),
            ('continental', {'kind': 'reshuffle', 'seat': None, 'data': {'stock_size': 1, 'rebuild': 1}})]


def card_names(language: str) -> list[tuple[str, str]]:
    """(bare name, name with its article) of every card of both decks, lower-case."""
    with language_scope(language):
        return [(card_name(card).lower(), the_card(card).lower())
                for card in [*spanish_deck(), *french_deck(), JOKER]]


def occurrences(text: str, phrase: str) -> int:
    return len(re.findall(r'(?<!\w)' + re.escape(phrase) + r'(?!\w)', text))


PLURAL_OF_ONE = re.compile(r'(?<![\d.,])1 (?:cartas|cards|puntos|points|manos|hands|pts)\b')


@pytest.mark.parametrize('language', ['es', 'en'])
def test_every_line_names_its_cards_with_their_article(language: str) -> None:
    """"Tiras la sota de copas", "You discard the jack of cups": never "Tiras sota de copas"."""
    names = card_names(language)
    for game, event, line in every_line(language):
        lowered = line.lower()
        for bare, with_article in names:
            assert occurrences(lowered, bare) == occurrences(lowered, with_article), (game, event, line)


@pytest.mark.parametrize('language', ['es', 'en'])
def test_every_line_is_a_sentence_with_a_capital(language: str) -> None:
    for game, event, line in every_line(language):
        first = line.lstrip('¡¿')[:1]
        assert first.isupper() or first.isdigit(), (game, event, line)
        assert line.endswith(('.', '!', '…')), (game, event, line)


@pytest.mark.parametrize('language', ['es', 'en'])
def test_one_of_a_thing_is_singular(language: str) -> None:
    """"1 carta", "1 card": never "1 cartas" or "1 cards"."""
    for game, event, line in every_line(language) + every_line(language, ones):
        assert not PLURAL_OF_ONE.search(line), (game, event, line)
