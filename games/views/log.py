"""The game log's older rounds, one at a time: the page shows the current and previous
rounds (``presenters.page``); "Show round N" asks for the rest here."""
from __future__ import annotations

import hashlib

from django.core.cache import caches
from django.http import Http404, HttpRequest, HttpResponse
from django.utils import translation
from django.views.decorators.http import require_GET

from games import selectors, templating
from games.access import get_game_for_user_or_404
from games.models import Seat

#: How long a finished round's fragment stays cached (it never changes once the round is over).
ROUND_CACHE_SECONDS = 7 * 24 * 3600


def round_fragment_key(game_id, number: int, names: dict[int, str]) -> str:
    """The cache key of round ``number``'s fragment: game, round, the active language and
    the players' names (the lines name them). Only public events are in it."""
    who = hashlib.sha1(repr(sorted(names.items())).encode()).hexdigest()[:10]
    return f"log-round:{game_id}:{number}:{translation.get_language()}:{who}"


@require_GET
def log_round(request: HttpRequest, game_id, round: int) -> HttpResponse:
    """Round ``round`` of the game's log (its public events, as the page's log region shows
    them), followed by the link to the round before it; 404 for a round the log does not
    have yet. A round that is over is cached for every viewer (its lines never change: a
    take-back stays within the round its player is in)."""
    game, _seat = get_game_for_user_or_404(game_id, request.user, state=False)  # the moves only
    names = {s.order: s.display_name for s in Seat.objects.filter(game=game).select_related("user")}
    newest = game.moves.order_by("-seq").values_list("round", flat=True).first() or 0
    if not 1 <= round <= newest:
        raise Http404("No such round in this game's log.")
    key = round_fragment_key(game.pk, round, names)
    html = caches["regions"].get(key) if round < newest else None
    if html is None:
        entries = selectors.round_log(game, round, names)
        html = templating.render_values("games/partials/_log_round.html", {"round": entries}) if entries else ""
        html += templating.render_values("games/partials/_log_older.html", {"older": round - 1, "game_id": game.pk})
        if round < newest:
            caches["regions"].set(key, html, ROUND_CACHE_SECONDS)
    return HttpResponse(html)
