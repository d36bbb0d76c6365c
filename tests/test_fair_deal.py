"""The fair-deal promise: the snippet shown to players rebuilds the deal from the revealed seed,
and the fingerprint shown during the hand is that seed's SHA-256."""
import hashlib
import random

from app.engine import chinchon
from app.engine.cards import commitment
from components.chinchon.count import VERIFY_SNIPPET


def run_snippet(seed: str, copies: int) -> tuple[str, list[str]]:
    code = VERIFY_SNIPPET.replace("seed = '...'", f'seed = {seed!r}')
    if copies == 2:
        code = code.replace('# with 5 or 6 players: deck = deck * 2', 'deck = deck * 2')
    printed: list[str] = []
    namespace = {'print': printed.append}
    exec(code, namespace)   # the very text the table shows
    return printed[0], namespace['deck']


def expected_deal(deck: list[str], dealer: int, seats: int) -> tuple[list[list[str]], str, list[str]]:
    """What the snippet's comment says: one at a time from the seat after the dealer, 7 each, then
    the first discard, then the stock from its top."""
    order = [(dealer + step) % seats for step in range(1, seats + 1)]
    hands = [[] for _ in range(seats)]
    for k in range(7 * seats):
        hands[order[k % seats]].append(deck[k])
    return hands, deck[7 * seats], deck[7 * seats + 1:]


def test_the_snippet_rebuilds_every_deal():
    for seats in (2, 4, 6):
        for game_seed in range(5):
            state = chinchon.new_game(chinchon.Rules(), seats, random.Random(game_seed))
            raw = state.to_dict()
            fingerprint, deck = run_snippet(raw['seed'], 2 if seats >= 5 else 1)
            assert fingerprint == commitment(raw['seed']) == hashlib.sha256(raw['seed'].encode()).hexdigest()
            hands, first_discard, stock_top_first = expected_deal(deck, raw['dealer'], seats)
            assert raw['hands'] == hands
            assert raw['discard'] == [first_discard]
            assert raw['stock'][::-1] == stock_top_first   # the engine keeps the top last
