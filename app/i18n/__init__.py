"""Every string a player sees, in Spanish and English, behind one lookup: ``t(key, **params)``.

The language is the one chosen with the switch (kept in ``app.storage.user``), else the browser's
``Accept-Language`` preference, else Spanish.
"""
from __future__ import annotations

from app.i18n import en, es

LANGUAGES: tuple[str, ...] = ('es', 'en')
DEFAULT_LANGUAGE = 'es'
CATALOGS: dict[str, dict[str, str]] = {'es': es.MESSAGES, 'en': en.MESSAGES}


def translate(language: str, key: str, **params: object) -> str:
    """The message `key` in `language`, formatted with `params`. A missing key raises KeyError:
    the catalog test keeps both languages complete, so a miss is a bug to see at once."""
    text = CATALOGS[language][key]
    return text.format(**params) if params else text


def t(key: str, **params: object) -> str:
    return translate(current_language(), key, **params)


def language_from_header(header: str | None) -> str:
    """The first supported language in an Accept-Language header, by quality; else Spanish."""
    best, best_quality = DEFAULT_LANGUAGE, -1.0
    for position, part in enumerate((header or '').split(',')):
        tag, _, params = part.strip().partition(';')
        primary = tag.strip().lower().split('-')[0]
        quality = 1.0
        if params.strip().startswith('q='):
            try:
                quality = float(params.strip()[2:])
            except ValueError:
                quality = 0.0
        if primary in LANGUAGES and quality > 0 and quality - position * 1e-6 > best_quality:
            best, best_quality = primary, quality - position * 1e-6
    return best


def current_language() -> str:
    from nicegui import app, ui  # imported here so the catalogs stay usable without a UI

    try:
        chosen = app.storage.user.get('lang')
    except RuntimeError:  # outside a page request (tests of pure code, background tasks)
        chosen = None
    if chosen in LANGUAGES:
        return chosen
    try:
        header = ui.context.client.request.headers.get('accept-language')
    except (RuntimeError, AttributeError):
        header = None
    return language_from_header(header)


def set_language(language: str) -> None:
    from nicegui import app

    if language not in LANGUAGES:
        raise ValueError(f'unsupported language: {language!r}')
    app.storage.user['lang'] = language
