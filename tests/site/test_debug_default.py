"""``DJANGO_DEBUG`` defaults to off, and with it off the site refuses to start on the public
development secret key (issue 8). The settings file is executed afresh with a chosen
environment (``runpy``), leaving the test session's settings alone."""
import runpy
from pathlib import Path

import pytest
from django.core.exceptions import ImproperlyConfigured

SETTINGS = Path(__file__).resolve().parents[2] / "orleans_site" / "settings.py"


def _settings(monkeypatch, **env) -> dict:
    for name in ("DJANGO_DEBUG", "DJANGO_SECRET_KEY"):
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    return runpy.run_path(str(SETTINGS))


def test_without_configuration_the_site_refuses_to_start_and_says_why(monkeypatch):
    with pytest.raises(ImproperlyConfigured, match="DJANGO_SECRET_KEY is not set"):
        _settings(monkeypatch)


def test_a_secret_key_alone_gives_production_mode(monkeypatch):
    settings = _settings(monkeypatch, DJANGO_SECRET_KEY="a-long-random-production-key")
    assert settings["DEBUG"] is False
    assert settings["SESSION_COOKIE_SECURE"] is True


def test_debug_is_on_only_when_asked_for(monkeypatch):
    assert _settings(monkeypatch, DJANGO_DEBUG="1")["DEBUG"] is True
    with pytest.raises(ImproperlyConfigured):
        _settings(monkeypatch, DJANGO_DEBUG="0")
