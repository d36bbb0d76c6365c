"""Finding Chromium for the browser tests: HOD_CHROMIUM, then Playwright's own, then the system's.
Without one the tests fail with advice; they never skip."""
from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
                 '--disable-background-networking', '--disable-component-update', '--disable-sync']
NO_BROWSER = ('No Chromium found for the browser tests. Install one of: Debian/Ubuntu '
              '`apt-get install -y chromium`; or `python -m playwright install chromium`; '
              'or set HOD_CHROMIUM=/path/to/chromium.')


def find_chromium() -> str | None:
    explicit = os.environ.get('HOD_CHROMIUM')
    if explicit:
        return explicit if Path(explicit).exists() else None
    try:
        from playwright.sync_api import sync_playwright
        with sync_playwright() as playwright:
            own = playwright.chromium.executable_path
        if own and Path(own).exists():
            return own
    except Exception:  # Playwright without its own browser download raises here; fall through
        pass
    for name in ('chromium', 'chromium-browser', 'google-chrome'):
        found = shutil.which(name)
        if found:
            return found
    return None


def require_chromium() -> str:
    path = find_chromium()
    if path is None:
        pytest.fail(NO_BROWSER, pytrace=False)
    return path
