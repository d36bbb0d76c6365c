"""What the browsers may write to the server's log, directly or by making it fail.

NiceGUI writes every ``log`` message a page's socket sends through its ``nicegui`` logger, at the
level the page names and as the page wrote it. A page is anybody's: one browser sent 400 messages
of 500 KB (200 MB of log in 3.7 s), and forged log lines with line breaks in them. And anybody can
make the server fail the same way again and again: 2,000 socket.io polling POSTs dropped before
their body wrote 2,262 identical tracebacks (15.8 MB) through ``uvicorn.error``. So ``LogLimit``
(a standard ``logging.Filter``, the logging module's public extension point) sits on the loggers
a stranger can reach (``LOGGERS``), one on each, and holds everything that reaches it:

- each message on one line (line breaks shown as ``\\n``), cut to ``MAX_CHARS``;
- at most ``BURST`` messages at once and ``PER_MINUTE`` a minute after that for the logger as a
  whole, and ``PAGE_BURST`` and ``PAGE_PER_MINUTE`` for each page (the page whose socket event is
  being handled, named by ``page_scope``), so that one flooding page uses up its own share, not
  everybody's; what goes over is dropped and counted, and the next message that passes says how
  many were dropped;
- a record with a traceback is kept whole, but the same traceback (the same exception type
  raised along the same lines of code) is written once every ``TRACEBACK_SECONDS``: its repeats
  are counted, and said beside it the next time it is written.

With ``HOD_LOG_FORMAT=json`` every logger writes through one handler whose ``JsonFormatter``
makes each record one JSON object a line: its time (UTC), level, logger and message, the table
and the page it was written for when there is one (``table_scope``, ``page_scope``), and its
traceback. The limits above hold as they do for text: they run on the loggers, before any handler.
"""
from __future__ import annotations

import contextvars
import json
import logging
import time
import traceback
from datetime import UTC, datetime
from collections import OrderedDict
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager

MAX_CHARS = 300
BURST = 20
PER_MINUTE = 20
PAGE_BURST = 5         # one page's share: a flooding page leaves the others most of the log
PAGE_PER_MINUTE = 5
TRACEBACK_SECONDS = 600
MOST_KEYS = 10_000   # pages (and distinct tracebacks) remembered at once
LOGGERS = ('nicegui', 'uvicorn.error', 'engineio.server', 'socketio.server')

_PAGE: contextvars.ContextVar[str | None] = contextvars.ContextVar('log_page', default=None)
_TABLE: contextvars.ContextVar[str | None] = contextvars.ContextVar('log_table', default=None)


def page_scope(page: str) -> AbstractContextManager[None]:
    """What is logged inside (and in the tasks started inside) counts against this page's share."""
    return _scope(_PAGE, page)


def table_scope(table_id: str) -> AbstractContextManager[None]:
    """What is logged inside (and in the tasks started inside) is about this table."""
    return _scope(_TABLE, table_id)


@contextmanager
def _scope(variable: contextvars.ContextVar[str | None], value: str) -> Iterator[None]:
    token = variable.set(value)
    try:
        yield
    finally:
        variable.reset(token)


class JsonFormatter(logging.Formatter):
    """One JSON object a line: time, level, logger, message, and table, page and exception when
    there are."""

    def format(self, record: logging.LogRecord) -> str:
        line = {'time': datetime.fromtimestamp(record.created, UTC).isoformat(timespec='milliseconds'),
                'level': record.levelname, 'logger': record.name, 'message': record.getMessage()}
        for key, scope in (('table', _TABLE), ('page', _PAGE)):
            if scope.get() is not None:
                line[key] = scope.get()
        if record.exc_info:
            line['exception'] = self.formatException(record.exc_info)
        return json.dumps(line, ensure_ascii=False)


def log_config(form: str) -> dict | None:
    """The logging set-up uvicorn applies at start (its ``log_config``) for this HOD_LOG_FORMAT:
    for ``json``, the site's, uvicorn's and NiceGUI's loggers all through one JSON handler on
    stderr (warnings and worse, as Python's own last-resort handler writes them for text, and
    uvicorn's access lines at the level ui.run gives them); for ``text``, None: uvicorn's own."""
    if form != 'json':
        return None
    handler = {'handlers': ['json'], 'propagate': False}
    return {'version': 1, 'disable_existing_loggers': False,
            'formatters': {'json': {'()': JsonFormatter}},
            'handlers': {'json': {'class': 'logging.StreamHandler', 'formatter': 'json', 'stream': 'ext://sys.stderr'}},
            'loggers': {'uvicorn': handler, 'uvicorn.access': handler},
            'root': {'handlers': ['json'], 'level': 'WARNING'}}


class Bucket:
    def __init__(self, now: float, burst: int = BURST, per_minute: int = PER_MINUTE) -> None:
        self.burst, self.per_minute = burst, per_minute
        self.tokens, self.checked, self.dropped = float(burst), now, 0

    def take(self, now: float) -> bool:
        self.tokens = min(self.burst, self.tokens + (now - self.checked) * self.per_minute / 60)
        self.checked = now
        if self.tokens < 1:
            self.dropped += 1
            return False
        self.tokens -= 1
        return True


class LogLimit(logging.Filter):
    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        super().__init__()
        self.clock = clock
        self.whole = Bucket(clock())
        self.pages: OrderedDict[str, Bucket] = OrderedDict()
        self.tracebacks: OrderedDict[tuple, list[float]] = OrderedDict()   # -> [last written, repeats since]

    def filter(self, record: logging.LogRecord) -> bool:
        now = self.clock()
        if record.exc_info:
            return self._traceback(record, now)
        page = _PAGE.get()
        bucket = self._page_bucket(page, now) if page else None
        if bucket is not None and not bucket.take(now):
            return False
        if not self.whole.take(now):
            return False
        text = record.getMessage().replace('\r', '\\r').replace('\n', '\\n')
        if len(text) > MAX_CHARS:
            text = f'{text[:MAX_CHARS]}… ({len(text)} characters)'
        if bucket is not None and bucket.dropped:
            text = f'{text} [{bucket.dropped} earlier messages of this page dropped: over its limit]'
            bucket.dropped = 0
        if self.whole.dropped:
            text = f'{text} [{self.whole.dropped} earlier messages dropped: over the limit]'
            self.whole.dropped = 0
        record.msg, record.args = text, None
        return True

    def _page_bucket(self, page: str, now: float) -> Bucket:
        bucket = self.pages.pop(page, None) or Bucket(now, PAGE_BURST, PAGE_PER_MINUTE)
        self.pages[page] = bucket   # the newest at the end: the oldest are forgotten first
        while len(self.pages) > MOST_KEYS:
            self.pages.popitem(last=False)
        return bucket

    def _traceback(self, record: logging.LogRecord, now: float) -> bool:
        kind, _, trace = record.exc_info
        where = tuple((frame.filename, frame.lineno) for frame in traceback.extract_tb(trace))
        key = (record.name, record.msg if isinstance(record.msg, str) else '', kind, where)
        seen = self.tracebacks.pop(key, None)
        if seen is not None and now - seen[0] < TRACEBACK_SECONDS:
            seen[1] += 1
            self.tracebacks[key] = seen
            return False
        if seen is not None and seen[1]:
            record.msg, record.args = f'{record.getMessage()} [the same traceback {seen[1]} times more since]', None
        self.tracebacks[key] = [now, 0]
        while len(self.tracebacks) > MOST_KEYS:
            self.tracebacks.popitem(last=False)
        return True


def install() -> list[LogLimit]:
    """Called by app.site on every start: a limit on each logger a stranger can reach, once (a
    start again, as NiceGUI's test fixture does, replaces it)."""
    limits = []
    for name in LOGGERS:
        logger = logging.getLogger(name)
        for old in [f for f in logger.filters if isinstance(f, LogLimit)]:
            logger.removeFilter(old)
        limit = LogLimit()
        logger.addFilter(limit)
        limits.append(limit)
    return limits
