"""The preferences page and the one-click unsubscribe link."""
from django.test import Client

from notifications.models import Preferences, TurnEmails
from notifications.services import preferences_for
from notifications.tokens import make_unsubscribe_token

FORM = {"turn_emails": "digest", "digest_hour": "19", "game_emails": "on",
        "invitation_emails": "on", "quiet_start": "22", "quiet_end": "7",
        "time_zone": "Europe/Paris", "turn_email_delay_minutes": "5"}


def test_the_preferences_page_needs_a_login():
    response = Client().get("/notifications/preferences/")
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_it_saves_turn_emails_digest_hour_quiet_hours_time_zone_and_mutes(
        client_for, make_game, alice, bob):
    game = make_game(alice, bob, seats=2)
    client = client_for(alice)
    page = client.get("/notifications/preferences/")
    assert page.status_code == 200 and "Test game" in page.text
    response = client.post("/notifications/preferences/", {**FORM, "muted_games": [game.pk]})
    assert response.status_code == 302
    prefs = Preferences.objects.get(user=alice)
    assert (prefs.turn_emails, prefs.digest_hour, prefs.quiet_start, prefs.quiet_end,
            prefs.time_zone, prefs.turn_email_delay_minutes) == ("digest", 19, 22, 7, "Europe/Paris", 5)
    assert list(prefs.muted_games.all()) == [game]
    assert prefs.game_emails is True and prefs.invitation_emails is True


def test_it_refuses_half_quiet_hours_and_unknown_time_zones(client_for, alice):
    client = client_for(alice)
    response = client.post("/notifications/preferences/", {**FORM, "quiet_end": ""})
    assert response.status_code == 200 and "both ends of the quiet hours" in response.text
    response = client.post("/notifications/preferences/", {**FORM, "time_zone": "Mars/Olympus"})
    assert response.status_code == 200
    assert preferences_for(alice).time_zone == "UTC"


def test_it_cannot_mute_someone_elses_game(client_for, make_game, alice, bob, carol):
    game = make_game(bob, carol, seats=2)
    response = client_for(alice).post("/notifications/preferences/",
                                      {**FORM, "muted_games": [game.pk]})
    assert response.status_code == 200
    assert not preferences_for(alice).muted_games.exists()


def test_the_unsubscribe_link_works_without_login_and_changes_only_that_preference(alice):
    prefs = preferences_for(alice)
    prefs.time_zone, prefs.quiet_start, prefs.quiet_end = "Europe/Paris", 22, 7
    prefs.save()
    url = f"/notifications/unsubscribe/{make_unsubscribe_token(alice.pk, 'turn_emails')}/"
    client = Client(enforce_csrf_checks=True)
    page = client.get(url)  # a link scanner's GET changes nothing
    assert page.status_code == 200 and "Stop turn emails?" in page.text
    assert preferences_for(alice).turn_emails == TurnEmails.IMMEDIATE
    # RFC 8058 one-click: the mail client POSTs this body, with no cookie or CSRF token
    response = client.post(url, {"List-Unsubscribe": "One-Click"})
    assert response.status_code == 200 and "no longer get turn emails" in response.text
    after = preferences_for(alice)
    assert after.turn_emails == TurnEmails.OFF
    assert (after.game_emails, after.invitation_emails, after.time_zone, after.quiet_start,
            after.quiet_end, after.digest_hour) == (True, True, "Europe/Paris", 22, 7, 8)
    assert client.post(url).status_code == 200  # again: still fine


def test_the_game_emails_link_leaves_turn_emails_alone(alice):
    token = make_unsubscribe_token(alice.pk, "game_emails")
    Client().post(f"/notifications/unsubscribe/{token}/")
    prefs = preferences_for(alice)
    assert prefs.game_emails is False and prefs.turn_emails == TurnEmails.IMMEDIATE


def test_the_mute_link_mutes_that_game_only(make_game, alice, bob):
    game, other = make_game(alice, bob, seats=2), make_game(alice, bob, seats=2)
    token = make_unsubscribe_token(alice.pk, f"mute:{game.pk}")
    Client().post(f"/notifications/unsubscribe/{token}/")
    prefs = preferences_for(alice)
    assert list(prefs.muted_games.all()) == [game]
    assert prefs.turn_emails == TurnEmails.IMMEDIATE and other not in prefs.muted_games.all()


def test_a_forged_or_damaged_token_is_refused(alice):
    token = make_unsubscribe_token(alice.pk, "turn_emails")
    for bad in (token[:-2] + "xx", "junk", make_unsubscribe_token(alice.pk, "is_superuser")):
        assert Client().post(f"/notifications/unsubscribe/{bad}/").status_code == 403
    assert preferences_for(alice).turn_emails == TurnEmails.IMMEDIATE


def test_every_page_links_the_notification_preferences_and_whole_vacation_days_read_whole(client_for, alice):
    page = client_for(alice).get("/").text
    assert 'href="/notifications/preferences/">Notifications</a>' in page
    preferences = client_for(alice).get("/notifications/preferences/").text
    assert "vacation days left this year" in preferences
    assert "21.0" not in preferences and "<strong>21</strong> vacation days" in preferences
