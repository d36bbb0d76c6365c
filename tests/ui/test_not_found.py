"""Every address no page answers gets the site's own 404 page: HTTP 404, inside the site frame, in
the reader's language, with the ways back."""
import pytest
from nicegui.testing import User

from app.i18n import CATALOGS

ES, EN = CATALOGS['es'], CATALOGS['en']


@pytest.mark.parametrize('address', ['/play/unknown', '/nope', '/reglas', '/rules/chinchon/extra', '/table',
                                     '/history/x/y', '/play/chinchon/' + 'a' * 3000])
async def test_an_unknown_address_gets_the_sites_404_page(user: User, address: str) -> None:
    response = await user.http_client.get(address)
    assert response.status_code == 404
    page = response.text
    assert ES['not_found.title'] in page and ES['not_found.hint'] in page
    assert 'data-testid=\\"site-name\\"' in page             # the site frame: its header...
    assert ES['footer.about'] in page                        # ...and its footer
    assert "This page doesn't exist" not in page             # not NiceGUI's own page


async def test_the_404_page_speaks_english_to_an_english_browser(user: User) -> None:
    user.http_client.headers['Accept-Language'] = 'en-GB,en;q=0.9'
    response = await user.http_client.get('/play/unknown')
    assert response.status_code == 404
    assert EN['not_found.title'] in response.text and EN['error.back_home'] in response.text
    assert ES['not_found.title'] not in response.text


async def test_the_404_page_offers_the_games_and_the_home_page(user: User) -> None:
    response = await user.http_client.get('/jugar')
    assert response.status_code == 404
    for text in (ES['not_found.games'], ES['game.chinchon.name'], ES['game.ronda-robada.name'],
                 ES['game.continental.name'], ES['error.back_home']):
        assert text in response.text
    assert 'No hay nada en esta dirección: /jugar' in response.text
