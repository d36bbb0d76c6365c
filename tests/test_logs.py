"""What a page's socket may write to the server's log (app/logs.py): NiceGUI writes a page's
``log`` messages through its ``nicegui`` logger, so a flood of forged lines is held there; a page
has its own share, and a traceback repeated (a request made to fail again and again) is written once."""
import io
import logging

from app import logs


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def written(limit: logs.LogLimit, messages: list[str], level: int = logging.WARNING) -> str:
    """What a handler writes of these messages, sent through a logger with the limit on."""
    out = io.StringIO()
    logger = logging.getLogger('test.browser-log')
    logger.handlers, logger.filters, logger.propagate = [logging.StreamHandler(out)], [limit], False
    for message in messages:
        logger.log(level, message)
    return out.getvalue()


def test_a_flood_of_big_messages_grows_the_log_by_a_few_kilobytes() -> None:
    # the audit's flood: 400 messages of 500 KB
    out = written(logs.LogLimit(Clock()), ['x' * 500_000] * 400)
    assert len(out) < 10_000                       # 200 MB before
    assert out.count('\n') == logs.BURST


def test_a_message_cannot_forge_a_log_line_of_its_own() -> None:
    out = written(logs.LogLimit(Clock()), ['page loaded\nERROR:app.accounts:admin signed in\r\n'])
    assert out == 'page loaded\\nERROR:app.accounts:admin signed in\\r\\n\n'   # one line, the breaks shown


def test_past_the_burst_a_few_a_minute_go_through_and_say_what_was_dropped() -> None:
    clock = Clock()
    limit = logs.LogLimit(clock)
    assert written(limit, [f'm{n}' for n in range(logs.BURST + 5)]).split() == [f'm{n}' for n in range(logs.BURST)]
    clock.now = 2.0                                # not a whole message's worth of time yet
    assert written(limit, ['early']) == ''
    clock.now = 60 / logs.PER_MINUTE + 0.01        # one message's worth of time
    assert written(limit, ['late']) == 'late [6 earlier messages dropped: over the limit]\n'


def test_a_long_message_is_cut_and_a_failure_keeps_its_traceback() -> None:
    out = written(logs.LogLimit(Clock()), ['y' * 1000])
    assert out == 'y' * logs.MAX_CHARS + '… (1000 characters)\n'
    limit = logs.LogLimit(Clock())
    limit.whole.tokens = 0                               # even over the limit
    record = logging.LogRecord('nicegui', logging.ERROR, __file__, 1, 'boom\nline two', None,
                               (ValueError, ValueError('x'), None))
    assert limit.filter(record) and record.getMessage() == 'boom\nline two'


def test_the_site_puts_the_limit_on_every_logger_a_stranger_reaches_once() -> None:
    logs.install()
    logs.install()
    for name in ('nicegui', 'uvicorn.error', 'engineio.server', 'socketio.server'):
        assert len([f for f in logging.getLogger(name).filters if isinstance(f, logs.LogLimit)]) == 1, name


def failure(limit: logs.LogLimit, out: io.StringIO, line: int) -> None:
    """uvicorn's words for a request that failed, with the traceback of a KeyError at ``line``."""
    logger = logging.getLogger('test.uvicorn-error')
    logger.handlers, logger.filters, logger.propagate = [logging.StreamHandler(out)], [limit], False
    code = compile('\n' * (line - 1) + "{}['REQUEST_METHOD']", 'engineio_server.py', 'exec')
    try:
        exec(code)
    except KeyError:
        logger.exception('Exception in ASGI application\n')


def test_a_traceback_repeated_is_written_once_and_then_counted() -> None:
    clock, out = Clock(), io.StringIO()
    limit = logs.LogLimit(clock)
    for _ in range(500):                           # the aborted polling POSTs: the same failure each time
        failure(limit, out, line=238)
    failure(limit, out, line=300)                  # another failure is written whole at once
    assert out.getvalue().count('Traceback') == 2
    assert 'line 238' in out.getvalue() and 'line 300' in out.getvalue()
    clock.now = logs.TRACEBACK_SECONDS
    later = io.StringIO()
    failure(limit, later, line=238)
    assert later.getvalue().startswith('Exception in ASGI application\n [the same traceback 499 times more since]')


def test_a_flooding_page_uses_up_its_own_share_and_leaves_the_others_theirs() -> None:
    clock, out = Clock(), io.StringIO()
    limit = logs.LogLimit(clock)
    logger = logging.getLogger('test.pages')
    logger.handlers, logger.filters, logger.propagate = [logging.StreamHandler(out)], [limit], False
    with logs.page_scope('flooding page'):
        for number in range(100):
            logger.warning('flood %d', number)
    for page in ('page one', 'page two', 'page three'):
        with logs.page_scope(page):
            logger.warning('%s loaded', page)
    lines = out.getvalue().splitlines()
    assert lines == [f'flood {n}' for n in range(logs.PAGE_BURST)] + [
        'page one loaded', 'page two loaded', 'page three loaded']
    clock.now = 60 / logs.PAGE_PER_MINUTE + 0.01
    with logs.page_scope('flooding page'):
        logger.warning('again')
    assert out.getvalue().splitlines()[-1] == 'again [95 earlier messages of this page dropped: over its limit]'
