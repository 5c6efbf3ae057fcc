"""Rendering of the game page's regions, shared by the full page and the HTMX fragments.

Every region is a partial under ``templates/games/partials/`` whose root element has a
stable id; fragment responses send them back as ``hx-swap-oob`` swaps.
"""
from __future__ import annotations

from django.conf import settings
from django.core.exceptions import ObjectDoesNotExist
from django.utils import timezone
from django.http import HttpRequest, HttpResponse
from django.template.loader import render_to_string

from games import board, clock, selectors
from games.access import make_invite_token
from games.decisions import KIND_PROMPTS, decision_context
from games.models import Game, Seat


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
    context["log"] = selectors.move_log(list(selectors.game_moves(game)), names)
    context["start_player"] = context["view"].get("start_player")
    if game.is_finished:
        context["result"] = selectors.finished_game_result(game, seat.user if seat else None)
    return context


def render_regions(
    request: HttpRequest, game: Game, seat: Seat | None, *, flash: str | None = None,
    status: int = 200,
) -> HttpResponse:
    """Every region of a started game as out-of-band swaps."""
    context = game_context(game, seat, flash=flash) | {"oob": True}
    html = render_to_string("games/partials/_regions.html", context, request=request)
    return HttpResponse(html, status=status)


def render_flash(request: HttpRequest, message: str) -> HttpResponse:
    """Only the flash region, as an out-of-band swap, with status 200 so htmx 2 swaps it."""
    html = render_to_string(
        "games/partials/_flash.html", {"flash": message, "oob": True}, request=request
    )
    return HttpResponse(html)
