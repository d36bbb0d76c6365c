"""Every string a player sees, in Spanish and English, behind one lookup: ``t(key, **params)``.

The language is the one chosen with the switch (kept in ``app.storage.user`` by ``set_language``;
the page frame also saves it to a logged-in player's account, whose login brings it back), else the
browser's ``Accept-Language`` preference, else Spanish. This package knows nothing of accounts or
the database: pages hand it the language.
"""
from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from app.i18n import en, es

LANGUAGES: tuple[str, ...] = ('es', 'en')
DEFAULT_LANGUAGE = 'es'
CATALOGS: dict[str, dict[str, str]] = {'es': es.MESSAGES, 'en': en.MESSAGES}
FEMININE: dict[str, frozenset[str]] = {'es': es.FEMININE, 'en': en.FEMININE}   # keys of feminine nouns


def translate(language: str, key: str, **params: object) -> str:
    """The message `key` in `language`, formatted with `params`. A missing key raises KeyError:
    the catalog test keeps both languages complete, so a miss is a bug to see at once."""
    text = CATALOGS[language][key]
    return text.format(**params) if params else text


def t(key: str, **params: object) -> str:
    return translate(current_language(), key, **params)


def personal(key: str, *, you: bool = False, feminine: bool = False, masculine: bool = False,
             **params: object) -> str:
    """``key`` in the form that fits whom it speaks of: ``<key>.you`` when that is the reader
    (the second person), ``<key>.f`` for a woman and ``<key>.m`` for a man (Spanish agrees with
    them: a computer's name says which), else ``key``, which assumes no gender where a catalog
    has either form (a person's is unknown)."""
    catalog = CATALOGS[current_language()]
    for wanted, suffix in ((you, '.you'), (feminine, '.f'), (masculine, '.m')):
        if wanted and key + suffix in catalog:
            return t(key + suffix, **params)
    return t(key, **params)


def counted(key: str, count: int, **params: object) -> str:
    """``key`` with ``count`` (negatives with a true minus), in its ``.one`` form for exactly one
    when the catalog has it: "1 carta", never "1 cartas"."""
    one = f'{key}.one'
    return t(one if count == 1 and one in CATALOGS[current_language()] else key, count=number(count), **params)


def number(value: int) -> str:
    """A whole number as the site writes it: negatives with the minus sign (−20), never a hyphen."""
    return str(value).replace('-', '\u2212')


def signed(value: int) -> str:
    """A hand's points with their sign: +5, 0, −20."""
    return f'+{value}' if value > 0 else number(value)


def ordinal(value: int) -> str:
    """1.ª, 2.ª... / 1st, 2nd, 3rd, 11th: ``ordinal.<last digit>`` when the catalog has it."""
    last = value % 10 if not 11 <= value % 100 <= 13 else 0
    catalog = CATALOGS[current_language()]
    return t(f'ordinal.{last}' if f'ordinal.{last}' in catalog else 'ordinal', n=value)


def names_list(names: list[str]) -> str:
    """Names as a sentence says them: "Ana", "Ana y Luis", "Ana, Luis y Eva" (English: "and")."""
    if len(names) < 2:
        return ''.join(names)
    return t('list.and', first=', '.join(names[:-1]), last=names[-1])


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


_SCOPED: ContextVar[str | None] = ContextVar('language', default=None)


@contextmanager
def language_scope(language: str | None = None) -> Iterator[str]:
    """Look the language up once for a burst of `t()` calls (a table redraw makes hundreds)."""
    token = _SCOPED.set(language or current_language())
    try:
        yield _SCOPED.get()
    finally:
        _SCOPED.reset(token)


def current_language() -> str:
    scoped = _SCOPED.get()
    if scoped is not None:
        return scoped
    from nicegui import app, ui  # imported here so the catalogs stay usable without a UI

    try:
        chosen = app.storage.client.get(PAGE_LANGUAGE) or app.storage.user.get('lang')
    except RuntimeError:  # outside a page request (tests of pure code, background tasks)
        chosen = None
    if chosen in LANGUAGES:
        return chosen
    try:
        header = ui.context.client.request.headers.get('accept-language')
    except (RuntimeError, AttributeError):
        header = None
    return language_from_header(header)


PAGE_LANGUAGE = 'page_language'


def use_page_language(language: str) -> None:
    """This page speaks `language` whatever the visitor chose (pages whose address names a
    language, like the rules pages); the visitor's own choice is left as it is."""
    from nicegui import app

    if language not in LANGUAGES:
        raise ValueError(f'unsupported language: {language!r}')
    app.storage.client[PAGE_LANGUAGE] = language


def set_language(language: str) -> None:
    """This browser's choice, kept across its pages and visits."""
    from nicegui import app

    if language not in LANGUAGES:
        raise ValueError(f'unsupported language: {language!r}')
    app.storage.user['lang'] = language
