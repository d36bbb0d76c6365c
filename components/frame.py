"""The frame every page uses: header with the site name and navigation, language switch, footer."""
from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from html import escape

from nicegui import ui

from app import installable, stylesheet
from app.games import GAMES
from app.i18n import current_language, set_language, t
from app.routes import route_exists, rules_path
from app.visitor import current_account, save_language_choice
from components.controls import CONTROLS_CSS, action_button, icon_html

# an open menu closes on a click elsewhere, on Escape, and once a link in it is followed
MENU_SCRIPT = """<script>
document.addEventListener('click', (e) => document.querySelectorAll('details.hod-menu[open]').forEach(
  (menu) => { if (!menu.contains(e.target) || e.target.closest('a')) menu.open = false; }));
document.addEventListener('keydown', (e) => { if (e.key !== 'Escape') return;
  document.querySelectorAll('details.hod-menu[open]').forEach((menu) => {
    menu.open = false; menu.querySelector('summary').focus(); }); });
</script>"""

THEME_CSS = '''
:root { --hod-felt: #1f5f3a; --hod-felt-dark: #143d26; --hod-gold: #e0b341; --hod-ink: #1d2521; }
body { background: #f4f1e8; color: var(--hod-ink); }
.hod-skip { position: absolute; left: -9999px; }
/* NiceGUI's link blue reads 3.3:1 on the page's cream, the felt's green 7:1; in NiceGUI's own layer,
   so that a link's utility classes (text-white on a dark box) still rule */
@layer nicegui { .nicegui-link { color: var(--hod-felt); } }
.hod-skip:focus { left: 8px; top: 8px; z-index: 1000; background: #fff; padding: 6px 10px; }
a:focus-visible, button:focus-visible, [tabindex]:focus-visible, .q-btn:focus-visible {
  outline: 3px solid var(--hod-gold) !important; outline-offset: 2px;
}
.hod-nav-link { color: #fff; text-decoration: none; padding: 6px 10px; border-radius: 6px; display: inline-flex;
  align-items: center; gap: 2px; font-size: 15px; }
.hod-nav-link:hover { background: rgba(255,255,255,.12); }
.hod-menu { position: relative; }
.hod-menu > summary { list-style: none; cursor: pointer; }
.hod-menu > summary::-webkit-details-marker { display: none; }
.hod-menu-list { position: absolute; top: calc(100% + 4px); z-index: 3000; min-width: 220px; background: #fff;
  color: var(--hod-ink); border-radius: 8px; box-shadow: 0 6px 20px rgba(0,0,0,.25); padding: 6px 0;
  display: flex; flex-direction: column; }
.hod-menu-list.hod-left { left: 0; } .hod-menu-list.hod-right { right: 0; }
.hod-menu-list a { color: inherit; text-decoration: none; padding: 9px 16px; }
.hod-menu-list a:hover, .hod-menu-list a:focus-visible { background: #eef3ef; }
@media (max-width: 640px) { .nicegui-content { padding: 6px !important; }
  /* a finger's target (44 px: Apple's and WCAG 2.5.5's) for every control of the header */
  .q-header .hod-nav-link, .q-header .hod-btn, .q-header [data-testid=site-name] { min-height: 44px; min-width: 44px;
    box-sizing: border-box; display: inline-flex; align-items: center; justify-content: center; }
  /* ...in a header that stays 48 px high, as on a table page: what sticks under it counts on that */
  .q-header { padding-top: 2px !important; padding-bottom: 2px !important; }
  .hod-menu-list a { min-height: 44px; box-sizing: border-box; display: flex; align-items: center; }
  .q-btn, .hod-link-button { min-height: 44px; min-width: 44px; } }
'''


def nav_links(language: str) -> tuple[list[tuple[str, str]], list[tuple[str, str]], list[tuple[str, str]]]:
    """(label, path) for every page that exists: the games' tables, their rules, the account pages."""
    tables = [(t(game.name_key), game.play_path) for game in GAMES if route_exists(game.play_path)]
    tables += [(t('nav.daily'), '/daily')] if route_exists('/daily') else []
    tables += [(t('nav.lobby'), '/lobby')] if route_exists('/lobby') else []
    tables += [(t('nav.ranking'), '/ranking')] if route_exists('/ranking') else []
    rules = [(t(game.name_key), rules_path(game.id, language))
             for game in GAMES if route_exists(rules_path(game.id, language))]
    return tables, rules, account_links()


def account_links() -> list[tuple[str, str]]:
    """Guests get 'log in'; a logged-in player their history and their account (display name); a
    moderator the moderators' desk too."""
    account = current_account()
    if account is None:
        return [(t('nav.login'), '/login')] if route_exists('/login') else []
    desk = [(t('admin.title'), '/admin')] if account.is_moderator else []
    candidates = ((t('nav.history'), '/history'), *desk, (account.display_name, '/account'))
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
                     f'{stylesheet.head_html()}<style>{THEME_CSS}{CONTROLS_CSS}</style>{MENU_SCRIPT}{installable.head_html()}'
                     # in the page as it is served: a screen reader reads it before the socket has connected
                     f'<script>document.documentElement.lang = "{language}";</script>')
    ui.colors(primary='#1f5f3a', secondary='#143d26', accent='#e0b341')

    tables, rules, account = nav_links(language)
    with ui.header().classes('bg-[#143d26] text-white items-center gap-2 px-3 py-2 no-wrap').props('elevated'):
        # first in the tab order: the header comes before the page's content
        ui.html(f'<a class="hod-skip" href="#main" data-testid="skip-link">{t("nav.skip")}</a>', sanitize=False)
        # one block of plain links: the header is redrawn in the browser on every update of the page
        ui.html(header_html(tables, rules, account), sanitize=False).classes('flex items-center gap-1 min-w-0') \
            .mark('header-links')
        switch_to = 'en' if language == 'es' else 'es'
        action_button(t('lang.switch'), 'language-switch', lambda: _switch_language(switch_to, other_language_path),
                      tone='flat', aria=t('lang.switch_aria')).classes('ml-auto')
        links = [(t('nav.home'), '/'), *tables, *[(f"{t('nav.rules')}: {label}", path) for label, path in rules],
                 *account]
        if len(links) > 1:
            ui.html(menu_html(icon_html('menu'), t('nav.menu'), links, 'hod-right', 'nav-menu'),
                    sanitize=False).classes('md:hidden')

    with ui.column().classes('w-full max-w-6xl mx-auto px-3 sm:px-6 py-4 gap-4') \
            .props('id=main tabindex=-1') as main:
        yield main

    with ui.footer(fixed=False).classes('bg-[#143d26] text-white text-xs px-4 py-2 flex-col items-start gap-0'):
        ui.label(t('footer.about'))
        ui.label(t('footer.fair')).classes('opacity-75')


def header_html(tables: list[tuple[str, str]], rules: list[tuple[str, str]],
                account: list[tuple[str, str]]) -> str:
    """The site name, then (wide screens) the tables, the rules menu and the account links."""
    parts = [f'<a href="/" class="text-xl font-bold text-white no-underline tracking-wide mr-2" '
             f'data-testid="site-name" aria-label="House Of Decks">{escape(t("site.name"))}</a>',
             f'<nav class="flex gap-1 items-center max-md:hidden" aria-label="{escape(t("nav.games"))}">']
    parts += [_link(label, path, 'hod-nav-link') for label, path in tables]
    if rules:
        parts.append(menu_html(f'{escape(t("nav.rules"))}{icon_html("expand_more")}', None,
                               [(f"{t('nav.rules')}: {label}", path) for label, path in rules], 'hod-left',
                               'rules-menu'))
    parts += [_link(label, path, 'hod-nav-link') for label, path in account]
    return ''.join(parts) + '</nav>'


def menu_html(summary: str, aria: str | None, links: list[tuple[str, str]], side: str, testid: str) -> str:
    """A drop-down of links that needs no server round trip (a native <details>)."""
    label = f' aria-label="{escape(aria)}"' if aria else ''
    return (f'<details class="hod-menu" data-testid="{testid}"><summary class="hod-nav-link" role="button"{label}>'
            f'{summary}</summary><div class="hod-menu-list {side}">'
            + ''.join(_link(label, path) for label, path in links) + '</div></details>')


def _link(label: str, path: str, classes: str = '') -> str:
    return f'<a href="{escape(path)}" class="{classes}">{escape(label)}</a>'


def _switch_language(language: str, other_language_path: Callable[[str], str] | None) -> None:
    set_language(language)
    save_language_choice(language)  # a logged-in player's choice follows them to other devices
    if other_language_path is not None:
        ui.navigate.to(other_language_path(language))
    else:
        ui.navigate.reload()
