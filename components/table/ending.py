"""A table's end and the ways out of a game: the game-over panel (who won, the tally, your rating's
change at a rated table, where to go on, a spectator's included) and the question asked before
leaving a game that is still being played.

The panel stays whole in the window: it sits at the bottom of the count's scrolling box (the
last count scrolls behind it when the two need more than the felt's height), and the rows that
keep their room during play give it back once the game is over (an empty tips row, a faded
banner: ``components/table/moments.py``).

Leaving a rated public game in play costs rating: whoever leaves and does not come back is
placed last (app.standings). "Nueva partida" and the site's own links then ask first and say so;
the links reach the server through a page event, the question is a dialog drawn here.
"""
from __future__ import annotations

from typing import Any

from nicegui import ui

from app.i18n import CATALOGS, personal, t
from app.routes import daily_path
from app.sessions import safe_next
from components.table.fit import HEADER_PX

LEAVE_EVENT = 'hod-leave'   # a link followed while leaving would cost: its path, asked about first

END_CSS = '''
.hod-fit .hod-felt > .hod-panel > .hod-game-over { position: sticky; bottom: 0; z-index: 6;
  box-shadow: 0 -6px 18px rgba(0,0,0,.25); }
.hod-fit[data-phase=over] > .hod-felt > .hod-tips-slot:has(> * > .hod-tip-empty) { display: none; }
/* a spectator's notice sits above the table: the table takes what is left of the window instead
   of the window's height, so its bottom (the end panel's buttons) is not pushed out of it */
body:has([data-testid=spectator]) #main:has(.hod-fit) { height: calc(100dvh - %dpx); flex-wrap: nowrap; }
body:has([data-testid=spectator]) #main > :has(> .hod-fit), body:has([data-testid=spectator]) #main .hod-fit {
  flex: 1 1 0; min-height: 0; }
body:has([data-testid=spectator]) .hod-fit { height: auto; }
''' % HEADER_PX

# the site's links (the header, its menus) ask before they leave a game whose leaving costs; a
# link into a new tab, or within the page, leaves nothing
LEAVE_SCRIPT = '''if (!window.__hodLeave) { window.__hodLeave = true;
document.addEventListener('click', (e) => {
  if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
  const link = e.target.closest('a[href]');
  if (!link || link.target === '_blank' || link.hasAttribute('download')) return;
  if (!document.querySelector('[data-testid=table][data-leave-costs]')) return;
  const to = new URL(link.href, location.href);
  if (to.origin !== location.origin || (to.pathname === location.pathname && to.search === location.search)) return;
  e.preventDefault();
  emitEvent('%s', to.pathname + to.search);
}, true); }''' % LEAVE_EVENT


def local_path(raw: Any) -> str | None:
    """A path on this site from a page event (a crafted one may carry anything), or None."""
    if not isinstance(raw, str) or len(raw) > 500:
        return None
    return safe_next(raw, default='') or None


class Ending:
    """The game-over panel and the question before leaving. Mixed into ``TableScreen``: it uses the
    screen's ``snap``, ``seat``, ``spectator``, ``names``, ``feminine``, ``language``,
    ``on_new_game``, ``play_again`` and ``_review_link``."""

    def leave_costs(self, phase: str) -> bool:
        """Leaving now would cost you: a rated public game you play in, not over yet."""
        room = self.snap.room
        return (not self.spectator and room is not None and room.public and room.rated and room.started
                and phase != 'over')

    def _listen_for_leaving(self) -> None:
        # run, not added to the body: a waiting room turns into its table after the page has loaded
        ui.run_javascript(LEAVE_SCRIPT)
        ui.on(LEAVE_EVENT, lambda event: self._leave_to(event.args))

    def _leave_to(self, raw: Any) -> None:
        target = local_path(raw[0] if isinstance(raw, list) and raw else raw)
        if target is None:
            return
        if not self.leave_costs(self.phase(self.snap.view)):   # the game ended meanwhile: nothing to ask
            ui.navigate.to(target)
            return
        self._ask_to_leave('table.leave_confirm', 'table.leave_yes', lambda: ui.navigate.to(target))

    def _confirm_new_game(self) -> None:
        self._ask_to_leave('table.new_game_confirm', 'table.new_game_yes', self.on_new_game)

    def _ask_to_leave(self, question: str, yes: str, leave: Any) -> None:
        """Ask before leaving this game; at a rated game in play, say what leaving costs."""
        costs = self.leave_costs(self.phase(self.snap.view))
        with ui.dialog() as dialog, ui.card().classes('max-w-md').props('data-testid="leave-dialog"'):
            ui.label(t(question)).classes('font-semibold')
            if costs:
                ui.label(t('table.leave_costs')).classes('text-sm text-gray-800').props('data-testid="leave-costs"')
            with ui.row():
                # away first: the dialog is deleted as it closes, and with it the context to go from
                ui.button(t(yes), on_click=lambda: (leave(), dialog.close())) \
                    .props('unelevated no-caps data-testid="leave-yes"').mark('leave-yes')
                ui.button(t('table.new_game_no'), on_click=dialog.close) \
                    .props('flat no-caps data-testid="leave-no"').mark('leave-no')
        dialog.on_value_change(lambda event: event.value or dialog.delete())   # asked anew each time
        dialog.open()

    def _game_over(self, view: Any) -> None:
        winners = view.outcome.winners
        with ui.card().classes('w-full items-center gap-3 text-gray-900 hod-game-over') \
                .props('data-testid="game-over"').mark('game-over'):
            key = 'over.you_win' if self.seat in winners else 'over.winner'
            ui.label(t(key, names=', '.join(self.names[s] for s in winners))).classes('text-2xl font-bold') \
                .props('role=heading aria-level=2')
            if view.outcome.reason and f'over.reason.{view.outcome.reason}' in CATALOGS[self.language]:
                first = winners[0]
                ui.label(personal(f'over.reason.{view.outcome.reason}', you=first == self.seat,
                                  feminine=self.feminine[first], masculine=self.snap.seats[first].masculine)) \
                    .classes('text-gray-700').mark('over-reason')
            won = self.snap.games_won
            if not self.snap.options.daily:   # one game, once: no tally of games won here
                ui.label(t('over.tally',
                           tally=' · '.join(f'{name} {count}' for name, count in zip(self.names, won)))) \
                    .classes('text-gray-700 text-center').props('data-testid="tally"')
            if self.spectator:   # a spectator plays no next game here: another table, or a game of their own
                self._spectator_ways_on()
                return
            if self.snap.room is not None and self.snap.room.public:   # one game among strangers
                self._public_game_over(len(view.past_deals))
                return
            if self.snap.options.daily:   # one try: its result is on the daily page
                with ui.row().classes('gap-2 justify-center'):
                    ui.button(t('daily.see_result'), icon='leaderboard',
                              on_click=lambda: ui.navigate.to(daily_path(self.snap.game.id))) \
                        .props('unelevated no-caps size=lg data-testid="daily-see-result"').mark('daily-see-result')
                    self._review_link(len(view.past_deals), t('review.open_game'))
                return
            with ui.row().classes('gap-2 justify-center'):
                ui.button(t('over.play_again'), on_click=self.play_again) \
                    .props('unelevated no-caps size=lg data-testid="play-again"').mark('play-again')
                ui.button(t('over.change_options'), on_click=self.on_new_game).props('outline no-caps size=lg')
                self._review_link(len(view.past_deals), t('review.open_game'))

    def _spectator_ways_on(self) -> None:
        game = self.snap.game
        with ui.row().classes('gap-2 justify-center'):
            ui.button(t('over.watch_another'), icon='visibility',
                      on_click=lambda: ui.navigate.to(f'/lobby?game={game.id}')) \
                .props('unelevated no-caps size=lg data-testid="watch-another"').mark('watch-another')
            ui.button(t('quick.button'), icon='groups', on_click=lambda: ui.navigate.to(game.play_path)) \
                .props('outline no-caps size=lg data-testid="spectator-play"').mark('spectator-play')

    def _public_game_over(self, hands: int) -> None:
        """A public table's end: your rating's change if it was rated, and where to go on."""
        room, game = self.snap.room, self.snap.game
        change = room.rating_changes[self.seat] if self.seat < len(room.rating_changes) else None
        shown = room.ratings[self.seat] if self.seat < len(room.ratings) else None
        if change is not None and shown is not None:
            rating, provisional = shown
            label = ui.label(t('over.rating', rating=f'{rating}{"?" if provisional else ""}', change=f'{change:+d}')) \
                .classes('text-lg font-semibold').props('data-testid="rating-change"').mark('rating-change')
            if provisional:   # the "?" said where it is shown, not only on the ranking's page
                label.tooltip(t('ranking.me.provisional'))
                ui.label(t('over.provisional')).classes('text-sm text-gray-700 text-center') \
                    .props('data-testid="rating-provisional"').mark('rating-provisional')
        with ui.row().classes('gap-2 justify-center'):
            ui.button(t('over.play_people_again'), icon='groups', on_click=lambda: ui.navigate.to(game.play_path)) \
                .props('unelevated no-caps size=lg data-testid="play-people-again"').mark('play-people-again')
            if room.rated:
                ui.button(t('over.see_ranking'), icon='leaderboard',
                          on_click=lambda: ui.navigate.to(f'/ranking/{game.id}')).props('outline no-caps size=lg')
            self._review_link(hands, t('review.open_game'))
