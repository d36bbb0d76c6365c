"""Times as the reader reads them: month names in the page's language, the clock of the reader's
time zone. The server only knows UTC; the browser tells its offset once the page is connected.
A page shows its times in UTC (and says so) at once, and on the reader's clock once the browser
has answered; without an answer (no JavaScript, a link that never connects) they stay in UTC."""
from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import UTC, datetime, timedelta, timezone

from nicegui import ui

from app.i18n import t

MAX_OFFSET = 14 * 60   # minutes: the furthest time zones from UTC are +14:00 and -12:00
ASK_OFFSET = 'new Date().getTimezoneOffset()'
# seconds for the page to connect and the browser to answer; generous, since the times are already
# shown in UTC meanwhile and a busy machine or a slow phone can take several seconds to connect
ANSWER_TIMEOUT = 20.0


def show_times(times: list[tuple[ui.label, Callable[[int | None], str]]],
               drawings: Sequence[Callable[[int | None], None]] = ()) -> None:
    """Each label's text for an offset (None: UTC), in UTC at once, then on the reader's clock once
    the browser has connected and said it (the page itself does not wait for it). `drawings` are
    drawn already in UTC and are drawn again for the reader's offset."""
    for label, text in times:
        label.set_text(text(None))

    async def on_the_readers_clock() -> None:
        offset = await reader_offset()
        if offset is not None:
            for label, text in times:
                label.set_text(text(offset))
            for draw in drawings:
                draw(offset)

    ui.context.client.on_connect(on_the_readers_clock)


async def reader_offset(timeout: float = ANSWER_TIMEOUT) -> int | None:
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
