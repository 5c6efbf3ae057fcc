"""The lock of a write (services.locks._lock_game) does not read again a snapshot this
process keeps a load of (rules.kept_snapshot: the row's stamp is the kept one's); a row
whose snapshot changed since, under another stamp, is read whole."""
import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from games import rules
from games.models import Game
from games.services.locks import PREPARED_SQL, _lock_game

pytestmark = pytest.mark.django_db


def _locked(game_id):
    with transaction.atomic(), CaptureQueriesContext(connection) as captured:
        game = _lock_game(game_id)
    sql = " ".join(PREPARED_SQL.get(q["sql"].split("(")[0].split()[-1], q["sql"]) for q in captured.captured_queries)
    return game, "CASE WHEN" in sql


def test_the_lock_takes_the_kept_snapshot_and_reads_a_changed_one_whole(started_game):
    if connection.vendor != "postgresql":
        pytest.skip("only PostgreSQL batches the lock (SQLite reads the row as it is)")
    rules.load_game(Game.objects.get(pk=started_game.pk))  # this process keeps its load
    stored = Game.objects.get(pk=started_game.pk).state
    game, skipped = _locked(started_game.pk)
    assert skipped and game.state == stored
    assert rules.load_game(game)[1] is rules.load_game(Game.objects.get(pk=started_game.pk))[1]
    changed = {**stored, "round": stored["round"] + 1}
    Game.objects.filter(pk=started_game.pk).update(state=changed)  # another process's write: a new stamp
    game, skipped = _locked(started_game.pk)
    assert skipped and game.state == changed  # asked with the kept stamp, answered whole
