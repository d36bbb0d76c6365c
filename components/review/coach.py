"""The coach beside a review: a bar while it weighs your decisions, then the hand's accuracy and
the points your choices lost; at each of your moves, what it thought of it in a sentence
("Tirar el rey de copas te costó unos 4 puntos: mejor tirar la sota de oros."); and a mark on
each of your moves in the list (``coach-mark``, ``data-label`` best/inaccuracy/mistake/blunder)."""
from __future__ import annotations

from collections.abc import Callable, Sequence
from html import escape
from typing import Any

from nicegui import ui

from app.games import GAMES_BY_ID
from app.i18n import counted, language_scope, t
from app.coach import BEST, LABELS, Judgement, Summary
from app.review.analyses import Analysis
from components.games import screens_of

MARKS = {BEST: '✓', 'inaccuracy': '?!', 'mistake': '?', 'blunder': '??'}

COACH_CSS = '''
.hod-coach-mark { display: inline-block; min-width: 1.7em; text-align: center; border-radius: 6px; font-weight: 800;
  font-size: 12px; padding: 0 4px; margin-right: 4px; color: #fff; }
.hod-coach-mark[data-label=best] { background: #2e7d32; }
.hod-coach-mark[data-label=inaccuracy] { background: #b7791f; }
.hod-coach-mark[data-label=mistake] { background: #c2410c; }
.hod-coach-mark[data-label=blunder] { background: #b71c1c; }
.hod-coach-mark[data-label=""] { background: #cbd5d0; color: #1d2521; }
.hod-coach-say { font-size: 14px; line-height: 1.4; min-height: 3.6em; }
'''


def option_words(game_id: str) -> Callable[..., str]:
    return screens_of(game_id).option_words


def capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def judgement_words(game_id: str, judgement: Judgement, view: Any, names: Sequence[str | None] | None = None) -> str:
    """What the coach says of one decision, from the seat's view before it (``names``: every
    seat's, for the options that name one)."""
    option = option_words(game_id)
    parse = _action_parser(game_id)

    def words(actions: tuple[dict[str, Any], ...], view: Any) -> str:
        return option(tuple(parse(action) for action in actions), view, names)

    chosen = words(judgement.options[judgement.chosen], view)
    label = judgement.label(GAMES_BY_ID[game_id].coach_thresholds)
    if label == BEST:
        return t('coach.was_best', chosen=capital(chosen))
    best = words(judgement.options[judgement.best], view)
    if label is None:
        return t('coach.fine', chosen=capital(chosen), best=best)
    return t('coach.cost', chosen=capital(chosen), best=best,
             points=counted('amount.points', max(1, round(judgement.cost))))


def _action_parser(game_id: str) -> Callable[[dict[str, Any]], Any]:
    return GAMES_BY_ID[game_id].engine_module.ACTIONS.from_json


def mark_html(judgement: Judgement | None, game_id: str, testid: str = 'coach-mark') -> str:
    """A move's mark in the list: its label (a plain mark for a choice within the margin)."""
    if judgement is None:
        return ''
    label = judgement.label(GAMES_BY_ID[game_id].coach_thresholds)
    said = t(f'coach.label.{label}') if label else t('coach.label.fine')
    return (f'<span class="hod-coach-mark" data-testid="{testid}" data-label="{label or ""}" role="img" '
            f'aria-label="{escape(said)}" title="{escape(said)}">{MARKS.get(label, "·")}</span>')


def summary_words(summary: Summary) -> str:
    """"Esta mano: precisión 83 % · 12 decisiones · 7 puntos perdidos (1 imprecisión, 1 error)"."""
    said = t('coach.hand', accuracy=f'{summary.accuracy or 0:.0f}',
             decisions=counted('amount.decisions', summary.decisions),
             lost=counted('amount.points_lost', round(summary.points_lost)))
    found = [counted(f'amount.{name}', summary.labelled[name]) for name in LABELS if summary.labelled[name]]
    return said + (f' ({", ".join(found)})' if found else '')


class CoachPanel:
    """The coach's part of a review screen, drawn from an ``Analysis`` and redrawn as it goes on."""

    def __init__(self, analysis: Analysis, *, on_judged: Callable[[Judgement], None], language: str,
                 names: Sequence[str]) -> None:
        self.analysis, self.language, self.names = analysis, language, list(names)
        self.game_id = analysis.hand.game.id
        self.on_judged = on_judged
        self.shown = len(analysis.judgements)
        self.index = 0

    def build(self) -> None:
        ui.add_css(COACH_CSS)
        with ui.column().classes('w-full gap-1').props('data-testid="coach"').mark('coach'):
            ui.label(t('coach.title')).classes('font-semibold').props('role=heading aria-level=2')
            self.progress = ui.linear_progress(value=0, show_value=False, size='8px', color='green-8') \
                .props(f'data-testid="coach-progress" rounded aria-label="{t("coach.progress")}"').mark('coach-progress')
            self.summary = ui.html('', sanitize=False).classes('text-sm').props('role=status aria-live=polite')
            self.say = ui.html('', sanitize=False).classes('hod-coach-say').props('aria-live=polite').mark('coach-say')
        self.analysis.listeners.append(self._changed)
        ui.context.client.on_delete(self._forget)   # not at a dropped socket: the browser comes back to this page
        self._draw_summary()

    def _forget(self) -> None:
        if self._changed in self.analysis.listeners:
            self.analysis.listeners.remove(self._changed)

    def _changed(self) -> None:
        with language_scope(self.language):   # called from the analysis' task, not from this page's request
            self._redraw()

    def _redraw(self) -> None:
        for judgement in self.analysis.judgements[self.shown:]:
            self.on_judged(judgement)
        self.shown = len(self.analysis.judgements)
        self._draw_summary()
        self.show(self.index)

    def _draw_summary(self) -> None:
        analysis = self.analysis
        total, done = analysis.total, len(analysis.judgements)
        self.progress.set_value(done / total if total else 1.0)
        self.progress.set_visibility(not analysis.done and not analysis.failed and total > 0)
        if analysis.failed:
            html = f'<span data-testid="coach-failed">{escape(t("coach.failed"))}</span>'
        elif not total:
            html = f'<span data-testid="coach-summary" data-decisions="0">{escape(t("coach.nothing"))}</span>'
        elif not analysis.done:
            html = (f'<span data-testid="coach-analysing" data-done="{done}" data-total="{total}">'
                    f'{escape(t("coach.analysing", done=done, total=total))}</span>')
        else:
            summary = analysis.summary()
            html = (f'<span data-testid="coach-summary" data-decisions="{summary.decisions}" '
                    f'data-accuracy="{summary.accuracy:.1f}" data-lost="{summary.points_lost:.1f}">'
                    f'{escape(summary_words(summary))}</span>')
        self.summary.set_content(html)

    def show(self, index: int) -> None:
        """What the coach says at step ``index`` of the hand."""
        self.index = index
        judgement = self.analysis.by_step().get(index)
        step = self.analysis.hand.steps[index]
        if judgement is not None:
            view = self.analysis.hand.steps[index - 1].views[self.analysis.seat]
            label = judgement.label(self.analysis.hand.game.coach_thresholds)
            html = (f'<span class="text-xs opacity-70">{escape(t("coach.here"))}</span> {mark_html(judgement, self.game_id, "coach-mark-here")}'
                    f'<b>{escape(t(f"coach.label.{label}") if label else t("coach.label.fine"))}</b><br>'
                    f'<span data-testid="coach-words" data-label="{label or ""}">'
                    f'{escape(judgement_words(self.game_id, judgement, view, self.names))}</span>')
        elif any(decision.step == index for decision in self.analysis.decisions) and not self.analysis.failed:
            html = f'<span class="opacity-70">{escape(t("coach.waiting"))}</span>'
        elif step.seat is not None and step.seat != self.analysis.seat:
            html = f'<span class="opacity-70">{escape(t("coach.not_yours"))}</span>'
        else:
            html = ''
        self.say.set_content(html)
