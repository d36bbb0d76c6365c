"""A page for the live channel's browser test (test_live_channel_browser.py), served by the browser
tests' server (serve.py, at ``/test-remount``) instead of a NiceGUI process of its own: a part
drawn through a Live channel, and a button that moves it to another container, so that NiceGUI
re-mounts it from its own copy, which still holds the first values. The table never moves its
parts, but NiceGUI may re-mount an element from its own, older copy of it."""
from __future__ import annotations

from nicegui import ui

from components.live import Live, Pieces

REMOUNT_ROUTE = '/test-remount'


def listing(letters: str) -> Pieces:
    """The letters drawn as pieces: a changed one arrives, the others stay the nodes they were."""
    return Pieces(f'<div data-n="{len(letters)}">', tuple(f'<i title="{letter * 30}">{letter}</i>' for letter in letters))


def remount_demo() -> None:
    live = Live()
    with ui.row():
        box = ui.element('div').props('data-testid=box')
        with box:
            text = ui.html('', sanitize=False).props('data-testid=text')
            items = ui.html('', sanitize=False).props('data-testid=items')
    second = ui.row()

    def paint(state: str, letters: str) -> None:
        live.attrs(box, {'data-state': state})
        live.html(text, state)
        live.html(items, listing(letters))
        live.send()

    paint('old', 'abcdefgh')   # as the table does: the page is first drawn through the channel
    ui.button('patch', on_click=lambda: paint('new', 'abcdefghi'))
    ui.button('more', on_click=lambda: paint('new', 'abcdefghij'))
    ui.button('remount', on_click=lambda: box.move(second))
