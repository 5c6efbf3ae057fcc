"""Change email (django-allauth, ACCOUNT_CHANGE_EMAIL): the new address must be verified."""
from allauth.account.models import EmailAddress
from django.urls import reverse


def test_it_sends_a_verification_to_the_new_address(client_for, alice, mailoutbox):
    client = client_for(alice)
    assert client.get(reverse("account_email")).status_code == 200
    response = client.post(reverse("account_email"),
                           {"action_add": "", "email": "alice.new@example.com"})
    assert response.status_code == 302
    assert EmailAddress.objects.filter(email="alice.new@example.com", verified=False).exists()
    assert mailoutbox[-1].to == ["alice.new@example.com"]


def test_it_requires_login(client, db):
    assert client.get(reverse("account_email")).status_code == 302
