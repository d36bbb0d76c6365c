"""One seat per person at public tables (issue 51), as the database keeps it, on SQLite and on
PostgreSQL: a browser and an account hold one seat at an open public table of any game, and any
further quick match, Join or public room sends them back to it, even when two tabs race past the
check; a table that ends frees its people; one address holds at most its bound of waiting seats,
its IPv6 /64 counting as one."""
from __future__ import annotations

from datetime import timedelta

import pytest
from sqlmodel import select, update

from app import limits
from app.engine.protocol import IllegalAction
from app.games import GAMES_BY_ID
from app.lobby import matching
from app.lobby.matching import AlreadySeated, Person, join, open_seat, quick_match
from app.tables import registry
from app.tables.room import Room
from app.tables.seats import Seat, TableOptions
from models.db import session_scope
from models.tables import GameTable, SeatClaim, create_user, public_table, utcnow

pytestmark = pytest.mark.usefixtures('database')

CHINCHON, CONTINENTAL = GAMES_BY_ID['chinchon'], GAMES_BY_ID['continental']


def account(name: str) -> int:
    with session_scope() as session:
        return create_user(session=session, username=name, display_name=name, password_hash='x', language=None).id


def wall() -> float:
    return registry.services().clock.wall()


def claims() -> list[tuple[str, int, str | None, int | None]]:
    with session_scope() as session:
        return sorted((claim.table_id, claim.seat, claim.guest, claim.user_id) for claim in session.exec(select(SeatClaim)))


def seated_back(ask) -> str:
    """What a request for another seat did: it sent the person back to theirs (its table id)."""
    with pytest.raises(AlreadySeated) as sent:
        ask()
    return sent.value.table_id


def public_room(creator: Person, seats: int = 4) -> str:
    table = registry.new_table(CHINCHON, TableOptions(seats=seats, level='hard', hints=False),
                               [Seat('person', name=creator.name, guest=creator.guest, user_id=creator.user_id)]
                               + [Seat('person') for _ in range(seats - 1)], room=Room.new(30, public=True))
    return matching.open_public(table, creator).id


def test_a_guest_browser_holds_one_seat_across_games_and_ways_of_asking() -> None:
    ana = Person('ana-browser-token', None, 'Ana')
    mine = quick_match(CHINCHON, 2, ana, wall=wall())
    assert seated_back(lambda: quick_match(CHINCHON, 2, ana, wall=wall())) == mine        # the same again
    assert seated_back(lambda: quick_match(CONTINENTAL, 3, ana, wall=wall())) == mine     # another game
    other = public_room(Person('luis-browser-token', None, 'Luis'))
    assert seated_back(lambda: join(other, ana)) == mine                                   # the lobby's Join
    assert seated_back(lambda: public_room(ana)) == mine                                   # a public room of hers
    assert open_seat('ana-browser-token', None) == (mine, 'chinchon')
    assert [(table_id, guest) for table_id, _, guest, _ in claims()] == sorted([(mine, 'ana-browser-token'),
                                                                               (other, 'luis-browser-token')])


def test_an_account_holds_one_seat_from_every_browser_also_once_its_game_is_being_played() -> None:
    ana_id, luis_id = account('Ana'), account('Luis')
    ana_here, ana_phone = Person('ana-laptop', ana_id, 'Ana'), Person('ana-phone', ana_id, 'Ana')
    mine = quick_match(CHINCHON, 2, ana_here, wall=wall())
    assert quick_match(CHINCHON, 2, Person('luis-laptop', luis_id, 'Luis'), wall=wall()) == mine
    table = registry.open_table(mine)
    for seat in (0, 1):   # both pages are there: the game starts
        table.public.screen(seat, f'screen {seat}', True)
    assert table.public.start() and not table.waiting
    # she closed the page: the game goes on with a computer for her; asking again leads back to it
    assert seated_back(lambda: quick_match(CHINCHON, 2, ana_here, wall=wall())) == mine
    assert seated_back(lambda: quick_match(CONTINENTAL, 2, ana_phone, wall=wall())) == mine
    assert open_seat('a browser that never sat', ana_id) == (mine, 'chinchon')
    assert len([claim for claim in claims() if claim[3] == ana_id]) == 1
    # Eva signs in on Ana's laptop: another person, who is not sent to Ana's seat
    eva = quick_match(CHINCHON, 2, Person('ana-laptop', account('Eva'), 'Eva'), wall=wall())
    assert eva != mine and open_seat('ana-laptop', None) is None


def test_two_tabs_that_race_past_the_check_still_give_one_seat(monkeypatch: pytest.MonkeyPatch) -> None:
    ana = Person('ana-browser-token', None, 'Ana')
    mine = quick_match(CHINCHON, 2, ana, wall=wall())
    # the second tab's transaction looked before the first one's claim was committed: it saw no seat
    usual, looks = matching.seat_of_person, []

    def first_look_sees_nothing(**where):
        looks.append(where)
        return None if len(looks) == 1 else usual(**where)
    monkeypatch.setattr(matching, 'seat_of_person', first_look_sees_nothing)
    assert seated_back(lambda: quick_match(CONTINENTAL, 2, ana, wall=wall())) == mine
    assert [claim[0] for claim in claims()] == [mine]   # the database refused the second seat


def test_a_table_that_ends_frees_its_people() -> None:
    ana = Person('ana-browser-token', None, 'Ana')
    first = quick_match(CHINCHON, 2, ana, wall=wall())
    table = registry.open_table(first)
    table.public.screen(0, 'screen', True)
    table.public.start()                 # with a computer
    table.public.closed = True           # ...and over (the listing says so, as at a game's end)
    table.public.changed()
    assert claims() == [] and open_seat('ana-browser-token', None) is None
    assert quick_match(CHINCHON, 2, ana, wall=wall()) != first


def test_a_table_closed_as_abandoned_frees_its_people_and_so_does_one_whose_end_was_never_listed() -> None:
    ana, luis = Person('ana-browser-token', None, 'Ana'), Person('luis-browser-token', None, 'Luis')
    first = quick_match(CHINCHON, 2, ana, wall=wall())
    registry.abandon(registry.open_table(first))   # closed by the tidying, say
    with session_scope() as session:
        assert public_table(session=session, table_id=first).stage == 'over'
    assert quick_match(CHINCHON, 2, ana, wall=wall()) != first
    # a game that ended while its line in the lobby could not be written: its seat is no one's
    other = quick_match(CONTINENTAL, 2, luis, wall=wall())
    started = registry.open_table(other)
    started.public.screen(0, 'screen', True)
    assert started.public.start()
    with session_scope() as session:
        session.exec(update(GameTable).where(GameTable.id == other).values(status='over'))
    assert open_seat('luis-browser-token', None) is None
    assert quick_match(CONTINENTAL, 2, luis, wall=wall()) != other


def test_a_public_game_no_process_holds_any_more_ends_as_abandoned_at_the_tidying() -> None:
    ana = Person('ana-browser-token', None, 'Ana')
    table_id = quick_match(CHINCHON, 2, ana, wall=wall())
    table = registry.open_table(table_id)
    table.public.screen(0, 'screen', True)
    assert table.public.start()
    table.flush()
    registry.lose(table_id)   # the process that held it is gone (a restart), and nobody came back
    assert registry.end_stale_public() == 0   # saved moments ago: it may be played elsewhere
    with session_scope() as session:
        session.exec(update(GameTable).where(GameTable.id == table_id)
                     .values(updated_at=utcnow() - registry.STALE_PUBLIC - timedelta(minutes=1)))
    assert registry.end_stale_public() == 1
    with session_scope() as session:
        assert public_table(session=session, table_id=table_id).stage == 'over'
        assert session.get(GameTable, table_id).status == 'abandoned'
    assert open_seat('ana-browser-token', None) is None


def test_one_address_holds_at_most_its_bound_of_waiting_seats() -> None:
    home = limits.address_key('2001:db8:5:7::10')
    assert limits.WAITING_SEATS_PER_ADDRESS == 3
    family = [Person(f'browser {n}', None, f'Niño {n}', home) for n in range(4)]
    tables = [public_room(family[0], seats=6)]
    tables += [join(tables[0], person) for person in family[1:3]]   # three of the family wait together
    with pytest.raises(IllegalAction) as refused:
        join(tables[0], Person('fresh cookies', None, 'Fantasma', limits.address_key('2001:db8:5:7::99')))
    assert refused.value.code == 'too_many_waiting_seats' and refused.value.params == {'most': 3}
    with pytest.raises(IllegalAction):
        quick_match(CONTINENTAL, 2, family[3], wall=wall())
    assert join(tables[0], Person('next door', None, 'Vecina', limits.address_key('2001:db8:5:8::1'))) == tables[0]
    table = registry.open_table(tables[0])
    for seat, person in enumerate(family[:3] + [None]):
        if person is not None:   # their pages come to the table, and connect
            matching.seat_here(table, person.guest, None)
        table.public.screen(seat, f'screen {seat}', True)
    assert table.public.start()   # their game is on: their seats wait no more, and another may wait
    assert quick_match(CONTINENTAL, 2, family[3], wall=wall())
