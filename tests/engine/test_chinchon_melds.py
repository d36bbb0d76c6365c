"""Known positions for the scoring functions: melds, closing, chinchón, lay-offs, the closer's
choice and the best discard."""
import pytest

from app.engine import chinchon
from app.engine.cards import parse_spanish as cards


def melds(*texts: str) -> list:
    return [cards(text) for text in texts]


@pytest.mark.parametrize('text, value', [('1o', 1), ('5c', 5), ('7e', 7), ('10b', 10), ('11o', 10),
                                         ('12c', 10)])
def test_card_values(text, value):
    assert chinchon.card_value(cards(text)[0]) == value


def test_scoring_functions_refuse_french_cards():
    from app.engine.cards import parse_french
    with pytest.raises(ValueError):
        chinchon.best_count(parse_french('As 2s 3s'))


def test_seven_runs_into_ten():
    assert chinchon.is_meld(cards('6o 7o 10o'))
    assert chinchon.best_count(cards('5c 6c 7c 10c 11c 1e 2b')) == 3


def test_runs_do_not_wrap():
    assert not chinchon.is_meld(cards('12o 1o 2o'))
    assert chinchon.best_count(cards('11o 12o 1o 2o 5c 5e 7b')) == 40


def test_a_run_needs_one_suit_and_three_cards():
    assert not chinchon.is_meld(cards('1o 2o 3c'))
    assert not chinchon.is_meld(cards('1o 2o'))


def test_sets_hold_three_or_four_never_five():
    assert chinchon.is_meld(cards('4o 4c 4e'))
    assert chinchon.is_meld(cards('4o 4c 4e 4b'))
    assert chinchon.is_meld(cards('4o 4o 4c'))          # two decks: duplicates are fine
    assert not chinchon.is_meld(cards('4o 4c 4e 4b 4o'))
    # five 4s from two decks: at most four in the set, the fifth stays loose
    assert chinchon.best_count(cards('4o 4c 4e 4b 4o 1c 1e')) == 6


def test_a_card_is_in_one_meld_only():
    # 3o ends the run 1o 2o 3o or joins 3c 3e, not both: the set leaves fewer points loose
    hand = cards('1o 2o 3o 3c 3e 12b 12c')
    assert chinchon.best_count(hand) == 1 + 2 + 20
    arranged = chinchon.best_arrangement(hand)
    assert arranged.melds == (tuple(cards('3o 3c 3e')),)


def test_best_arrangement_prefers_fewest_loose_points_over_most_melds():
    hand = cards('1o 2o 3o 4o 4c 4e 12b')
    assert chinchon.best_count(hand) == 10
    assert chinchon.best_arrangement(hand).loose == tuple(cards('12b'))


@pytest.mark.parametrize('text', ['1o 2o 3o 4o 5o 6o 7o', '2c 3c 4c 5c 6c 7c 10c',
                                  '3e 4e 5e 6e 7e 10e 11e', '4b 5b 6b 7b 10b 11b 12b'])
def test_chinchon_is_any_seven_in_a_row_of_one_suit(text):
    assert chinchon.is_chinchon(cards(text))
    assert chinchon.can_close(cards(text))
    assert chinchon.close_score(cards(text)) == -10


@pytest.mark.parametrize('text', ['1o 2o 3o 4o 5o 6o 7c', '1o 2o 3o 5o 6o 7o 10o',
                                  '1o 2o 3o 4o 4c 4e 4b'])
def test_not_chinchon(text):
    assert not chinchon.is_chinchon(cards(text))


def test_close_with_one_loose_card_worth_five():
    hand = cards('1o 2o 3o 12c 12e 12b 5e')
    assert chinchon.can_close(hand)
    assert chinchon.close_score(hand) == 5


def test_no_close_with_one_loose_card_worth_six():
    hand = cards('1o 2o 3o 12c 12e 12b 6e')
    assert not chinchon.can_close(hand)
    assert chinchon.close_score(hand) == 6


def test_no_close_with_two_loose_cards_even_if_small():
    assert not chinchon.can_close(cards('1o 2o 3o 4o 12b 1c 2e'))


def test_all_seven_melded_scores_minus_ten():
    hand = cards('1o 2o 3o 12c 12e 12b 12o')
    assert chinchon.can_close(hand)
    assert chinchon.close_score(hand) == -10


def test_layoff_fourth_card_on_a_set_of_three():
    closer = melds('12o 12e 12b', '1c 2c 3c')
    assert chinchon.count_against(cards('12c 5o 6e 7b 10o 11e 2o'), closer) == 50 - 10
    shown = chinchon.count_with_layoffs(cards('12c 5o 6e 7b 10o 11e 2o'), closer)
    assert shown.layoffs == ((0, tuple(cards('12c'))),)


def test_no_layoff_on_a_set_of_four():
    closer = melds('12o 12e 12b 12c', '1c 2c 3c')   # two decks: the other 12c exists
    assert chinchon.count_against(cards('12c 5o 6e 7b 10o 11e 2o'), closer) == 50


def test_layoffs_chain_before_and_after_a_run():
    closer = melds('5o 6o 7o')
    hand = cards('3o 4o 10o 11o 1c 5e 12b')
    shown = chinchon.count_with_layoffs(hand, closer)
    assert shown.points == 1 + 5 + 10
    assert shown.layoffs == ((0, tuple(cards('3o 4o'))), (0, tuple(cards('10o 11o'))))


def test_a_broken_chain_lays_off_only_the_touching_part():
    closer = melds('5o 6o 7o')
    assert chinchon.count_against(cards('3o 11o 10o 12c 12e 1b 2b'), closer) == 3 + 20 + 3


def test_layoffs_go_together_with_own_melds():
    # 4o joins the closer's run; 1o 2o 3o would be a meld of its own only without 4o... both work
    closer = melds('5o 6o 7o', '10c 10e 10b')
    hand = cards('1o 2o 3o 4o 10o 12c 12b')
    assert chinchon.count_against(hand, closer) == 20


def test_each_player_lays_off_on_the_closer_melds_as_shown():
    closer = melds('5o 6o 7o')
    first, second = cards('4o 1c 1e 2b 3b 6c 7c'), cards('4o 10o 1c 2c 12e 11e 11b')
    # with two decks both hold a 4o: each may lay it off, the other's lay-off does not count
    assert chinchon.count_against(first, closer) == 24 - 4
    assert chinchon.count_against(second, closer) == 47 - 14


def test_closer_tie_break_leaves_the_others_most_points():
    # 3o 4o 5o 6o + 6c 6e 6b or 3o 4o 5o + 6o 6c 6e 6b: both -10 for the closer. The first lets
    # a 7o be laid off; the engine picks the second, leaving the other player 7 more points.
    seven = cards('3o 4o 5o 6o 6c 6e 6b')
    assert len(chinchon.closer_arrangements(seven)) >= 2
    other = cards('7o 1c 1e 12b 11b 10e 2c')
    shown, counts = chinchon.closer_choice(seven, [other])
    assert sorted(map(len, shown.melds)) == [3, 4]
    assert tuple(cards('6o 6c 6e 6b')) in shown.melds
    assert counts[0].points == 7 + 2 + 30 + 2


def test_closer_arrangements_never_show_two_loose_cards():
    for option in chinchon.closer_arrangements(cards('1o 2o 3o 4o 5o 6o 5c')):
        assert len(option.loose) <= 1


def test_best_discard_chooses_card_and_melds_together():
    # "Best melds, then drop the worst loose card" keeps 2e 3e 4e + 1c 1e 1b and drops a 3 (3
    # left). Dropping the melded 4e instead gives 3c 3e 3b + 1c 1e 1b with only 2e loose.
    hand = cards('3c 1c 1e 3e 1b 4e 3b 2e')
    assert chinchon.best_arrangement(hand).loose_value == 6
    assert chinchon.best_discard(hand) == (cards('4e')[0], 2)


def test_best_discard_keeps_the_card_taken_from_the_discard_pile():
    hand = cards('1o 2o 3o 12c 12e 7b 6c 12b')
    assert chinchon.best_discard(hand) == (cards('7b')[0], 6)
    assert chinchon.best_discard(hand, forbidden=cards('12b')[0]) == (cards('7b')[0], 6)
    assert chinchon.best_discard(hand, forbidden=cards('7b')[0]) == (cards('6c')[0], 7)


def test_best_close_picks_the_card_to_put_face_down():
    hand = cards('1o 2o 3o 12c 12e 12b 5e 7b')
    assert chinchon.best_close(hand) == (cards('7b')[0], 5)
    assert chinchon.best_close(cards('1o 2o 3o 12c 12e 7b 6c 11b')) is None
    assert chinchon.best_close(cards('1o 2o 3o 4o 5o 6o 7o 12b'))[0] == cards('12b')[0]
