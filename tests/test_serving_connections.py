"""The connection cap's bookkeeping (app.serving.BoundedConnections) against a real uvicorn: a
page's socket that has closed is not held by it."""
from __future__ import annotations

import asyncio
import gc
import socket

import aiohttp
import uvicorn

from app.serving import BoundedConnections


async def echo(scope, receive, send) -> None:
    """A websocket that accepts and waits for the close (an HTTP request is answered 204)."""
    if scope['type'] == 'websocket':
        await receive()
        await send({'type': 'websocket.accept'})
        while (await receive())['type'] != 'websocket.disconnect':
            pass
    else:
        await send({'type': 'http.response.start', 'status': 204, 'headers': []})
        await send({'type': 'http.response.body', 'body': b''})


async def test_closed_websockets_are_not_held_by_the_connection_count() -> None:
    listening = socket.create_server(('127.0.0.1', 0))   # bound before the server starts: a connect waits for it
    port = listening.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(echo, http=BoundedConnections, ws='wsproto', log_level='warning',
                                           lifespan='off'))
    serving = asyncio.create_task(server.serve(sockets=[listening]))
    try:
        async with aiohttp.ClientSession() as http:
            for _ in range(20):
                async with http.ws_connect(f'ws://127.0.0.1:{port}/socket') as page:
                    await page.send_str('hello')
            async with http.ws_connect(f'ws://127.0.0.1:{port}/socket'):
                gc.collect()
                assert sum(not transport.is_closing() for transport in BoundedConnections.transports) == 1   # it counts
    finally:
        server.should_exit = True
        await serving   # uvicorn's shutdown waits for every connection to close
    gc.collect()
    assert len(BoundedConnections.transports) == 0, 'closed sockets are still held'   # held strongly: all 21
