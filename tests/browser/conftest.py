"""Shared fixtures of the browser tests: Debian's chromium driven by Playwright (never
``playwright install``: nothing is downloaded), skipped cleanly where it is absent."""
import shutil
from pathlib import Path

import pytest
from django.db import connections
from django.test import Client

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
LAPTOP = {"width": 1440, "height": 900}


@pytest.fixture
def browser(monkeypatch):
    """A headless chromium; Django's ORM is used from the test alongside its event loop."""
    if CHROMIUM is None:
        pytest.skip("Debian's chromium is not installed")
    from playwright.sync_api import sync_playwright

    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True,
                                             args=CHROMIUM_ARGS)
        yield browser
        browser.close()
        # The ORM calls made while Playwright runs use their own connection (Playwright's
        # greenlet has its own context); close it so the test database can be dropped.
        connections.close_all()


@pytest.fixture
def page_for(browser, live_server):
    """``page_for(user)`` -> a browser page logged in as ``user`` (laptop-sized)."""
    contexts = []

    def make(user=None):
        context = browser.new_context(base_url=live_server.url, viewport=LAPTOP)
        if user is not None:
            client = Client()
            client.force_login(user)
            context.add_cookies([{"name": "sessionid", "value": client.cookies["sessionid"].value,
                                  "url": live_server.url}])
        contexts.append(context)
        return context.new_page()

    yield make
    for context in contexts:
        context.close()


@pytest.fixture
def screenshot():
    """``screenshot(page, name)`` saves ``test-artifacts/<name>.png`` (gitignored)."""
    ARTIFACTS.mkdir(exist_ok=True)

    def save(page, name: str, *, full_page: bool = False) -> Path:
        path = ARTIFACTS / f"{name}.png"
        page.screenshot(path=str(path), full_page=full_page)
        return path

    return save
