"""Writing a move: the snapshot, the log row, the awaited seats and their clocks.

Shared by every service that changes a game's state (``play``, ``queue``, ``lobby``); it
sits below them so that ``play`` can play queues and ``queue`` can store moves without an
import cycle. Caller holds the game row lock.
"""
from __future__ import annotations

import functools
from typing import Any

from django.db import DatabaseError, connection
from django.utils import timezone

from games import clock
from games.bots import playing_level
from games.models import Game, GameStatus, Move, MoveSource, Seat, canonical_json, text_digest
from games.rules import engine_for, keep_loaded, pair_stamp_with_state, stored_forms
from games.statements import batches, insert_rows
from games.selectors import hand_over_page_reads, page_read_statements, seat_results, users_on_vacation
from games.services import outbox
from games.services.ratings import game_rate
from games.services.locks import _read_seats, _run_together
from games.services.records import record_finished_game, records_rebuild
from games.tasks import bot_move_task, resolve_game_task
from orleans_site.tasks import enqueue_on_commit


def _queue_verdict(rules_engine: Any, state: Any, seat: Seat) -> tuple[str, Any] | None:
    """What the seat's action queue (of this round) does now: the engine's ``next_queued``
    verdict and detail (``("play", action)``, ``("wait", reason)``, ``("drop", reason)``);
    None without a queue for this round. The one place the site asks the engine's queue."""
    if not seat.action_queue or seat.action_queue_round != rules_engine.game_part(state)[0]:
        return None
    return rules_engine.queue.next_queued(state, seat.order, seat.action_queue)


def _sync_awaiting(game: Game, state: Any) -> list[Seat]:
    """Copy the engine's ``awaiting(state)`` onto the seats (drives "waiting for you" lists) and
    start or stop their clocks.

    Returns the seats that are awaited now and were not before (a change of decision kind
    while still awaited, e.g. draw then plan, does not count), without those a bot plays
    (nobody is told of a bot's turn); ``awaiting_since`` is set
    when a seat becomes awaited and cleared when it no longer is. In a game with a clock a
    newly awaited seat's clock starts (unless its player is on vacation, or it is a bot
    seat) and a seat no longer awaited has its clock stopped, charged for the time it ran.
    If a bot plays an awaited seat, its move is queued on commit (``_queue_bot_move``).

    A seat whose action queue plays its move now (``_queue_verdict`` says ``play``; the
    caller plays it next, ``queue._play_queues``) is left as it was: a queued turn is not
    being awaited (no turn email, no clock start, ``awaiting_since`` unchanged) unless the
    queue stops and the player must decide.

    The seats as written are kept on ``game`` (``_synced_seats``): ``queue._play_queues``,
    next under the same lock, reads no seat again when none of them has a queue to play.
    """
    seats, changing, newly_awaited = _awaiting_changes(game, state)
    statement = _awaiting_statement(changing)
    if statement:
        with connection.cursor() as cursor:
            cursor.execute(*statement)
    _awaiting_written(game, seats)
    return newly_awaited


def _awaiting_changes(game: Game, state: Any) -> tuple[list[Seat], list[Seat], list[Seat]]:
    """``_sync_awaiting``'s work before its write: the game's seats, those changed in memory
    (to be written by ``_awaiting_statement``: also a decided seat whose clock is not
    written yet, ``clocks._player_decided``) and those newly awaited."""
    rules_engine = engine_for(game)
    awaited = {} if game.status != GameStatus.ACTIVE else rules_engine.awaiting(state)
    newly_awaited = []
    now = timezone.now()
    # the seats read under the lock by the caller (play.game_submit_action), else now
    locked = game.__dict__.pop("_locked_seats", None)
    unwritten = game.__dict__.pop("_clocks_unwritten", [])  # clocks._player_decided's, among the locked seats
    for seat in [] if locked else unwritten:  # the seats are read again: their clocks first
        seat.save(update_fields=["bank_seconds", "clock_started_at", "deadline"])
    seats = locked or _read_seats(game)
    changing = [seat for seat in seats if seat.awaiting != str(awaited.get(seat.order, ""))
                and not (seat.order in awaited and (_queue_verdict(rules_engine, state, seat) or ("",))[0] == "play")]
    on_vacation = (users_on_vacation([s.user_id for s in changing])
                   if changing and clock.has_clock(game) else set())
    for seat in changing:
        kind = str(awaited.get(seat.order, ""))
        if not seat.awaiting:
            if not playing_level(game, seat):
                newly_awaited.append(seat)
            seat.awaiting_since = now
            if clock.has_clock(game) and not seat.is_bot and seat.user_id not in on_vacation:
                clock.start(seat, now)
            # the reminder sweep reads only the seats due (issue 14); bots get no reminders
            seat.next_reminder_at = None if seat.user_id is None else clock.next_reminder_at(
                seat, game, now, visited=False)
        elif not kind:
            seat.awaiting_since = seat.next_reminder_at = None
            clock.stop(seat, now)
        seat.awaiting = kind
    if locked:  # a decided seat's clock is written with the others (its fields are among _AWAITING_FIELDS)
        changing += [seat for seat in unwritten if all(seat is not other for other in changing)]
    return seats, changing, newly_awaited


def _awaiting_written(game: Game, seats: list[Seat]) -> None:
    """``_sync_awaiting``'s work after its write: a bot's move queued, the seats kept."""
    _queue_bot_move(game, [seat for seat in seats if seat.awaiting])
    game._synced_seats = seats  # as written now, for queue._next_queue_move


#: The seat fields ``_sync_awaiting`` writes.
_AWAITING_FIELDS = ("awaiting", "awaiting_since", "bank_seconds", "clock_started_at", "deadline", "next_reminder_at")


@functools.cache
def _awaiting_update_sql(vendor: str, count: int) -> str:
    """The UPDATE of ``_AWAITING_FIELDS`` of ``count`` seats, one ``CASE`` on the seat's id a
    field, written once per database vendor and count (PostgreSQL needs each cast to its
    column's type, as ``QuerySet.bulk_update`` does). Parameters: per field, (seat id,
    value) for each seat; then the seat ids."""
    quote = connection.ops.quote_name
    pk = quote(Seat._meta.pk.column)
    sets = []
    for name in _AWAITING_FIELDS:
        field = Seat._meta.get_field(name)
        case = f"CASE {pk} {' '.join(['WHEN %s THEN %s'] * count)} END"
        if connection.features.requires_casted_case_in_updates:
            case = f"CAST({case} AS {field.cast_db_type(connection)})"
        sets.append(f"{quote(field.column)} = {case}")
    return f"UPDATE {quote(Seat._meta.db_table)} SET {', '.join(sets)} WHERE {pk} IN ({', '.join(['%s'] * count)})"


def _awaiting_statement(seats: list[Seat]) -> tuple[str, list] | None:
    """The UPDATE storing the ``_AWAITING_FIELDS`` of ``seats`` (saved rows) as one statement
    and its parameters; None for no seats."""
    if not seats:
        return None
    params = []
    for name in _AWAITING_FIELDS:
        field = Seat._meta.get_field(name)
        for seat in seats:
            params += [seat.pk, field.get_db_prep_save(getattr(seat, field.attname), connection)]
    params += [seat.pk for seat in seats]
    return _awaiting_update_sql(connection.vendor, len(seats)), params


def _queue_bot_move(game: Game, awaited: list[Seat]) -> None:
    """Queue ``bot_move_task`` on commit at the game's current version if a bot plays one
    of the ``awaited`` seats (a task of an older version finds the game moved on and does
    nothing). Caller holds the game row lock."""
    if game.status == GameStatus.ACTIVE and any(playing_level(game, seat) for seat in awaited):
        _enqueue_move(game, bot_move_task)


def _enqueue_move(game: Game, task) -> None:
    """Queue ``task`` (one that stores a move: a bot's, a resolution) on commit at the game's
    current version, and mark ``game`` (``_moves_on_commit``): with eager tasks the game
    moves on inside the request, so an answer drawn from this row reads it again
    (``views.fragments._after_write``)."""
    game._moves_on_commit = True
    enqueue_on_commit(task, str(game.id), game.version)


def store_seat_results(game: Game, *, counted: bool = False) -> None:
    """Copy each seat's line of the finished ``game``'s stored ``outcome`` onto its ``Seat``
    (``placement``, ``won``, ``final_score``; ``selectors.seat_results``) with the game's
    ``finished_at``, and count the game in its players' records
    (``records.record_finished_game``); ``counted``: the game was finished before (a
    repair), so their records are recounted instead. Called wherever an outcome is stored
    (a finishing move, the vote to end, a repair, an import)."""
    results = seat_results(game.outcome)
    seats = list(Seat.objects.filter(game=game))
    for seat in seats:
        seat.placement, seat.won, seat.final_score = results.get(seat.order, (None, False, None))
        seat.finished_at = game.finished_at or timezone.now()
    Seat.objects.bulk_update(seats, ["placement", "won", "final_score", "finished_at"])
    if counted:
        records_rebuild([seat.user_id for seat in seats if seat.user_id is not None])
    else:
        record_finished_game(seats)


#: The ``Game`` fields a store writes (``_snapshot_statement``).
_SNAPSHOT_FIELDS = ("state", "state_stamp", "version", "status", "finished_at", "outcome")


@functools.cache
def _snapshot_update_sql(vendor: str) -> str:
    """``_snapshot_statement``'s UPDATE, written once per database vendor. Parameters: the
    values of ``_SNAPSHOT_FIELDS`` (on PostgreSQL the state as its canonical JSON text,
    read as ``jsonb``), then the game id."""
    quote = connection.ops.quote_name
    table = quote(Game._meta.db_table)
    sets = ", ".join(f"{quote(Game._meta.get_field(name).column)} = %s"
                     + ("::jsonb" if name == "state" and vendor == "postgresql" else "") for name in _SNAPSHOT_FIELDS)
    return f"UPDATE {table} SET {sets} WHERE {table}.{quote(Game._meta.pk.column)} = %s"


def _snapshot_statement(game: Game) -> tuple[str, list, bool]:
    """The UPDATE of the fields a store changes (``game.save(update_fields=...)``'s) and its
    parameters, its ``state_stamp`` set with them (``Game.save``'s rule), in a statement
    written once (the ORM took longer to build the UPDATE than the database to run it).
    On PostgreSQL the snapshot is dumped once, for its stamp and its value (``jsonb`` keeps
    no key order). Caller holds the game row lock and checks that it changed one row."""
    text = None if game.state is None else canonical_json(game.state)
    game.state_stamp = "" if text is None else text_digest(text)
    pair_stamp_with_state(game)  # the stamp is the snapshot's own digest
    params = [text if name == "state" and connection.vendor == "postgresql"
              else Game._meta.get_field(name).get_db_prep_save(getattr(game, name), connection)
              for name in _SNAPSHOT_FIELDS]
    return (_snapshot_update_sql(connection.vendor), [*params, Game._meta.pk.get_db_prep_value(game.pk, connection)],
            True)  # prepared once a session (locks._run_together)


def _insert_statement(moves: list[Move]) -> tuple[str, list, bool] | None:
    """The INSERT of ``moves`` returning their ids (``statements.insert_rows``: its SQL,
    parameters and prepared flag), for ``_inserted``; None on a database that cannot return the ids of an insert: there
    the moves are saved now, through the ORM (``bulk_create``)."""
    if not connection.features.can_return_rows_from_bulk_insert:
        Move.objects.bulk_create(moves)
        return None
    return insert_rows(moves, returning_pk=True)


def _inserted(moves: list[Move], rows: list) -> None:
    """Mark ``moves`` saved with the ids the ``_insert_statement`` returned (``rows``)."""
    for move, (pk,) in zip(moves, rows, strict=True):
        move.pk = pk
        move._state.adding, move._state.db = False, connection.alias


def read_page_with_writes(game: Game, user) -> None:
    """Mark the locked ``game``: its caller answers with ``user``'s game page after the
    write (``views.fragments``), so each later store of it also reads that page's seat rows
    and recent moves, after its writes and in their round trip, and hands them over to the
    page (``selectors.hand_over_page_reads``; a later store's replace an earlier's). Only
    on a database that runs statements together (``statements.batches``): elsewhere the page
    reads them itself."""
    game._page_reader = user


def _page_reads(game: Game, before: int) -> list[tuple]:
    """The page reads a store appends to its writes (``read_page_with_writes``): none
    unless asked, on a database without batches, or for a game the store finished (its
    seats' results and ratings are written after the store's round trip). ``before``: the
    game's version before the store (``selectors.page_read_statements``)."""
    user = game.__dict__.get("_page_reader")
    if user is None or game.status != GameStatus.ACTIVE or not batches(connection):
        return []
    return page_read_statements(game, user, before=before)


#: ``game._newest_round`` not read (``_store_moves``).
_UNREAD = object()


def _store(game: Game, state: Any, *, seat: int | None, action: dict, events: list,
           source: str = MoveSource.PLAYER) -> Move:
    """Append the move, store the new snapshot, bump the version, finish if over (and
    rate the finished game, ``ratings.game_rate``).

    Caller holds the game row lock. ``source`` (a ``MoveSource``) says who made the move;
    a resolution (``seat`` None) is always the system's.
    """
    return _store_moves(game, state, [(seat, action, events)], source=source)[-1]


def _store_moves(game: Game, state: Any, moves: list[tuple[int | None, dict, list]],
                 source: str = MoveSource.PLAYER) -> list[Move]:
    """``_store`` for several moves applied one after another in memory: ``moves`` are
    (seat, action, events) in order, ``state`` the state after the last. One INSERT of
    the moves, one snapshot and version bump (by ``len(moves)``), one sync of the awaited
    seats, one set of notifications at the final version (issue 14: a timeout's moves in
    one write). Each move's ``round`` is the round its events open, else the previous
    move's (read only when the first move here opens none, and not with the seats under
    the lock: ``locks._read_seats``). A game marked by ``read_page_with_writes`` has its
    page's reads run after the writes, in their round trip. Caller holds the game row lock;
    ``moves`` is not empty.
    """
    lists = [list(events) for _, _, events in moves]
    opened = Move.rounds_of(lists, 0)
    known = game.__dict__.pop("_newest_round", _UNREAD)  # read with the seats under the lock (locks._read_seats)
    if opened[0]:
        previous = 0
    elif known is not _UNREAD:
        previous = known or 1
    else:
        previous = Move.objects.filter(game=game).order_by("-seq").values_list("round", flat=True).first() or 1
    rounds = Move.rounds_of(lists, previous)
    rows = [Move(game=game, seq=game.version + number, seat=seat, action=action, events=events,
                 source=MoveSource.SYSTEM if seat is None else source, round=rounds[number - 1])
            for number, ((seat, action, _), events) in enumerate(zip(moves, lists, strict=True), start=1)]
    insert = _insert_statement(rows)
    rules_engine = engine_for(game)
    game.state, loaded = stored_forms(rules_engine, state)  # no copy where the engine can
    game.version += len(rows)
    game._newest_move = rows[-1]  # for undo.last_own_move on the answer drawn from this row
    if rules_engine.is_over(state):
        game.status = GameStatus.FINISHED
        game.finished_at = timezone.now()
        game.outcome = rules_engine.outcome(state)
    seats, changing, newly_awaited = _awaiting_changes(game, state)  # reads only: the writes follow
    finished = game.status == GameStatus.FINISHED
    # a turn passed on: its emails recorded with the writes (a finished game's are read from its seats, after)
    emails = None if finished else outbox.turn_emails_statement(game, newly_awaited=newly_awaited)
    # the move, the snapshot, the awaited seats and the turn emails: one round trip (locks._run_together)
    statements = [statement for statement in (insert, _snapshot_statement(game), _awaiting_statement(changing),
                                              emails) if statement]
    if loaded is not None:  # stamped and paired by _snapshot_statement: the answer and the next lock parse nothing
        keep_loaded(game, loaded)
    reads = _page_reads(game, game.version - len(rows))
    results = _run_together(statements + reads)
    if insert:
        _inserted(rows, results[0][0])
    if results[1 if insert else 0][1] != 1:
        raise DatabaseError("Save with update_fields did not affect any rows.")
    if reads:
        hand_over_page_reads(game, game._page_reader, results[-2][0], results[-1][0])
    _awaiting_written(game, seats)
    if game.status == GameStatus.FINISHED:
        store_seat_results(game)
        game_rate(game_id=game.pk)
    if emails:
        outbox.deliver_game(game)
    elif finished:  # otherwise no seat became awaited by a player: nothing to record
        outbox.game_changed(game, newly_awaited=newly_awaited, finished=True)
    if game.status == GameStatus.ACTIVE and rules_engine.needs_resolution(state):
        _enqueue_move(game, resolve_game_task)
    return rows
