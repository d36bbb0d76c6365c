"""The nginx configuration `python -m app.cluster` writes from its template: nginx itself accepts
it, with a group per process (the others its backups: the fallback), a prefix per process, the
websocket upgrade and the limits; and the launcher refuses SQLite, which serves one process."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from app.cluster.deploy import nginx_config
from nginx_binary import require_nginx

ROOT = Path(__file__).resolve().parents[1]


def test_nginx_accepts_the_configuration_written_for_three_processes(tmp_path: Path) -> None:
    nginx = require_nginx()
    tmp_path.chmod(0o755)
    config = nginx_config(tmp_path, '127.0.0.1:18080', ['127.0.0.1:18081', '10.0.0.12:8081', '10.0.0.13:8081'])
    (tmp_path / 'nginx.conf').write_text(config)
    checked = subprocess.run([nginx, '-t', '-p', str(tmp_path), '-c', str(tmp_path / 'nginx.conf')],
                             capture_output=True, text=True)
    assert checked.returncode == 0, checked.stderr
    assert '{{' not in config
    group = config[config.index('upstream process2'):config.index('}', config.index('upstream process2'))]
    assert 'server 10.0.0.12:8081 max_fails=1' in group
    assert 'server 127.0.0.1:18081 backup' in group and 'server 10.0.0.13:8081 backup' in group
    assert 'location /w/3/ {\n            proxy_pass http://process3/;' in config
    for setting in ('proxy_set_header Upgrade $http_upgrade', 'limit_conn per_address', 'client_header_timeout',
                    'keepalive_timeout', 'proxy_next_upstream error timeout'):
        assert setting in config


def test_the_launcher_asks_for_postgresql(tmp_path: Path) -> None:
    env = {**os.environ, 'DATA_DIR': str(tmp_path), 'DATABASE_URL': f'sqlite:///{tmp_path / "one.db"}'}
    started = subprocess.run([sys.executable, '-m', 'app.cluster', '--processes', '2'], cwd=ROOT, env=env,
                             capture_output=True, text=True, timeout=60)
    assert started.returncode == 1 and 'PostgreSQL' in started.stderr
    assert not (tmp_path / 'cluster').exists()   # nothing was started


def test_a_pages_socket_reaches_its_process_on_a_connection_of_its_own() -> None:
    """uvicorn closes a connection its keep-alive timeout finds idle after a response; a socket
    upgraded on a connection nginx kept alive from an earlier request was closed 5 s later (the
    crowd's socket drops: their lifetimes moved from 5 to 9 s with uvicorn's timeout). So sockets
    go through a group of the same servers with no connections kept alive."""
    config = nginx_config(Path('/tmp'), '127.0.0.1:18080', ['127.0.0.1:18081', '127.0.0.1:18082'])
    for number, (own, other) in enumerate((('18081', '18082'), ('18082', '18081')), 1):
        socket = f'location /w/{number}/_nicegui_ws/ {{\n            proxy_pass http://process{number}_socket/_nicegui_ws/;'
        assert socket in config
        start = config.index(f'upstream process{number}_socket {{')
        group = config[start:config.index('}', start)]
        assert f'server 127.0.0.1:{own} max_fails=1' in group and f'server 127.0.0.1:{other} backup' in group
        assert 'keepalive' not in group
    pages = config[config.index('upstream process1 {'):config.index('}', config.index('upstream process1 {'))]
    assert 'keepalive 16' in pages   # pages keep theirs: a new connection per request costs more
