"""The review of one finished hand: stepped through move by move (first, previous, next, last,
the arrow keys, or any step of the list), shown from the reader's seat, and with every hand
once "with all the cards" is on. Built from a replayed hand (app.review.replay) alone; it plays
nothing and asks the table nothing."""
from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial
from html import escape
from typing import Any

from nicegui import ui
from nicegui.events import KeyEventArguments

from app.i18n import language_scope, t
from app.coach import Judgement
from app.review.analyses import Analysis
from app.review.replay import HandReplay, Step
from components.controls import action_button, on_choice
from components.games import screens_of
from components.pictures import every_hand_html
from components.review.coach import CoachPanel, mark_html
from components.seats import SEATS_CSS
from components.table_parts import TABLE_CSS

EventLine = Callable[[dict[str, Any], Sequence[str], int], 'str | None']

REVIEW_CSS = '''
.hod-review-cards { display: flex; flex-wrap: wrap; justify-content: center; gap: 4px; }
.hod-review-meld { display: flex; padding: 3px; border-radius: 8px; background: rgba(0,0,0,.18);
  border-bottom: 4px solid var(--hod-meld); }
.hod-review-meld > * + * { margin-left: -14px; }
.hod-review-seat-hand { background: rgba(0,0,0,.22); border-radius: 10px; padding: 4px 8px; }
.hod-review-steps { max-height: 320px; overflow-y: auto; position: relative; }
.hod-review-step { display: block; width: 100%; text-align: left; padding: 3px 8px; border-radius: 6px;
  font-size: 13px; cursor: pointer; }
.hod-review-step:hover { background: #eef5f0; }
.hod-review-step[aria-current="step"] { background: #1f5f3a; color: #fff; font-weight: 600; }
'''


def step_words(step: Step, line: EventLine, names: Sequence[str], reader: int) -> str:
    """What a step did, in the log's own words (a step may say several things: a close and its count)."""
    said = [text for text in (line(event, names, reader) for event in step.events) if text]
    return ' '.join(said) or t('review.step_quiet')


class ReviewScreen:
    def __init__(self, hand: HandReplay, *, reader: int, names: Sequence[str], feminine: Sequence[bool],
                 language: str, analysis: Analysis | None = None) -> None:
        self.hand, self.reader, self.names, self.feminine = hand, reader, list(names), list(feminine)
        self.language = language
        self.analysis = analysis
        self.judged: dict[int, Judgement] = {} if analysis is None else analysis.by_step()
        self.screens = screens_of(hand.game.id)
        self.index = 0
        self.all_cards = False
        with language_scope(language):
            line = partial(self.screens.event_line, feminine=self.feminine)
            self.words = [step_words(step, line, self.names, reader) for step in hand.steps]

    @property
    def last(self) -> int:
        return len(self.hand.steps) - 1

    def build(self) -> None:
        ui.add_css(TABLE_CSS + SEATS_CSS + REVIEW_CSS + self.screens.board_css)
        with ui.element('div').classes('w-full flex flex-col lg:flex-row gap-4 items-start') \
                .props('data-testid="replay"').mark('replay') as self.root:
            with ui.column().classes('hod-felt w-full lg:flex-1 p-2 sm:p-4 gap-3 min-w-0'):
                self.caption = ui.html('', sanitize=False).classes('w-full').mark('replay-caption')
                self.moment = ui.element('div').classes('w-full flex flex-col gap-3')
                with ui.row().classes('w-full justify-center items-center gap-2'):
                    self.first = action_button(t('review.first'), 'replay-first', self._speaking(lambda: self.go(0)),
                                               icon='first_page', aria=t('review.first'))
                    self.prev = action_button(t('review.prev'), 'replay-prev',
                                              self._speaking(lambda: self.go(self.index - 1)), icon='chevron_left')
                    self.next = action_button(t('review.next'), 'replay-next',
                                              self._speaking(lambda: self.go(self.index + 1)), icon='chevron_right')
                    self.end = action_button(t('review.last'), 'replay-last', self._speaking(lambda: self.go(self.last)),
                                             icon='last_page')
                self.switch = ui.switch(t('review.all_cards'), on_change=lambda event: self._speaking(self._switched)(event)) \
                    .props('dark color="amber" data-testid="replay-all-cards"').classes('self-center') \
                    .mark('replay-all-cards')
                ui.label(t('review.keys')).classes('text-xs opacity-80 self-center')
            with ui.column().classes('w-full lg:w-80 lg:shrink-0 bg-white rounded p-2 gap-1 text-gray-900'):
                self.coach = None
                if self.analysis is not None:
                    self.coach = CoachPanel(self.analysis, on_judged=self._judged, language=self.language,
                                            names=self.names)
                    self.coach.build()
                ui.label(t('review.steps')).classes('font-semibold').props('role=heading aria-level=2')
                # one element per move: a step redraws two of them, not a list of hundreds
                with on_choice(ui.element('div').classes('w-full hod-review-steps').mark('replay-steps'),
                               self._speaking(self._chosen)):
                    self.step_items = [ui.html(self._step_html(index, False), sanitize=False)
                                       for index in range(len(self.words))]
                self.shown_step: int | None = None
        # arrow keys anywhere on the page but in a text field (a button keeps the focus after a click)
        ui.keyboard(on_key=lambda event: self._speaking(self._key)(event), ignore=['input', 'select', 'textarea'])
        self.show()

    def _speaking(self, handler: Callable[..., None]) -> Callable[..., None]:
        def speaking(*args: Any) -> None:
            with language_scope(self.language):
                handler(*args)
        return speaking

    # moving --------------------------------------------------------------------------------------
    def go(self, index: int) -> None:
        """Show step ``index``: past either end it stays where it is."""
        index = min(max(0, index), self.last)
        if index != self.index:
            self.index = index
            self.show()

    def _key(self, event: KeyEventArguments) -> None:
        if not event.action.keydown:
            return
        moves = {'ArrowLeft': self.index - 1, 'ArrowRight': self.index + 1, 'Home': 0, 'End': self.last}
        if event.key.name in moves:
            self.go(moves[event.key.name])

    def _chosen(self, args: Any) -> None:
        """A step of the list: ``['step:<index>', ...]`` from the browser; anything else, or an index
        the hand has not got, is refused and moves nothing."""
        choice = args[0] if isinstance(args, list) and args else None
        kind, _, value = choice.partition(':') if isinstance(choice, str) else ('', '', '')
        if kind != 'step' or not value.isdigit() or int(value) > self.last:
            ui.notify(t('review.bad_step'), type='warning')
            return
        self.go(int(value))

    def _switched(self, event: Any) -> None:
        self.all_cards = bool(event.value)
        self.show()

    # drawing -------------------------------------------------------------------------------------
    def show(self) -> None:
        step = self.hand.steps[self.index]
        view = step.views[self.reader]
        self.root.props(f'data-index="{self.index}" data-steps="{len(self.hand.steps)}"')
        self._caption()
        self.moment.clear()
        with self.moment:
            if step.over:
                self.screens.count_picture(view, self.names, self.reader, self.feminine)
            else:
                ui.html(self.screens.picture(view, self.names, self.reader, self.feminine), sanitize=False) \
                    .classes('w-full flex flex-col gap-3').props('data-testid="replay-board"').mark('replay-board')
            if self.all_cards and not step.over:
                others = [(self.reader + turn) % len(step.views) for turn in range(1, len(step.views))]
                ui.html(every_hand_html(step.views, self.names, others, self.screens.hand_order), sanitize=False) \
                    .classes('w-full').mark('replay-all-hands')
        for button, disabled in ((self.first, self.index == 0), (self.prev, self.index == 0),
                                 (self.next, self.index == self.last), (self.end, self.index == self.last)):
            button.props(remove='disabled') if not disabled else button.props('disabled')
        if self.shown_step is not None:
            self.step_items[self.shown_step].set_content(self._step_html(self.shown_step, False))
        self.step_items[self.index].set_content(self._step_html(self.index, True))
        self.shown_step = self.index
        if self.coach is not None:
            self.coach.show(self.index)
        # the move in view inside the list alone (scrolling the page would carry a phone's reader off the board)
        ui.run_javascript(f'const b = document.querySelector(\'[data-testid=replay-step][data-index="{self.index}"]\');'
                          ' const l = b?.closest(".hod-review-steps");'
                          ' if (l) l.scrollTop = b.offsetTop - l.clientHeight / 2;')

    def _caption(self) -> None:
        """Where in the hand, what the move did, and the coach's mark on it when it was yours."""
        self.caption.set_content(
            f'<div class="flex flex-wrap items-baseline gap-2"><span class="hod-chip" data-testid="replay-position">'
            f'{escape(t("review.position", step=self.index, steps=self.last))}</span>'
            f'<span class="font-semibold" data-testid="replay-words" aria-live="polite">'
            f'{mark_html(self.judged.get(self.index), self.hand.game.id, "coach-mark-here")}{escape(self.words[self.index])}</span></div>')

    def _judged(self, judgement: Judgement) -> None:
        """A decision the coach has just weighed: its move in the list gets its mark."""
        self.judged[judgement.step] = judgement
        self.step_items[judgement.step].set_content(self._step_html(judgement.step, judgement.step == self.index))
        if judgement.step == self.index:
            self._caption()

    def _step_html(self, index: int, current: bool) -> str:
        return (f'<button type="button" class="hod-review-step" data-testid="replay-step" data-index="{index}" '
                f'data-choice="step:{index}"{" aria-current=step" if current else ""}>'
                f'{mark_html(self.judged.get(index), self.hand.game.id)}'
                f'<span class="opacity-75">{index}.</span> {escape(self.words[index])}</button>')
