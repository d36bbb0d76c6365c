"""A set of recovery codes as it is shown, once: what they are for, the codes in large type, ways
to keep them (copy, a text file, print) and the button that goes on once they are kept. Sign-up and
the account page's renewal both show it."""
from __future__ import annotations

import json
from collections.abc import Awaitable, Callable

from nicegui import ui

from app.i18n import t

CODES_FILE = 'house-of-decks-recovery-codes.txt'
# printing keeps the codes card alone, whatever page shows it (sign-up, or the account page's other cards)
PRINT_CSS = '@media print { body * { visibility: hidden; } .hod-codes, .hod-codes * { visibility: visible; } ' \
            '.hod-codes { position: absolute; left: 0; top: 0; box-shadow: none !important; } ' \
            '.hod-no-print { display: none !important; } }'


def codes_text(codes: list[str], username: str) -> str:
    """The text file (and the clipboard's copy): a title that says whose codes they are, one code a line."""
    return '\n'.join([t('codes.file_title', username=username), '', *codes, '', t('codes.why')]) + '\n'


def recovery_codes_card(codes: list[str], username: str, *, go_on_label: str,
                        on_go_on: Callable[[], Awaitable[None] | None], level: int = 1) -> None:
    ui.add_css(PRINT_CSS)
    text = codes_text(codes, username)
    with ui.card().classes('hod-codes w-full max-w-md mx-auto gap-3 p-4 sm:p-6') \
            .props(f'aria-label="{t("codes.title")}"').mark('recovery-codes-shown'):
        ui.label(t('codes.title')).classes(('text-2xl' if level == 1 else 'text-xl') + ' font-bold text-[#1f5f3a]') \
            .props(f'role=heading aria-level={level}')
        ui.label(t('codes.account', username=username)).classes('text-sm text-gray-700 -mt-2')   # whose, on paper
        ui.label(t('codes.why')).classes('text-gray-800')
        ui.label(t('codes.once')).classes('font-semibold text-amber-900 bg-amber-100 rounded px-3 py-2') \
            .props('role=note')
        # numbered, so a person can tick off the ones used
        with ui.element('ol').classes('grid grid-cols-2 gap-x-5 gap-y-1 self-center font-mono text-base sm:text-lg') \
                .style('list-style: none; padding: 0; margin: 0').mark('code-list'):
            for number, code in enumerate(codes, 1):
                with ui.element('li').classes('flex gap-2 whitespace-nowrap'):
                    ui.label(f'{number}.').classes('w-7 text-right text-gray-500').props('aria-hidden="true"')
                    ui.label(code).classes('tracking-wide').mark('recovery-code')
        with ui.row().classes('hod-no-print gap-2'):
            ui.button(t('codes.copy'), icon='content_copy', on_click=lambda: copy(text)) \
                .props('outline no-caps').mark('copy-codes')
            ui.button(t('codes.download'), icon='download',
                      on_click=lambda: ui.download.content(text.encode(), CODES_FILE, 'text/plain; charset=utf-8')) \
                .props('outline no-caps').mark('download-codes')
            ui.button(t('codes.print'), icon='print', on_click=lambda: ui.run_javascript('window.print()')) \
                .props('outline no-caps').mark('print-codes')
        ui.button(go_on_label, icon='check', on_click=on_go_on) \
            .props('unelevated no-caps').classes('hod-no-print w-full sm:w-auto').mark('codes-saved')


async def copy(text: str) -> None:
    """To the clipboard, and say whether it worked: browsers allow it only over HTTPS or on localhost."""
    copied = await ui.run_javascript(f'return navigator.clipboard ? navigator.clipboard.writeText({json.dumps(text)})'
                                     '.then(() => true, () => false) : false')
    ui.notify(t('codes.copied') if copied else t('codes.not_copied'), type='positive' if copied else 'warning')
