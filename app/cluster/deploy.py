"""What `python -m app.cluster` starts and stops: N server processes (each `python -m app.site`
with its own prefix and port) and nginx, configured from the template shipped beside this module."""
from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from app import config
from app.cluster import PREFIX_VARIABLE

TEMPLATE = Path(__file__).with_name('nginx.conf')
NGINX_ADVICE = ('nginx is needed: Debian/Ubuntu `apt-get install -y nginx` (it is started from its binary '
                'into a folder of its own; no nginx service needs to run), or set HOD_NGINX=/path/to/nginx.')
STARTUP_SECONDS = 60


def find_nginx() -> str | None:
    explicit = os.environ.get('HOD_NGINX')
    if explicit:
        return explicit if Path(explicit).is_file() else None
    return shutil.which('nginx') or next((path for path in ('/usr/sbin/nginx', '/usr/local/sbin/nginx')
                                          if Path(path).is_file()), None)


def prefix(number: int) -> str:
    return f'/w/{number}'


def nginx_config(folder: Path, listen: str, upstreams: list[str]) -> str:
    """The shipped template with this deployment's folder, listening address and upstreams: a group
    per process (the others its backups: the fallback) and one of every process."""
    groups = []
    for number, address in enumerate(upstreams, 1):
        backups = ''.join(f'        server {other} backup;\n' for other in upstreams if other != address)
        servers = f'        server {address} max_fails=1 fail_timeout=5s;\n{backups}'
        groups.append(f'    upstream process{number} {{\n{servers}        keepalive 16;\n    }}\n')
        # a page's socket on a connection of its own: upgraded on a connection kept alive from an
        # earlier request, it was closed by uvicorn's keep-alive timeout (5 s) as if idle
        groups.append(f'    upstream process{number}_socket {{\n{servers}    }}\n')
    every = ''.join(f'        server {address} max_fails=1 fail_timeout=5s;\n' for address in upstreams)
    groups.append(f'    upstream every_process {{\n{every}        keepalive 16;\n    }}\n')
    locations = ''.join(f'        location {prefix(number)}/ {{\n            proxy_pass http://process{number}/;\n'
                        f'        }}\n'
                        f'        location {prefix(number)}/_nicegui_ws/ {{\n'
                        f'            proxy_pass http://process{number}_socket/_nicegui_ws/;\n'
                        f'        }}\n' for number in range(1, len(upstreams) + 1))
    return (TEMPLATE.read_text().replace('{{folder}}', str(folder)).replace('{{listen}}', listen)
            .replace('{{upstreams}}', '\n'.join(groups)).replace('{{locations}}', locations))


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(('127.0.0.1', 0))
        return sock.getsockname()[1]


def wait_until_answering(url: str, process: subprocess.Popen, what: str, headers: dict[str, str]) -> None:
    deadline = time.monotonic() + STARTUP_SECONDS
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise SystemExit(f'{what} stopped while starting (exit code {process.returncode})')
        try:
            with urllib.request.urlopen(urllib.request.Request(url, headers=headers), timeout=2):
                return
        except OSError:
            time.sleep(0.2)
    raise SystemExit(f'{what} did not answer at {url} within {STARTUP_SECONDS} s')


class Deployment:
    def __init__(self, folder: Path, ports: list[int], *, server: Path | None = None) -> None:
        """``server``: the script each process runs; None, the site itself (``python -m app.site``,
        which an install has as well as a checkout)."""
        self.folder, self.ports = folder, ports
        self.command = [sys.executable, *([str(server)] if server else ['-m', 'app.site'])]
        self.servers: dict[int, subprocess.Popen] = {}   # process number -> its server
        self.nginx: subprocess.Popen | None = None

    def start_server(self, number: int) -> subprocess.Popen:
        # the data folder named, not left to a default: each process shares this one's storage secret
        env = {**os.environ, PREFIX_VARIABLE: prefix(number), 'HOST': '127.0.0.1', 'DATA_DIR': str(config.data_dir()),
               'PORT': str(self.ports[number - 1]), 'PYTHONUNBUFFERED': '1'}
        with open(self.folder / f'process-{number}.log', 'a') as log:
            server = subprocess.Popen(self.command, env=env, stdout=log, stderr=subprocess.STDOUT)
        self.servers[number] = server
        return server

    def start(self, nginx: str, listen: str, upstreams: list[str]) -> None:
        for number in range(1, len(self.ports) + 1):
            self.start_server(number)
        for number, server in self.servers.items():
            wait_until_answering(f'http://127.0.0.1:{self.ports[number - 1]}/', server,
                                 f'server process {number} (log: {self.folder / f"process-{number}.log"})',
                                 {'X-Forwarded-Prefix': prefix(number)})
        (self.folder / 'nginx.conf').write_text(nginx_config(self.folder, listen, upstreams))
        self.nginx = subprocess.Popen([nginx, '-p', str(self.folder), '-c', str(self.folder / 'nginx.conf'),
                                       '-g', 'daemon off;'], stderr=subprocess.STDOUT,
                                      stdout=open(self.folder / 'nginx.out', 'a'))
        wait_until_answering(f'http://127.0.0.1:{listen.rpartition(":")[2]}/', self.nginx,
                             f'nginx (log: {self.folder / "error.log"})', {})

    def watch(self) -> None:
        """Until nginx stops (or we are told to stop): start again a server process that died."""
        while self.nginx is not None and self.nginx.poll() is None:
            for number, server in list(self.servers.items()):
                if server.poll() is not None:
                    print(f'{prefix(number)}: pid {server.pid} stopped ({server.returncode}); starting it again',
                          flush=True)
                    print(f'{prefix(number)}: pid {self.start_server(number).pid}', flush=True)
            time.sleep(0.5)

    def stop(self) -> None:
        everything = [*self.servers.values(), *([self.nginx] if self.nginx else [])]
        for process in everything:
            if process.poll() is None:
                process.terminate()   # the servers save their tables and let their leases go
        deadline = time.monotonic() + 15
        for process in everything:
            try:
                process.wait(timeout=max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


