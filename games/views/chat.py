"""The chat region's posts: send a message, mark the chat read, mute or unmute it. Each
calls one service and answers the refreshed regions (htmx) or redirects to the game."""
from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils.translation import gettext
from django.views.decorators.http import require_POST

from games import services
from games.access import get_game_for_user_or_404
from games.errors import InvalidSubmission
from games.views.errors import game_errors
from games.views.regions import render_regions


def _answer(request: HttpRequest, game_id) -> HttpResponse:
    game, seat = get_game_for_user_or_404(game_id, request.user)
    if not request.htmx or game.state is None:
        return redirect("games-detail", game_id=game.pk)
    return render_regions(request, game, seat)


@require_POST
@login_required
@game_errors
def post(request: HttpRequest, game_id) -> HttpResponse:
    """Post the ``text`` field in the channel the user writes in."""
    game, _ = get_game_for_user_or_404(game_id, request.user)
    services.chat_post(game_id=game.pk, user=request.user, text=request.POST.get("text", ""))
    return _answer(request, game_id)


@require_POST
@login_required
@game_errors
def read(request: HttpRequest, game_id) -> HttpResponse:
    """Mark the chat read up to ``last_id`` (the newest message the page showed)."""
    game, _ = get_game_for_user_or_404(game_id, request.user)
    try:
        up_to = int(request.POST.get("last_id", ""))
    except ValueError as exc:
        raise InvalidSubmission(gettext("The chat position could not be read.")) from exc
    services.chat_mark_read(game_id=game.pk, user=request.user, up_to=up_to)
    return _answer(request, game_id)


@require_POST
@login_required
@game_errors
def mute(request: HttpRequest, game_id) -> HttpResponse:
    """``muted=1`` mutes the game's chat for the user, ``muted=0`` unmutes it."""
    game, _ = get_game_for_user_or_404(game_id, request.user)
    services.chat_mute(game_id=game.pk, user=request.user, muted=request.POST.get("muted") == "1")
    return _answer(request, game_id)
