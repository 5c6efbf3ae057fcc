"""HTMX endpoints of the game page: submit a decision, poll for changes, refresh seats."""
from __future__ import annotations

import contextlib
import functools
import json
from collections.abc import Callable

from django.contrib.auth.decorators import login_required
from django.db import connection
from django.db.models import F
from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest
from django.shortcuts import redirect
from django.template.loader import render_to_string
from django.utils.translation import gettext
from django.views.decorators.http import require_GET, require_POST
from django_htmx.http import HttpResponseClientRefresh, HttpResponseStopPolling

from games.access import get_game_for_user_or_404, require_seat
from games.forms import ActionForm, VersionForm
from games.models import Game, Move, Seat
from games.rules import check_loadable
from games.errors import GameDamaged, InvalidSubmission, NotSeated
from games.presenters.page import game_context
from games.selectors import chat_last_id, chat_poll_id, chat_read_channels, forget_page_reads, game_for_poll
from games.services import game_submit_action, game_take_back, seat_queue_change
from games.spectators import note_spectator
from games.tasks import bot_turn_pending, continue_bot_turn
from games.views.errors import game_errors
from games.views.regions import render_flash, render_regions
from orleans_site.postgresql.base import commit_awaited_later
from orleans_site.tasks import tasks_run_eagerly


def _require_acting_seat(game_id, user) -> None:
    """Refuse as ``get_game_for_user_or_404`` and ``require_seat`` do a user without a seat
    at the game ``game_id``: 404 for a game they may not see, else 403. One indexed check
    for a player, before a write: a user without a seat never takes the game's row lock nor
    loads its state (the service reads the seat and the game under its lock)."""
    if not Seat.objects.filter(game_id=game_id, user=user).exists():
        _game, seat = get_game_for_user_or_404(game_id, user)
        require_seat(seat)


def _as_seated(game_id, user, write: Callable[..., Move]) -> Move:
    """``write(seated_only=True)``: a service call that locks the game only if ``user`` has a
    seat there, in one statement (``locks._lock_game_for_seat``); its ``NotSeated`` is
    refused as ``_require_acting_seat`` refuses (404 or 403), so a user without a seat
    never takes the lock nor loads the state. On a database without row locks (SQLite:
    the write transaction itself locks the whole database) the seat is checked before the
    transaction, so a stranger's post never waits behind, nor holds, the site's write lock."""
    if not connection.features.has_select_for_update:
        _require_acting_seat(game_id, user)
    try:
        return write(seated_only=True)
    except NotSeated:
        _require_acting_seat(game_id, user)
        raise


def _answered_write() -> contextlib.AbstractContextManager:
    """The block around a write and the answer drawn from it: the write's commit is awaited
    while the answer renders (``orleans_site.postgresql.base.commit_awaited_later``; nothing
    changes on SQLite), unless tasks run eagerly: the moves their on-commit hooks make then
    (a resolution, a bot's turn) belong in the answer."""
    if tasks_run_eagerly():
        return contextlib.nullcontext()
    return commit_awaited_later()


def _write_and_answer(request: HttpRequest, game_id, service: Callable[..., Move]) -> HttpResponse:
    """A move by the request's user: ``service(game_id=..., user=..., answer_page=...,
    seated_only=True)`` (a services function, its other arguments bound) through
    ``_as_seated``, then the refreshed regions for htmx (else a redirect to the page), drawn
    from what the write left (``_after_write``) while its commit is awaited (``_answered_write``)."""
    with _answered_write():
        move = _as_seated(game_id, request.user, functools.partial(
            service, game_id=game_id, user=request.user, answer_page=bool(request.htmx)))
        if not request.htmx:
            return redirect("games-detail", game_id=game_id)
        return render_regions(request, *_after_write(move, request.user), written=True, new_version=True)


def _after_write(move: Move, user) -> tuple[Game, Seat]:
    """The game and the user's seat for the answer after the service wrote ``move``: the row
    the service locked (``move.game``) and the user's seat among the seats its last store
    wrote (``store._sync_awaiting``'s ``_synced_seats``, dropped when seats were read or
    written after it), without a query, while the game is active and no task of a move ran
    inside the request on commit (eager tasks: ``store._enqueue_move``). Otherwise the seat
    is read again (its queue and clock may have changed) with the game's version, status
    and snapshot as stored, in one query; the snapshot is put back on the locked row (a
    store may order its keys otherwise: the page reads exactly what a reload reads). If
    the game moved on after the commit (eager tasks, another request), both are read
    afresh. The page's rows the stores read with their writes (``answer_page``) serve
    unless tasks ran: ``selectors.page_seats`` and ``recent_moves`` check the version."""
    game = move.game
    eager = getattr(game, "_moves_on_commit", False) and tasks_run_eagerly()
    written = next((s for s in getattr(game, "_synced_seats", None) or () if s.user_id == user.pk), None)
    if written is not None and game.is_active and not eager:
        return game, written
    if eager:  # a task may have written what the store's page reads read (services' answer_page)
        forget_page_reads(game)
    fresh = (Seat.objects.filter(game_id=game.pk, user=user)
             .annotate(game_version=F("game__version"), game_status=F("game__status"),
                       game_state=F("game__state")).first())
    if fresh is None or (fresh.game_version, fresh.game_status) != (game.version, game.status):
        return get_game_for_user_or_404(game.pk, user)
    game.state = fresh.game_state
    fresh.game = game
    return game, fresh


@require_POST
@login_required
@game_errors
def submit_action(request: HttpRequest, game_id) -> HttpResponse:
    """Apply the posted action as the user's seat, then return the refreshed regions."""
    form = ActionForm(request.POST)
    if not form.is_valid():
        _require_acting_seat(game_id, request.user)  # a stranger is refused first, whatever they post
        raise InvalidSubmission(form.first_error())
    return _write_and_answer(request, game_id, functools.partial(
        game_submit_action, action=form.cleaned_data["action"], expected_version=form.cleaned_data["expected_version"]))


@require_POST
@login_required
@game_errors
def take_back(request: HttpRequest, game_id) -> HttpResponse:
    """The "Take back" button: ``expected_version`` (the page's) -> the user's last decision
    is taken back (``services.game_take_back``), then the refreshed regions. A refusal
    (stale page, nothing to take back, a queued move) is shown in ``#flash``."""
    form = VersionForm(request.POST)
    if not form.is_valid():
        _require_acting_seat(game_id, request.user)  # a stranger is refused first, whatever they post
        raise InvalidSubmission(form.first_error())
    return _write_and_answer(request, game_id, functools.partial(
        game_take_back, expected_version=form.cleaned_data["expected_version"]))


@require_POST
@login_required
@game_errors
def set_queue(request: HttpRequest, game_id) -> HttpResponse:
    """Change the user's action queue: ``op=add`` with ``entry`` (JSON), ``op=remove`` with
    ``index`` and that ``entry``, or ``op=clear``; then return the refreshed regions."""
    _require_acting_seat(game_id, request.user)  # a stranger never reaches the service
    try:
        entry = json.loads(request.POST.get("entry") or "null")
        index = int(request.POST["index"]) if "index" in request.POST else None
    except (ValueError, RecursionError) as exc:
        raise InvalidSubmission(gettext("The queue change could not be read.")) from exc
    seat_queue_change(game_id=game_id, user=request.user, op=request.POST.get("op", ""), entry=entry,
                      index=index)
    if not request.htmx:
        return redirect("games-detail", game_id=game_id)
    # the page's seat rows read with the game (selectors.page_seats takes them): a query fewer
    game, seat = get_game_for_user_or_404(game_id, request.user, seats=True)
    return render_regions(request, game, seat, written=True)


@require_GET
def poll(request: HttpRequest, game_id) -> HttpResponse:
    """``?v=<version>&c=<chat id>&l=<live version>``: 204 if neither the game (its version
    and ``Game.live_version``: a vote, a vacation, a seat taken back, a hidden message, a
    rematch) nor its chat changed (``c``: the newest chat message the page shows), else the
    regions. A finished game's page goes on polling, more slowly, for its chat and a
    rematch; a cancelled game answers 286, which stops polling, and a damaged game its
    sentence in ``#flash``, also with 286: polling it again cannot help. The unchanged
    answer, by far the most frequent request, comes from one query of the game's row without its state
    (``selectors.game_for_poll``) besides the session's user; every other case is read
    fully."""
    lean = game_for_poll(game_id, request.user)
    if lean is not None and _unchanged(request, lean):
        return _unchanged_answer(request, lean)
    game, seat = get_game_for_user_or_404(game_id, request.user)
    try:
        int(request.GET["v"])  # the version the page shows: compared by _page_shows
    except (KeyError, ValueError):
        return HttpResponseBadRequest(gettext("Expected ?v=<version>."))
    if game.is_open:
        return HttpResponse(status=204)
    if not (game.is_active or game.is_finished):
        return HttpResponseStopPolling()
    if game.is_active and continue_bot_turn(game):  # eager tasks: the bots' chain goes on
        game.refresh_from_db()
    if seat is None and game.is_active:
        note_spectator(game, request.user)  # the list of who is watching (games.spectators)
    try:
        if _page_shows(request, game, lambda: chat_last_id(game, chat_read_channels(game, seat))):
            check_loadable(game)
            return HttpResponse(status=204)
        # a game ended by vote (absent player) finishes without a new move: its live version tells
        return render_regions(request, game, seat)
    except GameDamaged as damage:
        return _damaged_answer(request, damage)


def _unchanged(request: HttpRequest, game) -> bool:
    """True if the poll can answer 204 from the lean row (``selectors.game_for_poll``) alone:
    the game is active or finished and visible to the user without an invitation check
    (public, or the user sits at it), the page shows its version, live version and chat
    (``v``, ``l``, ``c``), and no bot turn is left to play here (``tasks.bot_turn_pending``).
    Anything else takes the full path."""
    visible = game.is_public or game.seat_id is not None
    return (visible and (game.is_active or game.is_finished) and _page_shows(request, game, lambda: chat_poll_id(game))
            and not (game.is_active and bot_turn_pending(game)))


def _page_shows(request: HttpRequest, game, chat_id: Callable[[], int]) -> bool:
    """True if the polling page shows ``game`` as it is: its version, live version and
    newest chat message (``v``, ``l``, ``c``; ``chat_id``, called only if the first two
    match, gives the newest message the viewer may read)."""
    return (request.GET.get("v") == str(game.version) and request.GET.get("l", "0") == str(game.live_version)
            and request.GET.get("c", "0") == str(chat_id()))


def _unchanged_answer(request: HttpRequest, game) -> HttpResponse:
    """204 for an unchanged game (``_unchanged``), its spectator noted; a game this site can
    no longer load still answers its sentence (286), without reading its state."""
    if game.seat_id is None and game.is_active:
        note_spectator(game, request.user)  # the list of who is watching (games.spectators)
    try:
        check_loadable(game, has_state=game.has_state)
    except GameDamaged as damage:
        return _damaged_answer(request, damage)
    return HttpResponse(status=204)


def _damaged_answer(request: HttpRequest, damage: GameDamaged) -> HttpResponse:
    """A damaged game's sentence in ``#flash``, with 286: polling it again cannot help."""
    response = render_flash(request, damage.message)
    response.status_code = HttpResponseStopPolling.status_code
    return response


@require_GET
@login_required
@game_errors
def plan_preview(request: HttpRequest, game_id) -> HttpResponse:
    """The regions with the player's draft plan applied (``plan_draft``, see
    ``games.presenters.planning``): asked by the planning board after each click. Reads
    only; the draft is never stored (the plan is sent once, as one ``submit_plan``)."""
    game, seat = get_game_for_user_or_404(game_id, request.user)
    seat = require_seat(seat)
    if not game.is_active:
        return HttpResponse(status=204)
    return render_regions(request, game, seat)


@require_GET
def lobby_seats(request: HttpRequest, game_id) -> HttpResponse:
    """The seats of an open game; once it has started or been cancelled, reload the page."""
    game, seat = get_game_for_user_or_404(game_id, request.user, token=request.GET.get("token"))
    if not game.is_open:
        return HttpResponseClientRefresh()
    html = render_to_string(
        "games/partials/_lobby_seats.html", game_context(game, seat), request=request
    )
    return HttpResponse(html)
