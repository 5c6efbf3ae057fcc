"""Sign up (django-allauth): email, public name and password; a verification email."""
from allauth.account.models import EmailAddress
from django.contrib.auth import get_user_model
from django.urls import reverse

from tests.conftest import PASSWORD


def test_it_creates_an_account_and_sends_a_verification_email(db, client, mailoutbox):
    response = client.post(reverse("account_signup"), {
        "email": "erin@example.com", "username": "erin",
        "password1": PASSWORD, "password2": PASSWORD,
    })
    assert response.status_code == 302
    user = get_user_model().objects.get(username="erin")
    assert not EmailAddress.objects.get(user=user).verified
    assert len(mailoutbox) == 1
    assert mailoutbox[0].to == ["erin@example.com"]
    assert "/accounts/confirm-email/" in mailoutbox[0].body


def test_an_unverified_account_cannot_log_in_yet(db, client, mailoutbox):
    client.post(reverse("account_signup"), {
        "email": "erin@example.com", "username": "erin",
        "password1": PASSWORD, "password2": PASSWORD,
    })
    client.logout()
    response = client.post(reverse("account_login"), {"login": "erin@example.com",
                                                      "password": PASSWORD})
    assert response.status_code == 302
    assert response["Location"] == reverse("account_email_verification_sent")
    assert "_auth_user_id" not in client.session


def test_following_the_link_verifies_the_address(db, client, mailoutbox):
    client.post(reverse("account_signup"), {
        "email": "erin@example.com", "username": "erin",
        "password1": PASSWORD, "password2": PASSWORD,
    })
    link = next(line for line in mailoutbox[0].body.splitlines() if "/confirm-email/" in line)
    path = link[link.index("/accounts/"):].strip()
    client.post(path)
    assert EmailAddress.objects.get(email="erin@example.com").verified


def test_the_page_uses_the_site_layout(db, client):
    response = client.get(reverse("account_signup"))
    assert response.status_code == 200
    assert "site-header" in response.text
