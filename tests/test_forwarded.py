"""Which proxies may name the client (FORWARDED_ALLOW_IPS, app/config.py): main.py hands the
setting to ``ui.run`` and so to uvicorn, whose proxy-headers middleware sets the address that
every per-address limit counts. Played through uvicorn's own Config, as ``ui.run`` builds it."""
from __future__ import annotations

import pytest
import uvicorn

from app import serving
from app.limits import address_key

NGINX = '10.0.0.10'   # the multi-machine recipe: nginx on its own machine


async def counted_address(peer: str, forwarded: str | None) -> str | None:
    """The per-address key of a request from `peer` carrying this X-Forwarded-For."""
    seen = {}

    async def site(scope, receive, send) -> None:
        seen['client'] = scope['client']

    config = uvicorn.Config(site, **serving.uvicorn_settings())
    config.load()
    headers = [(b'x-forwarded-for', forwarded.encode())] if forwarded else []
    await config.loaded_app({'type': 'http', 'client': (peer, 40000), 'headers': headers,
                             'scheme': 'http', 'path': '/', 'query_string': b''}, None, None)
    return address_key(seen['client'][0])


async def test_the_trusted_proxy_names_the_client_and_a_stranger_cannot(monkeypatch) -> None:
    monkeypatch.setenv('FORWARDED_ALLOW_IPS', NGINX)
    assert await counted_address(NGINX, '198.51.100.23') == '198.51.100.23'
    assert await counted_address(NGINX, '2001:db8:5:6::7') == '2001:db8:5:6::/64'
    # nginx appends the peer it saw: what a client wrote before it is not believed
    assert await counted_address(NGINX, '192.0.2.1, 198.51.100.23') == '198.51.100.23'
    # a peer that is not the proxy forges the header: its own address counts
    assert await counted_address('203.0.113.66', '192.0.2.1') == '203.0.113.66'
    assert await counted_address('127.0.0.1', '192.0.2.1') == '127.0.0.1'   # not trusted now either


async def test_by_default_only_a_proxy_on_this_machine_is_trusted(monkeypatch) -> None:
    monkeypatch.delenv('FORWARDED_ALLOW_IPS', raising=False)
    assert await counted_address('127.0.0.1', '198.51.100.23') == '198.51.100.23'
    assert await counted_address(NGINX, '198.51.100.23') == NGINX


@pytest.mark.parametrize('setting', ['nginx.internal', '10.0.0.0/33', '10.0.0.1/24'])
def test_a_setting_uvicorn_would_silently_ignore_stops_the_start(monkeypatch, setting) -> None:
    """uvicorn takes any entry it cannot read as a literal no peer has: nobody would be trusted,
    and every player would count as nginx's address."""
    monkeypatch.setenv('FORWARDED_ALLOW_IPS', f'127.0.0.1,{setting}')
    with pytest.raises(SystemExit, match='FORWARDED_ALLOW_IPS'):
        serving.uvicorn_settings()
