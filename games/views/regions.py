"""Rendering of the game page's regions, shared by the full page and the HTMX fragments.

Every region is a partial under ``templates/games/partials/`` whose root element has a
stable id; fragment responses send them back as ``hx-swap-oob`` swaps.
"""
from __future__ import annotations

import hashlib
import json
import re

from django.conf import settings
from django.core.exceptions import ObjectDoesNotExist
from django.utils import timezone
from django.http import HttpRequest, HttpResponse
from django.template.loader import render_to_string
from django.utils.safestring import mark_safe

from games import board, clock, selectors
from games.access import make_invite_token
from games.decisions import KIND_PROMPTS, decision_context
from games.models import Game, Seat
from games.services import ACTION_QUEUE_LIMIT, INDEPENDENT_ACTION_TYPES, queue_entry_label


def is_orleans_view(view: dict) -> bool:
    """True for an Orléans ``engine.view`` (site tests may swap in a tiny fake engine)."""
    return all(key in view for key in ("players", "routes", "stations", "deeds", "place_tiles"))


def board_context(view: dict, names: dict[int, str]) -> dict:
    """Display-ready board regions, all derived from the viewer's ``engine.view``."""
    boards = board.player_boards(view, names)
    viewer = view.get("seat")
    awaited = [{"seat": s, "name": names.get(s, f"Seat {s + 1}"), "colour": board.seat_colour(s),
                "kind": view["players"][s].get("awaiting"),
                "prompt": KIND_PROMPTS.get(view["players"][s].get("awaiting"), "")}
               for s in view.get("awaiting", [])]
    return {
        "map": board.map_context(view),
        "tracks": board.tracks_context(view),
        "development": board.development_context(view),
        "deeds": board.deeds_context(view),
        "event": board.event_context(view),
        "place_tiles": board.place_tiles_context(view),
        "supply": board.supply_context(view),
        "boards": boards,
        "mine": next((b for b in boards if b["is_viewer"]), None),
        "awaited": awaited,
        "my_turn": viewer is not None and viewer in view.get("awaiting", []),
        "names": names,
    }


def _on_vacation(seat: Seat) -> bool:
    try:
        return seat.user.notification_preferences.vacation_since is not None
    except ObjectDoesNotExist:  # no preferences saved yet
        return False


def seat_clocks(game: Game, seats: list[Seat], viewer: Seat | None) -> dict:
    """Per seat: ``clock_left`` (remaining bank as text, or None without a clock),
    ``on_vacation``; and whether the viewer may vote to end the game (a seat is absent)."""
    now = timezone.now()
    for s in seats:
        s.clock_left = (clock.format_duration(clock.remaining(s, now))
                        if clock.has_clock(game) and game.is_active else None)
        s.on_vacation = _on_vacation(s)
    present = [s for s in seats if not s.absent]
    absent = game.is_active and len(present) < len(seats)
    return {
        "pace": clock.pace_of(game),
        "end_vote": {"agree": sum(s.votes_to_end for s in present), "of": len(present)}
        if absent else None,
        "can_vote_end": absent and viewer is not None and not viewer.absent,
    }


def stale_since(moves: list, seat: Seat | None) -> int:
    """The last move after which a page's forms would be refused as stale for ``seat``: a
    resolution, a move of its own, or any move that is not an independent simultaneous step
    (``services.INDEPENDENT_ACTION_TYPES``). Part of the decision region, so the region (and
    its ``expected_version``) is sent again exactly when older forms would be refused."""
    order = seat.order if seat is not None else None
    for move in reversed(moves):
        if move.seat is None or move.seat == order or move.action.get("type") not in INDEPENDENT_ACTION_TYPES:
            return move.seq
    return 0


def queue_context(view: dict, seat: Seat | None) -> dict | None:
    """The viewer's action queue panel: entries (labels), what can be added (the places the
    plan fills, then passing) and why the queue last stopped; None when the viewer has no
    seat or the round is past its action phase."""
    if seat is None or view.get("phase") not in ("planning", "actions"):
        return None
    me = view["players"][seat.order]
    if me.get("passed"):
        return None
    entries = list(seat.action_queue) if seat.action_queue_round == view.get("round") else []
    queued = {e.get("space") for e in entries}
    ends_with_pass = bool(entries) and entries[-1].get("type") == "pass"
    candidates = [{"type": "activate", "space": p} for p in me["ready_places"] or [] if p not in queued]
    candidates.append({"type": "pass"})
    return {
        "entries": [{"label": queue_entry_label(e), "value": json.dumps(e)} for e in entries],
        "candidates": [(json.dumps(c), queue_entry_label(c)) for c in candidates],
        "full": len(entries) >= ACTION_QUEUE_LIMIT or ends_with_pass,
        "note": seat.action_queue_note if seat.action_queue_round == view.get("round") else "",
    }


def game_context(game: Game, seat: Seat | None, *, flash: str | None = None) -> dict:
    """Template context for a game page: everything derives from the engine's view."""
    seats = list(game.seats.select_related("user", "user__notification_preferences")
                 .order_by("order"))
    context: dict = {
        "game": game,
        "seat": seat,
        "seats": seats,
        "flash": flash,
        "poll_seconds": settings.GAMES_POLL_SECONDS,
    }
    if game.is_open:
        context["free_seats"] = game.max_seats - len(seats)
        context["invite_token"] = make_invite_token(game) if seat is not None else None
        return context
    if game.state is None:  # cancelled before start
        return context
    state = selectors.game_state(game)
    context["view"] = selectors.game_view_for_seat(state, seat)
    context["actions"] = selectors.legal_actions_for_seat(state, seat)
    context["awaited_seats"] = [s for s in seats if s.awaiting]
    context.update(seat_clocks(game, seats, seat))
    names = {s.order: s.user.username for s in seats}
    context["board"] = board_context(context["view"], names) if is_orleans_view(context["view"]) else None
    context["decision"] = decision_context(context["view"], context["actions"])
    context["queue"] = queue_context(context["view"], seat) if context["board"] else None
    moves = list(selectors.game_moves(game))
    context["log"] = selectors.move_log(moves, names)
    context["decision_since"] = stale_since(moves, seat)
    context["start_player"] = context["view"].get("start_player")
    if game.is_finished:
        context["result"] = selectors.finished_game_result(game, seat.user if seat else None)
    return context


#: The regions of a started game's page, in page order: ``(name, board only, always sent)``.
#: The flash and the poll element carry the message and the version: every answer sends them.
REGIONS = (
    ("flash", False, True), ("status", False, False), ("decision", False, False), ("queue", True, False),
    ("map", True, False), ("my_board", True, False), ("event", True, False),
    ("boards", True, False), ("tracks", True, False), ("development", True, False),
    ("deeds", True, False), ("place_tiles", True, False), ("supply", True, False),
    ("players", False, False), ("log", False, False), ("poll", False, True),
)
_ROOT_TAG = re.compile(r"^\s*<[a-zA-Z][\w-]*")
_ROOT_ID = re.compile(r'^\s*<[^>]*\bid="([^"]+)"')
# Left out of a region's fingerprint: the out-of-band marker, the per-render CSRF mask, and
# the version the forms were rendered at (an older one is still accepted when only other seats' independent moves came
# in between, games.services._only_others_moved_independently).
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
    is not replaced for nothing; ``send_all`` (or no report) sends every region.
    """
    context = game_context(game, seat, flash=flash) | {"oob": True}
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
