"""The frame every page uses: header with the site name and navigation, language switch, footer."""
from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from html import escape

from nicegui import ui

from app.accounts import current_account
from app.games import GAMES
from app.i18n import current_language, set_language, t
from app.routes import route_exists, rules_path

THEME_CSS = '''
:root { --hod-felt: #1f5f3a; --hod-felt-dark: #143d26; --hod-gold: #e0b341; --hod-ink: #1d2521; }
body { background: #f4f1e8; color: var(--hod-ink); }
.hod-skip { position: absolute; left: -9999px; }
.hod-skip:focus { left: 8px; top: 8px; z-index: 1000; background: #fff; padding: 6px 10px; }
a:focus-visible, button:focus-visible, [tabindex]:focus-visible, .q-btn:focus-visible {
  outline: 3px solid var(--hod-gold) !important; outline-offset: 2px;
}
.hod-nav-link { color: #fff; text-decoration: none; padding: 6px 10px; border-radius: 6px; }
.hod-nav-link:hover { background: rgba(255,255,255,.12); }
@media (max-width: 640px) { .nicegui-content { padding: 6px !important; } }
'''


def nav_links(language: str) -> tuple[list[tuple[str, str]], list[tuple[str, str]], list[tuple[str, str]]]:
    """(label, path) for every page that exists: the games' tables, their rules, the account pages."""
    tables = [(t(game.name_key), game.play_path) for game in GAMES if route_exists(game.play_path)]
    rules = [(t(game.name_key), rules_path(game.id, language))
             for game in GAMES if route_exists(rules_path(game.id, language))]
    return tables, rules, account_links()


def account_links() -> list[tuple[str, str]]:
    """Guests get 'log in'; a logged-in player their history and their account (display name)."""
    account = current_account()
    if account is None:
        return [(t('nav.login'), '/login')] if route_exists('/login') else []
    candidates = ((t('nav.history'), '/history'), (account.display_name, '/account'))
    return [(label, path) for label, path in candidates if route_exists(path)]


@contextmanager
def frame(title: str, *, description: str | None = None,
          other_language_path: Callable[[str], str] | None = None) -> Iterator[ui.column]:
    """Lay out the page frame and yield the main column.

    `other_language_path(language)` gives the address of this page in the other language for
    pages whose address depends on it (rules pages); elsewhere the switch reloads the same page.
    """
    language = current_language()
    ui.page_title(f'{title} · {t("site.name")}' if title != t('site.name') else title)
    ui.add_head_html(f'<meta name="description" content="{escape(description or t("site.description"))}">'
                     f'<style>{THEME_CSS}</style>')
    ui.run_javascript(f'document.documentElement.lang = "{language}"')
    ui.colors(primary='#1f5f3a', secondary='#143d26', accent='#e0b341')
    ui.html(f'<a class="hod-skip" href="#main">{t("nav.skip")}</a>', sanitize=False)

    tables, rules, account = nav_links(language)
    with ui.header().classes('bg-[#143d26] text-white items-center gap-2 px-3 py-2').props('elevated'):
        ui.link(t('site.name'), '/').classes('text-xl font-bold text-white no-underline tracking-wide') \
            .props('aria-label="House Of Decks"').mark('site-name')
        with ui.row().classes('gap-1 max-md:hidden items-center').props('role=navigation') as desktop_nav:
            desktop_nav.props(f'aria-label="{escape(t("nav.games"))}"')
            for label, path in tables:
                ui.link(label, path).classes('hod-nav-link')
            if rules:
                with ui.button(t('nav.rules')).props('flat dense no-caps color=white icon-right=expand_more') \
                        .classes('hod-nav-link').mark('rules-menu'):
                    with ui.menu():
                        for label, path in rules:
                            ui.menu_item(f"{t('nav.rules')}: {label}", on_click=lambda p=path: ui.navigate.to(p))
            for label, path in account:
                ui.link(label, path).classes('hod-nav-link')
        ui.space()
        switch_to = 'en' if language == 'es' else 'es'
        ui.button(t('lang.switch'), on_click=lambda: _switch_language(switch_to, other_language_path)) \
            .props(f'flat dense no-caps color=white aria-label="{escape(t("lang.switch_aria"))}"') \
            .mark('language-switch')
        links = [(t('nav.home'), '/'), *tables, *[(f"{t('nav.rules')}: {label}", path) for label, path in rules],
                 *account]
        if len(links) > 1:
            with ui.button(icon='menu').props(f'flat round dense color=white aria-label="{escape(t("nav.menu"))}"') \
                    .classes('md:hidden').mark('nav-menu'):
                with ui.menu():
                    for label, path in links:
                        ui.menu_item(label, on_click=lambda p=path: ui.navigate.to(p))

    with ui.column().classes('w-full max-w-6xl mx-auto px-3 sm:px-6 py-4 gap-4').props('id=main role=main') as main:
        yield main

    with ui.footer(fixed=False).classes('bg-[#143d26] text-white text-xs px-4 py-2 flex-col items-start gap-0'):
        ui.label(t('footer.about'))
        ui.label(t('footer.fair')).classes('opacity-75')


def _switch_language(language: str, other_language_path: Callable[[str], str] | None) -> None:
    set_language(language)
    if other_language_path is not None:
        ui.navigate.to(other_language_path(language))
    else:
        ui.navigate.reload()
