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
                open_now = [transport for transport in BoundedConnections.transports if not transport.is_closing()]
                assert len(open_now) == 1   # the open socket counts
        for _ in range(1000):   # loop turns, not time: the closes reach the server and the transports go
            if len(BoundedConnections.transports) <= 1:
                break
            await asyncio.sleep(0)
            gc.collect()
        # the last socket's close may still be on its way through asyncio's selector; the 20 before
        # it must be gone (held strongly, all 21 stayed)
        assert len(BoundedConnections.transports) <= 1, 'closed sockets are still held'
    finally:
        server.should_exit = True
        await serving
