"""Players may log in with their username as well as their email."""
from django.urls import reverse


def test_a_player_logs_in_with_the_username(client, alice):
    alice.set_password("a-long-password-1")
    alice.save()
    response = client.post(reverse("account_login"), {"login": alice.username, "password": "a-long-password-1"})
    assert response.status_code == 302
    assert client.get(reverse("home")).wsgi_request.user == alice
