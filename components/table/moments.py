"""The table's big moments, told without reading the log: a short banner over the table (a pile
stolen, a close, a chinchón, going down, −20, the stock's last rebuild), and the card that has just
changed ringed until the next move. Each game says which of its events are big moments
(``TableScreen.banner``).

``Storytelling`` is the part of a table's screen that tells each redraw's news: the cards the new
events moved travel, a big moment gets its banner, and the browser plays a sound.
"""
from __future__ import annotations

from html import escape
from typing import Any

STOCK = '[data-testid="stock"] > :first-child'        # the piles' pictures, not their captions
DISCARD = '[data-testid="discard"] > :first-child'
SHUFFLES = frozenset({'deal', 'reshuffle', 'redeal'})   # events that shuffle cards
Motion = tuple[str, str, bool]   # CSS selectors of where a card starts and lands; True: a copy flies

MOMENTS_CSS = '''
.hod-banner-slot { position: absolute; left: 0; right: 0; top: 38%; display: flex; justify-content: center;
  pointer-events: none; z-index: 40; }
.hod-banner { background: rgba(20,61,38,.94); color: #fff; border: 2px solid var(--hod-gold); border-radius: 14px;
  padding: 10px 22px; font-size: 20px; font-weight: 700; text-align: center; max-width: 90%;
  box-shadow: 0 8px 30px rgba(0,0,0,.5); animation: hod-banner 3.2s ease forwards; }
.hod-banner[data-kind=steal], .hod-banner[data-kind=minus20] { border-color: #f87171; }
/* a faded banner leaves: where it takes a row of its own (below), the row closes */
@keyframes hod-banner { 0% { opacity: 0; transform: scale(.85); } 8%, 80% { opacity: 1; transform: none; }
  100% { opacity: 0; visibility: hidden; display: none; } }
@media (prefers-reduced-motion: reduce) { .hod-banner { animation: hod-banner-still 3.2s step-end forwards; } }
@keyframes hod-banner-still { 100% { visibility: hidden; display: none; } }
@media (max-width: 640px) { .hod-banner { font-size: 16px; padding: 8px 14px; } }
/* a count (or the game's end) takes the felt's whole middle, and its banner comes with it (a close):
   the banner then takes its own row of the column, under the count and above the tips, instead of
   lying over the count's cards and its button */
.hod-fit:is([data-phase=count], [data-phase=over]) > .hod-felt > .hod-banner-slot { position: static; order: 1; }
.hod-fit:is([data-phase=count], [data-phase=over]) > .hod-felt > .hod-banner-slot:empty { display: none; }
.hod-fit:is([data-phase=count], [data-phase=over]) > .hod-felt > .hod-tips-slot { order: 2; }
/* the card that has just changed: your drawn card, the discard pile's new top */
.hod-slot.hod-fresh .hod-card, .hod-pile[data-fresh] > :first-child .hod-card { outline: 3px solid #7dd3fc;
  outline-offset: 2px; box-shadow: 0 0 14px rgba(125,211,252,.8); }
'''


def banner_html(kind: str, text: str, version: int) -> str:
    """A banner of a kind (``steal``, ``close``, ``chinchon``, ``down``, ``minus20``,
    ``last-rebuild``...); the version makes each one new markup, so its animation starts again."""
    return (f'<div class="hod-banner" data-testid="banner" data-kind="{escape(kind)}" data-version="{version}" '
            f'role="status">{escape(text)}</div>')


class Storytelling:
    """What a redraw tells of the events since the last one. Mixed into ``TableScreen``: it uses
    the screen's ``snap``, ``seat``, ``seat_testid``, ``live``, ``last_event`` and ``visible_log``."""

    def _news(self) -> list[dict[str, Any]]:
        """The events since the last redraw of this screen."""
        events, new = self.visible_log(), []
        for event in reversed(events):   # the log keeps its last events only: found by identity
            if event is self.last_event:
                break
            new.insert(0, event)
        else:
            new = [] if self.last_event is not None else new   # not found: a new game began
        self.last_event = self._last_event()
        return new

    def _travel(self, new: list[dict[str, Any]]) -> None:
        """The cards the new events moved travel with this patch (the last two events: at speed a
        computer's draw and discard come together)."""
        for event in new[-2:]:
            for source, target, ghost in self.motions(event):
                self.live.motion(source, target, ghost=ghost)

    def _announce(self, new: list[dict[str, Any]]) -> None:
        """A big moment among the new events gets a banner over the table (the latest one)."""
        moments = [moment for moment in map(self.banner, new) if moment is not None]
        if moments:
            kind, text = moments[-1]
            self.live.html(self.banner_view, banner_html(kind, text, self.snap.version))

    def _sound(self, news: list[dict[str, Any]], phase: str, view: Any) -> None:
        """A flick for each card moved, a shuffle for a deal or a stock rebuilt, a chime when it
        becomes your turn, a flourish when you win (the browser plays them, unless muted)."""
        kinds = {event['kind'] for event in news}
        if kinds & SHUFFLES:
            self.live.sound('shuffle')
        elif any(self.motions(event) for event in news):
            self.live.sound('flick')
        before, self.sounded_phase = getattr(self, 'sounded_phase', phase), phase
        if phase != before and phase not in ('wait', 'count', 'over') and before in ('wait', 'count'):
            self.live.sound('chime')
        if phase == 'over' and before != 'over' and self.seat in view.outcome.winners:
            self.live.sound('win')

    def fresh_discard(self) -> bool:
        """The discard pile's top was just thrown by another seat (the answers to its offer do not
        cover it): ringed until the next move."""
        for event in reversed(self.visible_log()):
            if event['kind'] != 'pass_offer':
                return event['kind'] == 'discard' and event.get('seat') != self.seat
        return False

    def banner(self, event: dict[str, Any]) -> tuple[str, str] | None:
        """(kind, words) of a banner for this event, or None: the game's big moments."""
        return None

    def _last_event(self) -> dict[str, Any] | None:
        events = self.visible_log()
        return events[-1] if events else None

    def seat_selector(self, seat: int) -> str:
        return f'[data-testid="{self.seat_testid}"][data-seat="{seat}"]'

    # your cards, found without naming them (a motion carries no card code): the one you chose,
    # or the last one (a card drawn goes to the right, so it is the last match)
    CHOSEN_CARD = '[data-testid="hand-card"].hod-selected'
    NEW_CARD = '[data-testid="hand-card"]'

    def motions(self, event: dict[str, Any]) -> list[Motion]:
        """Where the cards of a public event travel: drawing from the stock or the discard pile goes
        to the seat (into your hand for you), discarding goes from the seat (your card) to the pile."""
        kind, seat = event['kind'], event.get('seat')
        if seat is None:
            return []
        mine = seat == self.seat
        if kind == 'draw_stock':
            return [(STOCK, self.NEW_CARD if mine else self.seat_selector(seat), not mine)]
        if kind in ('draw_discard', 'take_offer'):
            return [(DISCARD, self.NEW_CARD if mine else self.seat_selector(seat), not mine)]
        if kind == 'discard':
            return [(self.CHOSEN_CARD if mine else self.seat_selector(seat), DISCARD, False)]
        return []
