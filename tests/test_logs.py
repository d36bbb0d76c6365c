"""What a page's socket may write to the server's log (app/logs.py): NiceGUI writes a page's
``log`` messages through its ``nicegui`` logger, so a flood of forged lines is held there; a page
has its own share, and a traceback repeated (a request made to fail again and again) is written once;
with HOD_LOG_FORMAT=json each record is one JSON object a line, under the same limits."""
import io
import json
import logging
import subprocess
import sys
from contextlib import ExitStack
from pathlib import Path

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


def json_lines(limit: logs.LogLimit, messages: list[str], *, table: str | None = None, page: str | None = None,
               failing: bool = False) -> list[dict]:
    """The JSON objects a handler with the site's JSON formatter writes of these messages."""
    out = io.StringIO()
    handler = logging.StreamHandler(out)
    handler.setFormatter(logs.JsonFormatter())
    logger = logging.getLogger('test.json-log')
    logger.handlers, logger.filters, logger.propagate = [handler], [limit], False
    with ExitStack() as scopes:
        if table:
            scopes.enter_context(logs.table_scope(table))
        if page:
            scopes.enter_context(logs.page_scope(page))
        for message in messages:
            if failing:
                try:
                    raise KeyError(message)
                except KeyError:
                    logger.exception('could not load table %s', message)
            else:
                logger.warning(message)
    return [json.loads(line) for line in out.getvalue().splitlines()]


def test_a_json_line_says_when_how_bad_who_what_and_for_which_table_and_page() -> None:
    [line] = json_lines(logs.LogLimit(Clock()), ['a bot chose 1o\nFAKE: a forged line'], table='t' * 16, page='p1')
    assert set(line) == {'time', 'level', 'logger', 'message', 'table', 'page'}
    assert (line['level'], line['logger'], line['table'], line['page']) == ('WARNING', 'test.json-log', 't' * 16, 'p1')
    assert line['message'] == 'a bot chose 1o\\nFAKE: a forged line'    # still one line, as in text
    assert line['time'].endswith('+00:00')
    [plain] = json_lines(logs.LogLimit(Clock()), ['outside any table'])
    assert 'table' not in plain and 'page' not in plain


def test_json_lines_keep_the_limits_and_carry_the_traceback() -> None:
    assert len(json_lines(logs.LogLimit(Clock()), ['x' * 500_000] * 400)) == logs.BURST
    [first] = json_lines(logs.LogLimit(Clock()), ['y' * 1000])
    assert len(first['message']) < 400
    [failure] = json_lines(logs.LogLimit(Clock()), ['abc', 'abc'], failing=True)   # the same traceback twice: once
    assert failure['level'] == 'ERROR' and 'KeyError' in failure['exception']


def test_the_json_set_up_sends_every_logger_through_one_json_handler() -> None:
    """As uvicorn applies it at start (its log_config), in a process of its own."""
    script = ('import logging, logging.config\nfrom app import logs\n'
              "logging.config.dictConfig(logs.log_config('json'))\n"
              "logging.getLogger('app.tables.registry').warning('could not save table %s', 'abc')\n"
              "logging.getLogger('uvicorn.error').warning('server busy')\n"
              "logging.getLogger('app.tables.registry').info('not written: below warnings')\n")
    result = subprocess.run([sys.executable, '-c', script], capture_output=True, text=True, check=True,
                            cwd=Path(logs.__file__).parents[1])
    lines = [json.loads(line) for line in result.stderr.splitlines()]
    assert [(line['logger'], line['message']) for line in lines] == [
        ('app.tables.registry', 'could not save table abc'), ('uvicorn.error', 'server busy')]
    assert logs.log_config('text') is None   # uvicorn's own set-up
