"""The Chinchón table: the piles, this player's hand with its melds, its actions and the count, drawn
inside the table shell shared by every game (components/table/shell.py) from this seat's view."""
from __future__ import annotations

from html import escape
from typing import Any

from nicegui import ui

from app.engine.cards import Card, spanish_card
from app.engine.chinchon import card_value
from app.engine.chinchon.actions import BuyBack, Close, Discard, DrawDiscard, DrawStock
from app.engine.chinchon.melds import best_arrangement, best_close, best_discard
from app.engine.chinchon.state import MAX_RESHUFFLES
from app.i18n import counted, number, personal, t
from app.tables.port import SeatPort
from components.card import the_card
from components.chinchon.count import VERIFY_SNIPPET, count_panel
from components.chinchon.drawing import seat_line
from components.chinchon.log import log_lines
from components.controls import action_button
from components.live import GUESS, Markup
from components.seats import SeatInfo, own_line_html, seats_pieces
from components.table.fit import grow
from components.table.shell import TableScreen
from components.table_parts import MELD_COLOURS, HandCard, discard_aria, drop_target, hand_view, legend, pile


class ChinchonTable(TableScreen):
    parse_card = staticmethod(spanish_card)
    verify_snippet = VERIFY_SNIPPET

    def __init__(self, port: SeatPort, **handlers: Any) -> None:
        super().__init__(port, **handlers)
        self.selected: int | None = None
        self.fresh: str | None = None   # the card you just drew (its code), ringed until you discard
        self.shown_order: tuple[str, ...] = ()   # your hand as this screen last drew it
        self.log_cache: dict[int, tuple[dict, str | None]] = {}

    def turn_phase(self, view: Any) -> str:
        return view.phase if view.current_seat == self.seat and view.phase in ('draw', 'discard') else 'wait'

    def hand(self) -> list[Card]:
        """This player's cards in the order they arranged them (the table keeps the order); new
        cards go to the right."""
        return [spanish_card(code) for code in self.snap.hand_order]

    def _note_fresh(self) -> None:
        """The card you just drew: the one card more than this screen last showed (a deal brings
        seven), ringed until you discard."""
        order = self.snap.hand_order
        shown, self.shown_order = self.shown_order, order
        if order[:-1] == shown and order:
            self.fresh = order[-1]

    def board(self) -> None:
        with grow().classes('hod-centre'), ui.element('div').classes('hod-piles'):
            self.stock = pile('stock', self.speaking(lambda version: self.act(DrawStock(), version)), self.live)
            self.discard = pile('discard', self.speaking(self._discard_pile_clicked), self.live)
            drop_target(self.discard, self.speaking(self._dropped_on_discard))
            self.status = ui.html('', sanitize=False).classes('hod-status') \
                .props('aria-live="polite" data-testid="status"').mark('status')
        # your seat, hand and actions (.hod-own: what a spectator's screen leaves out)
        self.own = ui.html('', sanitize=False).classes('w-full hod-own').mark('own-seat')
        self.hand_view = hand_view(on_select=self.speaking(self._select),
                                   on_move=self.speaking(self._move), painter=self.live).classes('hod-own')
        legend('legend.meld').classes('hod-own hod-legend')
        with self.action_bar():
            action_button(t('table.sort'), 'sort', self.speaking(self._sort), icon='sort')
            self.discard_button = action_button(t('table.discard_button'), 'discard-button',
                                                self.speaking(self._discard_selected), tone='accent', versioned=True)
            self.close_button = action_button(t('table.close'), 'close', self.speaking(self._close), tone='danger',
                                              versioned=True)
            self.hint_button = action_button(t('table.hint'), 'hint', self.ask_hint, tone='flat',
                                             icon='lightbulb')

    def draw_board(self, view: Any, phase: str) -> None:
        self._centre(view, phase)
        self._own_hand(view, phase)

    def top_texts(self, view: Any) -> list[str]:
        hand = self.hand_number(view)
        # a game of a fixed number of hands (the daily deal's) says which is the last
        hands = t('table.hand_of', hand=hand, hands=view.rules.hands) if view.rules.hands else \
            t('table.hand_number', hand=hand)
        return [hands, t('table.limit', limit=view.rules.limit)]

    def counted_hand(self, view: Any) -> int | None:
        return view.last_result.hand_number if view.last_result is not None else None

    def panel_key(self, view: Any) -> tuple:
        return (view.last_result and view.last_result.bought_back, self.snap.must_answer)

    def log_lines(self) -> list[str]:
        return log_lines(self.visible_log(), self.names, self.seat, cache=self.log_cache, feminine=self.feminine)

    def banner(self, event: dict[str, Any]) -> tuple[str, str] | None:
        kind, seat, data = event['kind'], event.get('seat'), event.get('data', {})
        if kind == 'close':
            moment = 'chinchon' if data.get('chinchon') else 'close'
            return moment, personal(f'banner.{moment}', you=seat == self.seat, name=self.names[seat])
        if kind == 'reshuffle' and data.get('number') == MAX_RESHUFFLES:
            return 'last-rebuild', t('banner.last_rebuild')
        return None

    def others_html(self, view: Any) -> Markup:
        return seats_pieces([self.seat_info(view, seat) for seat in self.others()], self.seat_marks())

    def seat_info(self, view: Any, seat: int) -> SeatInfo:
        return seat_line(view, seat, self.names, self.feminine, self._discards_since_my_move().get(seat))

    def _discards_since_my_move(self) -> dict[int, Card]:
        """Each seat's discard since your last move in this hand: at four or more seats the next
        discards cover it on the pile before your turn comes."""
        found: dict[int, Card] = {}
        for event in reversed(self.visible_log()):
            if event['seat'] == self.seat or event['kind'] in ('deal', 'count', 'void_hand'):
                break
            if event['kind'] == 'discard' and event['seat'] not in found:
                found[event['seat']] = spanish_card(event['data']['card'])
        return found

    def _centre(self, view: Any, phase: str) -> None:
        self.stock.show(None, face_down=True, count=view.stock_size, caption=t('table.stock', count=view.stock_size),
                        active=phase == 'draw', aria=t('table.stock_aria' + ('.draw' if phase == 'draw' else ''),
                              cards=counted('amount.cards', view.stock_size)),
                        guess='draw:stock' if phase == 'draw' else None)
        discard_guess = 'discard' if phase == 'discard' else \
            'draw:discard' if phase == 'draw' and view.discard_top is not None else None
        self.discard.show(view.discard_top, face_down=False, count=view.discard_size,
                          caption=t('table.discard', count=view.discard_size), active=phase in ('draw', 'discard'),
                          aria=discard_aria(view.discard_top, view.discard_size), fresh=self.fresh_discard(), guess=discard_guess)
        self.live.html(self.status, f'<div class="font-semibold">{escape(self._status(view, phase))}</div>'
                                    f'{self.notice_html()}')

    def _status(self, view: Any, phase: str) -> str:
        if phase == 'draw':
            return t('table.your_turn_draw')
        if phase == 'discard':
            return t('table.your_turn_discard')
        if view.current_seat is not None and view.current_seat != self.seat:
            return t('table.waiting', name=self.names[view.current_seat])
        return ''

    def _own_hand(self, view: Any, phase: str) -> None:
        self._note_fresh()
        cards = self.hand()
        arrangement = best_arrangement(cards)
        bars = _meld_colours(cards, arrangement.melds)
        if phase != 'discard':
            self.fresh = None
        items = [HandCard(card, bar=bars[i], fresh=str(card) == self.fresh,
                          value=None if bars[i] else card_value(card),
                          locked=view.taken_this_turn == card and phase == 'discard',
                          description=t('table.in_meld') if bars[i] else t('table.loose_worth', value=card_value(card)))
                 for i, card in enumerate(cards)]
        if self.selected is not None and self.selected >= len(items):
            self.selected = None
        me = self.seat
        can_close = phase == 'discard' and view.can_close
        notice = (f'<span class="hod-notice" data-testid="close-notice" role="status">{escape(t("table.can_close"))}'
                  '</span>' if can_close else '')
        if not self.spectator:   # a spectator's seats are all above the board
            self.live.html(self.own, own_line_html(
                SeatInfo(seat=me, name=self.names[me], score=view.scores[me], cards=len(cards), dealer=view.dealer == me,
                         on_turn=phase in ('draw', 'discard'), out=view.eliminated[me]),
                f'<span data-testid="own-count">{escape(self._count_text(cards, view, phase))}</span>', notice,
                marks=self.seat_marks()[me]))
        self.hand_view.show(items, self.selected, interactive=not view.eliminated[me])
        self.live.attrs(self.discard_button, {'disabled': None if phase == 'discard' else True,
                                              GUESS: 'discard' if phase == 'discard' else None})
        self.live.attrs(self.close_button, {'disabled': None if can_close else True})
        # no hints chosen: no button; otherwise it keeps its place, usable on your turn
        self.live.attrs(self.hint_button, {'hidden': None if self.snap.options.hints else True,
                                           'disabled': None if phase in ('draw', 'discard') else True})

    def _count_text(self, cards: list[Card], view: Any, phase: str) -> str:
        if len(cards) == 8:
            _, points = best_discard(cards, view.taken_this_turn)
            return t('table.count_after_discard', points=points)
        return t('table.count_now', points=best_arrangement(cards).loose_value)

    def count_panel(self, view: Any, phase: str) -> None:
        if view.last_result is None:
            return
        question = None
        if self.snap.must_answer:
            question = t('count.buyback_question', score=counted('amount.points', view.buyback_score))
        count_panel(view.last_result, self.names, self.seat, self.feminine, human_question=question,
                    on_buyback=lambda accept: self.act(BuyBack(accept)),
                    on_next=None if phase == 'over' or self.spectator else self.resume, went_on=self.went_on())

    def score_rows(self, view: Any) -> list[tuple[str, list[str]]]:
        rows = []
        for result in self.snap.hand_results:
            data = result['data'].get('result')
            if data is None:   # a void hand
                rows.append((t('table.hand_row', hand=result['data']['hand']), [t('table.void_short')] * view.seats))
            else:
                rows.append((t('table.hand_row', hand=data['hand_number']), [number(points) for points in data['added']]))
        return rows

    # this player's actions ---------------------------------------------------------
    def after_action(self) -> None:
        self.selected = None

    def _select(self, index: int) -> None:
        self.selected = None if self.selected == index else index
        self.hand_view.show_selection(self.selected)

    def _arranged(self, order: list[str]) -> None:
        self.port.arrange(order)

    def _move(self, source: int, target: int) -> None:
        order = list(self.snap.hand_order)
        if not (0 <= source < len(order) and 0 <= target < len(order)):
            return
        order.insert(target, order.pop(source))
        if self.selected == source:
            self.selected = target
        self._arranged(order)

    def _sort(self) -> None:
        arrangement = best_arrangement(self.hand())
        loose = sorted(arrangement.loose, key=lambda card: (card_value(card), card.rank, card.suit.value))
        self.selected = None
        self._arranged([str(card) for meld in arrangement.melds for card in meld] + [str(c) for c in loose])

    def _selected_card(self) -> Card | None:
        cards = self.hand()
        return cards[self.selected] if self.selected is not None and 0 <= self.selected < len(cards) else None

    def _discard_pile_clicked(self, version: int | None) -> None:
        if self.phase(self.snap.view) == 'draw':
            self.act(DrawDiscard(), version)
        else:
            self._discard_selected(version)

    def _dropped_on_discard(self, index: int) -> None:
        if not 0 <= index < len(self.snap.view.hand):   # a crafted drop: no card of yours
            self.refused(t('illegal.bad_action'))
            return
        self.selected = index
        if self.phase(self.snap.view) == 'discard':
            self._discard_selected(None)

    def _explain(self, key: str) -> None:
        self.notice = t(key)
        self.render()

    def _discard_selected(self, version: int | None) -> None:
        card = self._selected_card()
        if card is None:
            self._explain('table.select_first')
            return
        self.act(Discard(card), version)

    def _close(self, version: int | None) -> None:
        """Close laying face down the card you selected; with none selected, ask once whether to
        lay down the one that scores best."""
        view = self.snap.view
        card = self._selected_card()
        if card is not None:
            self.act(Close(card), version)
            return
        if self.phase(view) != 'discard':   # the button is disabled then: a crafted click
            self.refused(t('illegal.draw_first' if self.phase(view) == 'draw' else 'illegal.not_your_turn'))
            return
        best = best_close(self.hand(), view.taken_this_turn)
        if not best:
            self._explain('illegal.cannot_close')
            return
        seen = self.shown_version if version is None else version
        with ui.dialog() as dialog, ui.card():
            ui.label(t('table.close_confirm', card=the_card(best[0]))).classes('text-lg')
            with ui.row():
                ui.button(t('table.close_yes'), on_click=self.speaking(lambda: (dialog.close(),
                                                                                self.act(Close(best[0]), seen)))) \
                    .props('unelevated no-caps data-testid="close-yes"').mark('close-yes')
                ui.button(t('table.close_no'), on_click=dialog.close).props('flat no-caps data-testid="close-no"') \
                    .mark('close-no')
        dialog.open()

    def show_hint(self, action: Any) -> None:
        self.notice = hint_text(action)
        if getattr(action, 'card', None) is not None:
            codes = self.snap.hand_order
            self.selected = codes.index(str(action.card)) if str(action.card) in codes else None
        self.render()


def _meld_colours(cards: list[Card], melds: tuple[tuple[Card, ...], ...]) -> list[str | None]:
    """A colour per card: its meld's, or None when loose. Equal cards (two decks) are matched in turn."""
    colours: list[str | None] = [None] * len(cards)
    for index, meld in enumerate(melds):
        for card in meld:
            position = next(i for i, c in enumerate(cards) if c == card and colours[i] is None)
            colours[position] = MELD_COLOURS[index % len(MELD_COLOURS)]
    return colours


def hint_text(action: Any) -> str:
    if isinstance(action, (Discard, Close)):
        return t(f'hint.{action.kind}', card=the_card(action.card))
    if isinstance(action, BuyBack):
        return t('hint.buyback_yes' if action.accept else 'hint.buyback_no')
    return t(f'hint.{action.kind}')
