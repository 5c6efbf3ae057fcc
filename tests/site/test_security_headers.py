"""Security headers (issue 8): a Content-Security-Policy that fits the site (no inline
script, no eval), Referrer-Policy, HSTS only behind TLS, and no-store for signed-in pages."""
import re
import runpy
from pathlib import Path

import pytest
from django.urls import reverse

ROOT = Path(__file__).resolve().parents[2]


def _directives(response) -> dict:
    policy = response["Content-Security-Policy"]
    return {part.split()[0]: part.split()[1:] for part in policy.split("; ")}


@pytest.mark.django_db
def test_pages_carry_a_policy_allowing_only_the_sites_own_scripts(client):
    response = client.get(reverse("home"))
    csp = _directives(response)
    assert csp["script-src"] == ["'self'"]  # no 'unsafe-inline', no 'unsafe-eval'
    assert csp["frame-ancestors"] == ["'none'"] and csp["object-src"] == ["'none'"]
    assert response["Referrer-Policy"] == "same-origin"


def test_templates_have_no_inline_scripts_handlers_or_eval():
    """What the policy would block: <script> without src, on...= handlers, htmx "js:"/hx-on."""
    offenders = []
    for template in (ROOT / "templates").rglob("*.html"):
        text = template.read_text()
        for pattern in (r"<script(?![^>]*\bsrc=)(?![^>]*application/json)[^>]*>",
                        r"\son[a-z]+\s*=", r"""hx-vals=['"]\s*js:""", r"hx-on[:-]"):
            offenders += [f"{template.relative_to(ROOT)}: {m}" for m in re.findall(pattern, text)]
    assert offenders == []


def test_signed_in_pages_are_never_stored(client_for, started_game):
    client = client_for(started_game.creator)
    response = client.get(reverse("games-detail", kwargs={"game_id": started_game.pk}))
    assert response.status_code == 200
    assert response["Cache-Control"] == "no-store"


@pytest.mark.django_db
def test_hsts_is_sent_on_https_only(client, settings):
    settings.SECURE_HSTS_SECONDS = 3600
    assert "Strict-Transport-Security" not in client.get(reverse("home"))
    assert client.get(reverse("home"), secure=True)["Strict-Transport-Security"] == "max-age=3600"


def test_hsts_is_on_by_default_only_behind_tls(monkeypatch):
    monkeypatch.setenv("DJANGO_SECRET_KEY", "a-long-random-production-key")
    monkeypatch.delenv("DJANGO_DEBUG", raising=False)
    monkeypatch.delenv("DJANGO_HSTS_SECONDS", raising=False)
    settings_file = str(ROOT / "orleans_site" / "settings.py")
    monkeypatch.delenv("DJANGO_BEHIND_TLS_PROXY", raising=False)
    assert runpy.run_path(settings_file)["SECURE_HSTS_SECONDS"] == 0
    monkeypatch.setenv("DJANGO_BEHIND_TLS_PROXY", "1")
    assert runpy.run_path(settings_file)["SECURE_HSTS_SECONDS"] == 365 * 24 * 3600
