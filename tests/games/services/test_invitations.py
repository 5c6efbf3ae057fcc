"""services.invitation_create / invitation_accept / invitation_decline"""
import pytest
from django.core import mail

from games.errors import GameFull, InvitationError
from games.models import GameStatus, Invitation, InvitationStatus, Seat
from games.services import invitation_accept, invitation_create, invitation_decline, seat_join


def test_accepting_seats_the_invitee_at_a_private_game_without_its_link(make_game, alice, carol):
    game = make_game(alice, seats=3, is_public=False)
    invitation = invitation_create(game_id=game.pk, inviter=alice, invitee=carol)
    seat = invitation_accept(invitation_id=invitation.pk, user=carol)
    assert (seat.game_id, seat.order) == (game.pk, 1)
    invitation.refresh_from_db()
    assert invitation.status == InvitationStatus.ACCEPTED and invitation.answered_at is not None


def test_accepting_the_last_seat_starts_the_game(make_game, alice, bob):
    game = make_game(alice, seats=2)
    invitation = invitation_create(game_id=game.pk, inviter=alice, invitee=bob)
    invitation_accept(invitation_id=invitation.pk, user=bob)
    game.refresh_from_db()
    assert game.status == GameStatus.ACTIVE


def test_an_invitation_sends_one_email_however_often_it_is_repeated(
        make_game, alice, carol, django_capture_on_commit_callbacks):
    game = make_game(alice, seats=3)
    for _ in range(2):
        with django_capture_on_commit_callbacks(execute=True):
            invitation_create(game_id=game.pk, inviter=alice, invitee=carol)
    assert [m.to for m in mail.outbox] == [[carol.email]]
    assert Invitation.objects.filter(game=game, invitee=carol).count() == 1


def test_inviting_again_reopens_a_declined_invitation(make_game, alice, carol):
    game = make_game(alice, seats=3)
    invitation = invitation_create(game_id=game.pk, inviter=alice, invitee=carol)
    invitation_decline(invitation_id=invitation.pk, user=carol)
    assert invitation_create(game_id=game.pk, inviter=alice, invitee=carol).status == InvitationStatus.PENDING


def test_declining_takes_no_seat_and_cannot_be_answered_twice(make_game, alice, carol):
    game = make_game(alice, seats=3)
    invitation = invitation_create(game_id=game.pk, inviter=alice, invitee=carol)
    invitation_decline(invitation_id=invitation.pk, user=carol)
    with pytest.raises(InvitationError, match="already answered"):
        invitation_accept(invitation_id=invitation.pk, user=carol)
    assert not Seat.objects.filter(game=game, user=carol).exists()


def test_nobody_else_can_answer_an_invitation(make_game, alice, bob, carol):
    game = make_game(alice, seats=3)
    invitation = invitation_create(game_id=game.pk, inviter=alice, invitee=carol)
    with pytest.raises(InvitationError, match="no such invitation"):
        invitation_accept(invitation_id=invitation.pk, user=bob)
    invitation.refresh_from_db()
    assert invitation.status == InvitationStatus.PENDING
    assert not Seat.objects.filter(game=game, user=bob).exists()


def test_an_invitation_to_a_game_that_filled_up_is_refused(make_game, alice, bob, carol):
    game = make_game(alice, seats=2, is_public=True)
    invitation = invitation_create(game_id=game.pk, inviter=alice, invitee=carol)
    seat_join(game_id=game.pk, user=bob)  # the last seat: the game starts
    with pytest.raises(InvitationError, match="no longer taking players"):
        invitation_accept(invitation_id=invitation.pk, user=carol)


@pytest.mark.parametrize("who", ["outsider", "seated"])
def test_only_a_seated_player_invites_someone_not_seated(make_game, alice, bob, carol, who):
    game = make_game(alice, bob, seats=3)
    inviter, invitee, message = ((carol, alice, "Only a player") if who == "outsider"
                                 else (alice, bob, "already has a seat"))
    with pytest.raises(InvitationError, match=message):
        invitation_create(game_id=game.pk, inviter=inviter, invitee=invitee)
    assert not Invitation.objects.exists()


def test_a_full_game_refuses_the_invitee(make_game, alice, bob, carol):
    game = make_game(alice, seats=2)
    invitation = invitation_create(game_id=game.pk, inviter=alice, invitee=carol)
    Seat.objects.create(game=game, user=bob, order=1)  # full, not started
    with pytest.raises(GameFull):
        invitation_accept(invitation_id=invitation.pk, user=carol)
    invitation.refresh_from_db()
    assert invitation.status == InvitationStatus.PENDING


def test_joining_from_the_private_games_page_accepts_the_invitation(make_game, alice, carol):
    game = make_game(alice, seats=3, is_public=False)
    invitation = invitation_create(game_id=game.pk, inviter=alice, invitee=carol)
    seat_join(game_id=game.pk, user=carol)  # no invite link: the invitation is the authority
    invitation.refresh_from_db()
    assert invitation.status == InvitationStatus.ACCEPTED
    assert Seat.objects.filter(game=game, user=carol).exists()
