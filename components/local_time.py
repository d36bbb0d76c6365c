"""Times as the reader reads them: month names in the page's language, the clock of the reader's
time zone. The server only knows UTC; the browser tells its offset once the page is connected.
Without an answer (no JavaScript, a slow link) the time is given in UTC and says so."""
from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

from nicegui import ui

from app.i18n import t

MAX_OFFSET = 14 * 60   # minutes: the furthest time zones from UTC are +14:00 and -12:00
ASK_OFFSET = 'new Date().getTimezoneOffset()'


async def reader_offset(timeout: float = 3.0) -> int | None:
    """The reader's offset from UTC in minutes east (Madrid in summer: 120), or None when the
    browser does not say within `timeout` seconds or says something that is not an offset."""
    try:
        await ui.context.client.connected(timeout=timeout)
        answer = await ui.run_javascript(ASK_OFFSET, timeout=timeout)
    except (TimeoutError, RuntimeError):   # ClientConnectionTimeout is a TimeoutError
        return None
    # JavaScript counts minutes *behind* UTC: Madrid in summer is -120
    if type(answer) in (int, float) and answer == int(answer) and abs(answer) <= MAX_OFFSET:
        return -int(answer)
    return None


def local(moment: datetime, offset: int | None) -> datetime:
    """`moment` (naive ones are UTC, as SQLite returns them) on the reader's clock."""
    aware = moment if moment.tzinfo else moment.replace(tzinfo=UTC)
    return aware.astimezone(timezone(timedelta(minutes=offset or 0)))


def when(moment: datetime, offset: int | None) -> str:
    """'1 dic 2026, 09:01' / 'Dec 1, 2026, 09:01' on the reader's clock; with '(UTC)' if unknown."""
    moment = local(moment, offset)
    text = t('time.when', day=moment.day, month=t(f'time.month.{moment.month}'), year=moment.year,
             time=f'{moment.hour:02d}:{moment.minute:02d}')
    return text if offset is not None else t('time.utc', when=text)
