"""The rating rules (app.ratings): final placings to rating changes, leavers, the computers' fixed
ratings and the halving beside them, the provisional mark, and which games are rated. Every
outcome is a real placing or a seeded random one; nothing reads the clock."""
import random

import pytest

from app.bench.computer_ratings import fit
from app.engine.protocol import LEVELS
from app.games import GAMES
from app.ratings import COMPUTER_RATINGS, MODEL, PROVISIONAL_SIGMA, Rating, is_rated, rate_game
from app.tables.records import placements
from app.history import Better

SETTLED = Rating(25.0, 2.0, 40)   # a player many games have measured


def test_a_new_player_shows_about_1500_and_is_provisional():
    new = Rating()
    assert new.display() == 1500
    assert new.provisional and new.games == 0
    assert Rating(26.0, 2.0).display() > 1500 > Rating(24.0, 2.0).display()


def test_the_winner_goes_up_and_the_last_goes_down():
    # a Chinchón game of four: seat 1 closed out the others, seat 2 went over the limit last
    places = placements((60, 12, 101, 80), (1,), Better.LOWER)
    assert places == [2, 1, 4, 3]
    after = rate_game({seat: Rating() for seat in range(4)}, places)
    assert after[1].mu > after[0].mu > Rating().mu > after[3].mu > after[2].mu
    assert after[1].display() > 1500 > after[2].display()
    assert all(rating.games == 1 and rating.sigma < Rating().sigma for rating in after.values())


def test_an_upset_moves_more_than_the_expected_result():
    favourite, outsider = Rating(30.0, 3.0, 20), Rating(20.0, 3.0, 20)
    expected = rate_game({0: favourite, 1: outsider}, [1, 2])
    upset = rate_game({0: favourite, 1: outsider}, [2, 1])
    assert upset[1].mu - outsider.mu > expected[0].mu - favourite.mu > 0


def test_a_tie_gives_equal_changes_to_equal_ratings():
    # Ronda Robada, higher is better: seats 0 and 2 share the win with the same cards
    places = placements((22, 9, 22), (0, 2), Better.HIGHER)
    assert places == [1, 3, 1]
    after = rate_game({0: SETTLED, 1: SETTLED, 2: SETTLED}, places)
    assert after[0] == after[2]
    assert after[0].mu > SETTLED.mu > after[1].mu
    # a tie between two alone: neither gains on the other
    drawn = rate_game({0: SETTLED, 1: SETTLED}, [1, 1])
    assert drawn[0] == drawn[1] and drawn[0].mu == pytest.approx(SETTLED.mu)


def test_a_leaver_is_placed_last_whatever_the_seat_scored():
    players = {0: Rating(), 1: SETTLED, 2: Rating(27.0, 4.0, 12)}
    # seat 0 left while ahead; the computer that played on for it even won
    left = rate_game(players, [1, 2, 3], leavers={0})
    assert left == rate_game(players, [3, 1, 2])
    assert left[0].mu < players[0].mu
    assert left[1].mu > players[1].mu


def test_several_leavers_tie_at_the_bottom():
    players = {0: SETTLED, 1: SETTLED, 2: SETTLED, 3: SETTLED}
    after = rate_game(players, [1, 2, 3, 4], leavers={0, 3})
    assert after[0] == after[3]
    assert after[0].mu < SETTLED.mu < after[2].mu < after[1].mu


def test_only_people_leave_and_every_seat_is_someone():
    with pytest.raises(ValueError, match='only people leave'):
        rate_game({0: SETTLED}, [1, 2], computers={1: SETTLED}, leavers={1})
    with pytest.raises(ValueError, match='every seat'):
        rate_game({0: SETTLED}, [1, 2, 3], computers={1: SETTLED})
    with pytest.raises(ValueError, match='every seat'):
        rate_game({0: SETTLED, 1: SETTLED}, [1, 2], computers={1: SETTLED})


def test_the_computers_ratings_never_change():
    hard = COMPUTER_RATINGS['chinchon']['hard']
    kept = Rating(hard.mu, hard.sigma, hard.games)
    rng = random.Random('computers never change')
    person = Rating()
    for _ in range(30):
        won = rng.random() < 0.5
        after = rate_game({0: person}, [1, 2] if won else [2, 1], computers={1: hard})
        assert set(after) == {0}   # only the person is rated
        person = after[0]
    assert COMPUTER_RATINGS['chinchon']['hard'] == kept
    assert person.games == 30


def test_a_person_gains_half_beside_a_computer():
    ana, luis, normal = Rating(26.0, 5.0, 6), Rating(24.0, 6.0, 3), COMPUTER_RATINGS['continental']['normal']
    halved = rate_game({0: ana, 2: luis}, [1, 2, 3], computers={1: normal})
    # the same game through openskill alone: what the people would get with no halving
    teams = [[MODEL.rating(mu=rating.mu, sigma=rating.sigma)] for rating in (ana, normal, luis)]
    full = MODEL.rate(teams, ranks=[1, 2, 3])
    for seat, before in ((0, ana), (2, luis)):
        assert halved[seat].mu - before.mu == pytest.approx((full[seat][0].mu - before.mu) / 2)
        assert halved[seat].sigma - before.sigma == pytest.approx((full[seat][0].sigma - before.sigma) / 2)
    # with people alone nothing is halved
    people = rate_game({0: ana, 1: luis}, [1, 2])
    alone = MODEL.rate([[MODEL.rating(mu=ana.mu, sigma=ana.sigma)], [MODEL.rating(mu=luis.mu, sigma=luis.sigma)]],
                       ranks=[1, 2])
    assert people[0].mu == pytest.approx(alone[0][0].mu)
    assert people[1].sigma == pytest.approx(alone[1][0].sigma)


def games_until_settled(opponent: Rating, seed: str, *, against_computer: bool, seats: int = 2) -> int:
    """Seeded random placings for a new player against ``seats - 1`` copies of ``opponent``, until
    the new player's rating is no longer provisional."""
    rng = random.Random(seed)
    person = Rating()
    others = {seat: opponent for seat in range(1, seats)}
    while person.provisional:
        places = list(range(1, seats + 1))
        rng.shuffle(places)
        if against_computer:
            person = rate_game({0: person}, places, computers=others)[0]
        else:
            person = rate_game({0: person, **others}, places)[0]
        assert person.games < 100, 'the provisional mark never went away'
    return person.games


def test_the_provisional_mark_goes_away_after_enough_games():
    two_seats = games_until_settled(SETTLED, 'two seats', against_computer=False)
    four_seats = games_until_settled(SETTLED, 'four seats', against_computer=False, seats=4)
    computers = games_until_settled(COMPUTER_RATINGS['chinchon']['normal'], 'computers', against_computer=True)
    # 200 seeds of each took 9 to 15 games against settled players, 17 to 24 against computers
    assert 9 <= two_seats <= 15 and 9 <= four_seats <= 15   # about the leaderboard's 10 rated games
    assert computers > max(two_seats, four_seats)   # halved changes teach half as fast
    assert not Rating(25.0, PROVISIONAL_SIGMA).provisional


@pytest.mark.parametrize(('seating', 'rated'), [
    (dict(public=True, accounts=2, guests=0, computers=0), True),
    (dict(public=True, accounts=3, guests=0, computers=1), True),
    (dict(public=True, accounts=1, guests=0, computers=3), True),    # against computers alone
    (dict(public=True, accounts=1, guests=1, computers=0), False),   # a guest present
    (dict(public=True, accounts=2, guests=1, computers=0), False),
    (dict(public=True, accounts=0, guests=2, computers=0), False),
    (dict(public=False, accounts=2, guests=0, computers=0), False),  # a private table or room
    (dict(public=False, accounts=1, guests=0, computers=1), False),
    (dict(public=True, accounts=1, guests=0, computers=0), False),   # a lone person, nobody to play
    (dict(public=True, accounts=2, guests=0, computers=0, wanted=False), False),   # opened unrated
])
def test_which_games_are_rated(seating: dict, rated: bool):
    assert is_rated(**seating) is rated


def test_every_game_has_a_fixed_rating_per_computer_level_in_order():
    for game in GAMES:
        levels = game.computer_ratings
        assert set(levels) == set(LEVELS)
        assert levels['easy'].mu < levels['normal'].mu < levels['hard'].mu
        assert levels['normal'].display() == 1500   # the anchor of the scale


def test_the_fit_orders_the_levels_by_their_measured_win_rates():
    measured = (('hard', 'normal', 70.0, 100), ('normal', 'easy', 80.0, 100), ('hard', 'easy', 90.0, 100))
    fitted = fit(measured, 6000, 1)
    assert fitted == fit(measured, 6000, 1)   # seeded: the same table every run
    assert fitted['normal'].mu == 25.0
    assert fitted['easy'].display() < fitted['normal'].display() < fitted['hard'].display()
    # normal-easy was measured wider apart than hard-normal
    assert fitted['normal'].mu - fitted['easy'].mu > fitted['hard'].mu - fitted['normal'].mu
