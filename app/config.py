"""Settings read from the environment, with defaults that need no set-up.

HOST, PORT          where `python main.py` listens (0.0.0.0:8080)
DATA_DIR            folder for the SQLite file, the storage secret and NiceGUI's storage: by default
                    data/ of the checkout (beside main.py) when run from one, and ./data of the
                    working directory when installed (the package's own folder is site-packages)
DATABASE_URL        any SQLAlchemy URL; default sqlite:///<DATA_DIR>/house_of_decks.db
STORAGE_SECRET      signs the browser session; default: generated once into <DATA_DIR>/storage_secret
ALLOWED_ORIGINS     the origins a page's socket may come from, comma-separated (behind a proxy that
                    rewrites the Host: its public address, e.g. https://houseofdecks.example);
                    default: the site's own, as the request's Host (and X-Forwarded-Host) names it
HOD_HEADER_TIMEOUT, HOD_MOST_CONNECTIONS   bounds on connections (app/serving.py)
FORWARDED_ALLOW_IPS the proxies whose X-Forwarded-For names the client (comma-separated addresses
                    or networks, or *); default 127.0.0.1,::1: nginx on this machine
HOD_SOCKET_BURST, HOD_SOCKET_RATE   events a page's socket may send at once and a second (app/sockets.py)
HOD_RANKING_MIN_GAMES   rated games an account needs to enter a game's ranking (10; app/standings.py)
"""
from __future__ import annotations

import ipaddress
import os
import secrets
from pathlib import Path

PROJECT_ROOT = Path(__file__).resolve().parent.parent


def is_checkout() -> bool:
    """Run from the project's own folder (an editable install included), not from an installed wheel."""
    return (PROJECT_ROOT / 'main.py').is_file() and (PROJECT_ROOT / 'pyproject.toml').is_file()


def data_dir() -> Path:
    default = PROJECT_ROOT / 'data' if is_checkout() else Path.cwd() / 'data'
    path = Path(os.environ.get('DATA_DIR', default)).resolve()
    path.mkdir(parents=True, exist_ok=True)
    return path


def database_url() -> str:
    return os.environ.get('DATABASE_URL') or f'sqlite:///{data_dir() / "house_of_decks.db"}'


def storage_secret() -> str:
    """The secret from STORAGE_SECRET, or one generated on first start and kept in the data folder."""
    from_env = os.environ.get('STORAGE_SECRET')
    if from_env:
        return from_env
    path = data_dir() / 'storage_secret'
    try:  # created with its final mode (0600), never readable by others for a moment
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        pass
    else:
        with os.fdopen(descriptor, 'w') as file:
            file.write(secrets.token_urlsafe(48))
    secret = path.read_text().strip()
    if not secret:  # an empty key would sign cookies anybody can forge
        raise SystemExit(f'{path} is empty: delete it to have a new secret generated, or set STORAGE_SECRET.')
    return secret


def host() -> str:
    return os.environ.get('HOST', '0.0.0.0')


def port() -> int:
    return int(os.environ.get('PORT', '8080'))


def public_url() -> str:
    """The address a browser on this machine opens (a server listening on every address is on localhost)."""
    shown = 'localhost' if host() in {'0.0.0.0', '::', ''} else host()
    return f'http://{f"[{shown}]" if ":" in shown else shown}:{port()}'


def allowed_origins() -> list[str] | None:
    """The origins a page's socket may come from; None: the one the request itself names."""
    origins = [origin.strip().rstrip('/') for origin in os.environ.get('ALLOWED_ORIGINS', '').split(',')]
    return [origin for origin in origins if origin] or None


def socket_budget() -> tuple[float, float]:
    """Events one page's socket may send at once, and a second after that (app/sockets.py):
    HOD_SOCKET_BURST (60) and HOD_SOCKET_RATE (20). A person clicks far less; past it the socket
    is disconnected."""
    return float(os.environ.get('HOD_SOCKET_BURST', '60')), float(os.environ.get('HOD_SOCKET_RATE', '20'))


def ranking_min_games() -> int:
    """Rated games an account needs before the ranking lists it: HOD_RANKING_MIN_GAMES, 10 by
    default, the number after which a rating is usually no longer provisional (app.ratings)."""
    return max(1, int(os.environ.get('HOD_RANKING_MIN_GAMES', '10')))


def log_format() -> str:
    """How the server writes its log: HOD_LOG_FORMAT, ``text`` (the default) or ``json`` (one JSON
    object a line, app.logs); anything else stops the start."""
    value = os.environ.get('HOD_LOG_FORMAT', 'text').strip().lower() or 'text'
    if value not in ('text', 'json'):
        raise SystemExit(f'HOD_LOG_FORMAT: {value!r} is neither text nor json')
    return value


def forwarded_allow_ips() -> str:
    """The proxies trusted to name the client in X-Forwarded-For (uvicorn's forwarded_allow_ips):
    FORWARDED_ALLOW_IPS, by default this machine only. Every per-address limit counts the address
    they name, so in the multi-machine recipe it is the nginx machine's address. uvicorn silently
    takes an entry it cannot read as a name no peer ever has (and so trusts nobody): such an entry
    stops the start instead."""
    value = os.environ.get('FORWARDED_ALLOW_IPS', '127.0.0.1,::1').strip()
    for entry in (part.strip() for part in value.split(',')):
        if entry == '*':
            continue
        try:   # read as uvicorn reads it: a network when it has a /, else one address
            ipaddress.ip_network(entry) if '/' in entry else ipaddress.ip_address(entry)
        except ValueError:
            raise SystemExit(f'FORWARDED_ALLOW_IPS: {entry!r} is not an IP address or network '
                             '(e.g. 10.0.0.10 or 10.0.0.0/24)') from None
    return value
