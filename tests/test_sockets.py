"""The socket layer's parts on their own (app/sockets.py); the attacks on a real server are in
tests/e2e/test_socket_guard.py. The budget runs on a clock the test moves."""
from __future__ import annotations

import pytest
from nicegui import core
from nicegui.testing import User

from app import sockets
from app.sockets import EventBudget, SidlessPollRefusal


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_a_socket_has_a_burst_and_then_a_few_events_a_second() -> None:
    clock = Clock()
    budget = EventBudget(burst=60, per_second=20, clock=clock)
    assert [budget.take() for _ in range(61)] == [True] * 60 + [False]   # a burst of 60, not one more
    clock.now = 0.5                                                      # half a second: ten more
    assert [budget.take() for _ in range(11)] == [True] * 10 + [False]
    clock.now = 3600                                                     # a long pause refills the burst only
    assert sum(budget.take() for _ in range(100)) == 60


async def test_every_page_event_is_guarded_once_after_a_start(user: User) -> None:
    """NiceGUI registered its handlers; the site's start wrapped each one once (main.py runs again
    for every test). A NiceGUI that stopped registering them, or a python-socketio that stopped
    keeping them in ``handlers``, fails here and at the start."""
    await user.open('/')
    handlers = core.sio.handlers['/']
    for name in (*sockets.PAGE_EVENTS, 'connect', 'disconnect'):
        inner = getattr(handlers[name], 'guarded', None)
        assert inner is not None and not hasattr(inner, 'guarded'), name
        assert inner.__module__ == 'nicegui.nicegui', name


class Spy:
    def __init__(self) -> None:
        self.called = False

    async def __call__(self, scope, receive, send) -> None:
        self.called = True


async def answer(query: bytes, path: str = '/_nicegui_ws/socket.io/') -> tuple[int | None, bool]:
    """The status the middleware sends for a polling POST, and whether it was passed on."""
    inner, sent = Spy(), []

    async def receive():   # the body: never to be read for a refused POST
        pytest.fail('the body was read')

    async def send(message) -> None:
        sent.append(message)

    scope = {'type': 'http', 'method': 'POST', 'path': path, 'query_string': query, 'headers': []}
    await SidlessPollRefusal(inner)(scope, receive, send)
    return (sent[0]['status'] if sent else None), inner.called


async def test_a_polling_post_without_its_session_is_refused_before_its_body() -> None:
    assert await answer(b'EIO=4&transport=polling') == (400, False)
    assert await answer(b'EIO=4&transport=polling&sid=') == (400, False)
    assert await answer(b'EIO=4&transport=polling&sid=abc') == (None, True)   # engine.io's to judge
    assert await answer(b'', path='/login') == (None, True)                    # any other POST
