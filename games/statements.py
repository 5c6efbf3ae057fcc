"""Statements PostgreSQL keeps prepared for a database session (issue 14).

The site's widest statements (a decision's writes, the game page's reads, the poll's, the
navigation's waiting count on every signed-in page) took
longer for PostgreSQL to plan than to run. Each is prepared once per database session, by
SQL ``PREPARE`` sent with its first run (``PREPARE name AS ...; EXECUTE name(...)``, one
round trip), then run by name (``EXECUTE name(...)``). This is the one mechanism for
reads and writes: psycopg's own preparing stays off (Django leaves its ``prepare_threshold``
unset), as psycopg, once it has prepared anything, answers DDL, a ``ROLLBACK`` or a
``DISCARD ALL`` on the connection with ``DEALLOCATE ALL``, which would drop these behind
the site's back.

Only on PostgreSQL with client-side binding (Django's default: several statements in one
execute) and ``settings.DATABASE_PREPARED_STATEMENTS`` on (off behind a pooler that cannot
keep them: docs/performance.md, the production recipe); elsewhere a statement runs as written.
"""
from __future__ import annotations

import functools
import hashlib
import re
import weakref

from django.conf import settings

#: Name -> SQL of every statement ``prepared_form`` named (a query log shows ``EXECUTE name(...)``).
PREPARED_SQL: dict[str, str] = {}

#: Per PostgreSQL session (the psycopg connection): the names of the statements prepared
#: there; None: not known (after an error), read again from ``pg_prepared_statements``.
_prepared: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def batches(db) -> bool:
    """True if the database of ``db`` (a Django connection) runs several statements in one
    execute: PostgreSQL with client-side binding."""
    return db.vendor == "postgresql" and not db.settings_dict.get("OPTIONS", {}).get("server_side_binding")


def prepares(db) -> bool:
    """True if statements are prepared on ``db`` (a Django connection): it ``batches`` and
    ``DATABASE_PREPARED_STATEMENTS`` is on."""
    return batches(db) and getattr(settings, "DATABASE_PREPARED_STATEMENTS", True)


def prepared_here(db, cursor) -> set[str]:
    """The names of the statements prepared in ``db``'s current session, read with
    ``cursor`` from ``pg_prepared_statements`` when not known. The set is the one kept:
    add to it what a successful execute prepared. Prepared statements outlive a rollback:
    only an error while preparing leaves the set in doubt (``forget``). Raises what the
    database raises while reading them."""
    session = db.connection
    known = _prepared.get(session, set())  # a session not seen yet has prepared nothing
    if known is None:
        cursor.execute("SELECT name FROM pg_prepared_statements")
        known = {name for (name,) in cursor.fetchall()}
    _prepared[session] = known
    return known


def forget(db) -> None:
    """After an error in an execute that prepared statements: which of them were prepared
    is not known; the next ``prepared_here`` reads them again."""
    _prepared[db.connection] = None


@functools.lru_cache(maxsize=256)
def prepared_form(sql: str) -> tuple[str, str, str]:
    """``sql`` (with ``%s`` placeholders only; their types must follow from the SQL: a
    column compared or assigned, a cast) as a prepared statement: its name (from its text,
    kept in ``PREPARED_SQL``), its ``PREPARE`` and the ``EXECUTE`` that runs it with the same
    parameters."""
    count = sql.count("%s")
    name = "orleans_" + hashlib.sha1(sql.encode()).hexdigest()[:24]
    PREPARED_SQL[name] = sql
    numbers = iter(range(1, count + 1))
    preparation = f"PREPARE {name} AS " + re.sub("%s", lambda _match: f"${next(numbers)}", sql)
    return name, preparation, f"EXECUTE {name}" + (f"({', '.join(['%s'] * count)})" if count else "")


def execute(db, cursor, sql: str, params) -> None:
    """``cursor.execute(sql, params)`` on ``db`` (a Django connection; ``cursor`` one of its
    cursors), the statement prepared once per session where ``prepares(db)``: its first run
    there prepares and runs it in one round trip, later runs execute it by name. The cursor
    is then at the statement's result (fetch as after ``cursor.execute``).

    ``sql``: one statement, positional ``%s`` placeholders only (no ``%(name)s``, no ``;``),
    each parameter's type following from the SQL (a column compared or assigned, a cast:
    PostgreSQL refuses to prepare ``%s IS NULL`` or a bare ``%s`` in a select list, which
    SQLite, the default test database, does not show); ``params``: a sequence in placeholder
    order. Raises what the database raises; after an error the next run reads which
    statements the session holds (``forget``), so a statement dropped behind the site's back
    (``DISCARD ALL``, ``DEALLOCATE``) fails one run, then is prepared again."""
    if not prepares(db):
        cursor.execute(sql, params)
        return
    known = prepared_here(db, cursor)
    name, preparation, run = prepared_form(sql)
    ready = name in known
    try:
        cursor.execute(run if ready else f"{preparation};\n{run}", params)
    except BaseException:
        # which statements the session holds is not known now (an error while preparing, or
        # one dropped behind the site's back: DISCARD ALL, DEALLOCATE): read them again next time
        forget(db)
        raise
    if not ready:
        known.add(name)
        cursor.nextset()  # past the PREPARE's empty result, to the statement's


def read(db, sql: str, params) -> list[tuple]:
    """The rows of the read ``sql`` with ``params`` on ``db`` (a Django connection), run by
    ``execute`` (prepared once a session where ``prepares(db)``; the same arguments and
    errors)."""
    with db.cursor() as cursor:
        execute(db, cursor, sql, params)
        return cursor.fetchall()


def set_plan_cache_mode(sender=None, connection=None, **kwargs) -> None:
    """``connection_created`` receiver (connected by ``games.apps``): give a new PostgreSQL
    session of ``connection`` (a Django connection) ``settings.DATABASE_PLAN_CACHE_MODE``
    (``orleans_site.database``) when it ``prepares`` statements and the mode is not
    ``auto`` (PostgreSQL's default, left as it is): the statements prepared here are then
    planned once a session. One ``SET``, once per session; raises what the database raises."""
    mode = getattr(settings, "DATABASE_PLAN_CACHE_MODE", "auto")
    if connection is None or mode == "auto" or not prepares(connection):
        return
    with connection.cursor() as cursor:
        cursor.execute(f"SET plan_cache_mode = {mode}")  # one of orleans_site.database.PLAN_CACHE_MODES


def _inserted_fields(model) -> list:
    return [f for f in model._meta.concrete_fields if not f.primary_key]


@functools.cache
def _insert_sql(model, vendor: str, count: int, returning_pk: bool, ignore_conflicts: bool) -> str:
    # ``insert_rows``' statement, written once per model, database vendor, count and kind
    # (the ORM took longer to compile an insert than the database to run it)
    from django.db import connection
    from django.db.models.constants import OnConflict

    fields, quote = _inserted_fields(model), connection.ops.quote_name
    on_conflict = OnConflict.IGNORE if ignore_conflicts else None
    row = f"({', '.join(['%s'] * len(fields))})"
    sql = (f"{connection.ops.insert_statement(on_conflict=on_conflict)} {quote(model._meta.db_table)} "
           f"({', '.join(quote(f.column) for f in fields)}) VALUES {', '.join([row] * count)}")
    suffix = connection.ops.on_conflict_suffix_sql(fields, on_conflict, None, None)
    if suffix:
        sql += f" {suffix}"
    if returning_pk:
        sql += f" RETURNING {quote(model._meta.pk.column)}"
    return sql


def insert_rows(rows: list, *, returning_pk: bool = False, ignore_conflicts: bool = False) -> tuple[str, list, bool]:
    """The INSERT of ``rows`` (unsaved instances of one model, at least one) as
    ``bulk_create`` writes it (every concrete field but the primary key, each filled as it
    fills them: defaults, ``auto_now_add``), for a caller that runs it with other statements
    in one round trip (``games.services.locks._run_together``): its SQL, written once per
    model, vendor and row count, its parameters, and True (prepared once a session where
    ``prepares``). ``returning_pk``: the rows' ids are returned (on a database that
    ``can_return_rows_from_bulk_insert``); ``ignore_conflicts``: a row a unique constraint
    refuses is skipped, as ``bulk_create(..., ignore_conflicts=True)`` skips it. Raises
    ``ValueError`` for no rows."""
    from django.db import connection

    if not rows:
        raise ValueError("insert_rows needs at least one row")
    model, params = type(rows[0]), []
    fields = _inserted_fields(model)
    for row in rows:
        params += [f.get_db_prep_save(f.pre_save(row, add=True), connection) for f in fields]
    return _insert_sql(model, connection.vendor, len(rows), returning_pk, ignore_conflicts), params, True
