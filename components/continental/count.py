"""The count after a Continental hand: who went out (and the −20 for going down and out in one
turn), every hand left and its points, the totals, and how to check a deal. Built from the
hand's public result only (its cards are shown once the hand is over)."""
from __future__ import annotations

from collections.abc import Callable, Sequence
from html import escape
from typing import Any

from nicegui import ui

from app.engine.cards import french_card
from app.engine.continental import Contract
from app.i18n import number, signed, t
from components.card import card_html
from components.continental.log import contract_words
from components.table.fair import REBUILD_SNIPPET
from components.table_parts import next_hand_button


def count_panel(result: dict[str, Any], names: Sequence[str], reader: int, *, on_next: Callable[[], None] | None,
                next_contract: Contract | None, went_on: bool = False) -> None:
    """``on_next`` None: the game is over and the caller shows what comes next."""
    out = result['out_seat']
    with ui.card().classes('hod-count w-full gap-2 text-gray-900').props('data-testid="count" aria-live="polite"') \
            .mark('count'):
        if out is None:
            title = t('continental.count.no_draw', hand=result['hand'])
        elif out == reader:
            title = t('continental.count.out.you', hand=result['hand'])
        else:
            title = t('continental.count.out', hand=result['hand'], name=names[out])
        ui.label(title).classes('text-xl font-bold').props('role=heading aria-level=2')
        if out is not None and result['points'][out] < 0:
            ui.label(t('continental.count.minus_20')).classes('text-green-800 font-semibold') \
                .props('data-testid="minus-20"').mark('minus-20')
        rows = ''.join(_row(result, seat, names[seat]) for seat in range(len(names)))
        ui.html(f'<table class="w-full text-sm"><thead><tr class="text-left text-gray-600"><th class="p-1"></th>'
                f'<th class="p-1">{escape(t("continental.count.left"))}</th>'
                f'<th class="p-1 text-right">{escape(t("continental.count.points"))}</th>'
                f'<th class="p-1 text-right">{escape(t("table.total"))}</th></tr></thead><tbody>{rows}</tbody></table>',
                sanitize=False).classes('w-full overflow-x-auto')
        ui.label(t('continental.count.values')).classes('text-xs text-gray-600')
        if on_next is not None:
            with ui.row().classes('w-full items-center gap-3'):
                if next_contract is not None:
                    ui.label(t('continental.count.next', hand=next_contract.number,
                               contract=contract_words(next_contract))).classes('text-gray-700')
                ui.space()
                next_hand_button(on_next, went_on=went_on)


def _row(result: dict[str, Any], seat: int, name: str) -> str:
    cards = ''.join(card_html(french_card(code), size='sm') for code in result['hands'][seat])
    points = result['points'][seat]
    return (f'<tr class="border-t border-gray-200" data-testid="count-seat" data-seat="{seat}" '
            f'data-points="{points}"><td class="p-1 font-semibold">{escape(name)}</td>'
            f'<td class="p-1"><div class="hod-open-fan">{cards or "—"}</div></td>'
            f'<td class="p-1 text-right font-semibold">{signed(points)}</td>'
            f'<td class="p-1 text-right">{number(result["totals"][seat])}</td></tr>')


VERIFY_SNIPPET = {  # per language: the comments speak the player's language
    'en': '''import hashlib, random
seed = '...'  # the revealed seed of one hand
print(hashlib.sha256(seed.encode()).hexdigest())  # the fingerprint shown during that hand
deck = [f'{r}{s}' for s in 'shdc' for r in ['A', *range(2, 11), 'J', 'Q', 'K']] * 2 + ['JK'] * 4
random.Random(seed).shuffle(deck)
# deck[0], deck[1]... go one at a time round the table starting after the dealer until
# everyone has the hand's count (6, 7, 8 ... 12); the next card is turned up on the
# discard pile; the card after it is the first one drawn from the stock, and so on.
''' + REBUILD_SNIPPET['en'],
    'es': '''import hashlib, random
seed = '...'  # la semilla revelada de una mano
print(hashlib.sha256(seed.encode()).hexdigest())  # la huella que se mostró durante esa mano
deck = [f'{r}{s}' for s in 'shdc' for r in ['A', *range(2, 11), 'J', 'Q', 'K']] * 2 + ['JK'] * 4
random.Random(seed).shuffle(deck)
# deck[0], deck[1]... van de una en una alrededor de la mesa empezando por quien sigue a quien
# reparte, hasta que todos tienen las cartas de la mano (6, 7, 8 ... 12); la siguiente se
# destapa en el descarte; la que va después es la primera que se roba del mazo, y así.
''' + REBUILD_SNIPPET['es'],
}
