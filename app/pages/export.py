"""/account/export.json and /account/export.csv: the signed-in account's whole history as a
download (app.export writes it). Plain HTTP routes, so the browser saves a file as long as the
history is, streamed as it is read; the account comes from the session cookie, as for any page."""
from __future__ import annotations

from collections.abc import Callable, Iterator

from starlette.requests import Request
from starlette.responses import RedirectResponse, StreamingResponse

from app import export, sessions
from app.accounts import get_account
from app.i18n import LANGUAGES, language_from_header
from models.tables import utcnow

JSON_PATH = '/account/export.json'
CSV_PATH = '/account/export.csv'


def export_path(path: str, language: str) -> str:
    return f'{path}?lang={language}'


async def json_route(request: Request) -> StreamingResponse | RedirectResponse:
    return _download(request, 'json', 'application/json; charset=utf-8',
                     lambda account, language, now: export.history_json(account, now))


async def csv_route(request: Request) -> StreamingResponse | RedirectResponse:
    return _download(request, 'csv', 'text/csv; charset=utf-8',
                     lambda account, language, now: export.history_csv(account, language))


def _download(request: Request, extension: str, media_type: str,
              write: Callable[..., Iterator[str]]) -> StreamingResponse | RedirectResponse:
    user_id = sessions.user_of_token(request.cookies.get(sessions.SESSION_COOKIE))
    account = get_account(user_id) if user_id is not None else None
    if account is None:
        return sessions.login_redirect(request)
    language = request.query_params.get('lang')
    if language not in LANGUAGES:
        language = language_from_header(request.headers.get('accept-language'))
    now = utcnow()
    # a sync iterator: Starlette reads it in a worker thread, so the queries leave the event loop free
    return StreamingResponse(write(account, language, now), media_type=media_type, headers={
        'Content-Disposition': f'attachment; filename="{export.filename(extension, now)}"',
        'Cache-Control': 'no-store'})
