"""Finding Chromium for the browser tests: HOD_CHROMIUM, then the system's headless shell, then
Playwright's own Chromium, then the system's Chromium. Without one the tests fail with advice;
they never skip.

The headless shell (Debian's ``chromium-headless-shell``, the same Blink as Chromium without the
browser's windows, the build Playwright itself runs headless tests in) opens a browser context
and a page for about a third of the CPU of full Chromium in its headless mode (0.55 s against
1.65 s a fresh context and page here), and the browser tests open hundreds of them."""
from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
                 '--disable-background-networking', '--disable-component-update', '--disable-sync']
HEADLESS_SHELLS = ('chromium-headless-shell', 'chrome-headless-shell')
BROWSERS = ('chromium', 'chromium-browser', 'google-chrome')
NO_BROWSER = ('No Chromium found for the browser tests. Install one of: Debian/Ubuntu '
              '`apt-get install -y chromium-headless-shell` (the lightest) or `apt-get install -y chromium`; '
              'or `python -m playwright install chromium`; or set HOD_CHROMIUM=/path/to/chromium.')


def find_chromium() -> str | None:
    explicit = os.environ.get('HOD_CHROMIUM')
    if explicit:
        return explicit if Path(explicit).exists() else None
    shell = _on_path(HEADLESS_SHELLS)
    if shell:
        return shell
    try:
        from playwright.sync_api import sync_playwright
        with sync_playwright() as playwright:
            own = playwright.chromium.executable_path
        if own and Path(own).exists():
            return own
    except Exception:  # Playwright without its own browser download raises here; fall through
        pass
    return _on_path(BROWSERS)


def _on_path(names: tuple[str, ...]) -> str | None:
    for name in names:
        found = shutil.which(name)
        if found:
            return found
    return None


def require_chromium() -> str:
    path = find_chromium()
    if path is None:
        pytest.fail(NO_BROWSER, pytrace=False)
    return path
