"""The fair-deal box every table shows: the fingerprint of this hand's secret seed, the seeds of
past hands once revealed, and how to check them with the game's own snippet."""
from __future__ import annotations

from collections.abc import Sequence
from html import escape

from nicegui import ui

from app.i18n import t
from app.engine.protocol import PastDeal
from components.controls import fold

# the end of the snippets of the games whose stock is rebuilt from the discard pile (Chinchón,
# Continental): the rebuild is shuffled from the hand's seed too, so the seed accounts for every card
REBUILD_SNIPPET = {
    'en': '''# When the stock runs out, rebuild n of the hand (1, 2...) takes the discard pile but its
# top card, from the bottom up, shuffled the same way; pile[0] is the next card drawn:
def rebuilt(pile, n):
    pile = list(pile)
    random.Random(f'{seed}:{n}').shuffle(pile)
    return pile
''',
    'es': '''# Cuando se acaba el mazo, la vez n de la mano (1, 2...) se rehace con el descarte sin su
# carta de arriba, de abajo arriba, barajado igual; pile[0] es la siguiente que se roba:
def rebuilt(pile, n):
    pile = list(pile)
    random.Random(f'{seed}:{n}').shuffle(pile)
    return pile
''',
}


def fair_deal_box(commitment: str, past: Sequence[PastDeal], snippet: str) -> None:
    """Folded by default, and drawn with few elements: the table redraws in the browser on every move."""
    with fold(t('fair.title'), icon='verified', testid='fair-deal', open_=False).classes('text-sm'):
        ui.label(t('fair.current')).classes('font-semibold')
        ui.label(commitment).classes('font-mono text-xs break-all').props('data-testid="commitment"').mark('commitment')
        newest = list(past)[::-1][:10]
        if newest:
            ui.label(t('fair.past')).classes('font-semibold mt-2')
            latest, older = newest[0], newest[1:]
            ui.label(t('fair.hand', hand=latest.hand_number)).classes('text-xs')
            ui.label(t('fair.seed', seed=latest.seed)).classes('font-mono text-xs break-all') \
                .props('data-testid="revealed-seed"').mark('revealed-seed')
            ui.html(''.join(_past_deal_html(deal, with_hand=deal is not latest) for deal in [latest, *older]),
                    sanitize=False)
        ui.label(t('fair.how')).classes('mt-2')
        ui.html(f'<pre class="hod-snippet" data-testid="verify-snippet"><code>{escape(snippet)}</code></pre>',
                sanitize=False).classes('w-full')


def _past_deal_html(deal: PastDeal, *, with_hand: bool) -> str:
    """A past hand's number, seed and fingerprint (``with_hand`` False: the fingerprint only)."""
    lines = [('text-xs', t('fair.hand', hand=deal.hand_number)),
             ('font-mono text-xs break-all', t('fair.seed', seed=deal.seed))] if with_hand else []
    lines.append(('font-mono text-xs break-all', t('fair.fingerprint', commitment=deal.commitment)))
    return '<div class="mb-1">' + ''.join(f'<div class="{classes}">{escape(text)}</div>' for classes, text in lines) \
        + '</div>'
