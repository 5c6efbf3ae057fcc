"""Which language a page is in: the account's choice, else the browser's (issue 11)."""
from django.urls import reverse

from notifications.language import language_for
from notifications.services import preferences_for
from tests.conftest import PASSWORD

JA_FOOTER = "オルレアンをゆっくり遊ぶ"


def test_a_browser_asking_for_japanese_gets_a_japanese_page(client, db):
    response = client.get(reverse("home"), HTTP_ACCEPT_LANGUAGE="ja")
    assert '<html lang="ja">' in response.text
    assert JA_FOOTER in response.text
    assert response["Content-Language"] == "ja"


def test_a_browser_asking_for_english_gets_english(client, db):
    response = client.get(reverse("home"), HTTP_ACCEPT_LANGUAGE="en-US,en;q=0.9")
    assert '<html lang="en-gb">' in response.text
    assert JA_FOOTER not in response.text


def test_the_footer_switcher_works_for_a_visitor(client, db):
    response = client.post(reverse("set-language"), {"language": "ja", "next": "/"}, HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 302
    page = client.get(reverse("home"), HTTP_ACCEPT_LANGUAGE="en")
    assert '<html lang="ja">' in page.text


def test_an_unknown_language_code_changes_nothing(client, alice):
    client.force_login(alice)
    client.post(reverse("set-language"), {"language": "xx", "next": "/"})
    assert preferences_for(alice).language == ""
    assert '<html lang="en-gb">' in client.get(reverse("home"), HTTP_ACCEPT_LANGUAGE="en").text


def test_the_account_language_wins_over_the_browser_after_sign_in(client, alice):
    prefs = preferences_for(alice)
    prefs.language = "ja"
    prefs.save()
    client.post(reverse("account_login"), {"login": "alice@example.com", "password": PASSWORD},
                HTTP_ACCEPT_LANGUAGE="en")
    page = client.get(reverse("home"), HTTP_ACCEPT_LANGUAGE="en")
    assert '<html lang="ja">' in page.text


def test_switching_in_the_footer_when_signed_in_saves_it_on_the_account(client, alice):
    client.force_login(alice)
    client.post(reverse("set-language"), {"language": "ja", "next": "/"})
    assert preferences_for(alice).language == "ja"
    assert language_for(alice) == "ja"
    assert '<html lang="ja">' in client.get(reverse("home"), HTTP_ACCEPT_LANGUAGE="en").text


def test_the_preferences_page_sets_the_language(client, alice):
    client.force_login(alice)
    form = client.get(reverse("notifications-preferences")).context["form"]
    data = {k: v for k, v in form.initial.items() if v is not None and k != "muted_games"}
    data.update(language="ja", turn_emails="immediate")
    response = client.post(reverse("notifications-preferences"), data)
    assert response.status_code == 302, response.context["form"].errors
    assert preferences_for(alice).language == "ja"
    assert '<html lang="ja">' in client.get(reverse("home"), HTTP_ACCEPT_LANGUAGE="en").text


def test_emails_follow_the_browser_language_of_the_last_sign_in(client, alice):
    assert language_for(alice) == "en-gb"
    client.post(reverse("account_login"), {"login": "alice@example.com", "password": PASSWORD},
                HTTP_ACCEPT_LANGUAGE="ja,en;q=0.5")
    assert language_for(alice) == "ja"
