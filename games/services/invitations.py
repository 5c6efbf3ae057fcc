"""Invitations by name: invite a registered player to an open game; they accept or decline.

Every function is keyword-only, runs in one ``transaction.atomic`` block and locks the
game row first. Accepting seats the invitee without the private game's invite link (the
invitation is the authority) and starts the game if it fills the last seat.
"""
from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from games.errors import InvitationError
from games.models import GameStatus, Invitation, InvitationStatus, Seat
from games.services import outbox
from games.services.lobby import _take_seat
from games.services.locks import GameId, _lock_game


@transaction.atomic
def invitation_create(*, game_id: GameId, inviter, invitee) -> Invitation:
    """Invite ``invitee`` (a user) to the open game ``game_id`` where ``inviter`` sits.

    The invitee gets an email (through the outbox, on commit) and sees the invitation on
    their home page. Idempotent: inviting the same player again returns the same
    invitation, reopened if they had declined, and sends no second email. Raises
    ``InvitationError`` (game not open, inviter not seated, invitee already seated),
    ``GameNotFound``.
    """
    game = _lock_game(game_id)
    if game.status != GameStatus.OPEN:
        raise InvitationError(gettext("Only a game that has not started can take invitations."))
    seated = set(Seat.objects.filter(game=game).values_list("user_id", flat=True))
    if inviter.pk not in seated:
        raise InvitationError(gettext("Only a player at this game can invite others."))
    if invitee.pk in seated:
        raise InvitationError(gettext("{username} already has a seat at this game.").format(
            username=invitee.get_username()))
    invitation, created = Invitation.objects.get_or_create(
        game=game, invitee=invitee, defaults={"inviter": inviter})
    if created:
        outbox.invitation_sent(invitation)
    elif invitation.status != InvitationStatus.PENDING:
        invitation.status, invitation.answered_at = InvitationStatus.PENDING, None
        invitation.save(update_fields=["status", "answered_at"])
    return invitation


def _pending_invitation(invitation_id: int, user) -> Invitation:
    """The user's pending invitation ``invitation_id`` with its game row locked; raises
    ``InvitationError`` if there is none (another user's, already answered, unknown)."""
    game_id = Invitation.objects.filter(pk=invitation_id, invitee=user).values_list(
        "game_id", flat=True).first()
    if game_id is None:
        raise InvitationError(gettext("There is no such invitation."))
    game = _lock_game(game_id)
    invitation = Invitation.objects.get(pk=invitation_id)
    if invitation.status != InvitationStatus.PENDING:
        raise InvitationError(gettext("You have already answered this invitation."))
    invitation.game = game
    return invitation


def _answer(invitation: Invitation, status: InvitationStatus) -> None:
    invitation.status, invitation.answered_at = status, timezone.now()
    invitation.save(update_fields=["status", "answered_at"])


@transaction.atomic
def invitation_accept(*, invitation_id: int, user) -> Seat:
    """The invitee takes a seat at the invited game; the game starts if that fills it.

    Raises ``InvitationError`` (not the user's pending invitation, or the game no longer
    open), ``GameFull``, ``AlreadySeated``; nothing changes then.
    """
    invitation = _pending_invitation(invitation_id, user)
    if invitation.game.status != GameStatus.OPEN:
        raise InvitationError(gettext("This game is no longer taking players."))
    seat = _take_seat(invitation.game, user)
    _answer(invitation, InvitationStatus.ACCEPTED)
    return seat


@transaction.atomic
def invitation_decline(*, invitation_id: int, user) -> Invitation:
    """The invitee declines: the invitation leaves their home page. Raises
    ``InvitationError`` if it is not their pending invitation."""
    invitation = _pending_invitation(invitation_id, user)
    _answer(invitation, InvitationStatus.DECLINED)
    return invitation
