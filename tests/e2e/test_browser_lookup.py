"""How the browser tests find Chromium, and that they fail (never skip) without one."""
import pytest

import browser_lookup
from browser_lookup import NO_BROWSER, find_chromium, require_chromium


def test_an_explicit_path_wins(monkeypatch, tmp_path):
    fake = tmp_path / 'chromium'
    fake.write_text('')
    monkeypatch.setenv('HOD_CHROMIUM', str(fake))
    assert find_chromium() == str(fake)


def test_an_explicit_path_that_does_not_exist_finds_nothing(monkeypatch, tmp_path):
    monkeypatch.setenv('HOD_CHROMIUM', str(tmp_path / 'missing'))
    assert find_chromium() is None


def test_no_browser_fails_with_advice(monkeypatch):
    monkeypatch.setattr(browser_lookup, 'find_chromium', lambda: None)
    with pytest.raises(pytest.fail.Exception) as failure:
        require_chromium()
    assert str(failure.value) == NO_BROWSER and 'apt-get install -y chromium-headless-shell' in NO_BROWSER


def test_the_headless_shell_comes_before_chromium(monkeypatch, tmp_path):
    import playwright.sync_api

    for name in ('chromium', 'chromium-headless-shell'):
        (tmp_path / name).write_text('#!/bin/sh\n')
        (tmp_path / name).chmod(0o755)
    monkeypatch.delenv('HOD_CHROMIUM', raising=False)
    monkeypatch.setenv('PATH', str(tmp_path))
    monkeypatch.setattr(playwright.sync_api, 'sync_playwright', lambda: 1 / 0)   # no Playwright browser
    assert find_chromium() == str(tmp_path / 'chromium-headless-shell')
    (tmp_path / 'chromium-headless-shell').unlink()
    assert find_chromium() == str(tmp_path / 'chromium')
