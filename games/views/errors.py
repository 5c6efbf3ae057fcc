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
"""
from __future__ import annotations

from functools import wraps
from typing import Callable

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import NoReverseMatch, reverse

from games import rules
from games.access import get_game_for_user_or_404
from games.errors import QueueChanged, ServiceError, StaleVersion
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


def game_errors(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """Decorate a view taking ``game_id`` so refused requests are reported, not raised."""

    @wraps(view)
    def wrapper(request: HttpRequest, game_id, *args, **kwargs) -> HttpResponse:
        try:
            return view(request, game_id, *args, **kwargs)
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
