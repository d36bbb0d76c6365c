"""/ranking as players meet it: the rated accounts of a game best first, your own rating and place
(marked provisional while it is), what a guest or a newcomer is told, the empty state with its
rule, and, in the history, one rating plot per game that has rated games."""
from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from nicegui.testing import User
from people import log_in_and_see_history, new_account

from app.history import SeatResult, record_finished_game
from app.i18n import CATALOGS
from app.ratings import Rating
from app.standings import record_rated_game
from models.db import session_scope
from models.tables import PlayerRating

pytestmark = pytest.mark.usefixtures('fresh_accounts')

ES = CATALOGS['es']


def rated(user_id: int, *, mu: float, games: int, sigma: float = 3.0, game_id: str = 'chinchon',
          days_ago: int = 1) -> Rating:
    with session_scope() as session:
        session.add(PlayerRating(user_id=user_id, game_id=game_id, mu=mu, sigma=sigma, games=games,
                                 last_played_at=datetime.now(UTC) - timedelta(days=days_ago)))
    return Rating(mu, sigma, games)


def board(user: User) -> str:
    return user.find(marker='ranking-board').elements.pop().content


async def test_the_ranking_lists_rated_accounts_best_first(user: User) -> None:
    ana, bea, luis, eva = new_account('Ana'), new_account('Bea'), new_account('Luis'), new_account('Eva')
    second = rated(ana, mu=27.0, games=12)
    first = rated(bea, mu=31.0, games=10)
    rated(luis, mu=40.0, games=9)                   # one rated game short
    rated(eva, mu=35.0, games=30, days_ago=31)      # away too long
    await user.open('/ranking/chinchon')
    await user.should_see(ES['ranking.game_title'].format(game=ES['game.chinchon.name']))
    html = board(user)
    assert html.count('data-testid="ranking-row"') == 2
    assert html.index('Bea') < html.index('Ana') and 'Luis' not in html and 'Eva' not in html
    assert f'<td class="num">{first.display()}</td>' in html and f'<td class="num">{second.display()}</td>' in html
    await user.should_see(marker='ranking-guest')
    await user.should_see(ES['ranking.sign_in'])
    await user.should_not_see(marker='ranking-me')
    for game in ('chinchon', 'ronda-robada', 'continental'):
        await user.should_see(marker=f'ranking-tab-{game}')


async def test_you_see_your_rating_and_place(user: User) -> None:
    ana, bea = new_account('Ana'), new_account('Bea')
    rated(ana, mu=33.0, games=15)
    mine = rated(bea, mu=28.0, games=11)
    await log_in_and_see_history(user, 'Bea')
    await user.open('/ranking/chinchon')
    with user.scope(marker='ranking-me'):
        await user.should_see('Puesto 2 de 2')
        await user.should_see('11 partidas puntuables')
        await user.should_not_see(marker='ranking-me-provisional')
    assert user.find(marker='ranking-me-rating').elements.pop().content == str(mine.display())
    assert '<tr data-testid="ranking-row" class="mine"><td class="num">2</td><td class="name">Bea</td>' in board(user)


async def test_a_provisional_rating_is_marked_and_its_missing_games_told(user: User) -> None:
    luis = new_account('Luis')
    rated(luis, mu=26.0, sigma=6.5, games=9)
    await log_in_and_see_history(user, 'Luis')
    await user.open('/ranking/chinchon')
    with user.scope(marker='ranking-me'):
        await user.should_see(ES['ranking.me.needed.one'])
        await user.should_see(ES['ranking.me.provisional'])
        await user.should_not_see(marker='ranking-me-rank')
    shown = user.find(marker='ranking-me-rating').elements.pop().content
    assert shown.startswith(str(Rating(26.0, 6.5).display())) and 'data-testid="provisional">?</abbr>' in shown
    assert ES['ranking.provisional'] in shown   # the mark explains itself on hover
    await user.should_see(marker='ranking-empty')   # nobody has 10 games yet


async def test_a_newcomer_and_an_empty_ranking_are_told_the_rule(user: User) -> None:
    new_account('Ana')
    await log_in_and_see_history(user, 'Ana')
    await user.open('/ranking/continental')
    await user.should_see(ES['ranking.me.none'].format(game=ES['game.continental.name']))
    await user.should_see(ES['ranking.empty'].format(game=ES['game.continental.name']))
    await user.should_see(ES['ranking.rule'].format(games=10, days=30))
    await user.should_not_see(marker='ranking-board')
    await user.should_not_see(marker='ranking-guest')


async def test_the_ranking_is_reached_from_the_header_and_unknown_games_are_not_found(user: User) -> None:
    await user.open('/')
    header = user.find(marker='header-links').elements.pop().content
    assert f'href="/ranking"' in header and ES['nav.ranking'] in header
    response = await user.http_client.get('/ranking', follow_redirects=False)
    assert response.headers['location'] == '/ranking/chinchon'
    response = await user.http_client.get('/ranking/poker')
    assert response.status_code == 404 and ES['not_found.title'] in response.text


async def test_the_history_plots_your_rating_once_you_have_rated_games(user: User) -> None:
    ana, bea = new_account('Ana'), new_account('Bea')
    start = datetime(2026, 11, 1, 18, 0, tzinfo=UTC)
    record_finished_game(user_id=ana, game_id='chinchon', options={}, started_at=start, ended_at=start,
                         hands_played=3, seats=[SeatResult('Ana', True, 10, 1, True), SeatResult('hard', False, 60, 2, False)])
    await log_in_and_see_history(user, 'Ana')
    await user.open('/history')
    await user.should_see(marker='chart-timeline')
    await user.should_not_see(marker='rating-plot')
    shown = [record_rated_game(game_id='ronda-robada', table_id=f't{number}', people={0: ana, 1: bea}, computers={},
                               placements=places, at=start + timedelta(hours=number))[ana][1]
             for number, places in enumerate(([1, 2], [2, 1]))]
    await user.open('/history')
    await user.should_see(ES['history.chart.rating'].format(game=ES['game.ronda-robada.name']))
    await user.should_not_see(marker='rating-plot-chinchon')
    plot = user.find(marker='rating-plot-ronda-robada').elements.pop().options
    assert [point['value'][1] for point in plot['series'][0]['data']] == shown
