"""Authorisation in one place: who may see a game, who sits where, invite tokens.

Views call these helpers first thing; services call ``check_invite_token`` so a private
game cannot be joined without its link whatever the caller.
"""
from __future__ import annotations

import uuid

from django.core import signing
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.utils.translation import gettext

from games import selectors
from games.models import Game, GameStatus, Invitation, InvitationStatus, Seat

INVITE_SALT = "games.invite"


def make_invite_token(game: Game) -> str:
    """The signed token of ``game``'s private invite link."""
    return signing.dumps(str(game.id), salt=INVITE_SALT, compress=True)


def check_invite_token(game: Game, token: str | None) -> bool:
    """True if ``token`` is a valid invite token for ``game``."""
    if not token:
        return False
    try:
        return signing.loads(token, salt=INVITE_SALT) == str(game.id)
    except signing.BadSignature:
        return False


def seat_of(game: Game, user) -> Seat | None:
    """The seat ``user`` holds at ``game``, or None (anonymous users hold none)."""
    if not getattr(user, "is_authenticated", False):
        return None
    return Seat.objects.filter(game=game, user=user).first()


def game_and_seat(game_id: uuid.UUID | str, user, *, state: bool = True, waiting: bool = False,
                  seats: bool = False) -> tuple[Game | None, Seat | None]:
    """``(game, user's seat)`` of ``game_id``, the game's creator loaded: ``(None, None)`` if
    there is no such game, ``(game, None)`` if ``user`` (maybe a visitor) holds no seat. One
    query for anyone (``selectors.game_with_seat``; ``state=False``: the snapshot left
    unread until used, ``Game.has_snapshot`` answers without it; ``waiting``: the
    navigation's count as ``game.nav_waiting``, by the same query; ``seats``: the page's
    seat rows too, for ``selectors.page_seats``). Visibility is ``can_view``'s."""
    return selectors.game_with_seat(game_id, user, state=state, waiting=waiting, seats=seats)


def can_view(game: Game, user, *, seat: Seat | None, token: str | None = None) -> bool:
    """Public games are visible to all; private ones to their players and, while open, to
    invitees: by the invite link's ``token`` or by a pending invitation by name."""
    if game.is_public or seat is not None:
        return True
    if game.status != GameStatus.OPEN:
        return False
    return check_invite_token(game, token) or (
        getattr(user, "is_authenticated", False)
        and Invitation.objects.filter(game=game, invitee=user, status=InvitationStatus.PENDING).exists())


def get_game_for_user_or_404(
    game_id: uuid.UUID | str, user, *, token: str | None = None, state: bool = True, waiting: bool = False,
    seats: bool = False,
) -> tuple[Game, Seat | None]:
    """Fetch a game the user may see, with the user's seat (or None); 404 otherwise.
    ``state``, ``waiting``, ``seats``: as ``game_and_seat``'s.

    A private game the user may not see answers 404, not 403, so its existence leaks not.
    """
    game, seat = game_and_seat(game_id, user, state=state, waiting=waiting, seats=seats)
    if game is None:
        raise Http404("No such game.")
    if not can_view(game, user, seat=seat, token=token):
        raise Http404("No such game.")
    return game, seat


def invited_game_closed(game_id: uuid.UUID | str, user, token: str | None) -> Game | None:
    """The game a valid invite ``token`` is for, if it no longer takes players (full and
    started, finished or cancelled) and ``user`` has no seat at it; else None.

    The token proves its holder was invited, so saying that the game is closed leaks
    nothing; a forged token still gets the plain 404.
    """
    game = Game.objects.select_related("creator").filter(pk=game_id).first()
    if game is None or game.status == GameStatus.OPEN or not check_invite_token(game, token):
        return None
    return None if seat_of(game, user) is not None else game


def require_seat(seat: Seat | None) -> Seat:
    """``seat`` (a user's seat, already looked up); PermissionDenied if it is None."""
    if seat is None:
        raise PermissionDenied(gettext("You do not have a seat at this game."))
    return seat


def get_seat_or_403(game: Game, user) -> Seat:
    """The user's seat at ``game``; PermissionDenied if they do not play in it."""
    return require_seat(seat_of(game, user))
