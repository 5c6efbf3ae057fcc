"""Row locks and status checks shared by every service module.

Every service runs in one ``transaction.atomic`` block and locks the game row with
``select_for_update`` before reading anything it will change, so two requests for the
same game are serialised.
"""
from __future__ import annotations

import functools
import uuid

from psycopg import pq
from django.contrib.auth import get_user_model
from django.db import connection
from django.db.transaction import TransactionManagementError
from django.utils.translation import gettext

from games.errors import GameNotFound, NotCreator, NotSeated, WrongStatus
from games.models import Game, GameStatus, Move, Seat
from games.rules import kept_snapshot, pair_stamp_with_state
from games.selectors import _converted, _converters
from games.statements import batches, forget, prepared_form, prepared_here, prepares

GameId = uuid.UUID | str


def _run_together(statements: list[tuple]) -> list[tuple[list | None, int]]:
    """Execute ``statements`` -- (SQL, parameters) or (SQL, parameters, ``prepared``) -- in
    order, in one round trip where the database takes several statements in one execute
    (PostgreSQL with psycopg's client-side binding, Django's default), else one execute
    each (SQLite: no round trip to save). Returns per statement its rows (None: it returns
    none) and its row count. The first error raises and the statements after it do not run
    (the caller's transaction rolls back). Batched, the statements are one execute of their
    SQL joined by ``;\n`` (what a query log records).

    ``prepared`` (PostgreSQL only): the statement is prepared once per database session
    (``games.statements``; planning the site's widest statements took longer than running
    them) and executed by name. Its parameters' types must follow from the SQL (a column
    compared or assigned, a cast)."""
    if not batches(connection):
        results = []
        with connection.cursor() as cursor:
            for sql, params, *_ in statements:
                cursor.execute(sql, params)
                results.append((cursor.fetchall() if cursor.description else None, cursor.rowcount))
        return results
    with connection.cursor() as cursor:
        preparing = prepares(connection)
        known = prepared_here(connection, cursor) if preparing else set()
        prepare, sqls = [], []
        for sql, _params, *prepared in statements:
            if preparing and prepared and prepared[0]:
                name, preparation, sql = prepared_form(sql)
                if name not in known and all(name != other for other, _ in prepare):  # once, even twice in a batch
                    prepare.append((name, preparation))
            sqls.append(sql)
        try:
            cursor.execute(";\n".join([*(text for _, text in prepare), *sqls]),
                           [p for _, params, *_ in statements for p in params])
        except BaseException:
            forget(connection)  # which statements were prepared before the error is not known
            raise
        known.update(name for name, _ in prepare)
        raw = cursor.cursor  # psycopg's own: the results without Django's wrapper around each attribute
        results = []
        for number in range(len(prepare) + len(statements)):
            if number:
                raw.nextset()
            if number >= len(prepare):
                results.append((raw.fetchall() if _has_rows(raw) else None, raw.rowcount))
    return results


#: The statuses of a result with rows (psycopg's ``description`` is not None for them).
_ROWS = (pq.ExecStatus.TUPLES_OK, pq.ExecStatus.SINGLE_TUPLE)


def _has_rows(cursor) -> bool:
    # psycopg's ``cursor.description is not None`` for the current result, without building
    # its columns' descriptions (a few dozen objects for the site's widest reads)
    result = cursor.pgresult
    return bool(result and (result.nfields or result.status in _ROWS))


@functools.cache
def _lock_sql(vendor: str, seated: bool, known: bool = False) -> tuple[str, tuple, tuple]:
    """``_lock_game``'s statement, written once per database vendor (the ORM took longer to
    compile it than the database to run it), and the fields it reads (game's, creator's).
    Parameters: with ``known`` a state stamp (the snapshot is read as NULL when the row has
    that stamp: the caller keeps it), the game id, then with ``seated`` the user's id (the
    row is locked only if that user has a seat)."""
    quote = connection.ops.quote_name
    user_model = get_user_model()
    game_fields, user_fields = tuple(Game._meta.concrete_fields), tuple(user_model._meta.concrete_fields)
    state, stamp = (quote(Game._meta.get_field(name).column) for name in ("state", "state_stamp"))
    columns = [f"CASE WHEN g.{stamp} = %s THEN NULL ELSE g.{state} END" if known and f.name == "state"
               else f"g.{quote(f.column)}" for f in game_fields]
    columns += [f"u.{quote(f.column)}" for f in user_fields]
    seat = quote(Seat._meta.db_table)
    sql = (f"SELECT {', '.join(columns)} FROM {quote(Game._meta.db_table)} g "
           f"INNER JOIN {quote(user_model._meta.db_table)} u "
           f"ON u.{quote(user_model._meta.pk.column)} = g.{quote(Game._meta.get_field('creator').column)} "
           f"WHERE g.{quote(Game._meta.pk.column)} = %s")
    if seated:
        sql += (f" AND EXISTS (SELECT 1 FROM {seat} s WHERE s.{quote(Seat._meta.get_field('game').column)} = "
                f"g.{quote(Game._meta.pk.column)} AND s.{quote(Seat._meta.get_field('user').column)} = %s)")
    if connection.features.has_select_for_update:  # SQLite: the transaction itself serialises writers
        sql += " " + connection.ops.for_update_sql(of=("g",) if connection.features.has_select_for_update_of else ())
    return sql, game_fields, user_fields


@functools.cache
def _lock_converters(vendor: str) -> tuple[list, list]:
    _sql, *fields = _lock_sql(vendor, False)
    return tuple(_converters(group) for group in fields)


def _lock_game(game_id: GameId, *, seated_user=None, with_seats: bool = False) -> Game | None:
    """Lock and return the game row (its creator read with it, not locked: the page drawn
    from the row after a write names them); must be called inside ``transaction.atomic``.
    Raises ``GameNotFound`` (``ValidationError`` for a ``game_id`` that is no UUID).

    ``seated_user``: lock the row only if that user has a seat at the game, in the same
    statement; None (no lock taken) if there is no such game or no such seat, so a user
    without a seat never holds the lock. ``with_seats``: the game's seats are read too,
    after the lock and in the same round trip (``_run_together``), for the next
    ``_read_seats`` of this game. Raises ``TransactionManagementError`` outside
    ``transaction.atomic`` (a lock there would be released at once), as
    ``select_for_update`` does."""
    if not connection.in_atomic_block:
        raise TransactionManagementError("_lock_game must be called inside transaction.atomic.")
    pk_field = Game._meta.pk
    game_uuid = pk_field.to_python(game_id)
    game_pk = pk_field.get_db_prep_value(game_uuid, connection)
    params = [game_pk] if seated_user is None else [game_pk, seated_user.pk]
    # the snapshot this process keeps a load of is not read again (rules.kept_snapshot)
    known = kept_snapshot(game_uuid) if batches(connection) else None
    if known is not None:
        params.insert(0, known[0])
    sql, game_fields, user_fields = _lock_sql(connection.vendor, seated_user is not None, known is not None)
    statements = [(sql, params, True)]
    if with_seats:  # the seat statement runs once the lock statement is done: it sees what the lock waited for
        statements.append((_seats_sql(connection.vendor)[0], [game_pk], True))
    (rows, _count), *seats = _run_together(statements)
    if not rows:
        if seated_user is not None:
            return None
        raise GameNotFound(gettext("No such game."))
    row = rows[0]
    game_converters, user_converters = _lock_converters(connection.vendor)
    ng = len(game_fields)
    game = Game.from_db(connection.alias, [f.attname for f in game_fields], _converted(game_converters, row[:ng]))
    if known is not None and game.state is None and game.state_stamp == known[0]:
        game.state = known[1]  # the row's snapshot: its stamp is the kept one's
    pair_stamp_with_state(game)  # read together, under the lock
    creator = get_user_model().from_db(connection.alias, [f.attname for f in user_fields],
                                       _converted(user_converters, row[ng:]))
    Game.creator.field.set_cached_value(game, creator)
    if seats:
        game._seat_rows = seats[0][0]  # for _read_seats
    return game


def _lock_game_for_seat(game_id: GameId, user, *, seated_only: bool, with_seats: bool = False) -> Game:
    """Lock the game row for a write by ``user``'s seat: in one statement when the user has a
    seat there (``_lock_game(seated_user=...)``). Otherwise ``seated_only`` refuses with
    ``NotSeated`` at once, without the lock (a view then picks its 404 or 403); without it
    the row is locked anyway (``GameNotFound`` if there is none), for the caller's checks
    to refuse in their order. ``with_seats``: as ``_lock_game``'s (the game's seats read in
    the lock's round trip, for the next ``_read_seats``)."""
    game = _lock_game(game_id, seated_user=user, with_seats=with_seats)
    if game is None:
        if seated_only:
            raise NotSeated(gettext("You do not have a seat at this game."))
        game = _lock_game(game_id, with_seats=with_seats)
    return game


@functools.cache
def _seats_sql(vendor: str) -> tuple[str, tuple]:
    """``_read_seats``'s statement, written once per database vendor, and the seat fields it
    reads. Parameter: the game id."""
    quote = connection.ops.quote_name
    seat_fields = tuple(Seat._meta.concrete_fields)
    game_column = quote(Seat._meta.get_field("game").column)
    seq, move_game = quote(Move._meta.get_field("seq").column), quote(Move._meta.get_field("game").column)
    newest_round = (f"(SELECT m.{quote(Move._meta.get_field('round').column)} FROM {quote(Move._meta.db_table)} m "
                    f"WHERE m.{move_game} = s.{game_column} ORDER BY m.{seq} DESC LIMIT 1)")
    columns = [f"s.{quote(f.column)}" for f in seat_fields]
    sql = (f"SELECT {', '.join(columns)}, {newest_round} FROM {quote(Seat._meta.db_table)} s "
           f"WHERE s.{game_column} = %s ORDER BY s.{quote(Seat._meta.get_field('order').column)}")
    return sql, seat_fields


@functools.cache
def _seat_converters(vendor: str) -> list:
    return _converters(_seats_sql(vendor)[1])


def _read_seats(game: Game, *, keep: bool = False) -> list[Seat]:
    """Every seat of the locked ``game`` in order (all fields, each seat's game the game), in
    one statement written once, after the lock (so it sees what the lock waited for); no
    query the first time after ``_lock_game(with_seats=True)``, which read them with it.

    ``keep``: the seats are kept as ``game._locked_seats`` for the next
    ``store._sync_awaiting``, and the round of the game's newest move, read with them, as
    ``game._newest_round`` (None: no move yet) for the next ``store._store_moves``; each
    takes its value once instead of querying. The caller then writes seats only through
    these objects until that store. Caller holds the game row lock."""
    sql, seat_fields = _seats_sql(connection.vendor)
    rows = game.__dict__.pop("_seat_rows", None)  # read with the lock (_lock_game(with_seats=True))
    if rows is None:
        with connection.cursor() as cursor:
            cursor.execute(sql, [Seat._meta.get_field("game").get_db_prep_value(game.pk, connection)])
            rows = cursor.fetchall()
    converters, names = _seat_converters(connection.vendor), [f.attname for f in seat_fields]
    seats = []
    for row in rows:
        seat = Seat.from_db(connection.alias, names, _converted(converters, row[:-1]))
        Seat.game.field.set_cached_value(seat, game)
        seats.append(seat)
    if keep and rows:  # (no seat: nothing known of the moves either)
        game._newest_round, game._locked_seats = rows[0][-1], seats
    return seats


def _require_active(game: Game) -> None:
    """Raise ``WrongStatus`` unless the game is being played, saying what it is instead
    (``Game.not_playing_reason``): a tab left open on a game that has ended says so."""
    reason = game.not_playing_reason()
    if reason is not None:
        raise WrongStatus(reason)


def _require_status(game: Game, status: GameStatus, message: str) -> None:
    """Raise ``WrongStatus(message)`` unless the game is in ``status``."""
    if game.status != status:
        raise WrongStatus(message)


def _require_creator(game: Game, user) -> None:
    """Raise ``NotCreator`` unless ``user`` created the game."""
    if game.creator_id != user.pk:
        raise NotCreator(gettext("Only the game's creator can do that."))
