"""Login protection (issue 8): logins work while the cache is down, failed-login limits do
not let anyone lock another player out, and the admin login is rate-limited too."""
import logging
import socket

import pytest
from django.urls import reverse

from tests.conftest import PASSWORD

LOGIN = reverse("account_login")


def _closed_port() -> int:
    with socket.socket() as sock:  # bound, never listening: connections are refused
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture
def cache_down(settings, monkeypatch):
    monkeypatch.setattr("orleans_site.cache._last_warning", None)  # the next failure is logged
    settings.CACHES = {"default": {"BACKEND": "orleans_site.cache.FailOpenRedisCache",
                                   "LOCATION": f"redis://127.0.0.1:{_closed_port()}/0"}}


def test_login_works_while_the_cache_is_down_and_says_so_in_the_log(client, alice, cache_down, caplog):
    with caplog.at_level(logging.WARNING, logger="orleans_site.cache"):
        response = client.post(LOGIN, {"login": "alice", "password": PASSWORD})
    assert response.status_code == 302
    assert int(client.session["_auth_user_id"]) == alice.pk
    assert any("cache unreachable" in record.getMessage() for record in caplog.records)


def test_a_wrong_password_while_the_cache_is_down_is_refused_not_a_500(client, alice, cache_down):
    response = client.post(LOGIN, {"login": "alice", "password": "wrong"})
    assert response.status_code == 200
    assert "_auth_user_id" not in client.session


def test_wrong_passwords_from_elsewhere_do_not_lock_the_owner_out(client, alice):
    from django.test import Client

    guesser = Client(REMOTE_ADDR="203.0.113.66")
    for _ in range(6):
        guesser.post(LOGIN, {"login": "alice", "password": "wrong"})
    refused = guesser.post(LOGIN, {"login": "alice", "password": PASSWORD})
    assert "Too many" in refused.text  # the guesser is limited...
    owner = Client(REMOTE_ADDR="198.51.100.7")
    response = owner.post(LOGIN, {"login": "alice", "password": PASSWORD})
    assert response.status_code == 302  # ...the owner is not
    assert int(owner.session["_auth_user_id"]) == alice.pk


@pytest.fixture
def staff(alice):
    alice.is_staff = alice.is_superuser = True
    alice.save()
    return alice


def test_the_admin_login_sends_to_the_site_login_with_next(client, staff):
    response = client.get("/admin/login/?next=/admin/games/")
    assert response.status_code == 302
    assert response["Location"] == f"{LOGIN}?next=%2Fadmin%2Fgames%2F"
    assert client.get("/admin/")["Location"].startswith("/admin/login/")


def test_the_admin_login_form_no_longer_authenticates(client, staff):
    response = client.post("/admin/login/", {"username": "alice", "password": PASSWORD})
    assert response.status_code == 302
    assert "_auth_user_id" not in client.session


def test_admin_brute_force_is_limited(client, staff):
    for _ in range(25):
        client.post("/admin/login/", {"username": "alice", "password": "wrong"}, follow=True)
        client.post(LOGIN, {"login": "alice", "password": "wrong"})
    response = client.post(LOGIN, {"login": "alice", "password": PASSWORD})
    assert "_auth_user_id" not in client.session
    assert "Too many" in response.text


def test_signed_in_staff_go_on_to_the_admin_and_players_get_403(client_for, staff, bob):
    assert client_for(staff).get("/admin/login/?next=/admin/")["Location"] == "/admin/"
    assert client_for(bob).get("/admin/login/?next=/admin/").status_code == 403
    assert client_for(staff).get("/admin/login/?next=https://evil.example/")["Location"] == "/admin/"
