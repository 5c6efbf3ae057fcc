"""Answers to invitations by name, from the home page: accept (take the seat) or decline."""
from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from games import services
from games.errors import ServiceError
from games.views.lobby import joined_message


@require_POST
@login_required
def accept(request: HttpRequest, invitation_id: int) -> HttpResponse:
    """Take the invited seat and open the game; a refusal goes back home with its reason."""
    try:
        seat = services.invitation_accept(invitation_id=invitation_id, user=request.user)
    except ServiceError as exc:
        messages.error(request, exc.message)
        return redirect("home")
    messages.success(request, joined_message(seat.game))
    return redirect("games-detail", game_id=seat.game_id)


@require_POST
@login_required
def decline(request: HttpRequest, invitation_id: int) -> HttpResponse:
    """Decline the invitation; back to the home page."""
    try:
        invitation = services.invitation_decline(invitation_id=invitation_id, user=request.user)
    except ServiceError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, _("You declined the invitation to “{name}”.").format(name=invitation.game.name))
    return redirect("home")
