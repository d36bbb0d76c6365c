"""The Continental table: the contract of the hand, every seat's melds, the stock and the discard
pile, the offer round, your hand with the meld builder, and lay-offs, drawn inside the table shell
shared by every game (components/table/shell.py).

Going down is built here, on this screen only: tap cards, make them a group, and each group says
at once what it is or why it is not a meld yet; the contract's checklist follows, and "Bajarme"
sends the groups as one ``GoDown`` once they meet the contract exactly with a card to spare. The
engine checks everything again: the builder only helps."""
from __future__ import annotations

import re
from collections import Counter
from html import escape
from typing import Any

from nicegui import ui

from app.engine.cards import Card, french_card
from app.engine.continental import (Discard, DrawStock, GoDown, LayOff, PassOffer, TakeOffer, card_points,
                                    contract, solve)
from app.i18n import counted, number, personal, t
from app.tables.port import SeatPort
from components.card import card_html, the_card
from components.continental.builder import GroupCheck, check_group, progress
from components.continental.count import VERIFY_SNIPPET, count_panel
from components.continental.drawing import display_order, melds_html, seat_line
from components.continental.log import contract_words, log_lines
from components.controls import VERSION_JS, action_button, on_choice, version_sent
from components.live import GUESS, Markup
from components.seats import SeatInfo, own_line_html, seats_pieces
from components.table.fit import grow
from components.table.shell import TableScreen
from components.table_parts import MELD_COLOURS, HandCard, discard_aria, drop_target, hand_view, legend, pile

CONTINENTAL_CSS = '''
.hod-melds { display: flex; flex-direction: column; gap: 6px; }
.hod-meld-row { display: flex; flex-wrap: wrap; align-items: center; gap: 6px; }
.hod-meld { display: flex; align-items: flex-end; padding: 3px; border-radius: 8px; border: 2px solid transparent;
  background: rgba(0,0,0,.18); }
.hod-meld > * + * { margin-left: -14px; }
.hod-meld.hod-target { border-color: var(--hod-gold); box-shadow: 0 0 10px rgba(224,179,65,.7); cursor: pointer; }
.hod-meld.hod-target:focus-visible { outline: 3px solid #fff; }
.hod-group { background: #fff; color: #1d2521; border-radius: 10px; padding: 6px 8px; border-left: 6px solid; }
.hod-group .hod-fan > * + * { margin-left: -12px; }
.hod-offer { background: rgba(0,0,0,.25); border-radius: 10px; padding: 2px 8px; flex-wrap: nowrap; white-space: nowrap;
  height: 36px; overflow-x: auto; overflow-y: hidden; }
.hod-offer-slot { height: 36px; flex: none; }
.hod-melds-slot { flex: 1 1 0; min-height: 0; overflow-y: auto; }
.hod-builder-slot { flex: none; max-height: 45%; overflow-y: auto; }
.hod-builder-slot:empty, .hod-offer-slot:empty { visibility: hidden; }
'''

MELD_DROP_JS = ('(e) => { e.preventDefault(); const m = e.target.closest("[data-meld]"); if (!m) return;'
                f' emit(["drop:" + m.dataset.meld, Number(e.dataTransfer.getData("text/plain")), {VERSION_JS}]); }}')


class ContinentalTable(TableScreen):
    parse_card = staticmethod(french_card)
    verify_snippet = VERIFY_SNIPPET

    def __init__(self, port: SeatPort, **handlers: Any) -> None:
        super().__init__(port, **handlers)
        self.selected: frozenset[int] = frozenset()     # hand positions (display order)
        self.groups: list[list[str]] = []               # the meld builder's groups, as card codes
        self.joker_low: list[bool] = []                 # per group: its spare joker at the low end
        self.builder_hand = 0                           # the hand the groups were made in
        self.pending: tuple[str, int, list[int]] | None = None   # (card, meld, positions): which end?
        self.log_cache: dict[int, tuple[dict, str | None]] = {}
        self.fresh: Counter[str] = Counter()            # the cards you just drew or took, ringed until your next move
        self.held: tuple[int, Counter[str]] | None = None   # (hand number, your cards) at the last drawing

    # building ---------------------------------------------------------------------------------
    def board(self) -> None:
        ui.add_css(CONTINENTAL_CSS)
        with grow().classes('flex flex-col gap-1 hod-cont-board'):
            with ui.element('div').classes('hod-piles'):
                self.stock = pile('stock', self.speaking(lambda version: self.act(DrawStock(), version)), self.live)
                self.discard = pile('discard', self.speaking(self._discard_pile_clicked), self.live)
                drop_target(self.discard, self.speaking(self._dropped_on_discard))
                self.status = ui.html('', sanitize=False).classes('hod-status') \
                    .props('aria-live="polite" data-testid="status"').mark('status')
            self.offer_view = ui.html('', sanitize=False).classes('w-full hod-offer-slot').mark('offer')
            self.melds_view = self._picks(ui.html('', sanitize=False).classes('w-full hod-melds-slot').mark('melds'))
            self.melds_view.on('dragover', js_handler='(e) => e.preventDefault()')
            self.melds_view.on('drop', lambda e: self.speaking(self._dropped_on_meld)(e.args), js_handler=MELD_DROP_JS)
            # your groups in the making (.hod-own: what a spectator's screen leaves out)
            self.builder_view = self._picks(ui.html('', sanitize=False).classes('w-full hod-own hod-builder-slot')
                                            .mark('builder'))
        self.own = ui.html('', sanitize=False).classes('w-full hod-own').mark('own-seat')
        self.hand_view = hand_view(on_select=self.speaking(self._select), on_move=lambda source, target: None,
                                   painter=self.live).classes('hod-own')
        legend('legend.group').classes('hod-own hod-legend')
        # the offer's answers and the meld builder's buttons never apply together: they share a
        # slot, and the ones that do not apply now keep their room (nothing in the bar moves)
        with self.action_bar(two_rows_on_a_phone=True):
            with ui.element('div').classes('hod-stack'):
                with ui.element('div') as self.offer_buttons:
                    self.take_button = action_button(t('continental.take'), 'offer-take', self.speaking(self._take),
                                                     tone='accent', versioned=True)
                    self.robo_button = action_button(t('continental.robo'), 'robo-contra', self.speaking(self._take),
                                                     tone='accent', versioned=True)
                    self.pass_button = action_button(t('continental.pass'), 'offer-pass', self.speaking(self._pass),
                                                     versioned=True)
                with ui.element('div') as self.builder_buttons:
                    self.group_button = action_button(t('meld.group'), 'meld-group-new',
                                                      self.speaking(self._make_group), icon='add')
                    self.propose_button = action_button(t('meld.propose'), 'meld-propose',
                                                        self.speaking(self._propose), icon='auto_fix_high')
                    self.confirm_button = action_button(t('meld.confirm'), 'meld-confirm',
                                                        self.speaking(self._go_down), tone='accent', icon='south',
                                                        versioned=True)
            self.discard_button = action_button(t('table.discard_button'), 'discard-button',
                                                self.speaking(self._discard_selected), versioned=True)
            self.hint_button = action_button(t('table.hint'), 'hint', self.ask_hint, tone='flat',
                                             icon='lightbulb')

    def _picks(self, element: ui.html) -> ui.html:
        return on_choice(element, self.speaking(self._picked))

    # what the screen shows ------------------------------------------------------------------------
    def tip_keys(self, view: Any, phase: str) -> list[str]:
        """Once you are down the builder is gone, and so is its tip."""
        down = phase == 'play' and view.down[self.seat]
        return ['tips.continental.play_down'] * down + super().tip_keys(view, phase)

    def turn_phase(self, view: Any) -> str:
        return view.phase if view.current_seat == self.seat and view.phase in ('offer', 'draw', 'play') else 'wait'

    def top_texts(self, view: Any) -> list[str]:
        hand = self.hand_number(view)
        return [t('continental.hand_of', hand=hand, hands=view.rules.hands, contract=contract_words(contract(hand)))]

    def counted_hand(self, view: Any) -> int | None:
        return view.last_result['hand'] if view.last_result is not None else None

    def banner(self, event: dict[str, Any]) -> tuple[str, str] | None:
        kind, seat, data = event['kind'], event.get('seat'), event.get('data', {})
        if kind == 'go_down':
            return 'down', personal('banner.down', you=seat == self.seat, name=self.names[seat])
        out = data.get('out_seat')
        if kind == 'hand_end' and out is not None and data['points'][out] < 0:
            return 'minus20', personal('banner.minus20', you=out == self.seat, name=self.names[out])
        limit = self.snap.game.make_rules(self.snap.options.rules).stock_rebuilds
        if kind == 'reshuffle' and limit and data.get('rebuild') == limit:
            return 'last-rebuild', t('banner.last_rebuild')
        return None

    def others_html(self, view: Any) -> Markup:
        return seats_pieces([self.seat_info(view, seat) for seat in self.others()], self.seat_marks())

    def seat_info(self, view: Any, seat: int) -> SeatInfo:
        return seat_line(view, seat, self.names)

    def cards(self, view: Any) -> list[Card]:
        return display_order(view.hand)

    def draw_board(self, view: Any, phase: str) -> None:
        cards = self.cards(view)
        self._note_fresh(view)
        self._keep_builder(view, cards)
        if phase != 'play':
            self.pending = None
        checks = [check_group([french_card(code) for code in group], low)
                  for group, low in zip(self.groups, self.joker_low)]
        self.live.html(self.offer_view, self._offer_html(view))
        self.live.html(self.melds_view, self._melds_html(view, phase, cards))
        self.stock.show(None, face_down=True, count=view.stock_size,
                        caption=t('table.stock', count=view.stock_size), active=phase == 'draw',
                        aria=t('table.stock_aria' + ('.draw' if phase == 'draw' else ''),
                                cards=counted('amount.cards', view.stock_size)),
                        guess='draw:stock' if phase == 'draw' else None)
        on_offer = view.offer.card if view.offer else None
        asked_out_of_turn = phase == 'offer' and view.offer.on_turn != self.seat
        can_take = phase == 'offer' and TakeOffer() in view.legal_actions
        # keeping the offered card on your turn is your draw (out of turn, a robo brings a penalty card too)
        take_guess = 'draw:discard' if can_take and not asked_out_of_turn else None
        self.discard.show(view.discard_top, face_down=False, count=view.discard_size,
                          caption=t('continental.on_offer') if on_offer else t('table.discard', count=view.discard_size),
                          active=phase in ('offer', 'play'),
                          aria=t('continental.on_offer_aria', card=the_card(on_offer)) if on_offer
                          else discard_aria(view.discard_top, view.discard_size), fresh=self.fresh_discard(),
                          guess='discard' if phase == 'play' else take_guess)
        self.live.html(self.status, f'<div class="font-semibold">{escape(self._status(view, phase))}</div>'
                                    f'{self.notice_html()}')
        self.live.attrs(self.take_button, {'hidden': True if asked_out_of_turn else None,
                                           'disabled': None if can_take and not asked_out_of_turn else True,
                                           GUESS: take_guess})
        self.live.attrs(self.robo_button, {'hidden': None if asked_out_of_turn else True,
                                           'disabled': None if can_take and asked_out_of_turn else True,
                                           'title': t('continental.robo_help')})
        self.live.attrs(self.pass_button, {'disabled': None if phase == 'offer' else True})
        building = phase == 'play' and not view.down[self.seat]
        # the answers to an offer while it is asked of you, the builder while you may go down
        self.live.attrs(self.offer_buttons, {'data-away': None if phase == 'offer' else True})
        self.live.attrs(self.builder_buttons, {'data-away': None if building else True})
        self.live.html(self.builder_view, self._builder_html(view, checks, cards) if building else '')
        used = sum(len(group) for group in self.groups)
        ready = building and progress(checks, view.contract, len(cards), used).ready
        self.live.attrs(self.group_button, {'disabled': None if building and self.selected else True})
        self.live.attrs(self.propose_button, {'disabled': None if building else True})
        self.live.attrs(self.confirm_button, {'disabled': None if ready else True})
        can_discard = phase == 'play' and len(self.selected) == 1
        self.live.attrs(self.discard_button, {'disabled': None if can_discard else True,
                                              GUESS: 'discard' if can_discard else None})
        # no hints chosen: no button; otherwise it keeps its place, usable on your turn
        self.live.attrs(self.hint_button, {'hidden': None if self.snap.options.hints else True,
                                           'disabled': None if phase in ('offer', 'draw', 'play') else True})
        me = self.seat
        if not self.spectator:
            own = t('continental.own', points=counted('amount.points', view.scores[me]),
                    cards=counted('amount.cards', len(cards)))
            if view.down[me]:
                own += f' · {personal("continental.is_down", you=True)}'
            self.live.html(self.own, own_line_html(
                SeatInfo(seat=me, name=self.names[me], score=view.scores[me], cards=len(cards), dealer=view.dealer == me,
                         on_turn=phase in ('offer', 'draw', 'play'), out=False, you=True), title=own,
                marks=self.seat_marks()[me]))
        self.hand_view.show(self._hand_items(cards), self.selected)

    def _note_fresh(self, view: Any) -> None:
        """The cards your hand gained since it was last drawn (a draw, the offer kept, a robo with its
        penalty card) stay ringed until it loses one (a discard, a meld, a lay-off) or a new hand."""
        now = Counter(str(card) for card in view.hand)
        if self.held is None or self.held[0] != view.hand_number:
            self.fresh = Counter()
        elif now.total() > self.held[1].total():
            self.fresh = now - self.held[1]
        elif now != self.held[1]:
            self.fresh = Counter()
        self.held = (view.hand_number, now)

    def _hand_items(self, cards: list[Card]) -> list[HandCard]:
        colours = self._group_colours(cards)
        fresh, ringed = self.fresh.copy(), []
        for card in cards:   # of two equal cards (two decks), one may be the new one
            ringed.append(fresh[str(card)] > 0)
            fresh[str(card)] -= 1
        return [HandCard(card, bar=colours[i], value=None if colours[i] else card_points(card), fresh=ringed[i],
                         description=t('meld.in_group') if colours[i] else t('continental.worth',
                                                                               points=card_points(card)))
                for i, card in enumerate(cards)]

    def _group_colours(self, cards: list[Card]) -> list[str | None]:
        """A colour per hand card: its group's, or None. Equal cards (two decks) are matched in turn."""
        colours: list[str | None] = [None] * len(cards)
        for index, group in enumerate(self.groups):
            for code in group:
                position = next(i for i, card in enumerate(cards) if str(card) == code and colours[i] is None)
                colours[position] = MELD_COLOURS[index % len(MELD_COLOURS)]
        return colours

    def _keep_builder(self, view: Any, cards: list[Card]) -> None:
        """Groups belong to one hand, and hold only cards you still have."""
        if self.builder_hand != view.hand_number or view.down[self.seat]:
            self.groups, self.joker_low, self.builder_hand = [], [], view.hand_number
        left = Counter(str(card) for card in cards)
        kept = []
        for group, low in zip(self.groups, self.joker_low):
            if not Counter(group) - left:   # every card of the group is still in the hand
                left -= Counter(group)
                kept.append((group, low))
        self.groups, self.joker_low = [g for g, _ in kept], [low for _, low in kept]
        self.selected = frozenset(i for i in self.selected if i < len(cards))

    def _offer_html(self, view: Any) -> str:
        offer = view.offer
        if offer is None:
            return ''
        who = (personal('continental.offer_from', you=offer.discarder == self.seat, name=self.names[offer.discarder])
               if offer.discarder is not None
               else t('continental.offer_turned_up'))
        answers = []
        for seat in offer.order:
            if seat in offer.passed:
                text = personal('continental.answer_pass', you=seat == self.seat, name=self.names[seat])
            elif seat == offer.asked:
                text = personal('continental.answer_asked', you=seat == self.seat, name=self.names[seat])
            else:
                continue
            answers.append(f'<span class="hod-chip" data-testid="offer-answer" data-seat="{seat}">'
                           f'{escape(text)}</span>')
        return (f'<div class="hod-offer flex items-center gap-2 text-sm" data-testid="offer-round">'
                f'{card_html(offer.card, size="xs")}<span class="font-semibold">{escape(who)}</span>{"".join(answers)}'
                f'<span class="opacity-80">{escape(t("continental.no_stock_yet"))}</span></div>')

    def _melds_html(self, view: Any, phase: str, cards: list[Card]) -> str:
        card = cards[next(iter(self.selected))] if len(self.selected) == 1 and phase == 'play' \
            and view.down[self.seat] else None
        extra = ''
        if self.pending is not None:
            code, meld_id, positions = self.pending
            choices = ''.join(f'<button type="button" class="hod-btn hod-btn-light" data-testid="layoff-end" '
                              f'data-choice="end:{position}">{escape(self._end_words(position, meld_id, view))}</button>'
                              for position in positions)
            extra = (f'<div class="flex flex-wrap items-center gap-2"><span>'
                     f'{escape(t("continental.which_end", card=the_card(french_card(code))))}</span>{choices}</div>')
        return melds_html(view, self.names, self.seat, self.every_seat(),
                          lambda meld: card is not None and bool(meld.lay_off_positions(card)) and len(cards) > 1, extra)

    @staticmethod
    def _end_words(position: int, meld_id: int, view: Any) -> str:
        meld = next(meld for meld in view.melds if meld.id == meld_id)
        return t('continental.low_end' if position < meld.start else 'continental.high_end')

    def _builder_html(self, view: Any, checks: list[GroupCheck], cards: list[Card]) -> str:
        used = sum(len(group) for group in self.groups)
        done = progress(checks, view.contract, len(cards), used)
        parts = [t('meld.sets', done=done.sets, wanted=view.contract.sets)] if view.contract.sets else []
        parts += [t('meld.runs', done=done.runs, wanted=view.contract.runs)] if view.contract.runs else []
        tick = '✔ ' if done.met else ''
        groups = []
        for index, check in enumerate(checks):
            colour = MELD_COLOURS[index % len(MELD_COLOURS)]
            shown = check.ordered or tuple(french_card(code) for code in self.groups[index])
            if check.kind:
                verdict = t(f'meld.kind.{check.kind}')
                style = 'text-green-800 font-semibold'
            else:
                verdict = t(check.reason, **check.params)
                style = 'text-red-800'
            joker = ''
            if check.joker_choice:
                joker = (f'<button type="button" class="hod-btn hod-btn-light text-xs" data-testid="joker-end" '
                         f'data-choice="joker:{index}">{escape(t("meld.joker_move"))}</button>')
            groups.append(
                f'<div class="hod-group flex flex-wrap items-center gap-2" style="border-color: {colour}" '
                f'data-testid="meld-group" data-valid="{str(bool(check.kind)).lower()}">'
                f'<div class="hod-fan">{"".join(card_html(card, size="xs") for card in shown)}</div>'
                f'<span class="text-sm {style}" data-testid="meld-verdict">{escape(verdict)}</span>{joker}'
                f'<button type="button" class="hod-btn hod-btn-light text-xs ml-auto" data-testid="meld-ungroup" '
                f'data-choice="ungroup:{index}" aria-label="{escape(t("meld.ungroup"))}">✕</button></div>')
        problem = ''
        if done.extra:
            problem = t('meld.too_many', contract=contract_words(view.contract))
        elif done.met and not done.ready:
            problem = t('illegal.keep_a_card')
        note = f'<div class="text-amber-200 text-sm" data-testid="meld-problem">{escape(problem)}</div>' if problem else ''
        return (f'<div class="flex flex-col gap-2" data-testid="meld-builder">'
                f'<div class="text-sm"><span class="font-semibold">{escape(t("meld.title"))}</span> '
                f'<span data-testid="meld-checklist">{tick}{escape(" · ".join(parts))}</span></div>'
                f'{"".join(groups)}{note}</div>')

    def _status(self, view: Any, phase: str) -> str:
        if phase == 'offer':
            card = the_card(view.offer.card)
            if view.offer.on_turn == self.seat:
                return t('continental.your_offer', card=card)
            return t('continental.robo_offer', card=card)
        if phase == 'draw':
            return t('continental.draw')
        if phase == 'play':
            if view.down[self.seat]:
                return t('continental.play_down')
            return t('continental.play', contract=contract_words(view.contract))
        if view.current_seat is not None:
            return t('table.waiting', name=self.names[view.current_seat])
        return ''

    # the shell's other parts ------------------------------------------------------------------------
    def log_lines(self) -> list[str]:
        return log_lines(self.visible_log(), self.names, self.seat, cache=self.log_cache)

    def count_panel(self, view: Any, phase: str) -> None:
        if view.last_result is not None:
            count_panel(view.last_result, self.names, self.seat,
                        on_next=None if phase == 'over' or self.spectator else self.resume,
                        next_contract=None if phase == 'over' else view.contract, went_on=self.went_on())

    def panel_key(self, view: Any) -> tuple:
        return (view.last_result and view.last_result['hand'],)

    def score_rows(self, view: Any) -> list[tuple[str, list[str]]]:
        return [(t('continental.score_row', hand=index + 1, contract=contract_words(contract(index + 1))),
                 [number(points) for points in row]) for index, row in enumerate(view.hand_scores)]

    def score_totals(self, view: Any) -> tuple[list[str], str]:
        return [number(total) for total in view.scores], t('table.total')

    # the player's choices --------------------------------------------------------------------------
    def after_action(self) -> None:
        self.selected = frozenset()
        self.pending = None

    def _redraw(self) -> None:
        self.render()

    def _select(self, index: int) -> None:
        view = self.snap.view
        if self.phase(view) != 'play':
            return
        self.selected = self.selected ^ {index}
        self.pending = None
        self.notice = ''
        self._redraw()

    def _picked(self, args: Any) -> None:
        """A click or key in the melds or the builder: ``[choice, version]``."""
        if not (isinstance(args, list) and len(args) == 2 and isinstance(args[0], str)):
            return
        kind, _, value = args[0].partition(':')
        number, version = _number(value), version_sent(args[1])
        if number is None:
            self.refused(t('illegal.bad_action'))
            return
        if kind == 'meld':
            self._lay_off_on(number, version)
        elif kind == 'end' and self.pending is not None:
            code, meld_id, positions = self.pending
            if number in positions:
                self.act(LayOff(french_card(code), meld_id, number), version)
        elif kind == 'joker' and 0 <= number < len(self.groups):
            self.joker_low[number] = not self.joker_low[number]
            self._redraw()
        elif kind == 'ungroup' and 0 <= number < len(self.groups):
            del self.groups[number], self.joker_low[number]
            self._redraw()

    def _one_chosen_card(self, view: Any) -> Any | None:
        """The one card you chose; None (and the table asks for one) when there is not exactly one."""
        cards = self.cards(view)
        if len(self.selected) != 1 or not 0 <= next(iter(self.selected)) < len(cards):
            self.notice = t('continental.select_one')
            self._redraw()
            return None
        return cards[next(iter(self.selected))]

    def _lay_off_on(self, meld_id: int, version: int | None) -> None:
        view = self.snap.view
        card = self._one_chosen_card(view)
        if card is None:
            return
        meld = next((meld for meld in view.melds if meld.id == meld_id), None)
        positions = meld.lay_off_positions(card) if meld is not None else []
        if len(positions) > 1:   # a joker that could go at either end: you say where
            self.pending = (str(card), meld_id, positions)
            self._redraw()
            return
        self.act(LayOff(card, meld_id, positions[0] if positions else None), version)

    def _dropped_on_meld(self, args: Any) -> None:
        if not (isinstance(args, list) and len(args) == 3 and isinstance(args[0], str)):
            return
        view = self.snap.view
        meld = _number(args[0].partition(':')[2])
        if meld is None or _hand_index(args[1], len(view.hand)) is None:
            self.refused(t('illegal.bad_action'))
            return
        self.selected = frozenset({args[1]})
        self._lay_off_on(meld, version_sent(args[2]))

    def _make_group(self) -> None:
        view = self.snap.view
        cards = self.cards(view)
        colours = self._group_colours(cards)
        chosen = [str(cards[i]) for i in sorted(self.selected) if colours[i] is None]
        if chosen:
            self.groups.append(chosen)
            self.joker_low.append(False)
        self.selected = frozenset()
        self._redraw()

    def _propose(self) -> None:
        view = self.snap.view
        best = solve(view.hand, view.hand_number, keep=1)
        if best is None:
            self.notice = t('meld.no_proposal', contract=contract_words(view.contract))
        else:
            self._fill_builder(best.melds)
            self.notice = t('meld.proposed', points=counted('amount.points', best.left_points))
        self._redraw()

    def _fill_builder(self, melds: tuple[tuple[Card, ...], ...]) -> None:
        self.groups = [[str(card) for card in meld] for meld in melds]
        self.joker_low = [bool(meld) and meld[0].is_joker for meld in melds]
        self.selected = frozenset()

    def _go_down(self, version: int | None) -> None:
        checks = [check_group([french_card(code) for code in group], low)
                  for group, low in zip(self.groups, self.joker_low)]
        melds = tuple(check.ordered or tuple(french_card(code) for code in group)
                      for check, group in zip(checks, self.groups))
        if self.act(GoDown(melds), version):
            self.groups, self.joker_low = [], []

    def _take(self, version: int | None) -> None:
        self.act(TakeOffer(), version)

    def _pass(self, version: int | None) -> None:
        self.act(PassOffer(), version)

    def _discard_pile_clicked(self, version: int | None) -> None:
        phase = self.phase(self.snap.view)
        if phase == 'offer':
            self._take(version)
        elif phase == 'play':
            self._discard_selected(version)

    def _dropped_on_discard(self, index: int) -> None:
        if _hand_index(index, len(self.snap.view.hand)) is None:   # a crafted drop
            self.refused(t('illegal.bad_action'))
            return
        self.selected = frozenset({index})
        self._discard_selected(None)

    def _discard_selected(self, version: int | None) -> None:
        card = self._one_chosen_card(self.snap.view)
        if card is not None:
            self.act(Discard(card), version)

    def show_hint(self, action: Any) -> None:
        cards = [str(card) for card in self.cards(self.snap.view)]
        if isinstance(action, GoDown):
            self._fill_builder(action.melds)
        elif isinstance(action, (LayOff, Discard)):
            self.selected = frozenset({cards.index(str(action.card))})
        self.notice = hint_text(action, self.snap.view, self.names)
        self._redraw()


def _number(text: str) -> int | None:
    """A number a choice carries (``meld:3``, ``end:-1``); None for anything a browser would not send."""
    return int(text) if re.fullmatch(r'-?[0-9]{1,6}', text) else None


def _hand_index(value: object, size: int) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < size else None


def hint_text(action: Any, view: Any, names: list[str]) -> str:
    if isinstance(action, TakeOffer):
        return t('hint.continental.take' if view.offer and view.offer.on_turn == view.seat else 'hint.continental.robo')
    if isinstance(action, PassOffer):
        return t('hint.continental.pass')
    if isinstance(action, DrawStock):
        return t('hint.draw_stock')
    if isinstance(action, GoDown):
        return t('hint.continental.go_down')
    if isinstance(action, LayOff):
        owner = next(meld.owner for meld in view.melds if meld.id == action.meld_id)
        return personal('hint.continental.lay_off', you=owner == view.seat, card=the_card(action.card), name=names[owner])
    return t('hint.discard', card=the_card(action.card))
