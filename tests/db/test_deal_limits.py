"""The deal limits when several processes share one database (app/limits.py): each process
counts in the database, so one address (or one browser) going from process to process, as
alternating /w/1/ and /w/2/ does behind nginx, meets the same limit as at one process. On SQLite
and on PostgreSQL."""
import pytest

from app import limits
from app.limits import ADDRESS_WINDOWS, BROWSER_WINDOWS

pytestmark = pytest.mark.usefixtures('database')

NOW = 1_800_000_000.0   # seconds since the epoch, as every process's tables' clock gives them
OFFICE = '203.0.113.7'


def process_limiter():
    """The deal limits of one server process on a shared database, as main.py sets them up."""
    limits.count_in_database()
    return limits.NEW_TABLES


def test_one_address_alternating_two_processes_gets_no_more_tables_than_the_limit() -> None:
    first, second = process_limiter(), process_limiter()
    most = ADDRESS_WINDOWS[0].most
    dealt = [(first, second)[n % 2].take(f'fresh browser {n}', OFFICE, NOW + n / 10) for n in range(2 * most)]
    assert dealt.count(None) == most                 # 120 before: each process counted its own 60
    assert dealt[most].name == 'minute'
    assert first.take('yet another', OFFICE, NOW + 61) is None   # a minute after the first: a new window


def test_one_browser_alternating_processes_meets_its_limit_and_a_refusal_counts_nothing() -> None:
    first, second = process_limiter(), process_limiter()
    most = BROWSER_WINDOWS[0].most
    dealt = [(first, second)[n % 2].take('one browser', OFFICE, NOW) for n in range(most + 5)]
    assert dealt.count(None) == most and dealt[most].name == 'minute'
    # the five refused deals did not count against the address: the office deals the rest of its 60
    others = [second.take(f'colleague {n}', OFFICE, NOW) for n in range(ADDRESS_WINDOWS[0].most)]
    assert others.count(None) == ADDRESS_WINDOWS[0].most - most


def test_addresses_of_one_ipv6_network_share_a_limit_across_processes() -> None:
    first, second = process_limiter(), process_limiter()
    most = ADDRESS_WINDOWS[0].most
    spread = [(first, second)[n % 2].take(f'b{n}', f'2001:db8:0:1::{n + 1:x}', NOW) for n in range(most + 1)]
    assert spread.count(None) == most
    assert first.take('b', '2001:db8:0:2::1', NOW) is None        # another /64
