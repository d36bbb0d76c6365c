"""What a page's socket may write to the server's log (app/logs.py): NiceGUI writes a page's
``log`` messages through its ``nicegui`` logger, so a flood of forged lines is held there."""
import io
import logging

from app import logs


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def written(limit: logs.BrowserLogLimit, messages: list[str], level: int = logging.WARNING) -> str:
    """What a handler writes of these messages, sent through a logger with the limit on."""
    out = io.StringIO()
    logger = logging.getLogger('test.browser-log')
    logger.handlers, logger.filters, logger.propagate = [logging.StreamHandler(out)], [limit], False
    for message in messages:
        logger.log(level, message)
    return out.getvalue()


def test_a_flood_of_big_messages_grows_the_log_by_a_few_kilobytes() -> None:
    # the audit's flood: 400 messages of 500 KB
    out = written(logs.BrowserLogLimit(Clock()), ['x' * 500_000] * 400)
    assert len(out) < 10_000                       # 200 MB before
    assert out.count('\n') == logs.BURST


def test_a_message_cannot_forge_a_log_line_of_its_own() -> None:
    out = written(logs.BrowserLogLimit(Clock()), ['page loaded\nERROR:app.accounts:admin signed in\r\n'])
    assert out == 'page loaded\\nERROR:app.accounts:admin signed in\\r\\n\n'   # one line, the breaks shown


def test_past_the_burst_a_few_a_minute_go_through_and_say_what_was_dropped() -> None:
    clock = Clock()
    limit = logs.BrowserLogLimit(clock)
    assert written(limit, [f'm{n}' for n in range(logs.BURST + 5)]).split() == [f'm{n}' for n in range(logs.BURST)]
    clock.now = 2.0                                # not a whole message's worth of time yet
    assert written(limit, ['early']) == ''
    clock.now = 60 / logs.PER_MINUTE + 0.01        # one message's worth of time
    assert written(limit, ['late']) == 'late [6 earlier messages dropped: over the limit]\n'


def test_a_long_message_is_cut_and_a_failure_keeps_its_traceback() -> None:
    out = written(logs.BrowserLogLimit(Clock()), ['y' * 1000])
    assert out == 'y' * logs.MAX_CHARS + '… (1000 characters)\n'
    limit = logs.BrowserLogLimit(Clock())
    limit.tokens = 0                               # even over the limit
    record = logging.LogRecord('nicegui', logging.ERROR, __file__, 1, 'boom\nline two', None,
                               (ValueError, ValueError('x'), None))
    assert limit.filter(record) and record.getMessage() == 'boom\nline two'


def test_the_site_puts_the_limit_on_niceguis_logger_once() -> None:
    logs.install()
    logs.install()
    limits = [f for f in logging.getLogger('nicegui').filters if isinstance(f, logs.BrowserLogLimit)]
    assert len(limits) == 1
