"""The game page's context: the page selector and the presenters it combines.

Everything shown derives from the viewer's ``engine.view``; ``game_context`` is what the
full page and every HTMX fragment render (``games.views.regions``).
"""
from __future__ import annotations

from django.conf import settings
from django.core.exceptions import ObjectDoesNotExist
from django.utils import timezone

from games import clock, selectors
from games.access import make_invite_token
from games.models import Game, Seat
from games.presenters import board
from games.presenters.decisions import KIND_PROMPTS, decision_context
from games.presenters.queue import queue_context
from games.rules import engine_for
from games.services.play import INDEPENDENT_ACTION_TYPES
from games.services.queue import ACTION_QUEUE_LIMIT


def board_context(rules, view: dict, names: dict[int, str]) -> dict:
    """Display-ready board regions, all derived from the viewer's ``view`` by the game's
    engine ``rules`` (``games.rules.engine_for``)."""
    boards = board.player_boards(rules, view, names)
    viewer = view.get("seat")
    awaited = [{"seat": s, "name": names.get(s, f"Seat {s + 1}"), "colour": board.seat_colour(s),
                "kind": view["players"][s].get("awaiting"),
                "prompt": KIND_PROMPTS.get(view["players"][s].get("awaiting"), "")}
               for s in view.get("awaiting", [])]
    return {
        "map": board.map_context(rules, view),
        "tracks": board.tracks_context(rules, view),
        "development": board.development_context(rules, view),
        "deeds": board.deeds_context(rules, view),
        "event": board.event_context(rules, view),
        "place_tiles": board.place_tiles_context(rules, view),
        "supply": board.supply_context(rules, view),
        "boards": boards,
        "mine": next((b for b in boards if b["is_viewer"]), None),
        "awaited": awaited,
        "my_turn": viewer is not None and viewer in view.get("awaiting", []),
        "names": names,
    }


def _on_vacation(seat: Seat) -> bool:
    try:
        return seat.user.player_clock.vacation_since is not None
    except ObjectDoesNotExist:  # never been on vacation
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


#: Rules name (``Game.rules``) -> the presenter of its board regions. Rules without one
#: show the page without the board (status, decisions, players, log).
BOARDS = {"orleans": board_context}


def game_context(game: Game, seat: Seat | None, *, flash: str | None = None) -> dict:
    """Template context for a game page: everything derives from the engine's view."""
    seats = list(game.seats.select_related("user", "user__player_clock")
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
    context["view"] = selectors.game_view_for_seat(game, state, seat)
    context["actions"] = selectors.legal_actions_for_seat(game, state, seat)
    context["awaited_seats"] = [s for s in seats if s.awaiting]
    context.update(seat_clocks(game, seats, seat))
    names = {s.order: s.user.username for s in seats}
    rules_engine = engine_for(game)
    board_for = BOARDS.get(game.rules)
    context["board"] = board_for(rules_engine, context["view"], names) if board_for else None
    context["decision"] = decision_context(rules_engine, context["view"], context["actions"])
    context["queue"] = (queue_context(rules_engine, context["view"], seat, limit=ACTION_QUEUE_LIMIT)
                        if context["board"] else None)
    moves = list(selectors.game_moves(game))
    context["log"] = selectors.move_log(moves, names)
    context["decision_since"] = stale_since(moves, seat)
    context["start_player"] = context["view"].get("start_player")
    if game.is_finished:
        context["result"] = selectors.finished_game_result(game, seat.user if seat else None)
    return context
