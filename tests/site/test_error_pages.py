"""Friendly 403/404/500 pages in the site's layout, and ordinary refusals logged without a
traceback (issue 8). pytest-django runs with DEBUG off, as production does."""
import logging

import pytest
from django.test import Client


def _request_records(caplog, path):
    return [r for r in caplog.records if r.name == "django.request" and path in r.getMessage()]


@pytest.mark.django_db
def test_a_missing_page_is_the_friendly_404_in_the_layout(client):
    response = client.get("/no-such-page/")
    assert response.status_code == 404
    assert "There is nothing here" in response.text
    assert 'class="site-header"' in response.text


def test_a_refusal_is_the_friendly_403_and_is_logged_without_a_traceback(client_for, bob, caplog):
    with caplog.at_level(logging.WARNING, logger="django.request"):
        response = client_for(bob).get("/admin/login/")
    assert response.status_code == 403
    assert "You cannot open this page" in response.text
    assert "no access to the administration" in response.text
    records = _request_records(caplog, "/admin/login/")
    assert records and all(r.exc_info is None for r in records)


@pytest.mark.urls("tests.site.boom_urls")
@pytest.mark.django_db
def test_a_server_error_is_the_friendly_500_and_keeps_its_traceback(caplog):
    client = Client(raise_request_exception=False)
    with caplog.at_level(logging.ERROR, logger="django.request"):
        response = client.get("/boom/")
    assert response.status_code == 500
    assert "Something went wrong on our side" in response.text
    assert "RuntimeError" not in response.text
    records = _request_records(caplog, "/boom/")
    assert records and records[0].exc_info is not None


def test_a_form_sent_after_logging_in_again_is_the_friendly_page_expired_page(alice):
    strict = Client(enforce_csrf_checks=True)
    strict.force_login(alice)
    response = strict.post("/games/new/", {"name": "Stale form"})  # no (or an old) CSRF token
    assert response.status_code == 403
    assert "This page has expired" in response.text and "Nothing has changed" in response.text
    assert 'class="site-header"' in response.text and alice.username in response.text
    assert "CSRF verification" not in response.text and "Forbidden (403)" not in response.text
