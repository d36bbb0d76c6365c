"""`python -m app.cluster --processes N`: the whole site on one machine, N server processes behind
nginx on one PostgreSQL (DATABASE_URL). Prints the public address and every pid; Ctrl-C (or
SIGTERM) stops them all. A server process that dies is started again at its own prefix; its tables
are taken over by the others within a few seconds meanwhile.

`--upstream HOST:PORT` (once per process, on other machines) starts nginx alone in front of them:
each of those machines runs `HOD_PREFIX=/w/<n> HOST=0.0.0.0 PORT=<port> python main.py`.
"""
from __future__ import annotations

import argparse
import signal
import sys
from pathlib import Path

from app import config
from app.cluster.deploy import NGINX_ADVICE, Deployment, find_nginx, free_port, prefix


def main() -> None:
    parser = argparse.ArgumentParser(prog='python -m app.cluster', description=__doc__.split('\n\n')[0])
    parser.add_argument('--processes', type=int, default=2, help='server processes on this machine (default 2)')
    parser.add_argument('--first-port', type=int, default=None,
                        help='port of the first server process, the next ones after it (default: PORT+1; '
                             '0: any free ports)')
    parser.add_argument('--upstream', action='append', default=[], metavar='HOST:PORT',
                        help='a server process on another machine, in the order of their prefixes; '
                             'then no process is started here, only nginx')
    parser.add_argument('--folder', type=Path, default=None, help="nginx's folder (default: DATA_DIR/cluster)")
    parser.add_argument('--server', type=Path, default=None,
                        help='the script every server process runs (default: the site, python -m app.site; '
                             'the browser tests run tests/e2e/serve.py, which deals from a known seed)')
    arguments = parser.parse_args()
    if not config.database_url().startswith('postgresql'):
        raise SystemExit('Several processes share one PostgreSQL: set DATABASE_URL=postgresql+psycopg://... '
                         '(SQLite serves a single process: python main.py).')
    nginx = find_nginx()
    if nginx is None:
        raise SystemExit(NGINX_ADVICE)
    if arguments.upstream:
        ports = []
        upstreams = arguments.upstream
    else:
        if arguments.processes < 1:
            raise SystemExit('--processes: at least 1')
        first = config.port() + 1 if arguments.first_port is None else arguments.first_port
        ports = [free_port() if first == 0 else first + offset for offset in range(arguments.processes)]
        upstreams = [f'127.0.0.1:{port}' for port in ports]
    folder = (arguments.folder or config.data_dir() / 'cluster').resolve()
    folder.mkdir(parents=True, exist_ok=True)
    folder.chmod(0o755)   # nginx's workers (another user, under root) write their temporary files here
    from models.db import init_db

    init_db()                 # migrated once, before any process starts
    config.storage_secret()   # made once: every process signs the browsers' cookies with it
    listen = f'{config.host()}:{config.port()}'
    deployment = Deployment(folder, ports, server=arguments.server and arguments.server.resolve())
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))   # the finally below stops everything
    try:
        deployment.start(nginx, listen, upstreams)
        print(f'House Of Decks: {config.public_url()} (nginx pid {deployment.nginx.pid}, folder {folder})', flush=True)
        for number, address in enumerate(upstreams, 1):
            server = deployment.servers.get(number)
            print(f'{prefix(number)}: {address}' + (f' pid {server.pid}' if server else ''), flush=True)
        deployment.watch()
        raise SystemExit(f'nginx stopped (see {folder / "error.log"}): stopping every process')
    except KeyboardInterrupt:
        pass
    finally:
        deployment.stop()


if __name__ == '__main__':
    main()
