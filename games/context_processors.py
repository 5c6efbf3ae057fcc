"""Template context for every page: the navigation's "waiting for you" count."""
from __future__ import annotations

from django.utils.functional import SimpleLazyObject

from games import selectors


def waiting_count(request) -> dict:
    """``nav_waiting``: how many games, invitations and rematches wait for the signed-in
    user (``selectors.waiting_count``); 0 for visitors. Lazy: counted only by a template
    that shows it (the page layout), not by each HTMX region rendered with the request. A
    view that read it already (with its game: ``selectors.game_with_seat``) sets
    ``request.nav_waiting``."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {"nav_waiting": 0}
    if getattr(request, "nav_waiting", None) is not None:
        return {"nav_waiting": request.nav_waiting}
    return {"nav_waiting": SimpleLazyObject(lambda: selectors.waiting_count(user))}
