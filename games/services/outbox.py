"""The one place the games app calls notifications: record rows, deliver on commit.

Notification rows are written in the caller's transaction (under the game row lock, after
the version was bumped), so nothing is lost if the broker is down; delivery tasks are
queued with ``orleans_site.tasks.enqueue_on_commit`` and only run once the rows exist.
"""
from __future__ import annotations

from notifications.services import (
    cancel_game_notifications, notification_insert, record_game_cancelled, record_game_notifications,
    record_invitation, record_timed_out, turn_notification_rows,
)
from notifications.tasks import deliver_game_notifications_task, deliver_notification_task
from orleans_site.tasks import enqueue_on_commit


def game_changed(game, *, newly_awaited: list, started: bool = False, finished: bool = False) -> None:
    """Record the emails this change causes (same transaction) and deliver them on commit.

    ``newly_awaited`` are the ``Seat`` rows that became awaited; ``started`` / ``finished``
    say the game just started or ended. Turn emails go to the newly awaited seats; whether
    one is sent is decided at delivery, never by whether the player has the page open.
    """
    if record_game_notifications(game=game, newly_awaited=newly_awaited, started=started,
                                 finished=finished):
        deliver_game(game)


def turn_emails_statement(game, *, newly_awaited: list) -> tuple[str, list, bool] | None:
    """The INSERT recording the turn emails of a change of ``game`` that neither starts
    nor finishes it (``newly_awaited``: the ``Seat`` rows that became awaited), for the
    store to run with its own writes, in their round trip (``notification_insert``'s SQL,
    parameters and its prepared flag); None when there is none. After
    the statement ran, ``deliver_game`` delivers them on commit (``game_changed`` in two
    steps)."""
    rows = turn_notification_rows(game=game, newly_awaited=newly_awaited)
    return notification_insert(rows) if rows else None


def move_taken_back(game, version: int) -> None:
    """The move that made ``version`` of ``game`` was taken back: cancel the turn emails it
    queued (same transaction). The take-back's own change records new ones as usual."""
    cancel_game_notifications(game=game, version=version, reason="move taken back")


def seat_timed_out(game, seat, *, moves: int) -> None:
    """Record the "you were timed out" email for ``seat`` (``moves``: how many actions the
    timeout policy took); ``deliver_game`` sends it."""
    record_timed_out(game=game, seat=seat, moves=moves)


def deliver_game(game) -> None:
    """Deliver, on commit, what was recorded for ``game`` at its current version."""
    enqueue_on_commit(deliver_game_notifications_task, str(game.id), game.version)


def game_cancelled(game) -> None:
    """Record the creator's "your game was cancelled" email and deliver it on commit."""
    notification = record_game_cancelled(game=game)
    enqueue_on_commit(deliver_notification_task, notification.pk)


def invitation_sent(invitation) -> None:
    """Record the invitee's invitation email (``invitation``: a ``games.Invitation``) and
    deliver it on commit; recorded once per (invitee, game)."""
    _invite(invitation.game, invitation.inviter, invitation.invitee)


def _invite(game, inviter, invitee, *, rematch: bool = False) -> None:
    notification, created = record_invitation(game=game, inviter=inviter, invitee=invitee, rematch=rematch)
    if created:
        enqueue_on_commit(deliver_notification_task, notification.pk)


def rematch_offered(game, *, inviter, invitees) -> None:
    """Record the email asking each of ``invitees`` (users) to accept the rematch ``game``
    that ``inviter`` asked for, and deliver them on commit."""
    for invitee in invitees:
        _invite(game, inviter, invitee, rematch=True)
