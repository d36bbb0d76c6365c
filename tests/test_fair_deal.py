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


def rebuilt_by_snippet(snippet: str, seed: str, pile: list[str], number: int) -> list[str]:
    """The snippet's own ``rebuilt`` (the very text the table shows) for this pile."""
    namespace = {'print': lambda *args: None}
    exec(snippet.replace("seed = '...'", f'seed = {seed!r}'), namespace)
    return namespace['rebuilt'](pile, number)


def stock_rebuilds(game, seats: int, seed: int, keep_playing) -> list[tuple[str, list[str], int, list[str]]]:
    """Play a seeded game, always drawing from the stock and never going out, until the stock has
    been rebuilt twice: (hand seed, discard pile before, rebuild number, the rebuilt stock in the
    order drawn) for every rebuild."""
    rng = random.Random(seed)
    state = game.new_game(game.Rules(), seats, random.Random(seed))
    found = []
    while len(found) < 2:
        seat = state.current_seat
        action = rng.choice([action for action in state.legal_actions(seat) if keep_playing(action)])
        pile = [str(card) for card in state.discard]
        events = state.apply(seat, action)
        rebuild = next((event for event in events if event.kind == 'reshuffle'), None)
        if rebuild is not None:
            raw = state.to_dict()
            seed_now = raw['seed'] if game is chinchon else raw['seeds'][-1]
            drawn = raw['hands'][seat][-1]   # the rebuilt stock's first card went to the player at once
            found.append((seed_now, pile, len(found) + 1, [drawn] + raw['stock'][::-1]))
    return found


@pytest.mark.parametrize('language', ['es', 'en'])
def test_a_chinchon_stock_rebuilt_from_the_discard_pile_follows_from_the_hands_seed(language: str) -> None:
    never_out = lambda action: action.kind in ('draw_stock', 'discard')   # noqa: E731
    for seats, seed in ((2, 1), (4, 2)):
        for hand_seed, pile, number, stock in stock_rebuilds(chinchon, seats, seed, never_out):
            assert rebuilt_by_snippet(CHINCHON[language], hand_seed, pile[:-1], number) == stock


@pytest.mark.parametrize('language', ['es', 'en'])
def test_a_continental_stock_rebuilt_from_the_discard_pile_follows_from_the_hands_seed(language: str) -> None:
    never_out = lambda action: action.kind in ('pass_offer', 'draw_stock', 'discard')   # noqa: E731
    for hand_seed, pile, number, stock in stock_rebuilds(continental, 2, 3, never_out):
        assert rebuilt_by_snippet(CONTINENTAL[language], hand_seed, pile[:-1], number) == stock


@pytest.mark.parametrize('game_id', ['chinchon', 'continental', 'ronda-robada'])
def test_a_tables_hand_seeds_come_from_secrets_not_from_its_game_generator(game_id: str) -> None:
    from app.games import GAMES_BY_ID
    from app.tables.seats import Seat, TableOptions, computer_seats
    from app.tables.services import InlineThinker, MemoryStore, SecretDeals, TableServices
    from app.tables.table import Table

    game = GAMES_BY_ID[game_id]
    options = TableOptions(seats=3, level='easy', speed='instant')
    production = TableServices(MemoryStore(), InlineThinker(), deals=SecretDeals())

    def hand_seed(state) -> str:
        raw = state.to_dict()
        return raw['seeds'][-1] if 'seeds' in raw else raw['seed']

    tables = [Table(f'{game_id[:8]:x<15}{n}', game, options, computer_seats(options, [Seat('person')]),
                    services=production, seed=5) for n in range(2)]
    # the game's generator would give this seed (and the next ones, and after ~156 it can be predicted)
    from_the_generator = hand_seed(game.engine_module.new_game(game.make_rules(), 3, random.Random(5)))
    seeds = [hand_seed(table.state) for table in tables]
    assert from_the_generator not in seeds and seeds[0] != seeds[1]
    assert all(len(seed) == 32 and int(seed, 16) >= 0 for seed in seeds)


@pytest.mark.parametrize('game_id', ['chinchon', 'continental'])
def test_a_table_restored_from_the_database_deals_its_next_hands_from_secrets(game_id: str) -> None:
    """A saved game comes back (a server restart) mid-hand: its next hand's seed still comes from
    the table's secret source, not from the game's generator that was saved with it."""
    import json

    from app.games import GAMES_BY_ID
    from app.tables.seats import Seat, TableOptions, computer_seats
    from app.tables.services import InlineThinker, MemoryStore, SecretDeals, TableServices
    from app.tables.table import Table
    from app.tables.worker import computer_choice

    class AfterTheRestart(SecretDeals):   # what the secret source gives from now on
        def hand_seed(self) -> str:
            return 'ab' * 16

    game = GAMES_BY_ID[game_id]
    options = TableOptions(seats=2, level='easy', speed='instant')
    table = Table(f'{game_id[:8]:x<15}r', game, options, computer_seats(options, [Seat('person')]),
                  services=TableServices(MemoryStore(), InlineThinker(), deals=SecretDeals()), seed=8)
    first = table.state.to_dict()['hand_number']
    restored = Table.from_saved(table.id, game_id, options.to_dict(), [seat.to_dict() for seat in table.seats],
                                json.loads(json.dumps(table.to_dict())), table.version,
                                services=TableServices(MemoryStore(), InlineThinker(), deals=AfterTheRestart()))
    state = restored.state
    for step in range(3000):
        if state.to_dict()['hand_number'] != first:
            break
        seat = state.current_seat
        state.apply(seat, computer_choice(game_id, 'normal', f'{step}', state.view(seat)))
    raw = state.to_dict()
    assert raw['hand_number'] == first + 1
    assert (raw['seeds'][-1] if 'seeds' in raw else raw['seed']) == 'ab' * 16
