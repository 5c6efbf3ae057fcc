"""locks._run_together: statements run in order in one round trip (PostgreSQL) or one
execute each (SQLite), each with its rows and row count; a statement marked ``prepared`` is
prepared once a database session, and an error leaves the next write working."""
import pytest
from django.db import DatabaseError, connection, transaction
from django.test.utils import CaptureQueriesContext

from games.models import Game
from games.services.locks import _run_together

pytestmark = pytest.mark.django_db

_NAME = 'SELECT "name" FROM "games_game" WHERE "id" = %s'
_RENAME = 'UPDATE "games_game" SET "name" = %s WHERE "id" = %s'


def _pk(game):
    return Game._meta.pk.get_db_prep_value(game.pk, connection)


def test_each_statement_gives_its_rows_and_its_count_in_order(started_game):
    (rows, _), (none, count), (renamed, _) = _run_together([
        (_NAME, [_pk(started_game)], True), (_RENAME, ["Renamed", _pk(started_game)]),
        (_NAME, [_pk(started_game)], True)])
    assert rows == [(started_game.name,)]
    assert (none, count) == (None, 1)
    assert renamed == [("Renamed",)]  # a statement sees what the ones before it wrote


def test_a_read_finding_nothing_gives_no_rows_and_a_write_none(started_game):
    import uuid

    missing = Game._meta.pk.get_db_prep_value(uuid.uuid4(), connection)
    (nothing, _), (written, count) = _run_together([(_NAME, [missing]), (_RENAME, ["Renamed", missing])])
    assert nothing == []
    assert (written, count) == (None, 0)


def test_the_statements_are_one_round_trip_on_postgresql(started_game):
    with CaptureQueriesContext(connection) as captured:
        _run_together([(_NAME, [_pk(started_game)]), (_RENAME, ["Renamed", _pk(started_game)])])
    assert len(captured.captured_queries) == (1 if connection.vendor == "postgresql" else 2)


def test_a_prepared_statement_is_prepared_once_a_session(started_game):
    if connection.vendor != "postgresql":
        pytest.skip("prepared statements are PostgreSQL's")
    runs = []
    for _ in range(2):
        with CaptureQueriesContext(connection) as captured:
            assert _run_together([(_NAME, [_pk(started_game)], True)])[0][0] == [(started_game.name,)]
        runs.append(captured.captured_queries[-1]["sql"])
    assert runs[1].startswith("EXECUTE orleans_") and "PREPARE" not in runs[1]


def test_after_an_error_the_next_statements_still_run_prepared(started_game):
    with pytest.raises(DatabaseError), transaction.atomic():  # the second fails after the preparation
        _run_together([('SELECT "version" FROM "games_game" WHERE "id" = %s', [_pk(started_game)], True),
                       ('SELECT 1 FROM "no_such_table"', [])])
    for _ in range(2):  # the statement is found prepared (or prepared again), never prepared twice
        assert _run_together([('SELECT "version" FROM "games_game" WHERE "id" = %s', [_pk(started_game)], True)]
                             )[0][0] == [(Game.objects.get(pk=started_game.pk).version,)]
