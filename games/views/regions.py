"""Rendering of the game page's regions, shared by the full page and the HTMX fragments.

The context comes from ``games.presenters.page.game_context``; this module renders it
region by region. Every region is a partial under ``templates/games/partials/`` whose root
element has a stable id; fragment responses send them back as ``hx-swap-oob`` swaps.

A region's fingerprint (``data-region-hash`` on its root) is a hash of the data it reads
(``Region.reads``: its slice of the engine view and of the page context), the language and
the time zone, never of its HTML: a region whose fingerprint equals the one the page
reports is neither rendered nor sent. Regions built only from public information
(``scope="public"``: the map, tracks, development, deeds, event, place tiles, supply and
log) are cached per game version for every viewer; a region showing a seat's own hidden
information (``scope="seat"``: the player boards, with the viewer's own market and bag) is
cached under that seat's key only; the others (forms with CSRF tokens, clocks, chat) are
never cached.
"""
from __future__ import annotations

import datetime as dt
import functools
import hashlib
import json
import re
import uuid
from dataclasses import dataclass, fields, is_dataclass
from typing import Any, Callable

from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from django.template.loader import get_template, render_to_string
from django.utils import timezone, translation
from django.utils.functional import Promise
from django.utils.safestring import mark_safe

from games.models import Game, Seat
from games.presenters.page import game_context

#: How long a cached region stays (one game version: a slow game's page may be opened
#: again hours later at the same version).
REGION_CACHE_SECONDS = 24 * 3600


def _board(context: dict, key: str):
    board = context.get("board")
    return board[key] if board else None


def _game_forms(context: dict) -> tuple:
    # what forms read of the game: not the version (an older expected_version is still
    # accepted when only other seats' independent moves came in between; ``decision_since``
    # changes exactly when it is not, games.presenters.page.stale_since)
    game = context["game"]
    return game.pk, game.is_active


def _seat_pk(context: dict):
    return context["seat"].pk if context.get("seat") else None


@dataclass(frozen=True)
class Region:
    """One region of a started game's page.

    ``name``: its partial ``games/partials/_<name>.html``; ``root_id``: the id of its root
    element; ``board_only``: shown only with a board; ``always``: sent with every answer
    (the flash and the poll element carry the message and the version); ``reads``:
    context -> the data the partial reads (JSON-able: dicts, lists, dataclasses, dates);
    ``scope``: ``"public"`` (cached for every viewer), ``"seat"`` (cached per seat) or
    ``"viewer"`` (never cached).
    """

    name: str
    root_id: str
    board_only: bool
    always: bool
    reads: Callable[[dict], Any]
    scope: str = "viewer"


#: The regions of a started game's page, in page order.
REGIONS = (
    Region("flash", "flash", False, True, lambda c: c.get("flash")),
    Region("status", "game-status", False, False, lambda c: (
        c["game"], _board(c, "my_turn"), _board(c, "event"), _board(c, "awaited"), (c.get("view") or {}).get("phase"),
        (c.get("decision") or {}).get("prompt"), c["awaited_seats"], _seat_pk(c), c.get("result"), c.get("rematch"))),
    Region("decision", "game-actions", False, False, lambda c: (
        _game_forms(c), c.get("decision"), c["decision_since"], c["can_take_back"], bool(c.get("plan")),
        bool(c.get("act")), _seat_pk(c), _board(c, "awaited"))),
    Region("queue", "game-queue", True, False, lambda c: (c["game"].pk, c.get("queue"))),
    Region("map", "game-map", True, False, lambda c: (_board(c, "map"), _board(c, "names")), "public"),
    Region("my_board", "game-mine", True, False, lambda c: (
        _game_forms(c), _board(c, "mine"), c.get("plan"), c.get("act"), c["decision_since"])),
    Region("event", "game-event", True, False, lambda c: _board(c, "event"), "public"),
    Region("boards", "game-boards", True, False, lambda c: (
        _board(c, "boards"), bool(c.get("plan")), bool(c.get("act"))), "seat"),
    Region("tracks", "game-tracks", True, False, lambda c: (_board(c, "tracks"), _board(c, "names")), "public"),
    Region("development", "game-development", True, False, lambda c: _board(c, "development"), "public"),
    Region("deeds", "game-deeds", True, False, lambda c: (_board(c, "deeds"), _board(c, "names")), "public"),
    Region("place_tiles", "game-place-tiles", True, False, lambda c: _board(c, "place_tiles"), "public"),
    Region("supply", "game-supply", True, False, lambda c: _board(c, "supply"), "public"),
    Region("players", "game-players", False, False, lambda c: (
        c["seats"], c["seat"], c.get("start_player"), _game_forms(c), c["game"].is_public, c["game"].creator_id,
        c.get("pace"), c.get("end_vote"),
        c.get("can_vote_end"), c.get("watching"))),
    Region("log", "game-log", False, False, lambda c: (c["game"].pk, c.get("log"), c.get("log_older")), "public"),
    Region("chat", "game-chat", False, False, lambda c: (c["game"].pk, c.get("chat"))),
    Region("poll", "game-poll", False, True, lambda c: (
        c["game"].pk, c["game"].is_active, c["game"].version, getattr(c.get("chat"), "last_id", 0),
        c.get("poll_seconds"))),
)
_ROOT_TAG = re.compile(r"^\s*<[a-zA-Z][\w-]*")
_ROOT_ID_ATTR = re.compile(r'\bid="[^"]+"')


def _plain(obj):
    """``json.dumps``'s ``default`` for region data; anything else is refused (TypeError)."""
    if is_dataclass(obj) and not isinstance(obj, type):
        return [getattr(obj, f.name) for f in fields(obj)]
    if isinstance(obj, Promise):  # a lazy translation: its text in the active language
        return str(obj)
    if isinstance(obj, (dt.datetime, dt.date)):
        return obj.isoformat()
    if isinstance(obj, uuid.UUID):
        return str(obj)
    if isinstance(obj, (set, frozenset)):
        return sorted(obj, key=repr)
    raise TypeError(f"region data of type {type(obj).__name__} cannot be fingerprinted")


@functools.cache
def _templates_revision() -> str:
    """A hash of the region partials' sources: a deploy that changes one never serves a
    region cached by the old one."""
    sources = "".join(get_template(f"games/partials/_{r.name}.html").template.source for r in REGIONS)
    return hashlib.sha1(sources.encode()).hexdigest()[:8]


def _locale() -> str:
    """What a region's text depends on besides its data: the active language and time zone."""
    return f"{translation.get_language()}|{timezone.get_current_timezone_name()}"


def data_fingerprint(region: Region, context: dict) -> str | None:
    """The fingerprint of ``region`` for ``context``: a hash of the data it reads, the
    language and the time zone; None if that data is not JSON-able (the caller then hashes
    the rendered HTML)."""
    try:
        data = json.dumps(region.reads(context), default=_plain, separators=(",", ":"), ensure_ascii=False)
    except (TypeError, ValueError):
        return None
    return hashlib.sha1(f"{region.name}|{_locale()}|{data}".encode()).hexdigest()[:12]


def region_cache_key(region: Region, context: dict) -> str | None:
    """The shared cache key of ``region`` on this page, or None when it must not be cached:
    a viewer-scoped region, or a seat-scoped one while the viewer's draft plan is shown.

    Public regions: one key per game version, language, time zone and the players' names
    (for every viewer). Seat regions: the same with the viewer's seat (``spectator`` for
    everyone without one), so a region carrying a seat's hidden information is only ever
    served to that seat."""
    game = context["game"]
    if region.scope == "public":
        who = "all"
    elif region.scope == "seat" and not (context.get("plan") or {}).get("draft"):
        who = f"seat{context['seat'].order}" if context.get("seat") else "spectator"
    else:
        return None
    names = hashlib.sha1(repr(sorted((_board(context, "names") or {}).items())).encode()).hexdigest()[:8]
    return f"region:{_templates_revision()}:{game.pk}:{game.version}:{_locale()}:{names}:{region.name}:{who}"


def _with_attributes(html: str, digest: str, oob: bool) -> str:
    html = _ROOT_TAG.sub(lambda m: f'{m.group(0)} data-region-hash="{digest}"', html, count=1)
    if oob:
        html = _ROOT_ID_ATTR.sub(lambda m: f'{m.group(0)} hx-swap-oob="true"', html, count=1)
    return html


def _regions_html(request: HttpRequest, context: dict, known: dict[str, str], *, oob: bool) -> list[tuple[str, str]]:
    """``(name, html)`` of every region of the page the client does not show already
    (``known``: root id -> fingerprint; the always-sent regions are always in), with
    ``data-region-hash`` (and ``hx-swap-oob`` if ``oob``) on each root."""
    board = context.get("board")
    shown = [r for r in REGIONS if board or not r.board_only]
    keys = {r.name: region_cache_key(r, context) for r in shown}
    cached = cache.get_many([k for k in keys.values() if k])
    render_context = context | {"oob": False}
    # nothing is cached from a page showing the viewer's draft plan (public regions are
    # read: the draft changes only the viewer's own regions)
    drafting = bool((context.get("plan") or {}).get("draft"))
    parts, fresh = [], {}
    for region in shown:
        key = keys[region.name]
        if key in cached:
            digest, html = cached[key]
        else:
            digest, html = data_fingerprint(region, context), None
        if not region.always and known.get(region.root_id) == digest and digest is not None:
            continue  # the page shows it already: neither rendered nor sent
        if html is None:
            html = render_to_string(f"games/partials/_{region.name}.html", render_context, request=request)
            if digest is None:
                digest = hashlib.sha1(html.encode()).hexdigest()[:12]
                if not region.always and known.get(region.root_id) == digest:
                    continue
            if key and not drafting and "csrfmiddlewaretoken" not in html:
                fresh[key] = (digest, html)
        parts.append((region.name, _with_attributes(html, digest, oob)))
    if fresh:
        cache.set_many(fresh, REGION_CACHE_SECONDS)
    return parts


def render_region_map(request: HttpRequest, context: dict) -> dict[str, str]:
    """Every region of the page rendered for ``context`` (name -> safe HTML), for the page."""
    return {name: mark_safe(html) for name, html in _regions_html(request, context, {}, oob=False)}


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
    sent by ``static/js/regions.js``) is neither rendered nor sent, so a half-filled form
    or a scrolled log is not replaced for nothing; ``send_all`` (or no report) sends every
    region. The regions show the viewer's draft plan if the request carries one
    (``plan_draft``).
    """
    context = game_context(game, seat, flash=flash, plan_draft=plan_draft(request), user=request.user)
    known = {} if send_all else client_region_hashes(request)
    parts = _regions_html(request, context, known, oob=True)
    return HttpResponse("".join(html for _name, html in parts), status=status)


def render_flash(request: HttpRequest, message: str) -> HttpResponse:
    """Only the flash region, as an out-of-band swap, with status 200 so htmx 2 swaps it."""
    html = render_to_string(
        "games/partials/_flash.html", {"flash": message, "oob": True}, request=request
    )
    return HttpResponse(html)
