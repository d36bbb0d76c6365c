"""The count after a close (every hand, melds, lay-offs, points) and how to check a Chinchón deal.
Built from one seat's view only."""
from __future__ import annotations

from collections.abc import Callable, Sequence
from html import escape
from typing import Any

from nicegui import ui

from app.i18n import counted, number, personal, signed, t
from components.chinchon.log import out_words
from components.pictures import cards_html
from components.table.fair import REBUILD_SNIPPET
from components.table_parts import MELD_COLOURS, next_hand_button


def cards_row(cards: Sequence[Any], colour: str | None = None, size: str = 'sm') -> str:
    """A meld's cards (with its colour's bar under them), or loose ones, as markup."""
    bar = f'<div class="hod-bar" style="background: {colour}"></div>' if colour else ''
    return (f'<div class="flex flex-col gap-0 items-stretch"><div class="{"hod-fan" if size == "xs" else "flex gap-0.5"}">'
            f'{cards_html(cards, size=size)}</div>{bar}</div>')


def count_panel(result: Any, names: Sequence[str], reader: int, feminine: Sequence[bool], *,
                human_question: str | None, on_buyback: Callable[[bool], None],
                on_next: Callable[[], None] | None, went_on: bool = False) -> None:
    """`on_next` None: the game is over and the caller shows what comes next. ``reader`` is
    spoken to in the second person; ``feminine`` says whose names Spanish agrees with."""
    with ui.card().classes('hod-count w-full gap-3 text-gray-900').props('data-testid="count" aria-live="polite"') \
            .mark('count'):
        ui.label(_headline(result, names, reader)).classes('text-xl font-bold').props('role=heading aria-level=2')
        if result.void:
            ui.label(t('count.void_help')).classes('text-gray-700')
        elif result.chinchon:
            ui.label(t('count.chinchon_help')).classes('text-gray-700').props('data-testid="close-help"')
        elif result.added[result.closer] == -10:
            ui.label(personal('count.minus_10', you=result.closer == reader, name=names[result.closer])) \
                .classes('text-gray-700').props('data-testid="close-help"')
        for seat_count in result.seats:
            _seat_count(result, seat_count, names, reader)
        if result.eliminated:
            ui.label(out_words(result.eliminated, names, reader, feminine, 'count.eliminated')) \
                .classes('font-semibold text-red-800')
        for seat in result.bought_back:
            ui.label(personal('count.bought_back', you=seat == reader, name=names[seat],
                           score=counted('amount.points', result.totals[seat]))) \
                .classes('text-green-800')
        if human_question:
            with ui.row().classes('items-center gap-3 bg-amber-100 rounded p-2'):
                ui.label(human_question).classes('font-semibold')
                ui.button(t('count.buyback_yes'), on_click=lambda: on_buyback(True)) \
                    .props('unelevated no-caps data-testid="buyback-yes"').mark('buyback-yes')
                ui.button(t('count.buyback_no'), on_click=lambda: on_buyback(False)) \
                    .props('outline no-caps data-testid="buyback-no"').mark('buyback-no')
        elif on_next is not None:
            next_hand_button(on_next, went_on=went_on).classes('self-end')


def _headline(result: Any, names: Sequence[str], reader: int) -> str:
    if result.void:
        return t('count.void', hand=result.hand_number)
    you = result.closer == reader
    if result.chinchon:
        return personal('count.chinchon', you=you, name=names[result.closer])
    return personal('count.closed', you=you, hand=result.hand_number, name=names[result.closer])


def _seat_count(result: Any, seat_count: Any, names: Sequence[str], reader: int) -> None:
    """One seat's line of the count: one block of markup, not an element per card and label, since
    every screen draws a count anew each hand, and each element it drops leaves cycles (its props,
    classes, style) for the collector (app/serving.py's tune_collector)."""
    seat, closer = seat_count.seat, seat_count.seat == result.closer
    chip = f'<div class="hod-chip">{escape(t("count.closer"))}</div>' if closer else ''
    groups = [cards_row(meld, MELD_COLOURS[index % len(MELD_COLOURS)]) for index, meld in enumerate(seat_count.melds)]
    for meld_index, cards in seat_count.layoffs:   # only after a close: a void hand has no closer
        laid_off = escape(personal('count.laid_off', you=result.closer == reader, name=names[result.closer]))
        closer_meld = cards_row(result.closer_melds[meld_index], MELD_COLOURS[meld_index % len(MELD_COLOURS)], 'xs')
        groups.append(_captioned(laid_off, f'<div class="flex no-wrap gap-1 items-end"><div class="hod-closer-meld">'
                                           f'{closer_meld}</div><div class="font-bold">+</div>{cards_row(cards)}</div>'))
    if seat_count.loose:
        groups.append(_captioned(escape(t('count.loose')), cards_row(seat_count.loose)))
    ui.html(f'<div class="w-full border-t border-gray-200 pt-2" data-testid="count-seat" data-seat="{seat}">'
            f'<div class="flex flex-wrap items-baseline gap-2 w-full"><div class="font-bold">{escape(names[seat])}</div>'
            f'{chip}<div class="grow"></div>'
            f'<div class="font-semibold" data-testid="count-added">{escape(t("count.adds", points=signed(result.added[seat])))}</div>'
            f'<div class="text-gray-600">{escape(t("count.total", points=number(result.totals[seat])))}</div></div>'
            f'<div class="flex flex-wrap gap-3 items-end">{"".join(groups)}</div></div>', sanitize=False) \
        .classes('w-full').mark(f'count-seat-{seat}')


def _captioned(caption: str, markup: str) -> str:
    return f'<div class="flex flex-col gap-0 items-start"><div class="text-xs text-gray-600">{caption}</div>{markup}</div>'


VERIFY_SNIPPET = {  # per language: the comments speak the player's language
    'en': '''import hashlib, random
seed = '...'  # the revealed seed
print(hashlib.sha256(seed.encode()).hexdigest())  # the fingerprint shown during the hand
deck = [f'{r}{s}' for s in 'oceb' for r in (1, 2, 3, 4, 5, 6, 7, 10, 11, 12)]
# with 5 or 6 players: deck = deck * 2
random.Random(seed).shuffle(deck)
# deck[0], deck[1]... go one at a time round the table starting after the dealer,
# 7 each; the next card starts the discard pile; the rest is the stock, top first.
''' + REBUILD_SNIPPET['en'],
    'es': '''import hashlib, random
seed = '...'  # la semilla revelada
print(hashlib.sha256(seed.encode()).hexdigest())  # la huella que se mostró durante la mano
deck = [f'{r}{s}' for s in 'oceb' for r in (1, 2, 3, 4, 5, 6, 7, 10, 11, 12)]
# con 5 o 6 jugadores: deck = deck * 2
random.Random(seed).shuffle(deck)
# deck[0], deck[1]... van de una en una alrededor de la mesa empezando por quien sigue
# a quien reparte, 7 a cada uno; la siguiente abre el descarte; el resto es el mazo, de arriba abajo.
''' + REBUILD_SNIPPET['es'],
}
