"""The table fits the window: no page scrolling at any size, from a 360 px phone to a 1920 px screen.

The table fills the window under the site's header (the footer leaves table pages) and is laid
out as one column of fixed slots: the top bar, the other seats' strips, the board, your seat's
line, your hand and the action bar, each of a height that does not depend on the moment; only
the board's middle (melds, loose cards, a run being built) takes what is left and scrolls inside
itself when a crowded hand needs more. So the stock, the discard pile, your hand and your actions
stay where they are through every turn, and every action of the moment is in view. The scores,
the log and the fair-deal box sit beside the table on a wide screen and open as a sheet on a
narrow one."""
from __future__ import annotations

from nicegui import ui

HEADER_PX = 48   # the site's header on a table page: fixed, so the table's height is known in CSS

FIT_CSS = f'''
body:has(.hod-fit) .q-footer {{ display: none; }}
body:has(.hod-fit) .q-header {{ height: {HEADER_PX}px; overflow: hidden; padding-top: 2px; padding-bottom: 2px; }}
/* Quasar pads the page under the header by the header's height as last measured, and by a guess of
   50 px before the first measure: the table's own height rules from the first frame */
body:has(.hod-fit) .q-page-container {{ padding-top: {HEADER_PX}px !important; }}
body:has(.hod-fit) .nicegui-content {{ padding: 0 !important; }}
/* Quasar sizes its page from the window as last measured, which may lag a resize: the table's own height rules */
body:has(.hod-fit) .q-page, body:has(.hod-fit) .q-layout {{ min-height: 0 !important; }}
body:has(.hod-fit) #main {{ max-width: 1680px; padding: 6px; gap: 0; }}
.hod-fit {{ height: calc(100dvh - {HEADER_PX}px - 12px); display: flex; gap: 8px; align-items: stretch; }}
.hod-fit > .hod-felt {{ flex: 1 1 auto; min-width: 0; display: flex; flex-direction: column; gap: 4px;
  padding: 6px 10px 8px; overflow: hidden; }}
.hod-fit .hod-felt > * {{ flex: none; }}
.hod-top {{ display: flex; align-items: center; gap: 6px; font-size: 14px; min-height: 34px; white-space: nowrap; }}
.hod-top-texts {{ display: block; min-width: 0; overflow: hidden; text-overflow: ellipsis; }}
.hod-top-texts > span + span {{ margin-left: 8px; }}
.hod-top .hod-btn {{ padding: 4px 8px; }}
.hod-fit .hod-felt > .hod-play {{ flex: 1 1 0; min-height: 0; display: flex; flex-direction: column; gap: 4px; }}
.hod-play > * {{ flex: none; }}
.hod-play > .hod-grow, .hod-grow {{ flex: 1 1 0; min-height: 0; overflow-y: auto; overflow-x: hidden; }}
/* the count and the board take turns by the phase the live patch sets, not by the element updates
   that follow it: the board never shares the table with a count for a frame */
.hod-fit[data-phase=count] > .hod-felt > .hod-play, .hod-fit[data-phase=over] > .hod-felt > .hod-play,
.hod-fit:not([data-phase=count]):not([data-phase=over]) > .hod-felt > .hod-panel {{ display: none; }}
.hod-fit .hod-felt > .hod-panel:empty {{ display: none; }}
.hod-fit .hod-felt > .hod-panel:not(:empty) {{ flex: 1 1 0; min-height: 0; overflow-y: auto; padding: 2px; }}
.hod-fit .hod-next {{ position: sticky; bottom: 4px; z-index: 5; box-shadow: 0 4px 14px rgba(0,0,0,.35); }}
.hod-centre {{ display: flex; flex-direction: column; justify-content: center; }}
/* the piles in the middle, the status to their right in a column of its own: a longer sentence
   never pushes the piles sideways */
.hod-piles {{ display: grid; grid-template-columns: 1fr auto auto 1fr; align-items: center; gap: 12px; }}
.hod-piles > .hod-status {{ grid-column: 4; }}
.hod-piles::before {{ content: ''; }}
.hod-status {{ font-size: 14px; line-height: 18px; max-height: 5.4em; overflow: hidden; }}
@media (max-width: 640px) {{ .hod-piles {{ grid-template-columns: auto auto 1fr; gap: 8px; }}
  .hod-piles::before {{ display: none; }} .hod-piles > .hod-status {{ grid-column: 3; font-size: 13px; }}
  .hod-piles .hod-card-lg {{ width: 52px; }} }}
/* one bar for every action, in one place; a control that does not apply now keeps its room */
.hod-action-bar {{ display: flex; flex-wrap: wrap; justify-content: center; align-content: center; gap: 6px;
  height: 44px; overflow: hidden; }}
.hod-action-bar .hod-btn {{ padding: 6px 12px; }}
.hod-stack {{ display: grid; }}
.hod-stack > * {{ grid-area: 1 / 1; display: flex; gap: 6px; justify-content: center; }}
.hod-stack > [data-away] {{ visibility: hidden; }}
@media (max-width: 640px) {{ .hod-action-bar {{ gap: 4px; }} .hod-action-bar .hod-btn {{ padding: 6px 9px; font-size: 13px; }}
  .hod-action-bar .hod-btn .material-icons {{ display: none; }}
  .hod-action-bar .hod-btn[data-testid=hint] .material-icons {{ display: inline; }}
  .hod-action-bar .hod-btn[data-testid=hint] > span {{ display: none; }}
  .hod-action-bar.hod-two-rows {{ height: 92px; }}
  .hod-top .hod-btn > span:last-child {{ display: none; }}
  /* a finger's target (44 px: Apple's and WCAG 2.5.5's) for every control of the table */
  .hod-top {{ min-height: 44px; gap: 2px; }}
  .hod-top .hod-btn, .hod-top a, .hod-action-bar .hod-btn, .hod-sheet-close {{ min-height: 44px; min-width: 44px; justify-content: center; }}
  .hod-top a {{ display: inline-flex; align-items: center; padding: 0 6px; }} }}
.hod-tips-slot {{ min-height: 0; }}
.hod-tips-slot .hod-tip {{ height: 44px; overflow-y: auto; padding: 3px 10px; font-size: 12.5px; line-height: 18px; }}
@media (max-width: 640px) {{ .hod-tips-slot .hod-tip {{ height: 58px; font-size: 12px; line-height: 17px; }} }}
.hod-tips-slot .hod-tip-empty {{ visibility: hidden; }}
/* a tip about keys only where there is a keyboard and a mouse */
.hod-keys {{ display: none; }}
@media (hover: hover) and (pointer: fine) {{ .hod-keys {{ display: inline; }} .hod-no-keys {{ display: none; }} }}
@media (max-width: 640px) {{ .hod-legend {{ display: none !important; }} }}
.hod-side {{ width: 20rem; flex: none; display: flex; flex-direction: column; gap: 8px; overflow-y: auto; }}
.hod-side .hod-log {{ max-height: none; }}
.hod-side > .hod-sheet-close {{ display: none; }}
@media (max-width: 1023px) {{
  .hod-fit > .hod-side {{ display: none; }}
  .hod-sheet-open .hod-fit > .hod-side {{ display: flex; position: fixed; left: 6px; right: 6px; bottom: 6px; width: auto;
    max-height: 80dvh; z-index: 70; background: #f4f1e8; border-radius: 12px; padding: 8px;
    box-shadow: 0 -4px 24px rgba(0,0,0,.45); }}
  .hod-sheet-open .hod-side > .hod-sheet-close {{ display: inline-flex; align-self: flex-end; background: var(--hod-felt);
    color: #fff; flex: none; }} }}
@media (min-width: 1024px) {{ .hod-top .hod-log-button {{ display: none; }} }}
'''


def action_bar(*, two_rows_on_a_phone: bool = False) -> ui.element:
    """The one bar holding every action button of the moment (``action-bar``), under your hand."""
    return ui.element('div').classes('hod-action-bar hod-own' + (' hod-two-rows' if two_rows_on_a_phone else '')) \
        .props('data-testid="action-bar"').mark('action-bar')


def grow() -> ui.element:
    """The board's part that takes the room the fixed slots leave, and scrolls inside itself."""
    return ui.element('div').classes('hod-grow w-full')
