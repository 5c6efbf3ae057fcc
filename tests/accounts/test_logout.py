"""Log out (django-allauth): POST only."""
from django.urls import reverse


def test_it_logs_out_on_post(client_for, alice):
    client = client_for(alice)
    response = client.post(reverse("account_logout"))
    assert response.status_code == 302
    assert "_auth_user_id" not in client.session


def test_get_only_asks_for_confirmation(client_for, alice):
    client = client_for(alice)
    assert client.get(reverse("account_logout")).status_code == 200
    assert "_auth_user_id" in client.session
