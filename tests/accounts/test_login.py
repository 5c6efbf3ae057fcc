"""Log in (django-allauth): by email; failed attempts are rate-limited."""
from django.urls import reverse

from tests.conftest import PASSWORD

URL = reverse("account_login")


def test_it_logs_in_by_email(client, alice):
    response = client.post(URL, {"login": "alice@example.com", "password": PASSWORD})
    assert response.status_code == 302
    assert int(client.session["_auth_user_id"]) == alice.pk


def test_it_refuses_a_wrong_password(client, alice):
    response = client.post(URL, {"login": "alice@example.com", "password": "wrong"})
    assert response.status_code == 200
    assert "_auth_user_id" not in client.session


def test_it_rate_limits_failed_attempts(client, alice):
    for _ in range(5):
        client.post(URL, {"login": "alice@example.com", "password": "wrong"})
    response = client.post(URL, {"login": "alice@example.com", "password": PASSWORD})
    assert "_auth_user_id" not in client.session
    assert response.status_code in (200, 429)
    assert "Too many" in response.text
