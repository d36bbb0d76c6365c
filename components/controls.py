"""Controls drawn as plain HTML elements, for pages that change often (the tables).

NiceGUI redraws the whole page in the browser on every update: each Quasar component (buttons,
menus, expansion items) re-renders each time, plain elements cost next to nothing. A move at a
table then answers almost as fast as a bare button."""
from __future__ import annotations

from collections.abc import Callable
from html import escape

from nicegui import ui

from app.i18n import t

BOARD_CSS = '''
.hod-board td, .hod-board th { padding: 4px 8px; text-align: left; }
.hod-board th { font-size: 13px; color: #4b5563; font-weight: 600; border-bottom: 1px solid #d1d5db; }
.hod-board tr.mine td { background: #fdf6e3; font-weight: 700; }
.hod-board td.num, .hod-board th.num { text-align: right; font-variant-numeric: tabular-nums; }
'''
"""A table of standings drawn as one HTML block (the daily deal's boards, the rankings): rows
`tr.mine` for the reader's own, cells `td.num` for figures."""

CONTROLS_CSS = '''
.hod-btn { display: inline-flex; align-items: center; gap: 6px; border-radius: 6px; padding: 6px 14px;
  font-weight: 600; font-size: 14px; line-height: 1.4; cursor: pointer; border: 0;
  box-shadow: 0 1px 3px rgba(0,0,0,.3); transition: filter .12s ease; }
.hod-btn:hover:not(:disabled) { filter: brightness(1.08); }
.hod-btn[hidden] { display: none; }
.hod-btn:disabled { opacity: .45; cursor: not-allowed; box-shadow: none; }
.hod-btn .material-icons { font-size: 18px; }
.hod-btn-light { background: #fff; color: var(--hod-felt); }
.hod-btn-accent { background: var(--hod-gold); color: var(--hod-ink); }
.hod-btn-danger { background: #b71c1c; color: #fff; }
.hod-btn-flat { background: transparent; color: #fff; box-shadow: none; }
.hod-btn-flat:hover:not(:disabled) { background: rgba(255,255,255,.12); }
.hod-sound[aria-pressed=true] .hod-off, .hod-sound[aria-pressed=false] .hod-on { display: none; }
.hod-fold { padding: 0 12px; box-sizing: border-box; }
.hod-fold[open] { padding-bottom: 10px; }
.hod-fold > summary { cursor: pointer; padding: 10px 2px; font-weight: 600; display: flex; align-items: center;
  gap: 10px; list-style: none; }
.hod-fold > summary::-webkit-details-marker { display: none; }
.hod-fold > summary::after { content: 'expand_more'; font-family: 'Material Icons'; margin-left: auto;
  font-size: 22px; transition: transform .15s ease; }
.hod-fold[open] > summary::after { transform: rotate(180deg); }
.hod-fold > :not(summary) + :not(summary) { margin-top: 4px; }
'''


def set_props_quietly(element: ui.element, values: dict[str, object]) -> list[tuple[str, object]]:
    """Set props (None removes one) without sending anything; returns what changed. Unlike
    ``element.props('...')`` nothing is parsed: this runs on every move."""
    props = element.props
    changed = [(key, value) for key, value in values.items()
               if (key in props if value is None else props.get(key) != value)]
    if changed:   # one write for all the new values: each write of NiceGUI's props costs its change handlers
        with props.suspend_updates():
            for key, value in changed:
                if value is None:
                    del props[key]
            props.update({key: value for key, value in changed if value is not None})
    return changed


def patch_props(element: ui.element, values: dict[str, object]) -> None:
    """Set props (None removes one) and send the element only when something changed."""
    if set_props_quietly(element, values):
        element.update()


# the table version on the screen where the click happened (the table's root carries it)
VERSION_JS = 'Number(e.target.closest("[data-version]")?.dataset.version ?? -1)'


NO_VERSION = -1   # what a tampered version becomes: no table ever has it, so the move is refused as stale


def version_sent(args: object) -> int | None:
    """The table version a browser says its screen showed when the player clicked; None when the
    event carried none (the simulated user of the tests sends no event data). Anything else but a
    version (a crafted event) becomes NO_VERSION, which the table refuses."""
    if args is None or args == {}:
        return None
    return args if isinstance(args, int) and not isinstance(args, bool) and args >= 0 else NO_VERSION


def on_versioned_click(element: ui.element, on_click: Callable[[int | None], None],
                       events: tuple[str, ...] = ('click',)) -> None:
    """Call `on_click(version)` on these events, with the version of the screen clicked on."""
    for event in events:
        element.on(event, lambda e: on_click(version_sent(e.args)), js_handler=f'(e) => emit({VERSION_JS})')


# a click, Enter or Space on any element of a block that carries data-choice="...": the server gets
# [choice, version of the screen] from one handler for the whole block (boards redrawn as markup)
CHOICE_JS = ('(e) => { if (e.type === "keydown" && e.key !== "Enter" && e.key !== " ") return;'
             ' const c = e.target.closest("[data-choice]"); if (!c) return; e.preventDefault();'
             f' emit([c.dataset.choice, {VERSION_JS}]); }}')


def on_choice(element: ui.element, handler: Callable[[object], None]) -> ui.element:
    """Call ``handler([choice, version])`` when a choice inside ``element`` is clicked or pressed."""
    element.on('click', lambda e: handler(e.args), js_handler=CHOICE_JS)
    element.on('keydown', lambda e: handler(e.args), js_handler=CHOICE_JS)
    return element


def icon_html(name: str) -> str:
    return f'<i class="material-icons" aria-hidden="true">{escape(name)}</i>'


class action_button(ui.element):
    """A plain HTML button. Every update redraws NiceGUI's whole page in the browser, so the
    table's controls are native elements: far cheaper to redraw than Quasar components."""

    def __init__(self, label: str, testid: str, on_click: Callable[..., None], *, tone: str = 'light',
                 icon: str | None = None, aria: str | None = None, versioned: bool = False) -> None:
        super().__init__('button')
        self.classes(f'hod-btn hod-btn-{tone}').mark(testid)
        patch_props(self, {'type': 'button', 'data-testid': testid, 'aria-label': aria,
                           'innerHTML': (icon_html(icon) if icon else '') + f'<span>{escape(label)}</span>'})
        self.label = label
        if versioned:   # an action at a table: on_click(version the screen showed)
            on_versioned_click(self, on_click)
        else:
            self.on('click', on_click, [])   # nothing of the mouse event is needed

    def _displayed_contents(self, *, only_visible: bool) -> list:
        return [self.label]   # what the simulated user of the tests reads, like a button's label


def log_sheet_button(label: str, testid: str, icon: str) -> ui.element:
    """Opens or closes the hand log's sheet on a phone, in the browser alone (nothing to ask the
    server: the log is already on the page)."""
    button = ui.element('button').classes('hod-btn hod-btn-flat').mark(testid)
    patch_props(button, {'type': 'button', 'data-testid': testid, 'aria-label': label,
                         'innerHTML': icon_html(icon) + f'<span>{escape(label)}</span>'})
    button.on('click', js_handler='() => document.body.classList.toggle("hod-sheet-open")')
    return button


def sound_switch() -> ui.element:
    """Mutes or unmutes the table's sounds, in the browser alone (live.js keeps the choice in this
    browser and shows it: pressed while the sound is on)."""
    button = ui.element('button').classes('hod-btn hod-btn-flat hod-sound').mark('sound-toggle')
    patch_props(button, {'type': 'button', 'data-testid': 'sound-toggle', 'aria-pressed': 'true',
                         'aria-label': t('sound.on'), 'data-label-on': t('sound.on'), 'data-label-off': t('sound.off'),
                         'innerHTML': icon_html('volume_up').replace('material-icons', 'material-icons hod-on')
                         + icon_html('volume_off').replace('material-icons', 'material-icons hod-off')})
    return button


class fold(ui.element):
    """A section the player can fold (native <details>): the browser keeps it folded or open
    across redraws, since the server never sends its state."""

    def __init__(self, title: str, *, icon: str, testid: str, open_: bool = True) -> None:
        super().__init__('details')
        self.classes('hod-fold w-full bg-white rounded text-gray-900')
        patch_props(self, {'data-testid': testid, 'open': True if open_ else None})
        with self:
            ui.element('summary').props['innerHTML'] = f'{icon_html(icon)}<span>{escape(title)}</span>'
