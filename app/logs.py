"""What the browsers may write to the server's log.

NiceGUI writes every ``log`` message a page's socket sends through its ``nicegui`` logger, at the
level the page names and as the page wrote it. A page is anybody's: one browser sent 400 messages
of 500 KB (200 MB of log in 3.7 s), and forged log lines with line breaks in them. The site's own
code never writes through that logger, and NiceGUI's own notices there are few, so
``BrowserLogLimit`` (a standard ``logging.Filter``, the logging module's public extension point)
holds everything that reaches it:

- each message on one line (line breaks shown as ``\\n``), cut to ``MAX_CHARS``;
- at most ``BURST`` messages at once and ``PER_MINUTE`` a minute after that; what goes over is
  dropped and counted, and the next message that passes says how many were dropped.

A record that carries an exception (NiceGUI's own failures, with their tracebacks) is kept whole.
"""
from __future__ import annotations

import logging
import time
from collections.abc import Callable

MAX_CHARS = 300
BURST = 20
PER_MINUTE = 20


class BrowserLogLimit(logging.Filter):
    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        super().__init__()
        self.clock = clock
        self.tokens = float(BURST)
        self.checked = clock()
        self.dropped = 0

    def filter(self, record: logging.LogRecord) -> bool:
        if record.exc_info:
            return True
        now = self.clock()
        self.tokens = min(BURST, self.tokens + (now - self.checked) * PER_MINUTE / 60)
        self.checked = now
        if self.tokens < 1:
            self.dropped += 1
            return False
        self.tokens -= 1
        text = record.getMessage().replace('\r', '\\r').replace('\n', '\\n')
        if len(text) > MAX_CHARS:
            text = f'{text[:MAX_CHARS]}… ({len(text)} characters)'
        if self.dropped:
            text = f'{text} [{self.dropped} earlier messages dropped: over the limit]'
            self.dropped = 0
        record.msg, record.args = text, None
        return True


def install() -> BrowserLogLimit:
    """Called by main.py on every start: the limit on NiceGUI's logger (what the pages' sockets
    write to), once (a start again, as NiceGUI's test fixture does, replaces it)."""
    logger = logging.getLogger('nicegui')
    for old in [f for f in logger.filters if isinstance(f, BrowserLogLimit)]:
        logger.removeFilter(old)
    limit = BrowserLogLimit()
    logger.addFilter(limit)
    return limit
