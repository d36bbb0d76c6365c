"""How long someone who keeps leaving rated games waits (app.playban.rules), on given times: one
leave alone is forgiven, a second within 24 hours starts 10 minutes, a quick repeat multiplies the
last wait by 2.2, a repeat days later is shorter again, and no wait passes 48 hours. And the daily
cap of a pair (app.fairplay.pairs) and the cut of one change to it (app.ratings.within)."""
from datetime import UTC, datetime, timedelta
from types import SimpleNamespace

import pytest

from app.fairplay.pairs import DAILY_CAP, bounds
from app.playban.rules import FIRST, LONGEST, last_wait, time_left
from app.ratings import Rating, rate_game, within

T0 = datetime(2026, 12, 7, 20, 0, tzinfo=UTC)
MINUTE = timedelta(minutes=1)


def test_one_leave_alone_costs_nothing_and_a_second_within_a_day_costs_ten_minutes():
    assert time_left([T0], T0) is None
    assert time_left([T0, T0 + timedelta(hours=25)], T0 + timedelta(hours=25)) is None   # a day apart: forgiven
    second = T0 + timedelta(hours=3)
    assert time_left([T0, second], second) == FIRST == timedelta(minutes=10)
    assert time_left([T0, second], second + 4 * MINUTE) == 6 * MINUTE
    assert time_left([T0, second], second + FIRST) is None   # the wait is over


def test_the_wait_grows_by_2_2_on_a_quick_repeat_and_shrinks_with_the_days():
    leaves = [T0, T0 + MINUTE]                           # a wait of 10 minutes, ending at T0 + 11 min
    again = T0 + 11 * MINUTE                              # left again the moment it ended
    assert last_wait(leaves + [again]).length == 22 * MINUTE
    third = again + 22 * MINUTE
    assert last_wait(leaves + [again, third]).length.total_seconds() == pytest.approx(22 * 60 * 2.2)
    # two leaves 36 hours after a wait ended: 1.6 times it (halfway from 2.2 to 1 at 72 hours)
    late = again + 22 * MINUTE + timedelta(hours=36)
    assert last_wait(leaves + [again, late - MINUTE, late]).length.total_seconds() == pytest.approx(22 * 60 * 1.6,
                                                                                                     rel=0.01)
    grown = last_wait(leaves + [again, again + 22 * MINUTE])          # 22 min x 2.2
    days_later = grown.ends + timedelta(days=6)
    faded = last_wait(leaves + [again, again + 22 * MINUTE, days_later, days_later + MINUTE])
    assert FIRST <= faded.length < grown.length   # days later the record has faded


def test_no_wait_passes_48_hours():
    leaves, at = [], T0
    for _ in range(20):   # someone leaving again each time a wait ends
        leaves.append(at)
        wait = last_wait(leaves)
        at = wait.ends if wait is not None else at + MINUTE
    assert last_wait(leaves).length == LONGEST == timedelta(hours=48)


def change(user_id: int, table_id: str, moved: int):
    return SimpleNamespace(user_id=user_id, table_id=table_id, before=1500, after=1500 + moved)


def test_a_pair_may_move_150_points_in_a_day_and_a_loss_frees_room_again():
    assert DAILY_CAP == 150
    earlier = [change(1, 't1', 78), change(2, 't1', -78), change(1, 't2', 59), change(2, 't2', -59),
               change(1, 't3', 40), change(3, 't3', -40)]   # Ana and Luis twice, Ana and Eva once
    allowed = bounds(earlier, [1, 2])
    assert allowed[1] == (-150 - 137, 13) and allowed[2] == (-13, 150 + 137)
    assert bounds(earlier, [1, 3])[1] == (-190, 110)
    assert bounds([change(1, 't1', 100), change(2, 't1', -100), change(1, 't2', -100), change(2, 't2', 100)],
                  [1, 2])[1] == (-150, 150)   # won and lost back: the pair's net is nothing
    assert bounds(earlier, [1])[1][1] > 10 ** 6   # alone with computers: no pair


def test_a_change_cut_to_the_cap_keeps_its_share_of_openskills_update():
    before = {0: Rating(), 1: Rating()}
    after = rate_game(before, [1, 2])
    assert after[0].display() - 1500 == 78
    cut = within(before[0], after[0], -150, 13)
    assert cut.display() - before[0].display() == 13
    share = (cut.mu - before[0].mu) / (after[0].mu - before[0].mu)
    assert (cut.sigma - before[0].sigma) == pytest.approx(share * (after[0].sigma - before[0].sigma))
    assert within(before[0], after[0], -150, 150) == after[0]
    assert within(before[1], after[1], 0, 150).display() == 1500   # no room left: it does not move
