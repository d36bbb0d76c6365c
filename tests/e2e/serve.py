"""The real server for the browser tests: `python main.py` as it is, but dealing from a known
seed, so a browser test starts from a known deal instead of a secret one. A test launcher, not a
production flag: the site itself always deals from ``secrets``, and the route below exists only
in this process.

Before each test, the browser tests' conftest posts the test's own name to ``/test-deals``: the
tables that test makes deal from it, whichever tests ran before.

With ``HOD_TEST_WALL`` (an ISO time, UTC) the tables' wall clock starts there and runs on, and
``/test-day`` moves it whole days on: a daily deal's day ends when the test says, never at a real
midnight in the middle of a run. ``HOD_TEST_DAILY_SPEED`` sets the daily tables' pace (``instant``:
a whole daily game in seconds).

``/test-table`` deals a table for the browser that opens it, with easy computers at instant speed,
and goes to it: Continental from a given hand (``hand=7``: its longest hands), and with
``/test-autoplay`` a computer then plays your seat too (as it stands in for a person away from a
room), so a test watches your screen through as many turns as it likes without playing them (or, with
``/test-autoplay-away``, none of them); ``position=`` starts instead from one of the big moments below.

With ``HOD_TEST_THINK=inline`` the computers (and the coach) think in the server's own process,
as the in-process tests' tables do, instead of in NiceGUI's process pool: the same moves, without
two worker processes that each import the whole site at the first move (about 2 CPU-s each, for
a server that a test module starts for a few games). The browser tests' shared server keeps the
pool, as the site runs."""
import os
import runpy
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from app.tables import registry  # noqa: E402
from app.tables.services import SeededDeals  # noqa: E402

DEALS_ROUTE = '/test-deals'

if __name__ == '__main__':   # the process pool's workers import this file too: they only think
    from nicegui import app, ui

    registry.configure(deals=SeededDeals(os.environ.get('HOD_TEST_DEALS', 'browser tests')))
    from app import accounts   # the in-process tests' cheap argon2 settings: 0.17 CPU-s less a sign-up or sign-in

    accounts.PASSWORDS = accounts.password_context(rounds=1, memory_cost=1024)
    if os.environ.get('HOD_TEST_THINK') == 'inline':
        from app.tables.services import InlineThinker

        registry.configure(thinker=InlineThinker())
    if os.environ.get('HOD_TEST_WALL'):
        from datetime import datetime

        from app.tables.services import RealClock

        class PinnedClock(RealClock):
            """Real time, on a wall clock that starts at HOD_TEST_WALL and moves days on when told."""

            def __init__(self, start: float) -> None:
                self.start, self.began, self.shift = start, super().now(), 0.0

            def wall(self) -> float:
                return self.start + (super().now() - self.began) + self.shift

        PINNED = PinnedClock(datetime.fromisoformat(os.environ['HOD_TEST_WALL'] + '+00:00').timestamp())
        registry.configure(clock=PINNED)

        @app.post('/test-day')
        def next_day(days: int = 1) -> dict[str, float]:
            PINNED.shift += days * 86400.0
            return {'wall': PINNED.wall()}
    if os.environ.get('HOD_TEST_DAILY_SPEED'):
        from dataclasses import replace

        from app.daily import tries as daily_tries

        usual_options = daily_tries.daily_options
        daily_tries.daily_options = lambda game, day, **kinds: replace(usual_options(game, day, **kinds),
                                                                       speed=os.environ['HOD_TEST_DAILY_SPEED'])
    if os.environ.get('HOD_TEST_PUBLIC_CLOCK'):   # public tables' turn clock, short enough to watch run out
        from app.lobby import matching
        from app.tables import room as room_module

        room_module.CLOCKS = (*room_module.CLOCKS, int(os.environ['HOD_TEST_PUBLIC_CLOCK']))
        matching.PUBLIC_CLOCK = int(os.environ['HOD_TEST_PUBLIC_CLOCK'])
    if os.environ.get('HOD_TEST_QUICK_SPEED'):
        from dataclasses import replace

        from app.lobby import matching

        usual_quick = matching.quick_options
        matching.quick_options = lambda game, seats: replace(usual_quick(game, seats),
                                                             speed=os.environ['HOD_TEST_QUICK_SPEED'])

    @app.post('/test-quick-wait')
    def quick_wait(seconds: float) -> dict[str, float]:
        """How long the next quick matches wait for people (app.lobby.quick_wait reads it each time)."""
        os.environ['HOD_QUICK_WAIT'] = str(seconds)
        return {'seconds': seconds}

    @app.post('/test-public-clock')
    def public_clock(seconds: int) -> dict[str, int]:
        """The turn clock of the next quick matches (a room may choose it too): one server for tests
        that watch a short clock run out and tests whose clock must not."""
        from app.lobby import matching
        from app.tables import room as room_module

        room_module.CLOCKS = (*room_module.CLOCKS, seconds) if seconds not in room_module.CLOCKS else room_module.CLOCKS
        matching.PUBLIC_CLOCK = seconds
        return {'seconds': seconds}

    @ui.page('/test-sign-up')
    def test_sign_up(name: str) -> None:
        """A new account of this name, signed in in this browser as the register page signs it in
        (a ticket, then /session/start), without the form and its recovery codes: for tests that
        need signed-in people, not the making of their accounts (the account tests make those)."""
        from app import accounts, visitor

        account = accounts.register(username=name, password='correct horse battery',
                                    confirmation='correct horse battery', language='es')
        visitor.start_session(account, accounts.sign_in_ticket(account, visitor.client_of_this_browser()), '/')

    @app.post('/test-play-out')
    async def play_out(table_id: str, moves: int = 0) -> dict[str, int]:
        """The people at the table make ``moves`` decisions (0: to the game's end), each the easy
        computer's choice for their seat, as if they clicked it; they go on after every count."""
        return {'moves': await people_play(table_id, moves, to_count=False)}

    @app.post('/test-play-to-count')
    async def play_to_count(table_id: str) -> dict[str, int]:
        """As /test-play-out, but only up to the hand's count (or the game's end), where they stop and wait."""
        return {'moves': await people_play(table_id, 0, to_count=True)}

    async def people_play(table_id: str, moves: int, to_count: bool) -> int:
        from app.tables.registry import open_table

        table, made = open_table(table_id), 0
        while not table.is_over() and (moves == 0 or made < moves):
            await table.settle()
            if table.is_over() or (to_count and table.pause is not None):
                break
            if table.pause is not None:
                for seat in table.person_seats():
                    if table.pause is not None:
                        table.resume_after_count(seat, table.version)
                continue
            seat = table.state.current_seat
            if not table.seats[seat].is_person or table.presence.stands_in(seat):
                continue
            action = await table.thinker.think(table.game.id, 'easy', f'test:{made}', table.view(seat))
            with table.telling_later():
                table.act(seat, action, table.version)
            made += 1
        return made

    sys.path.insert(0, str(ROOT / 'tests' / 'ui'))
    from table_positions import chinchon_position, continental_position, ronda_position, seat_user

    # big moments a browser test starts from (``/test-table?position=...``)
    POSITIONS = {
        # Lucía starts a run of fives whose six is the top of your pile of 11
        'steal': lambda: ronda_position(hands=['4o 11b 4c', '5c 7b 2e'], loose='5e 3b', piles=['6o', '1b'],
                                        pile_sizes=[11, 3], current=1, last_runner=0, speed='fast'),
        # Lucía draws from an empty stock that has been rebuilt once already: its last rebuild
        'last-rebuild': lambda: chinchon_position(seats=2, stock_size=0, reshuffles=1, current=1, speed='fast'),
        # Lucía draws the two of cups and closes with every card joined: her banner and the count at once
        'close': lambda: chinchon_position(hands={1: '1o 2o 3o 4o 7c 7e 7b', 0: '12e 12b 11e 10b 6c 6e 5b'},
                                           stock_top='2c', current=1, dealer=0, speed='fast'),
        # Continental's last hand, your three runs down and one card left to discard: the game ends
        # at your next move (an end screen after one move instead of a whole hand)
        'last-discard': lambda: continental_position(
            hands=['9c', '2c 2d 7s 8h 9d Jc Qd Kh 5c 7c 8c 10d', '2h 4c Ac Ad Kc Ks Qs Jd 10c 10s 8d 7d'],
            hand_number=7, phase='play', melds=[(0, '3s 4s 5s 6s'), (0, '3h 4h 5h 6h'), (0, '3d 4d 5d 6d')],
            speed='instant'),
        # a hand just dealt, your turn at its draw: four seats at fast speed, and two at slow
        'your-draw-4': lambda: chinchon_position(seats=4, current=0, speed='fast'),
        'your-draw-slow': lambda: chinchon_position(seats=2, current=0, speed='slow'),
    }

    @app.post(DEALS_ROUTE)
    def deal_from(seed: str) -> dict[str, str]:
        registry.configure(deals=SeededDeals(seed))
        return {'seed': seed}

    @ui.page('/test-table')
    def test_table(game: str = '', seats: int = 2, hand: int = 1, position: str = '') -> None:
        if position:
            ui.navigate.to(seat_user(POSITIONS[position]()))
            return
        from app.engine import continental
        from app.games import GAMES_BY_ID
        from app.pages.tables import table_path
        from app.visitor import TABLES_KEY, guest_token
        from app.tables.registry import add_table, new_table, services
        from app.tables.seats import Seat, TableOptions, computer_seats

        info = GAMES_BY_ID[game]
        options = TableOptions(seats=seats, level='easy', speed='instant', hints=True)
        people = computer_seats(options, [Seat('person', guest=guest_token())])
        state = None
        if hand > 1:   # Continental's later hands, their contract's cards dealt to every seat
            state = continental.from_position(info.make_rules(options.rules), hands={}, seats=seats,
                                              hand_number=hand, phase='offer', seed=hand,
                                              hand_seeds=services().deals.hand_seed)
        table = add_table(new_table(info, options, people, state=state, seed=hand))
        app.storage.user[TABLES_KEY] = {game: table.id}
        ui.navigate.to(table_path(table.id))

    @app.post('/test-autoplay')
    async def autoplay(table_id: str, through: bool = False) -> dict[str, str]:
        """Called once your screen is open (opening it would bring you back from being away); on the
        event loop, where the computers play. ``through``: you also go on after every count, to the
        game's end, as soon as the computers have nothing left to do."""
        from nicegui import background_tasks

        from app.tables.registry import open_table

        table = open_table(table_id)
        table.presence.stand_in(0, 'away')
        if through:
            background_tasks.create(play_through(table), name=f'play {table_id} through')
        return {'table': table_id}

    @app.post('/test-autoplay-away')
    async def autoplay_away(table_id: str) -> dict[str, str]:
        """``/test-autoplay?through=true``, answered once the game is over, with your seat held
        meanwhile by a screen of the test's own that draws nothing: the browser's page may leave
        the table first (a whole game played out costs the browser nothing) and open it again at
        the end. The same moves as ``/test-autoplay``: the same computer stands in from the same turn."""
        from app.tables.registry import open_table

        table = open_table(table_id)
        stop_watching = table.subscribe(0, lambda *_: None)
        try:
            table.presence.stand_in(0, 'away')
            await play_through(table)
        finally:
            stop_watching()
        return {'table': table_id}

    @app.post('/test-come-back')
    def come_back(table_id: str) -> dict[str, str]:
        """You are back at the table as if a screen of it opened again (``/test-autoplay`` undone):
        it waits for you at your turn."""
        from app.tables.registry import open_table

        open_table(table_id).presence.arrived(0)
        return {'table': table_id}

    async def play_through(table) -> None:
        while not table.is_over():
            await table.settle()
            if table.pause is not None:
                table.go_on_from_count()

    from live_demo import REMOUNT_ROUTE, remount_demo   # the live channel's re-mount, on a page of its own

    ui.page(REMOUNT_ROUTE)(remount_demo)

    runpy.run_path(str(ROOT / 'main.py'), run_name='__main__')
