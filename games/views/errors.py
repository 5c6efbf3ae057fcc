"""One place that turns refused requests into responses.

A rules engine's ``RulesError`` (illegal, malformed, out of turn, game over, a refused
queue) and ``games.errors.ServiceError`` (stale version, not seated, lobby refusals) are
shown by their ``message``, the one sentence a player reads (``games.rules.player_message``;
an engine error's developer text naming the action, seat, round and phase never is). They
become:

- for an htmx request: status 200 with the ``#flash`` region swapped out of band (htmx 2
  does not swap 4xx responses); a stale version also refreshes every region so the
  player sees the current position beside the message;
- for a plain form post: a message and a redirect back to the game (post/redirect/get).

A game that cannot be loaded (``GameDamaged``, already reported to the operators by
``games.rules.load_game``) is not a refusal: htmx requests get its sentence in ``#flash``
(status 200, as above), any other request the repair page (``damaged_page``, status 503).
"""
from __future__ import annotations

from functools import wraps
from typing import Callable

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import NoReverseMatch, reverse

from games import rules
from games.access import get_game_for_user_or_404
from games.errors import GameDamaged, QueueChanged, ServiceError, StaleVersion
from games.views.regions import render_flash, render_regions


def _back_to_game(request: HttpRequest, game_id) -> HttpResponse:
    """Redirect to the game page, or back to the invite page when a token came with the post."""
    token = request.POST.get("token")
    if token:
        try:
            return redirect(reverse("games-invite", kwargs={"game_id": game_id, "token": token}))
        except NoReverseMatch:  # a forged token that cannot even be part of a URL
            pass
    return redirect(reverse("games-detail", kwargs={"game_id": game_id}))


def damaged_page(request: HttpRequest, damage: GameDamaged) -> HttpResponse:
    """The "this game needs repair" page in the site's layout, status 503.

    503 (Service Unavailable), not 500: nothing crashed and the request was fine, the game
    is out of service until an operator repairs it. The response is marked as logged, so
    Django's ``django.request`` logger does not log (and mail) an ERROR for every view of
    the page: ``report_damaged`` has reported the game once already.
    """
    response = render(request, "games/game_damaged.html",
                      {"game_name": damage.game_name, "message": damage.message}, status=503)
    response._has_been_logged = True  # read by django.utils.log.log_response
    return response


def damaged_response(request: HttpRequest, damage: GameDamaged) -> HttpResponse:
    """The answer to any request about a damaged game: its sentence in ``#flash`` for htmx
    (status 200, so htmx 2 swaps it), else ``damaged_page``."""
    if request.htmx:
        return render_flash(request, damage.message)
    return damaged_page(request, damage)


def game_errors(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """Decorate a view taking ``game_id`` so refused requests are reported, not raised."""

    @wraps(view)
    def wrapper(request: HttpRequest, game_id, *args, **kwargs) -> HttpResponse:
        try:
            return view(request, game_id, *args, **kwargs)
        except GameDamaged as damage:
            return damaged_response(request, damage)
        except (ServiceError, *rules.rules_errors()) as exc:
            message = rules.player_message(exc)
            if not request.htmx:
                messages.error(request, message)
                return _back_to_game(request, game_id)
            if isinstance(exc, (StaleVersion, QueueChanged)):
                game, seat = get_game_for_user_or_404(game_id, request.user)
                return render_regions(request, game, seat, flash=message, send_all=True)
            return render_flash(request, message)

    return wrapper
