"""The Chinchón table: seats, piles, the human's hand with its melds, actions, count and game over.

It reads only the human seat's view from the controller and sends actions back through it."""
from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from html import escape
from typing import Any

from nicegui import ui

from app.controllers.table import HUMAN, TableController
from app.engine.cards import Card, spanish_card
from app.engine.chinchon import card_value
from app.engine.chinchon.actions import BuyBack, Close, Discard, DrawDiscard, DrawStock
from app.engine.chinchon.melds import best_arrangement, best_close, best_discard
from app.engine.protocol import IllegalAction
from app.i18n import current_language, language_scope, t
from components.card import card_name
from components.chinchon.count import count_panel, fair_deal_box
from components.chinchon.log import log_lines
from components.controls import action_button, fold
from components.live import Live
from components.table_parts import (FOCUS_KEEPER, MELD_COLOURS, TABLE_CSS, HandCard, SeatInfo, drop_target, hand_view,
                                    log_html, pile, refusal_text, rules_link_html, scoreboard_html, seat_html,
                                    seats_html)

BOT_NAMES = ('Lucía', 'Mateo', 'Carmen', 'Javier', 'Elena')


def seat_names(seats: int) -> list[str]:
    return [t('table.you')] + list(BOT_NAMES[:seats - 1])


class ChinchonTable:
    def __init__(self, controller: TableController, *, on_play_again: Callable[[], None],
                 on_new_game: Callable[[], None]) -> None:
        self.controller = controller
        self.on_play_again = on_play_again
        self.on_new_game = on_new_game
        self.selected: int | None = None
        self.notice = ''
        self.names = seat_names(controller.options.seats)
        self.root: ui.element | None = None
        self.built: dict[str, tuple] = {}   # the key each rebuilt part was last drawn for
        self.log_cache: dict[int, tuple[dict, str | None]] = {}
        # fixed while the page lives (the switch reloads it): the computers' moves are drawn from a
        # background task, which cannot see the browser's request to read its preferred language
        self.language = current_language()

    def build(self) -> None:
        ui.add_css(TABLE_CSS)
        ui.add_body_html(FOCUS_KEEPER)
        self.live = Live()
        self.root = ui.element('div').classes('w-full').props('data-testid="table"').mark('table')
        with language_scope(self.language):
            self._layout()
        self.render()
        self.controller.listeners.append(lambda events: self.render())
        self.controller.start()

    # what the screen shows ---------------------------------------------------
    def phase(self, view: Any) -> str:
        if view.outcome is not None:
            return 'over'
        if self.controller.pause is not None:
            return 'count'
        if view.current_seat == HUMAN and view.phase in ('draw', 'discard'):
            return view.phase
        return 'wait'

    def hand(self, view: Any) -> list[Card]:
        """The human's cards in the order they arranged them; new cards go to the right."""
        remaining = Counter(str(card) for card in view.hand)
        order = []
        for code in self.controller.hand_order:
            if remaining[code] > 0:
                remaining[code] -= 1
                order.append(code)
        for card in view.hand:   # cards not placed yet: newly drawn ones
            if remaining[str(card)] > 0:
                remaining[str(card)] -= 1
                order.append(str(card))
        self.controller.hand_order = order
        return [spanish_card(code) for code in order]

    def _speaking(self, handler: Callable[..., None]) -> Callable[..., None]:
        """The player's actions answer in the page's language, looked up once per action."""
        def speaking(*args: Any) -> None:
            with language_scope(self.language):
                handler(*args)
        return speaking

    def _layout(self) -> None:
        """Every part is built once and redrawn in place: a move then updates a handful of elements
        instead of rebuilding the table (what keeps a click's answer close to a bare button's)."""
        with self.root, ui.element('div').classes('w-full flex flex-col lg:flex-row gap-4 items-start'):
            with ui.column().classes('hod-felt w-full lg:w-auto lg:flex-1 p-2 sm:p-4 gap-3 min-w-0'):
                self.top = ui.element('div').classes('w-full')
                self.seats = ui.html('', sanitize=False).classes('w-full').mark('seats')
                self.panel = ui.element('div').classes('w-full')
                with ui.column().classes('w-full gap-3') as self.play_area:
                    with ui.row().classes('w-full justify-center items-center gap-4 sm:gap-8'):
                        self.stock = pile('stock', self._speaking(lambda: self.act(DrawStock())), self.live)
                        self.discard = pile('discard', self._speaking(self._discard_pile_clicked), self.live)
                        drop_target(self.discard, self._speaking(self._dropped_on_discard))
                        self.status = ui.html('', sanitize=False).classes('max-w-xs') \
                            .props('aria-live="polite" data-testid="status"').mark('status')
                    self.own = ui.html('', sanitize=False).classes('w-full').mark('own-seat')
                    self.hand_view = hand_view(on_select=self._speaking(self._select),
                                               on_move=self._speaking(self._move), painter=self.live)
                    with ui.row().classes('w-full justify-center gap-2'):
                        action_button(t('table.sort'), 'sort', self._speaking(self._sort), icon='sort')
                        self.discard_button = action_button(t('table.discard_button'), 'discard-button',
                                                            self._speaking(self._discard_selected), tone='accent')
                        self.close_button = action_button(t('table.close'), 'close', self._speaking(self._close),
                                                          tone='danger')
                        self.hint_button = action_button(t('table.hint'), 'hint', self._speaking(self._hint),
                                                         tone='flat', icon='lightbulb')
            with ui.column().classes('w-full lg:w-80 lg:shrink-0 gap-3'):
                # folded or open as the player leaves them
                with fold(t('table.scoreboard'), icon='leaderboard', testid='scoreboard-fold'):
                    self.scores = ui.html('', sanitize=False).classes('w-full').mark('scoreboard')
                with fold(t('table.log'), icon='history', testid='log-fold'):
                    self.log = ui.html('', sanitize=False).classes('w-full').mark('hand-log')
                self.fair = ui.element('div').classes('w-full bg-white rounded px-2')

    def render(self) -> None:
        """Redraw the table from the human seat's view: what changes on every move goes through the
        live channel (one patch), the rest (count, game over, a new hand) as element updates."""
        with language_scope(self.language):
            self._render()
        self.live.send()

    def _render(self) -> None:
        view = self.controller.view()
        phase = self.phase(view)
        self.live.attrs(self.root, {'data-phase': phase})
        self._rebuild_when_changed('top', (view.hand_number,), self.top, lambda: self._top_bar(view))
        self.live.html(self.seats, seats_html([self._seat_info(view, seat) for seat in range(1, view.seats)]))
        # during play the panel is empty: the turns of a hand must not rebuild it
        panel_key = (phase if phase in ('count', 'over') else 'play', view.hand_number,
                     view.last_result and view.last_result.bought_back, self.controller.must_answer_during_pause())
        self._rebuild_when_changed('panel', panel_key, self.panel, lambda: self._panel(view, phase))
        self.play_area.set_visibility(phase not in ('count', 'over'))
        if phase not in ('count', 'over'):   # the next hand is already dealt: it shows once the count is read
            self._centre(view, phase)
            self._own_hand(view, phase)
        self.live.html(self.scores, self._scores_html(view))
        self.live.html(self.log, log_html(log_lines(self.controller.log, self.names, cache=self.log_cache)))
        self._rebuild_when_changed('fair', (view.hand_number, len(view.past_hands)), self.fair,
                                   lambda: fair_deal_box(view.commitment, view.past_hands))

    def _rebuild_when_changed(self, part: str, key: tuple, container: ui.element, build: Callable[[], None]) -> None:
        if self.built.get(part) != key:
            self.built[part] = key
            container.clear()
            with container:
                build()

    def _panel(self, view: Any, phase: str) -> None:
        if phase in ('count', 'over') and view.last_result is not None:
            self._count(view, phase)
        if phase == 'over':
            self._game_over(view)

    def _top_bar(self, view: Any) -> None:
        with ui.row().classes('w-full items-center gap-2 text-sm'):
            ui.html(f'<span class="font-semibold">{escape(t("table.hand_number", hand=view.hand_number))}</span>'
                    f'<span class="opacity-80">{escape(t("table.limit", limit=view.rules.limit))}</span>',
                    sanitize=False).classes('flex gap-2 items-center')
            ui.html(rules_link_html('chinchon', 'text-white underline'), sanitize=False).classes('ml-auto')
            action_button(t('table.new_game'), 'new-game', self._confirm_new_game, tone='flat')

    def _seat_info(self, view: Any, seat: int) -> SeatInfo:
        return SeatInfo(seat=seat, name=self.names[seat], score=view.scores[seat], cards=view.card_counts[seat],
                        dealer=view.dealer == seat, on_turn=view.current_seat == seat and view.outcome is None,
                        out=view.eliminated[seat], taken=tuple(view.taken_from_discard[seat]),
                        note=t('table.out') if view.eliminated[seat] else '')

    def _centre(self, view: Any, phase: str) -> None:
        self.stock.show(None, face_down=True, count=view.stock_size, caption=t('table.stock', count=view.stock_size),
                        active=phase == 'draw', aria=t('table.stock_aria', count=view.stock_size))
        self.discard.show(view.discard_top, face_down=False, count=view.discard_size,
                          caption=t('table.discard', count=view.discard_size), active=phase in ('draw', 'discard'),
                          aria=t('table.discard_aria', card=card_name(view.discard_top)) if view.discard_top
                          else t('card.empty'))
        notice = (f'<div class="text-amber-200 text-sm" data-testid="notice" role="alert">{escape(self.notice)}</div>'
                  if self.notice else '')
        self.live.html(self.status, f'<div class="font-semibold">{escape(self._status(view, phase))}</div>{notice}')

    def _status(self, view: Any, phase: str) -> str:
        if phase == 'draw':
            return t('table.your_turn_draw')
        if phase == 'discard':
            return t('table.your_turn_discard')
        if view.current_seat is not None and view.current_seat != HUMAN:
            return t('table.waiting', name=self.names[view.current_seat])
        return ''

    def _own_hand(self, view: Any, phase: str) -> None:
        cards = self.hand(view)
        arrangement = best_arrangement(cards)
        bars = _meld_colours(cards, arrangement.melds)
        items = [HandCard(card, bar=bars[i],
                          value=None if bars[i] else card_value(card),
                          locked=view.taken_this_turn == card and phase == 'discard',
                          description=t('table.in_meld') if bars[i] else t('table.loose_worth', value=card_value(card)))
                 for i, card in enumerate(cards)]
        if self.selected is not None and self.selected >= len(items):
            self.selected = None
        seat = seat_html(SeatInfo(seat=HUMAN, name=self.names[HUMAN], score=view.scores[HUMAN], cards=len(cards),
                                  dealer=view.dealer == HUMAN, on_turn=phase in ('draw', 'discard'),
                                  out=view.eliminated[HUMAN], taken=tuple(view.taken_from_discard[HUMAN])))
        can_close = phase == 'discard' and view.can_close
        notice = (f'<span class="hod-notice" data-testid="close-notice" role="status">{escape(t("table.can_close"))}'
                  '</span>' if can_close else '')
        self.live.html(self.own, f'<div class="flex flex-wrap items-center justify-center gap-2 text-sm">{seat}'
                             f'<span data-testid="own-count">{escape(self._count_text(cards, view, phase))}</span>'
                             f'{notice}</div>')
        self.hand_view.show(items, self.selected, interactive=not view.eliminated[HUMAN])
        self.live.attrs(self.discard_button, {'disabled': None if phase == 'discard' else True})
        self.live.attrs(self.close_button, {'disabled': None if can_close else True})
        self.live.attrs(self.hint_button, {'hidden': None if self.controller.options.hints
                                           and phase in ('draw', 'discard') else True})

    def _count_text(self, cards: list[Card], view: Any, phase: str) -> str:
        if len(cards) == 8:
            _, points = best_discard(cards, view.taken_this_turn)
            return t('table.count_after_discard', points=points)
        return t('table.count_now', points=best_arrangement(cards).loose_value)

    def _count(self, view: Any, phase: str) -> None:
        question = None
        if self.controller.must_answer_during_pause():
            question = t('count.buyback_question', score=view.buyback_score)
        count_panel(view.last_result, self.names, human_question=question,
                    on_buyback=lambda accept: self.act(BuyBack(accept)),
                    on_next=None if phase == 'over' else self.controller.resume_after_count)

    def _game_over(self, view: Any) -> None:
        winners = view.outcome.winners
        with ui.card().classes('w-full items-center gap-3 text-gray-900').props('data-testid="game-over"') \
                .mark('game-over'):
            key = 'over.you_win' if HUMAN in winners else 'over.winner'
            ui.label(t(key, names=', '.join(self.names[s] for s in winners))).classes('text-2xl font-bold') \
                .props('role=heading aria-level=2')
            if view.outcome.reason:
                ui.label(t(f'over.reason.{view.outcome.reason}')).classes('text-gray-700')
            with ui.row().classes('gap-2'):
                ui.button(t('over.play_again'), on_click=self.on_play_again) \
                    .props('unelevated no-caps size=lg data-testid="play-again"').mark('play-again')
                ui.button(t('over.change_options'), on_click=self.on_new_game).props('outline no-caps size=lg')

    def _scores_html(self, view: Any) -> str:
        rows = []
        for result in self.controller.hand_results:
            data = result['data'].get('result')
            if data is None:   # a void hand
                rows.append((t('table.hand_row', hand=result['data']['hand']), [t('table.void_short')] * view.seats))
            else:
                rows.append((t('table.hand_row', hand=data['hand_number']), [str(points) for points in data['added']]))
        return scoreboard_html(self.names, rows[-12:], [str(score) for score in view.scores])

    # the human's actions -------------------------------------------------------
    def act(self, action: Any) -> bool:
        try:
            self.controller.act(action)
        except IllegalAction as refusal:
            self.notice = refusal_text(refusal, spanish_card)
            ui.notify(self.notice, type='warning')
            self.render()
            return False
        self.selected, self.notice = None, ''
        return True

    def _select(self, index: int) -> None:
        self.selected = None if self.selected == index else index
        self.hand_view.show_selection(self.selected)

    def _move(self, source: int, target: int) -> None:
        order = self.controller.hand_order
        if not (0 <= source < len(order) and 0 <= target < len(order)):
            return
        order.insert(target, order.pop(source))
        if self.selected == source:
            self.selected = target
        self.controller.save()
        self.render()

    def _sort(self) -> None:
        cards = self.hand(self.controller.view())
        arrangement = best_arrangement(cards)
        loose = sorted(arrangement.loose, key=lambda card: (card_value(card), card.rank, card.suit.value))
        self.controller.hand_order = [str(card) for meld in arrangement.melds for card in meld] + [str(c) for c in loose]
        self.selected = None
        self.controller.save()
        self.render()

    def _selected_card(self) -> Card | None:
        cards = self.hand(self.controller.view())
        return cards[self.selected] if self.selected is not None and self.selected < len(cards) else None

    def _discard_pile_clicked(self) -> None:
        view = self.controller.view()
        if self.phase(view) == 'draw':
            self.act(DrawDiscard())
        else:
            self._discard_selected()

    def _dropped_on_discard(self, index: int) -> None:
        self.selected = index
        if self.phase(self.controller.view()) == 'discard':
            self._discard_selected()

    def _discard_selected(self) -> None:
        card = self._selected_card()
        if card is None:
            self.notice = t('table.select_first')
            self.render()
            return
        self.act(Discard(card))

    def _close(self) -> None:
        view = self.controller.view()
        card = self._selected_card()
        if card is None:   # no card chosen: lay face down the one that scores best
            best = best_close(self.hand(view), view.taken_this_turn)
            card = best[0] if best else None
        if card is None:
            self.notice = t('illegal.cannot_close')
            self.render()
            return
        self.act(Close(card))

    def _hint(self) -> None:
        action = self.controller.hint()
        if action is None:
            return
        self.notice = hint_text(action)
        if getattr(action, 'card', None) is not None:
            codes = self.controller.hand_order
            self.selected = codes.index(str(action.card)) if str(action.card) in codes else None
        self.render()

    def _confirm_new_game(self) -> None:
        with ui.dialog() as dialog, ui.card():
            ui.label(t('table.new_game_confirm'))
            with ui.row():
                ui.button(t('table.new_game_yes'), on_click=lambda: (dialog.close(), self.on_new_game())) \
                    .props('unelevated no-caps data-testid="new-game-yes"')
                ui.button(t('table.new_game_no'), on_click=dialog.close).props('flat no-caps')
        dialog.open()


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
        return t(f'hint.{action.kind}', card=card_name(action.card))
    if isinstance(action, BuyBack):
        return t('hint.buyback_yes' if action.accept else 'hint.buyback_no')
    return t(f'hint.{action.kind}')
