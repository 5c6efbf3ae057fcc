"""Lobby form posts: join, leave, start, cancel, public/private, the vote to end a game
with an absent player and taking a seat back from the bot. Each calls one service and
redirects."""
from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from games import services
from games.forms import JoinForm
from games.views.errors import game_errors


@require_POST
@login_required
@game_errors
def join(request: HttpRequest, game_id) -> HttpResponse:
    """Take a seat (a private game needs the invite token posted with the form)."""
    form = JoinForm(request.POST)
    token = form.cleaned_data["token"] if form.is_valid() else None
    seat = services.seat_join(game_id=game_id, user=request.user, invite_token=token)
    messages.success(request, joined_message(seat.game))
    return redirect("games-detail", game_id=game_id)


def joined_message(game) -> str:
    """What a player who just took a seat at ``game`` is told (by the lobby or an invitation)."""
    return _("You took the last seat: the game has started.") if game.is_active else _("You have joined the game.")


@require_POST
@login_required
@game_errors
def leave(request: HttpRequest, game_id) -> HttpResponse:
    """Give up a seat before the start."""
    services.seat_leave(game_id=game_id, user=request.user)
    messages.success(request, _("You have left the game."))
    return redirect("games-lobby")


@require_POST
@login_required
@game_errors
def start(request: HttpRequest, game_id) -> HttpResponse:
    """The creator starts the game with the players seated so far."""
    services.game_start(game_id=game_id, user=request.user)
    messages.success(request, _("The game has started."))
    return redirect("games-detail", game_id=game_id)


@require_POST
@login_required
@game_errors
def cancel(request: HttpRequest, game_id) -> HttpResponse:
    """The creator cancels the game before the start."""
    services.game_cancel(game_id=game_id, user=request.user)
    messages.success(request, _("The game has been cancelled."))
    return redirect("games-lobby")


@require_POST
@login_required
@game_errors
def vote_end(request: HttpRequest, game_id) -> HttpResponse:
    """Vote to end the game as it stands while a player is absent."""
    if services.game_vote_end(game_id=game_id, user=request.user):
        messages.success(request, _("Everyone agreed: the game is over, scored as it stands."))
    else:
        messages.success(request, _("Your vote is recorded; the game ends when every present "
                                    "player agrees."))
    return redirect("games-detail", game_id=game_id)


@require_POST
@login_required
@game_errors
def take_back(request: HttpRequest, game_id) -> HttpResponse:
    """An absent player takes their seat back from the bot that plays it."""
    services.seat_take_back(game_id=game_id, user=request.user)
    messages.success(request, _("Welcome back: you play your seat again."))
    return redirect("games-detail", game_id=game_id)


@require_POST
@login_required
@game_errors
def visibility(request: HttpRequest, game_id) -> HttpResponse:
    """The creator makes the game public (``is_public=1``) or private to its players (``0``)."""
    is_public = request.POST.get("is_public") == "1"
    services.game_set_public(game_id=game_id, user=request.user, is_public=is_public)
    messages.success(request, _("The game is public: anyone signed in can watch it.") if is_public
                     else _("The game is now private to its players."))
    return redirect("games-detail", game_id=game_id)
