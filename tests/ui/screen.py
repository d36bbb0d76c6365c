"""What a test reads and clicks on a table screen, through NiceGUI's simulated user: the one element
of a marker, the markup drawn in it, the hand, the board's clicks; opening a table made by
table_positions; and making and joining a room with friends."""
from __future__ import annotations

import re

from nicegui import ui
from nicegui.testing import User

from components.table.room_form import PERSON
from seams import sees, until
from table_positions import seat_user, stored_table


def one(user: User, marker: str) -> ui.element:
    """The one element with this marker (fails if there are none or several)."""
    elements = list(user.find(marker=marker).elements)
    assert len(elements) == 1, f'{len(elements)} elements marked {marker!r}'
    return elements[0]


def drawing(user: User, marker: str) -> str:
    """The markup of a block drawn as one piece (hand, seats): its first ui.html, itself or inside it."""
    element = one(user, marker)
    return next(piece for piece in (element, *element.descendants()) if isinstance(piece, ui.html)).content


def html_of(user: User, marker: str) -> str:
    """Every piece of markup inside the one element with this marker, joined (a whole screen, not one block)."""
    element = one(user, marker)
    return ''.join(piece.content for piece in (element, *element.descendants()) if isinstance(piece, ui.html))


def phase(user: User) -> str:
    """The phase the table screen says it is in (its data-phase)."""
    return one(user, 'table').props['data-phase']


def hand_codes(user: User) -> list[str]:
    """The codes of the cards of your hand, in the order they are shown."""
    return re.findall(r'data-testid="hand-card" data-card="(\w+)"', drawing(user, 'hand'))


def pick(user: User, code: str) -> None:
    """Click a card of the hand (the browser reports the slot's index)."""
    user.find(marker='hand').trigger('click', hand_codes(user).index(code))


def choose(user: User, marker: str, choice: str) -> None:
    """A click on the board as the browser reports it: the choice, and no screen version (the
    screen's own is used)."""
    user.find(marker=marker).trigger('click', [choice, None])


def click(user: User, marker: str) -> None:
    """A click on a board button as the browser reports it: no argument."""
    user.find(marker=marker).trigger('click', None)


def disabled(user: User, marker: str) -> bool:
    """Whether the one element with this marker is disabled."""
    return one(user, marker).props.get('disabled') is True


def saved(table) -> dict:
    """The table's state as saved in the database."""
    return stored_table(table.id)['state']


async def open_position(user: User, table) -> None:
    """Open this browser's screen of a table made by table_positions (seated at seat 0)."""
    await user.open('/')
    await user.open(seat_user(table))


async def make_room(user: User, *, seats: int = 3, name: str = 'Ana', clock: str | None = None,
                    game: str = 'chinchon', people: int = 2) -> tuple[str, str]:
    """Ana makes a room, of Chinchón unless told (seat 2 for a person, or the first ``people``
    seats, the rest computers); returns (table id, invite link)."""
    await user.open(f'/play/{game}')
    user.find(marker='opt-seats').elements.pop().value = seats
    user.find(marker='opt-speed').elements.pop().value = 'instant'
    user.find(marker='friends').click()
    user.find(marker='room-name').type(name)
    for seat in range(3, people + 1):   # seat 2 is a person's already
        user.find(marker=f'room-seat-kind-{seat - 1}').elements.pop().value = PERSON
    if clock is not None:
        user.find(marker='room-clock').elements.pop().value = clock
    user.find(marker='start').click()   # the new room's page opens in a task of its own, however long it takes
    await sees(user, marker='invite-link', clock_moves=False)
    link = one(user, 'invite-link').text
    table_id = re.search(r'/room/([^/]+)/', link).group(1)
    return table_id, link


async def join(other: User, link: str, name: str) -> None:
    """Another browser joins a room through its invite link under this name, and waits in it."""
    await other.open(link[link.index('/room/'):])
    other.find(marker='join-name').type(name)
    other.find(marker='join').click()   # the room's page opens in a task of its own, however long it takes
    await sees(other, marker='waiting-room', clock_moves=False)


def coach_marks(user: User) -> dict[int, str]:
    """The coach's mark on each move of the list: its index and label."""
    return {int(index): label for index, label in re.findall(
        r'data-index="(\d+)"[^>]*>\s*<span class="hod-coach-mark" data-testid="coach-mark" data-label="(\w*)"',
        html_of(user, 'replay-steps'))}


def coach_summary(user: User) -> dict[str, str]:
    """The coach's summary of the hand once it is done (its data attributes and words), else {}."""
    found = re.search(r'data-testid="coach-summary"([^>]*)>([^<]*)<', html_of(user, 'coach'))
    return {} if found is None else dict(re.findall(r'data-(\w+)="([^"]*)"', found[1]), words=found[2])


async def started_room(user: User, create_user, clock: str | None = None, *, seats: int = 2):
    """Ana's room, joined by Luis (its other seats computers) and started: (the table, Luis, the invite link)."""
    from app.tables.registry import open_table

    table_id, link = await make_room(user, seats=seats, clock=clock)
    luis = create_user()
    await join(luis, link, 'Luis')
    table = open_table(table_id)
    user.find(marker='start-room').click()
    await until(lambda: not table.waiting, clock_moves=False)
    await sees(luis, marker='table', clock_moves=False)
    return table, luis, link
