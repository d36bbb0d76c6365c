"""The fair-deal promise: the snippet shown to players (in either language) rebuilds the deal from
the revealed seed, as its comments describe it, and the fingerprint shown during the hand is that
seed's SHA-256."""
import hashlib
import random

import pytest

from app.engine import chinchon, continental, ronda_robada
from app.engine.cards import commitment
from components.chinchon.count import VERIFY_SNIPPET as CHINCHON
from components.continental.count import VERIFY_SNIPPET as CONTINENTAL
from components.ronda_robada.count import VERIFY_SNIPPET as RONDA

TWO_DECKS = {'en': '# with 5 or 6 players: deck = deck * 2', 'es': '# con 5 o 6 jugadores: deck = deck * 2'}


def run_snippet(snippet: str, seed: str, uncomment: str | None = None) -> tuple[str, list[str]]:
    code = snippet.replace("seed = '...'", f'seed = {seed!r}')
    if uncomment:
        assert uncomment in code
        code = code.replace(uncomment, uncomment.split(': ', 1)[1])
    printed: list[str] = []
    namespace = {'print': printed.append}
    exec(code, namespace)   # the very text the table shows
    assert printed[0] == commitment(seed) == hashlib.sha256(seed.encode()).hexdigest()
    return printed[0], namespace['deck']


def round_the_table(deck: list[str], dealer: int, seats: int, each: int) -> list[list[str]]:
    """One at a time from the seat after the dealer, ``each`` cards to every seat."""
    hands = [[] for _ in range(seats)]
    for k in range(each * seats):
        hands[(dealer + 1 + k) % seats].append(deck[k])
    return hands


@pytest.mark.parametrize('language', ['es', 'en'])
def test_the_chinchon_snippet_rebuilds_every_deal(language: str) -> None:
    for seats in (2, 4, 6):
        for game_seed in range(5):
            raw = chinchon.new_game(chinchon.Rules(), seats, random.Random(game_seed)).to_dict()
            _, deck = run_snippet(CHINCHON[language], raw['seed'], TWO_DECKS[language] if seats >= 5 else None)
            assert raw['hands'] == round_the_table(deck, raw['dealer'], seats, 7)
            assert raw['discard'] == [deck[7 * seats]]
            assert raw['stock'][::-1] == deck[7 * seats + 1:]   # the engine keeps the top last


@pytest.mark.parametrize('language', ['es', 'en'])
def test_the_ronda_robada_snippet_rebuilds_the_deal(language: str) -> None:
    for seats in (2, 3, 4):
        state = ronda_robada.new_game(ronda_robada.Rules(), seats, random.Random(seats))
        raw = state.to_dict()
        _, deck = run_snippet(RONDA[language], raw['seed'])
        assert raw['loose'] == deck[:4]
        assert raw['hands'] == round_the_table(deck[4:], raw['dealer'], seats, 3)
        assert raw['stock'] == deck[4 + 3 * seats:]


@pytest.mark.parametrize('language', ['es', 'en'])
def test_the_continental_snippet_rebuilds_every_hand(language: str) -> None:
    state = continental.new_game(continental.Rules(), 3, random.Random(4))
    raw = state.to_dict()
    _, deck = run_snippet(CONTINENTAL[language], raw['seeds'][-1])
    assert raw['hands'] == round_the_table(deck, raw['dealer'], 3, 6)
    assert raw['discard'] == [deck[18]]
    assert raw['stock'][::-1] == deck[19:]
