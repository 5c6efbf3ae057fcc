"""Rematch posts: ask for one after the end, accept it, decline it. Each calls one service
and redirects (a refusal: back to the game with its reason)."""
from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from games import services
from games.views.errors import game_errors


@require_POST
@login_required
@game_errors
def ask(request: HttpRequest, game_id) -> HttpResponse:
    """Ask for a rematch of the finished game (or accept the one another player asked for)."""
    rematch = services.game_rematch(game_id=game_id, user=request.user)
    if rematch.is_active:
        messages.success(request, _("Everyone accepted: the rematch has started."))
    else:
        messages.success(request, _("Rematch asked for: it starts when every player has accepted."))
    return redirect("games-detail", game_id=rematch.pk)


@require_POST
@login_required
@game_errors
def accept(request: HttpRequest, game_id) -> HttpResponse:
    """Accept the rematch ``game_id`` (from its page, the finished game's or the home page)."""
    game = services.rematch_accept(game_id=game_id, user=request.user)
    messages.success(request, _("Everyone accepted: the rematch has started.") if game.is_active
                     else _("You accepted the rematch: it starts when every player has."))
    return redirect("games-detail", game_id=game.pk)


@require_POST
@login_required
@game_errors
def decline(request: HttpRequest, game_id) -> HttpResponse:
    """Decline the rematch ``game_id``: it is cancelled for everyone."""
    services.rematch_decline(game_id=game_id, user=request.user)
    messages.success(request, _("You declined the rematch."))
    return redirect("home")
