"""Password reset (django-allauth)."""
from django.urls import reverse


def test_it_emails_a_reset_link(client, alice, mailoutbox):
    response = client.post(reverse("account_reset_password"), {"email": "alice@example.com"})
    assert response.status_code == 302
    assert len(mailoutbox) == 1
    assert "/accounts/password/reset/key/" in mailoutbox[0].body
