"""The Ronda Robada table: every seat's pile, the loose cards, the stock, your hand of three and the
run builder, drawn inside the table shell shared by every game (components/table/shell.py).

A turn is a drop, or a run built step by step: pick a hand card, pair it with a loose card of its
number, then take the next number (a loose card, or a whole pile whose top has it) as long as you
like, and confirm. The board is a few blocks of markup; every choice in it carries
``data-choice`` (``hand:5c``, ``loose:5o``, ``pile:2``) and reaches the server through one
delegated handler, with the version of the screen it was made on."""
from __future__ import annotations

from collections.abc import Callable
from html import escape
from typing import Any

from nicegui import ui

from app.engine.cards import Card, spanish_card
from app.engine.ronda_robada import Confirm, Drop, StartRun, TakeLoose, TakePile
from app.i18n import counted, t
from app.tables.port import SeatPort
from components.card import card_html, card_name, the_card
from components.controls import action_button, on_choice, version_sent
from components.live import GUESS
from components.ronda_robada.count import VERIFY_SNIPPET, count_panel
from components.ronda_robada.drawing import (RONDA_CSS, card_attrs, centre_html, piles_html, recent_events, robbers,
                                             run_box, run_summary)
from components.ronda_robada.log import log_lines
from components.table.fit import grow
from components.table.moments import Motion
from components.table.shell import TableScreen


class RondaRobadaTable(TableScreen):
    parse_card = staticmethod(spanish_card)
    verify_snippet = VERIFY_SNIPPET
    seat_testid = 'rr-seat'

    def __init__(self, port: SeatPort, **handlers: Any) -> None:
        super().__init__(port, **handlers)
        self.selected: str | None = None   # the hand card chosen to play, by its code
        self.log_cache: dict[int, tuple[dict, str | None]] = {}

    # building ---------------------------------------------------------------------------------
    def board(self) -> None:
        ui.add_css(RONDA_CSS)
        self.piles = self._choices(ui.html('', sanitize=False).classes('w-full').mark('piles'))
        with grow().classes('flex flex-col gap-2'):
            self.centre = self._choices(ui.html('', sanitize=False).classes('w-full').mark('centre'))
            self.run_panel = self._choices(ui.html('', sanitize=False).classes('w-full').mark('run'))
        self.status = ui.html('', sanitize=False).classes('w-full text-center hod-status hod-rr-status') \
            .props('aria-live="polite" data-testid="status"').mark('status')
        # your hand and actions (.hod-own: what a spectator's screen leaves out)
        self.hand_view = self._choices(ui.html('', sanitize=False).classes('w-full hod-own').props('data-testid="hand"')
                                       .mark('hand'))
        with self.action_bar():
            self.confirm_button = action_button(t('ronda.confirm'), 'confirm-run', self.speaking(self._confirm),
                                                tone='accent', icon='check', versioned=True)
            self.drop_button = action_button(t('ronda.drop'), 'drop', self.speaking(self._drop), icon='south',
                                             versioned=True)
            self.hint_button = action_button(t('table.hint'), 'hint', self.ask_hint, tone='flat',
                                             icon='lightbulb')

    def _choices(self, element: ui.html) -> ui.html:
        return on_choice(element, self.speaking(self._chosen))

    # what the screen shows ------------------------------------------------------------------------
    def turn_phase(self, view: Any) -> str:
        if view.current_seat != self.seat or view.outcome is not None:
            return 'wait'
        return 'start' if view.run is None else 'run'

    def top_texts(self, view: Any) -> list[str]:
        return [t(self.snap.game.name_key)]

    def others_html(self, view: Any) -> str:
        return ''   # every seat, yours too, is drawn with its pile on the board

    def draw_board(self, view: Any, phase: str) -> None:
        if self.selected is not None and (phase != 'start' or self.selected not in map(str, view.hand)):
            self.selected = None
        recent = recent_events(view)
        self.live.html(self.piles, self._piles_html(view, phase, recent))
        self.live.html(self.centre, self._centre_html(view, phase))
        self.live.html(self.run_panel, self._run_html(view, phase))
        self.live.html(self.status, f'<div class="font-semibold">{escape(self._status(view, phase, recent))}</div>'
                                    f'{self.notice_html()}')
        self.live.html(self.hand_view, self._hand_html(view, phase))
        self.live.attrs(self.confirm_button, {'disabled': None if phase == 'run' else True})
        can_drop = phase == 'start' and self.selected is not None
        self.live.attrs(self.drop_button, {'disabled': None if can_drop else True, GUESS: 'drop' if can_drop else None,
                                           'title': t('illegal.no_drop_after_start') if phase == 'run' else None})
        # no hints chosen: no button; otherwise it keeps its place, usable on your turn
        self.live.attrs(self.hint_button, {'hidden': None if self.snap.options.hints else True,
                                           'disabled': None if phase in ('start', 'run') else True})

    def _piles_html(self, view: Any, phase: str, recent: list[Any]) -> str:
        options = self._pile_options(view) if phase == 'run' else set()
        return piles_html(view, self.names, self.seat, self.every_seat(), robbers(recent), options,
                          self.seat_marks())

    def _centre_html(self, view: Any, phase: str) -> str:
        return centre_html(view, self._loose_choices(view, phase))

    def _run_html(self, view: Any, phase: str) -> str:
        """The run being built (anybody's) and, on your turn, every way to go on."""
        if phase == 'start' and self.selected is not None:
            pairs = [card for card in view.loose if str(card.rank) == self.selected[:-1]]
            if not pairs:
                return ''
            title = t('ronda.pair_with', card=the_card(spanish_card(self.selected)))
            return run_box(title, '', self._option_cards(pairs))
        summary = run_summary(view, self.names, self.seat)
        if summary is None:
            return ''
        owner, shown = summary
        options = ''
        if phase == 'run':
            loose = [card for card in view.loose if TakeLoose(card) in view.legal_actions]
            piles = sorted(self._pile_options(view))
            options = self._option_cards(loose) + ''.join(
                '<div class="hod-rr-card hod-choice flex flex-col items-center" '
                + card_attrs(f'pile:{seat}', t('ronda.take_pile_option', pile=self.pile_words(seat),
                                              cards=counted('amount.cards', view.pile_sizes[seat])), 'run-option', f' data-seat="{seat}"')
                + f'>{card_html(view.pile_tops[seat], size="md")}<span class="text-xs">'
                f'{escape(self.pile_words(seat))}</span>'
                f'<span class="hod-rr-size">{escape(counted("amount.cards", view.pile_sizes[seat]))}</span></div>'
                for seat in piles)
        return run_box(owner, shown, options)

    @staticmethod
    def _option_cards(cards: list[Card]) -> str:
        return ''.join('<div class="hod-rr-card hod-choice" '
                       + card_attrs(f'loose:{card}', card_name(card), 'run-option', f' data-card="{card}"')
                       + f'>{card_html(card, size="md")}</div>' for card in cards)

    def _hand_html(self, view: Any, phase: str) -> str:
        starters = {str(action.card) for action in view.legal_actions if isinstance(action, StartRun)}
        slots = []
        for card in view.hand:
            code = str(card)
            chosen = code == self.selected
            can_start = code in starters
            mark = (f'<span class="hod-rr-mark" aria-hidden="true">{escape(t("ronda.can_start"))}</span>'
                    if can_start else '')
            label = card_name(card) + (f', {t("ronda.can_start_aria")}' if can_start else '')
            slots.append(f'<div class="hod-rr-card{" hod-selected" if chosen else ""}" '
                         + card_attrs(f'hand:{code}' if phase == 'start' else None, label, 'hand-card',
                                  f' data-card="{code}"' + (f' aria-pressed="{str(chosen).lower()}"' if phase == 'start' else ''))
                         + f'>{mark}{card_html(card, size="lg")}</div>')
        return (f'<div class="hod-rr-hand" role="group" aria-label="{escape(t("table.your_hand"))}">'
                f'{"".join(slots)}</div>')

    def _status(self, view: Any, phase: str, recent: list[Any]) -> str:
        redeal = next((event for event in reversed(recent) if event.kind == 'redeal'), None)
        news = f'{t("ronda.redealt", count=redeal.data["stock"])} ' if redeal is not None else ''
        return news + self._next_step(view, phase)

    def _next_step(self, view: Any, phase: str) -> str:
        if phase == 'start':
            if self.selected is None:
                return t('ronda.your_turn')
            has_pair = any(str(card.rank) == self.selected[:-1] for card in view.loose)
            return t('ronda.pair_or_drop' if has_pair else 'ronda.only_drop',
                     card=the_card(spanish_card(self.selected)))
        if phase == 'run':   # one message: go on while something can be taken, else confirm
            can_go_on = any(isinstance(action, (TakeLoose, TakePile)) for action in view.legal_actions)
            return t('ronda.go_on' if can_go_on else 'ronda.nothing_more')
        return t('table.waiting', name=self.names[view.current_seat]) if view.current_seat is not None else ''

    def _loose_choices(self, view: Any, phase: str) -> set[str]:
        if phase == 'start' and self.selected is not None:
            return {str(action.loose) for action in view.legal_actions
                    if isinstance(action, StartRun) and str(action.card) == self.selected}
        if phase == 'run':
            return {str(action.card) for action in view.legal_actions if isinstance(action, TakeLoose)}
        return set()

    def pile_words(self, seat: int) -> str:
        """'your pile' or 'Lucía's pile'."""
        return t('ronda.your_pile') if seat == self.seat else t('ronda.pile_of', name=self.names[seat])

    @staticmethod
    def _pile_options(view: Any) -> set[int]:
        return {action.owner for action in view.legal_actions if isinstance(action, TakePile)}

    # the shell's other parts ---------------------------------------------------------------------
    def log_lines(self) -> list[str]:
        return log_lines(self.visible_log(), self.names, self.seat, cache=self.log_cache)

    def banner(self, event: dict[str, Any]) -> tuple[str, str] | None:
        """A pile taken is the game's big moment: above all for the one who loses it."""
        if event['kind'] != 'take_pile' or event['data']['owner'] == event['seat']:
            return None
        taker, owner, size = event['seat'], event['data']['owner'], event['data']['size']
        key = 'banner.steal.you' if owner == self.seat else 'banner.steal.by_you' if taker == self.seat \
            else 'banner.steal'
        return 'steal', counted(key, size, name=self.names[taker], owner=self.names[owner])

    def motions(self, event: dict[str, Any]) -> list[Motion]:
        """A card played goes from its seat (your card) to the loose cards or into the run; what a
        run takes flies into it, and a confirmed run into its taker's pile."""
        kind, seat, data = event['kind'], event.get('seat'), event.get('data', {})
        if seat is None:
            return []
        played = self.CHOSEN_CARD if seat == self.seat else self.seat_selector(seat)
        in_run = '[data-testid="run-so-far"] [data-card="{}"]'.format
        if kind == 'drop':
            return [(played, f'[data-testid="loose-card"][data-card="{data["card"]}"]', False)]
        if kind == 'start_run':
            return [(played, in_run(data['card']), False),
                    (f'[data-testid="loose-card"][data-card="{data["loose"]}"]', in_run(data['loose']), False)]
        if kind == 'take_loose':
            return [(f'[data-testid="loose-card"][data-card="{data["card"]}"]', in_run(data['card']), False)]
        if kind == 'take_pile':
            return [(f'[data-testid="pile"][data-seat="{data["owner"]}"]', '[data-testid="run-so-far"]', True)]
        if kind == 'confirm':
            return [('[data-testid="run-so-far"]', f'[data-testid="pile"][data-seat="{seat}"]', True)]
        return []

    def count_panel(self, view: Any, phase: str) -> None:
        count_panel(view, self.names, self.seat)

    def score_rows(self, view: Any) -> list[tuple[str, list[str]]]:
        games = [game['scores'] for game in self.snap.past_games]
        if view.outcome is not None:
            games.append(list(view.outcome.scores))
        return [(t('table.game_number', game=index + 1), [str(score) for score in scores])
                for index, scores in enumerate(games)]

    def score_totals(self, view: Any) -> tuple[list[str], str]:
        return [str(won) for won in self.snap.games_won], t('ronda.games_won')

    # the player's choices --------------------------------------------------------------------------
    def after_action(self) -> None:
        self.selected = None

    def _chosen(self, args: Any) -> None:
        """A click or key on the board: ``[choice, version]``; anything else is ignored."""
        if not (isinstance(args, list) and len(args) == 2 and isinstance(args[0], str)):
            return
        kind, _, value = args[0].partition(':')
        version = version_sent(args[1])
        view = self.snap.view
        try:
            if kind == 'hand':
                self._select(view, spanish_card(value))
            elif kind == 'loose':
                card = spanish_card(value)
                if view.run is None and self.selected is not None:
                    self.act(StartRun(spanish_card(self.selected), card), version)
                else:
                    self.act(TakeLoose(card), version)
            elif kind == 'pile' and value.isdigit():
                self.act(TakePile(int(value)), version)
        except ValueError:   # a tampered card code
            self.refused(t('illegal.bad_action'))

    def _select(self, view: Any, card: Card) -> None:
        if self.phase(view) != 'start' or card not in view.hand:
            return
        self.selected = None if self.selected == str(card) else str(card)
        self.notice = ''
        self.render()

    def _drop(self, version: int | None) -> None:
        if self.phase(self.snap.view) == 'run':   # the button is disabled: a crafted click
            self.refused(t('illegal.no_drop_after_start'))
            return
        if self.selected is None:
            self.notice = t('ronda.select_first')
            self.render()
            return
        self.act(Drop(spanish_card(self.selected)), version)

    def _confirm(self, version: int | None) -> None:
        self.act(Confirm(), version)

    def show_hint(self, action: Any) -> None:
        self.notice = hint_text(action, self.pile_words)
        if isinstance(action, (StartRun, Drop)):
            self.selected = str(action.card)
        self.render()


def hint_text(action: Any, pile_words: Callable[[int], str]) -> str:
    if isinstance(action, StartRun):
        return t('hint.ronda.start_run', card=the_card(action.card), loose=the_card(action.loose))
    if isinstance(action, TakeLoose):
        return t('hint.ronda.take_loose', card=the_card(action.card))
    if isinstance(action, TakePile):
        return t('hint.ronda.take_pile', pile=pile_words(action.owner))
    if isinstance(action, Drop):
        return t('hint.ronda.drop', card=the_card(action.card))
    return t('hint.ronda.confirm')
