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


def fair_deal_box(snippet: str) -> ui.html:
    """Folded by default, and built once per screen: what changes each hand (this hand's fingerprint,
    the seeds revealed) is the markup of the returned element (``fair_deal_html``), so a new hand
    neither rebuilds the box nor folds it again."""
    with fold(t('fair.title'), icon='verified', testid='fair-deal', open_=False).classes('text-sm'):
        deals = ui.html('', sanitize=False).classes('w-full').mark('fair-deals')
        ui.label(t('fair.how')).classes('mt-2')
        ui.html(f'<pre class="hod-snippet" data-testid="verify-snippet"><code>{escape(snippet)}</code></pre>',
                sanitize=False).classes('w-full')
    return deals


def fair_deal_html(commitment: str, past: Sequence[PastDeal]) -> str:
    """This hand's fingerprint, then the newest ten hands' seeds once revealed, newest first."""
    parts = [f'<div class="font-semibold">{escape(t("fair.current"))}</div>'
             f'<div class="font-mono text-xs break-all" data-testid="commitment">{escape(commitment)}</div>']
    newest = list(past)[::-1][:10]
    if newest:
        latest = newest[0]
        parts.append(f'<div class="font-semibold mt-2">{escape(t("fair.past" if latest.seed else "fair.past_held"))}'
                     f'</div><div class="text-xs">{escape(t("fair.hand", hand=latest.hand_number))}</div>'
                     f'<div class="font-mono text-xs break-all" data-testid="revealed-seed">'
                     f'{escape(_seed_text(latest))}</div>')
        parts.extend(_past_deal_html(deal, with_hand=deal is not latest) for deal in newest)
    return ''.join(parts)


def _seed_text(deal: PastDeal) -> str:
    """A daily table's seeds are blank until the day is over (app.tables.snapshot.seeds_withheld)."""
    return t('fair.seed', seed=deal.seed) if deal.seed else t('fair.seed_held')


def _past_deal_html(deal: PastDeal, *, with_hand: bool) -> str:
    """A past hand's number, seed and fingerprint (``with_hand`` False: the fingerprint only)."""
    lines = [('text-xs', t('fair.hand', hand=deal.hand_number)),
             ('font-mono text-xs break-all', _seed_text(deal))] if with_hand else []
    lines.append(('font-mono text-xs break-all', t('fair.fingerprint', commitment=deal.commitment)))
    return '<div class="mb-1">' + ''.join(f'<div class="{classes}">{escape(text)}</div>' for classes, text in lines) \
        + '</div>'
