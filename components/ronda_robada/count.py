"""The end of a Ronda Robada game: where the last loose cards went, each pile's points and the
winner or winners, and how to check the deal. Built from one seat's view only."""
from __future__ import annotations

from collections.abc import Sequence
from html import escape
from typing import Any

from nicegui import ui

from app.i18n import t
from components.card import card_html
from components.ronda_robada.log import event_line


def count_panel(view: Any, names: Sequence[str], reader: int) -> None:
    outcome = view.outcome
    sweep = next((event for event in view.events if event.kind == 'sweep'), None)
    with ui.card().classes('hod-count w-full gap-2 text-gray-900').props('data-testid="count" aria-live="polite"') \
            .mark('count'):
        ui.label(t('ronda.count_title')).classes('text-xl font-bold').props('role=heading aria-level=2')
        if sweep is not None:
            ui.label(event_line(sweep.to_dict(), names, reader)).classes('text-gray-800').props('data-testid="sweep"')
        rows = ''.join(_row(view, seat, names[seat], seat in outcome.winners) for seat in range(view.seats))
        ui.html(f'<table class="w-full text-sm"><thead><tr class="text-left text-gray-600">'
                f'<th class="p-1"></th><th class="p-1">{escape(t("ronda.count_top"))}</th>'
                f'<th class="p-1 text-right">{escape(t("ronda.count_cards"))}</th>'
                f'<th class="p-1 text-right">{escape(t("ronda.count_points"))}</th></tr></thead>'
                f'<tbody>{rows}</tbody></table>', sanitize=False).classes('w-full')
        ui.label(t('ronda.count_values')).classes('text-xs text-gray-600')


def _row(view: Any, seat: int, name: str, winner: bool) -> str:
    top = view.pile_tops[seat]
    crown = f' <span class="hod-chip">{escape(t("ronda.winner"))}</span>' if winner else ''
    return (f'<tr class="border-t border-gray-200{" font-bold" if winner else ""}" data-testid="count-row" '
            f'data-seat="{seat}" data-points="{view.outcome.scores[seat]}">'
            f'<td class="p-1">{escape(name)}{crown}</td>'
            f'<td class="p-1">{card_html(top, size="xs") if top else "—"}</td>'
            f'<td class="p-1 text-right">{view.pile_sizes[seat]}</td>'
            f'<td class="p-1 text-right">{view.outcome.scores[seat]}</td></tr>')


VERIFY_SNIPPET = {  # per language: the comments speak the player's language
    'en': '''import hashlib, random
seed = '...'  # the revealed seed
print(hashlib.sha256(seed.encode()).hexdigest())  # the fingerprint shown during the game
deck = [f'{r}{s}' for s in 'oceb' for r in (1, 2, 3, 4, 5, 6, 7, 10, 11, 12)]
random.Random(seed).shuffle(deck)
# deck[0:4] are the loose cards in the centre; the rest is the stock, dealt from its
# front one card at a time round the table, three rounds, starting after the dealer;
# every new deal of three cards each continues the same way.
''',
    'es': '''import hashlib, random
seed = '...'  # la semilla revelada
print(hashlib.sha256(seed.encode()).hexdigest())  # la huella que se mostró durante la partida
deck = [f'{r}{s}' for s in 'oceb' for r in (1, 2, 3, 4, 5, 6, 7, 10, 11, 12)]
random.Random(seed).shuffle(deck)
# deck[0:4] son las cartas sueltas del centro; el resto es el mazo, que se reparte desde
# el principio de una en una alrededor de la mesa, tres vueltas, empezando por quien sigue
# a quien reparte; cada nuevo reparto de tres cartas sigue igual.
''',
}
