from nicegui.testing import User

from app.games import GAMES
from app.i18n import CATALOGS


async def test_home_is_in_spanish_by_default(user: User) -> None:
    await user.open('/')
    await user.should_see('Juegos de cartas españoles')
    for game in GAMES:
        await user.should_see(CATALOGS['es'][game.name_key])
        await user.should_see(CATALOGS['es'][game.summary_key])
    await user.should_see('2–6 jugadores')
    await user.should_not_see('Spanish card games')


async def test_browser_preferring_english_gets_english(user: User) -> None:
    user.http_client.headers['Accept-Language'] = 'en-GB,en;q=0.9,es;q=0.5'
    await user.open('/')
    await user.should_see('Spanish card games')
    await user.should_see('2–4 players')
    await user.should_not_see('Juegos de cartas españoles')


async def test_language_switch_changes_every_string_and_is_kept(user: User) -> None:
    await user.open('/')
    user.find(marker='language-switch').click()
    await user.open('/')  # what the reload after the switch shows
    for key, text in CATALOGS['en'].items():
        if key.startswith(('home.title', 'home.intro', 'footer.', 'game.')):
            await user.should_see(text)
    await user.should_not_see('Juegos de cartas españoles')
    user.find(marker='language-switch').click()
    await user.open('/')
    await user.should_see('Juegos de cartas españoles')


async def test_no_action_links_to_a_page_that_does_not_exist(user: User) -> None:
    from app.routes import route_exists

    await user.open('/')
    for game in GAMES:
        if not route_exists(game.play_path):
            await user.should_not_see(marker=f'play-{game.id}')


async def test_the_bench_page_is_registered_only_when_a_flag_asks_for_it(user: User) -> None:
    from app.routes import route_exists

    await user.open('/')
    assert not route_exists('/bench/bare')   # HOD_BENCH=1 (set by python -m app.bench.table) adds it
