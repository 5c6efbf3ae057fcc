"""Bare baseline views of the page benchmark: what a page costs in plain Django.

Served only by the harness's urlconf (``notifications.bench.urls``), never by the site.
Each goes through the site's whole middleware stack, like the pages it is compared with.
"""
from __future__ import annotations

from django.db import transaction
from django.db.models import F
from django.http import HttpRequest, HttpResponse
from django.template import engines

from games.models import Game

_TEMPLATE = None


def _small_template():
    """A small template (a title, three values, a paragraph), compiled once as the cached
    loader would."""
    global _TEMPLATE
    if _TEMPLATE is None:
        _TEMPLATE = engines["django"].from_string(
            "<!doctype html><html><head><title>{{ name }}</title></head><body>"
            "<h1>{{ name }}</h1><p>Version {{ version }}, {{ status }}.</p></body></html>")
    return _TEMPLATE


def bare_page(request: HttpRequest, game_id) -> HttpResponse:
    """Read one row (the game's name, version and status) and render a small template."""
    row = Game.objects.values("name", "version", "status").get(pk=game_id)
    return HttpResponse(_small_template().render(row))


def lean_poll(request: HttpRequest, game_id) -> HttpResponse:
    """``?v=<version>``: the session's user, the game's version column, then 204 (unchanged)
    or 200 (changed; nothing rendered)."""
    if not request.user.is_authenticated:
        return HttpResponse(status=403)
    version = Game.objects.filter(pk=game_id).values_list("version", flat=True).first()
    return HttpResponse(status=204 if str(version) == request.GET.get("v") else 200)


def bare_submit(request: HttpRequest, game_id) -> HttpResponse:
    """POST: lock the game's row, one UPDATE (its version + 1), render a small template."""
    with transaction.atomic():
        row = Game.objects.select_for_update().values("name", "version", "status").get(pk=game_id)
        Game.objects.filter(pk=game_id).update(version=F("version") + 1)
    return HttpResponse(_small_template().render({**row, "version": row["version"] + 1}))
