"""The site from an install that is not editable: the wheel built from the project holds every file
of its packages (the stylesheet and icons it serves, the rules it reads, its components' scripts,
the migrations, nginx's template), and the command the install puts on PATH starts the whole site
from any folder, with its data in that folder's ``data/``.

The wheel is built as pip builds it for anyone (its build backend from the package index, as the
README's own install needs); it is then installed with no index at all into a fresh virtual
environment outside the checkout, which sees this environment's dependencies through a ``.pth``
file, so nothing is downloaded for it and only the project comes from the wheel."""
from __future__ import annotations

import os
import re
import shutil
import site
import subprocess
import sys
import urllib.request
import zipfile
from pathlib import Path

import pytest

from conftest import answering, free_port, stop_server

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ('app', 'components', 'models')
UNBUILT = shutil.ignore_patterns('__pycache__', '*.pyc')


def run(*command: str | Path, **options) -> subprocess.CompletedProcess:
    done = subprocess.run([str(part) for part in command], capture_output=True, text=True, timeout=240, **options)
    assert done.returncode == 0, f'{command}:\n{done.stdout}\n{done.stderr}'
    return done


@pytest.fixture(scope='module')
def source(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The project's packages and build files, copied: a build writes into the tree it builds."""
    tree = tmp_path_factory.mktemp('source')
    for name in ('pyproject.toml', 'README.md'):
        shutil.copy2(ROOT / name, tree / name)
    for package in PACKAGES:
        shutil.copytree(ROOT / package, tree / package, ignore=UNBUILT)
    return tree


@pytest.fixture(scope='module')
def wheel(source: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp('wheel')
    run(sys.executable, '-m', 'pip', 'wheel', '--no-deps', '--quiet', '--wheel-dir', out, source)
    return next(out.glob('house_of_decks-*.whl'))


def test_the_wheel_holds_every_file_of_the_packages(source: Path, wheel: Path) -> None:
    files = {path.relative_to(source).as_posix() for package in PACKAGES for path in (source / package).rglob('*')
             if path.is_file()}
    held = set(zipfile.ZipFile(wheel).namelist())
    assert not files - held, f'left out of the wheel: {sorted(files - held)}'


def test_the_installed_command_serves_styled_pages_from_any_folder(wheel: Path, tmp_path: Path) -> None:
    venv, work = tmp_path / 'venv', tmp_path / 'work'
    work.mkdir()
    port = free_port()
    env = {key: value for key, value in os.environ.items()
           if key not in {'PYTEST_CURRENT_TEST', 'PYTHONPATH', 'DATA_DIR', 'DATABASE_URL', 'STORAGE_SECRET'}
           and not key.startswith('NICEGUI_')}
    env.update(HOST='127.0.0.1', PORT=str(port), PYTHONUNBUFFERED='1')
    run(sys.executable, '-m', 'venv', '--without-pip', venv)
    python = venv / 'bin' / 'python'
    own_site = Path(run(python, '-c', 'import sysconfig; print(sysconfig.get_paths()["purelib"])').stdout.strip())
    # this environment's dependencies, after the venv's own packages (.pth lines are appended to sys.path)
    (own_site / 'dependencies.pth').write_text('\n'.join(site.getsitepackages()) + '\n')
    run(sys.executable, '-m', 'pip', '--python', python, 'install', '--quiet', '--no-compile', '--no-deps', '--no-index', wheel)
    installed = run(python, '-c', 'import app; print(app.__file__)', cwd=work, env=env).stdout.strip()
    assert Path(installed).is_relative_to(own_site), f'the site would run from {installed}, not from the wheel'

    log = tmp_path / 'server.log'
    with log.open('w') as output:
        process = subprocess.Popen([venv / 'bin' / 'house-of-decks'], cwd=work, env=env, stdout=output,
                                   stderr=subprocess.STDOUT)
    url = f'http://127.0.0.1:{port}'
    try:
        answering(process, url, log)
        with urllib.request.urlopen(f'{url}/play/chinchon', timeout=10) as response:
            page = response.read().decode()
        stylesheet = re.search(r'<link rel="stylesheet" href="(/static/utilities\.css[^"]*)"', page)
        assert stylesheet, 'the page links no stylesheet of the site'
        with urllib.request.urlopen(f'{url}{stylesheet[1]}', timeout=10) as response:
            assert response.status == 200 and response.headers['content-type'].startswith('text/css')
            assert '.flex' in response.read().decode()
        with urllib.request.urlopen(f'{url}/reglas/chinchon', timeout=10) as response:   # read from rules/*.md
            assert '<title>Reglas del Chinchón' in response.read().decode()
    finally:
        stop_server(process)
    # installed, the data go to the folder it was started in (its own folder is site-packages)
    assert (work / 'data' / 'house_of_decks.db').is_file() and (work / 'data' / 'storage_secret').is_file()
    assert not (own_site / 'data').exists()
