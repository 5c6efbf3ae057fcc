"""A game's history: the replay viewer and the export download.

Both read only: the replay page is built by ``games.presenters.replay`` from the engine's
view at the chosen step; the download is ``games.history``'s document. A damaged game gets
the repair page (``damaged_page``, 503), a refused export its sentence (``game_errors``).
"""
from __future__ import annotations

import json
import re

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.http import require_GET

from games.access import get_game_for_user_or_404
from games.errors import GameDamaged
from games.history import finished_export, seat_export
from games.presenters.replay import replay_context, step_param
from games.views.errors import damaged_page, game_errors


@require_GET
def game_replay(request: HttpRequest, game_id) -> HttpResponse:
    """``?step=N`` of a started game's replay (the last step without one); ``?round=R``
    redirects to the first step of round R."""
    game, seat = get_game_for_user_or_404(game_id, request.user)
    if game.state is None:
        raise Http404(gettext("This game has not started."))
    try:
        context = replay_context(game, seat, step_param(request.GET.get("step")))
    except GameDamaged as damage:
        return damaged_page(request, damage)
    except LookupError:
        raise Http404(gettext("This game has no board to replay.")) from None
    wanted = step_param(request.GET.get("round"))
    if wanted is not None:
        target = next((r["step"] for r in context["nav"]["rounds"] if r["round"] == wanted), context["step"])
        return redirect(f"{reverse('games-replay', kwargs={'game_id': game.pk})}?step={target}")
    return render(request, "games/replay.html", context)


@require_GET
@game_errors
def game_download(request: HttpRequest, game_id) -> HttpResponse:
    """The game as a JSON document (``docs/export-format.md``), as an attachment: a finished
    game whole, a game in progress as the requesting player's seat sees it."""
    game, seat = get_game_for_user_or_404(game_id, request.user)
    document = finished_export(game) if game.is_finished else seat_export(game, seat)
    slug = re.sub(r"[^a-z0-9]+", "-", game.name.lower()).strip("-")[:40] or "game"
    response = HttpResponse(json.dumps(document, indent=1, sort_keys=True, ensure_ascii=False),
                            content_type="application/json; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="orleans-{slug}-{str(game.pk)[:8]}.json"'
    return response
