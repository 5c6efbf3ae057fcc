"""Rendering of the game page's regions, shared by the full page and the HTMX fragments.

The context comes from ``games.presenters.page.game_context``; this module only renders
it region by region and fingerprints the result. Every region is a partial under
``templates/games/partials/`` whose root element has a stable id; fragment responses send
them back as ``hx-swap-oob`` swaps.
"""
from __future__ import annotations

import hashlib
import re

from django.http import HttpRequest, HttpResponse
from django.template.loader import render_to_string
from django.utils.safestring import mark_safe

from games.models import Game, Seat
from games.presenters.page import game_context

#: The regions of a started game's page, in page order: ``(name, board only, always sent)``.
#: The flash and the poll element carry the message and the version: every answer sends them.
REGIONS = (
    ("flash", False, True), ("status", False, False), ("decision", False, False), ("queue", True, False),
    ("map", True, False), ("my_board", True, False), ("event", True, False),
    ("boards", True, False), ("tracks", True, False), ("development", True, False),
    ("deeds", True, False), ("place_tiles", True, False), ("supply", True, False),
    ("players", False, False), ("log", False, False), ("chat", False, False), ("poll", False, True),
)
_ROOT_TAG = re.compile(r"^\s*<[a-zA-Z][\w-]*")
_ROOT_ID = re.compile(r'^\s*<[^>]*\bid="([^"]+)"')
# Left out of a region's fingerprint: the out-of-band marker, the per-render CSRF mask, and
# the version the forms were rendered at (an older one is still accepted when only other seats' independent moves came
# in between, games.services.play._only_others_moved_independently).
_NOT_CONTENT = re.compile(
    r' hx-swap-oob="true"|(?<=name="expected_version" value=")\d+'
    r'|(?<=name="csrfmiddlewaretoken" value=")[^"]+'
)


def _render_region(name: str, context: dict, request: HttpRequest) -> tuple[str | None, str, str]:
    """``(root id, fingerprint, html)`` of one region; the root carries ``data-region-hash``."""
    html = render_to_string(f"games/partials/_{name}.html", context, request=request)
    found = _ROOT_ID.match(html)
    digest = hashlib.sha1(_NOT_CONTENT.sub("", html).encode()).hexdigest()[:12]
    html = _ROOT_TAG.sub(lambda m: f'{m.group(0)} data-region-hash="{digest}"', html, count=1)
    return (found.group(1) if found else None), digest, html


def render_region_map(request: HttpRequest, context: dict) -> dict[str, str]:
    """Every region of the page rendered for ``context`` (name -> safe HTML), for the page."""
    board = context.get("board")
    return {name: mark_safe(_render_region(name, context, request)[2])
            for name, board_only, _always in REGIONS if board or not board_only}


def plan_draft(request: HttpRequest) -> str | None:
    """The page's draft plan (``plan_draft``, GET or POST; sent by ``static/js/board.js``
    with every request of the game page while its player plans), or None."""
    return request.POST.get("plan_draft") or request.GET.get("plan_draft")


def client_region_hashes(request: HttpRequest) -> dict[str, str]:
    """The fingerprints the client says it shows: ``regions=id:hash,id:hash`` (GET or POST)."""
    raw = request.POST.get("regions") or request.GET.get("regions") or ""
    pairs = (item.split(":", 1) for item in raw.split(",")[: len(REGIONS)] if ":" in item)
    return {region_id: digest for region_id, digest in pairs}


def render_regions(
    request: HttpRequest, game: Game, seat: Seat | None, *, flash: str | None = None,
    status: int = 200, send_all: bool = False,
) -> HttpResponse:
    """The regions of a started game that changed, as out-of-band swaps.

    A region whose fingerprint equals the one the client reports (``regions`` parameter,
    sent by ``static/js/regions.js``) is left out, so a half-filled form or a scrolled log
    is not replaced for nothing; ``send_all`` (or no report) sends every region. The
    regions show the viewer's draft plan if the request carries one (``plan_draft``).
    """
    context = game_context(game, seat, flash=flash, plan_draft=plan_draft(request),
                           user=request.user) | {"oob": True}
    known = {} if send_all else client_region_hashes(request)
    board = context.get("board")
    parts = []
    for name, board_only, always in REGIONS:
        if board_only and not board:
            continue
        region_id, digest, html = _render_region(name, context, request)
        if always or region_id is None or known.get(region_id) != digest:
            parts.append(html)
    return HttpResponse("".join(parts), status=status)


def render_flash(request: HttpRequest, message: str) -> HttpResponse:
    """Only the flash region, as an out-of-band swap, with status 200 so htmx 2 swaps it."""
    html = render_to_string(
        "games/partials/_flash.html", {"flash": message, "oob": True}, request=request
    )
    return HttpResponse(html)
