"""The daily deal's field (app.daily.field): matchpoints as duplicate bridge counts them, the
month's board, the streak, the histogram and the shared line of squares."""
from __future__ import annotations

from datetime import date

import pytest

from app.daily.field import (Result, bin_of, histogram, month_board, percentile, squares, standings, streak)
from app.games import Better


def result(key: int, points: int, *, finished: bool = True, seconds: float | None = 60.0, user: int | None = 0,
           name: str = '') -> Result:
    """A try of account ``user`` (by default, account number ``key``; None: a guest's)."""
    return Result(key=key, name=name or f'P{key}', points=points, finished=finished,
                  seconds=seconds if finished else None, user_id=key if user == 0 else user)


def by_key(lines):
    return {line.result.key: line for line in lines}


def test_a_try_alone_is_in_the_middle():
    [line] = standings([result(1, 12)], Better.LOWER)
    assert (line.rank, line.percentile) == (1, 50.0)


def test_each_try_beaten_scores_one_and_each_tie_half():
    lines = by_key(standings([result(1, 5), result(2, 10), result(3, 10), result(4, 30)], Better.LOWER))
    # fewest points win Chinchón: 5 beats all three others; the two 10s beat one and tie one
    assert lines[1].percentile == 100.0
    assert lines[2].percentile == lines[3].percentile == pytest.approx(100 * 1.5 / 3)
    assert lines[4].percentile == 0.0
    assert [lines[key].rank for key in (1, 2, 3, 4)] == [1, 2, 2, 4]


def test_more_points_win_where_the_game_says_so():
    lines = by_key(standings([result(1, 40), result(2, 70)], Better.HIGHER))
    assert (lines[2].percentile, lines[1].percentile) == (100.0, 0.0)


def test_a_growing_field_moves_a_percentile():
    first = [result(1, 20)]
    assert by_key(standings(first, Better.LOWER))[1].percentile == 50.0
    grown = first + [result(2, 25), result(3, 30)]
    assert by_key(standings(grown, Better.LOWER))[1].percentile == 100.0
    grown += [result(4, 10), result(5, 15), result(6, 18), result(7, 19)]
    assert by_key(standings(grown, Better.LOWER))[1].percentile == pytest.approx(100 * 2 / 6)


def test_an_unfinished_try_is_behind_every_finished_one_whatever_its_points():
    """Leaving a game of fewest points early with 0 must not beat those who played it out."""
    lines = by_key(standings([result(1, 0, finished=False), result(2, 90), result(3, 2, finished=False)],
                             Better.LOWER))
    assert lines[2].percentile == 100.0
    assert lines[1].percentile == 50.0   # beats the other unfinished try, loses to the finished one
    assert lines[3].percentile == 0.0


def test_equal_results_are_listed_the_faster_first():
    lines = standings([result(1, 10, seconds=300), result(2, 10, seconds=200), result(3, 4, seconds=900)],
                      Better.LOWER)
    assert [line.result.key for line in lines] == [3, 2, 1]


def test_a_guest_is_held_against_the_field_without_being_in_it():
    field = [result(1, 10), result(2, 20), result(3, 30), result(4, 40)]
    assert percentile(result(9, 20, user=None), field, Better.LOWER) == pytest.approx(100 * 2.5 / 4)
    assert percentile(result(9, 20), [], Better.LOWER) == 50.0


def test_the_month_averages_each_players_best_days():
    days = [standings([result(1, 10 + day, user=1, name='Ana'), result(2, 20, user=2, name='Luis')], Better.LOWER)
            for day in range(15)]   # Ana beats Luis on days 0-9, ties on day 10, loses after
    lines = month_board(days, best=12)
    assert [line.name for line in lines] == ['Ana', 'Luis']
    ana, luis = lines
    assert ana.days == luis.days == 15
    assert ana.average == pytest.approx((10 * 100 + 50) / 12 + 0)   # best 12: ten wins, the tie, one loss
    assert luis.average == pytest.approx((4 * 100 + 50 + 7 * 0) / 12)


def test_the_month_leaves_guests_out():
    day = standings([result(1, 10, user=None), result(2, 20, user=7, name='Eva')], Better.LOWER)
    assert [line.name for line in month_board([day])] == ['Eva']


def test_the_streak_counts_days_in_a_row_up_to_today_or_yesterday():
    today = date(2026, 12, 4)
    played = [date(2026, 12, 1), date(2026, 12, 2), date(2026, 12, 3)]
    assert streak(played, today) == 3                        # today not played yet: it still stands
    assert streak(played + [today], today) == 4
    assert streak([date(2026, 12, 2)], today) == 0           # a day missed breaks it
    assert streak([], today) == 0
    assert streak([date(2026, 11, 30), date(2026, 12, 1)], date(2026, 12, 2)) == 2   # across a month's end


def test_the_histogram_puts_each_percentile_in_its_tenth():
    assert histogram([0, 9.9, 10, 50, 100, 100]) == [2, 1, 0, 0, 0, 1, 0, 0, 0, 2]
    assert bin_of(100) == 9 and bin_of(0) == 0


def test_the_shared_squares_show_the_percentile_in_tenths():
    assert squares(83) == '■' * 8 + '□' * 2
    assert squares(0) == '□' * 10 and squares(100) == '■' * 10
