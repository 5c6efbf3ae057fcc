"""notifications.views.invite: invite a registered player by name from the game's lobby."""
from django.core import mail
from django.urls import reverse

from notifications.models import Notification


def url(game):
    return reverse("notifications-invite", kwargs={"game_id": game.pk})


def test_a_seated_player_invites_another_by_username(client_for, make_game, alice, carol,
                                                      django_capture_on_commit_callbacks):
    game = make_game(alice, is_public=False)
    with django_capture_on_commit_callbacks(execute=True):
        response = client_for(alice).post(url(game), {"username": carol.username.upper()})
    assert response.status_code == 302
    invitation = Notification.objects.get(kind="invitation", recipient=carol, game=game)
    assert invitation.status == "sent"
    assert any("/invite/" in m.body and m.to == [carol.email] for m in mail.outbox)


def test_an_unknown_name_is_refused_with_a_message(client_for, make_game, alice):
    game = make_game(alice)
    response = client_for(alice).post(url(game), {"username": "nobody"}, follow=True)
    assert "There is no player called" in response.text
    assert not Notification.objects.filter(kind="invitation").exists()


def test_only_a_seated_player_may_invite(client_for, make_game, alice, bob, carol):
    game = make_game(alice)
    response = client_for(bob).post(url(game), {"username": carol.username}, follow=True)
    assert "Only a player at this game can invite" in response.text
    assert not Notification.objects.filter(kind="invitation").exists()


def test_inviting_needs_a_post(client_for, make_game, alice):
    assert client_for(alice).get(url(make_game(alice))).status_code == 405
