"""The home page's "Waiting for you" rows: the decision needed, the time left, the
invitations to answer and the open tables with a free seat."""
import datetime as dt

from django.urls import reverse
from django.utils import timezone

from games.models import Game, Seat
from games.services import invitation_create


def test_a_row_says_the_decision_and_the_time_left(client_for, make_game, alice, bob):
    game = make_game(alice, bob, seats=2)
    now = timezone.now()
    Game.objects.filter(pk=game.pk).update(clock_initial_seconds=86400, clock_increment_seconds=3600,
                                           clock_cap_seconds=172800)
    Seat.objects.filter(game=game, user=alice).update(
        awaiting="plan", bank_seconds=5 * 3600 + 30 * 60, clock_started_at=now,
        deadline=now + dt.timedelta(hours=5, minutes=30), awaiting_since=now - dt.timedelta(hours=2))
    response = client_for(alice).get(reverse("home"))
    row, = response.context["waiting"]
    assert row.prompt == "plan: put followers from your market on your places"
    assert row.time_left in ("5 h 30 min", "5 h 29 min")
    assert "plan: put followers from your market on your places" in response.text
    assert row.time_left in response.text


def test_a_game_without_a_clock_says_so(client_for, started_game, alice):
    response = client_for(alice).get(reverse("home"))
    row, = response.context["waiting"]
    assert row.time_left is None
    assert "no clock" in response.text


def test_an_invited_player_sees_the_invitation_and_can_accept_it(client_for, make_game, alice, carol):
    game = make_game(alice, seats=3, is_public=False)
    invitation = invitation_create(game_id=game.pk, inviter=alice, invitee=carol)
    client = client_for(carol)
    page = client.get(reverse("home")).text
    accept = reverse("games-invitation-accept", kwargs={"invitation_id": invitation.pk})
    assert accept in page and "alice invites you" in page
    response = client.post(accept)
    assert response.url == reverse("games-detail", kwargs={"game_id": game.pk})
    assert Seat.objects.filter(game=game, user=carol).exists()
    assert "alice invites you" not in client.get(reverse("home")).text


def test_an_invited_player_can_decline(client_for, make_game, alice, carol):
    game = make_game(alice, seats=3)
    invitation = invitation_create(game_id=game.pk, inviter=alice, invitee=carol)
    client = client_for(carol)
    response = client.post(reverse("games-invitation-decline", kwargs={"invitation_id": invitation.pk}),
                           follow=True)
    assert "You declined the invitation to “Test game”." in response.text
    assert not Seat.objects.filter(game=game, user=carol).exists()
    assert list(response.context["invitations"]) == []


def test_open_tables_list_only_games_with_a_free_seat_the_user_is_not_at(
        client_for, make_game, alice, bob, carol, dave):
    mine = make_game(alice, seats=3)
    theirs = make_game(bob, seats=3)
    full = make_game(carol, seats=2)
    Seat.objects.create(game=full, user=dave, order=1)  # full but not started (a rematch waiting)
    assert client_for(alice).get(reverse("home")).context["open_games"] == [theirs]
    assert client_for(dave).get(reverse("home")).context["open_games"] == [theirs, mine]


def test_a_player_invited_by_name_may_open_the_private_game_until_answering(client_for, make_game, alice, carol, dave):
    game = make_game(alice, seats=3, is_public=False)
    invitation = invitation_create(game_id=game.pk, inviter=alice, invitee=carol)
    url = reverse("games-detail", kwargs={"game_id": game.pk})
    assert client_for(carol).get(url).status_code == 200
    assert client_for(dave).get(url).status_code == 404
    from games.services import invitation_decline

    invitation_decline(invitation_id=invitation.pk, user=carol)
    assert client_for(carol).get(url).status_code == 404
