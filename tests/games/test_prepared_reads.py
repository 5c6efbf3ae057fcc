"""games.statements.execute: a read is prepared once a database session on PostgreSQL (its
first run prepares it in the same execute, later runs execute it by name) and gives the
rows the statement as written gives; with prepared statements off, or on SQLite, it runs as
written; an error leaves the next run working."""
import pytest
from django.db import DatabaseError, connection, transaction
from django.test import override_settings
from django.test.utils import CaptureQueriesContext

from games import statements
from games.models import Game

pytestmark = pytest.mark.django_db

_ROW = 'SELECT "name", "version" FROM "games_game" WHERE "id" = %s AND "version" >= %s'


def _read(sql, params):
    with CaptureQueriesContext(connection) as captured, connection.cursor() as cursor:
        statements.execute(connection, cursor, sql, params)
        rows = cursor.fetchall()
    return rows, [q["sql"] for q in captured.captured_queries]


def _params(game, version=0):
    return [Game._meta.pk.get_db_prep_value(game.pk, connection), version]


def test_a_read_gives_the_rows_of_the_statement_as_written(started_game):
    with connection.cursor() as cursor:
        cursor.execute(_ROW, _params(started_game))
        written = cursor.fetchall()
    for _ in range(2):  # prepared, then by name
        assert _read(_ROW, _params(started_game))[0] == written == [(started_game.name, started_game.version)]
    assert _read(_ROW, _params(started_game, started_game.version + 1))[0] == []


def test_a_read_is_prepared_once_a_session_in_the_same_round_trip(started_game):
    if not statements.prepares(connection):
        pytest.skip("prepared statements are PostgreSQL's")
    sql = _ROW + " AND 1 = 1"  # a statement no other test has prepared in this session
    _rows, first = _read(sql, _params(started_game))
    _rows, second = _read(sql, _params(started_game))
    assert len(first) == 1 and first[0].startswith("PREPARE orleans_") and "\nEXECUTE orleans_" in first[0]
    assert len(second) == 1 and second[0].startswith("EXECUTE orleans_")
    assert statements.PREPARED_SQL[second[0].split("(")[0].split()[-1]] == sql


@override_settings(DATABASE_PREPARED_STATEMENTS=False)
def test_with_prepared_statements_off_a_read_runs_as_written(started_game):
    rows, sqls = _read(_ROW, _params(started_game))
    assert rows == [(started_game.name, started_game.version)]
    assert len(sqls) == 1 and sqls[0].startswith('SELECT "name"')


def test_after_an_error_the_next_read_still_runs(started_game):
    broken = 'SELECT "name" FROM "no_such_table" WHERE "id" = %s AND "version" = %s'
    with pytest.raises(DatabaseError), transaction.atomic(), connection.cursor() as cursor:
        statements.execute(connection, cursor, broken, _params(started_game))
    for _ in range(2):
        assert _read(_ROW, _params(started_game))[0] == [(started_game.name, started_game.version)]


def test_a_statement_prepared_by_a_run_that_failed_is_run_by_name_after(started_game):
    if not statements.prepares(connection):
        pytest.skip("prepared statements are PostgreSQL's")
    # the preparation succeeds and its first run fails (a division by zero), in one round trip:
    # the next runs find it prepared and do not prepare it twice
    divided = 'SELECT 20 / %s::int FROM "games_game" WHERE "id" = %s'
    pk = Game._meta.pk.get_db_prep_value(started_game.pk, connection)
    with pytest.raises(DatabaseError), transaction.atomic():
        _read(divided, [0, pk])
    for _ in range(2):
        assert _read(divided, [5, pk])[0] == [(4,)]


def test_a_statement_dropped_behind_the_sites_back_is_prepared_again(started_game):
    if not statements.prepares(connection):
        pytest.skip("prepared statements are PostgreSQL's")
    sql = _ROW + " AND 2 = 2"
    _read(sql, _params(started_game))
    with connection.cursor() as cursor:
        cursor.execute("DEALLOCATE ALL")  # what a pooler's DISCARD ALL does to the session
    with pytest.raises(DatabaseError), transaction.atomic():
        _read(sql, _params(started_game))  # run by name: the session no longer has it
    rows, sqls = _read(sql, _params(started_game))
    assert rows == [(started_game.name, started_game.version)]
    assert "PREPARE orleans_" in sqls[-1]
