"""The lock of a write (services.locks._lock_game) does not read again a snapshot this
process keeps a load of (rules.kept_snapshot: the row's stamp is the kept one's); a row
whose snapshot changed since, under another stamp, is read whole."""
import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

import engine
from games import rules
from games.models import Game
from games.selectors import game_with_seat
from games.services import game_take_back
from games.services.locks import _lock_game
from games.statements import PREPARED_SQL
from tests.support.game_driver import CASTLE_PLAN, new_started_game, play_until, seats, submit

pytestmark = pytest.mark.django_db


def _locked(game_id):
    with transaction.atomic(), CaptureQueriesContext(connection) as captured:
        game = _lock_game(game_id)
    sql = " ".join(PREPARED_SQL.get(q["sql"].split("(")[0].split()[-1], q["sql"]) for q in captured.captured_queries)
    return game, "CASE WHEN" in sql


def test_the_lock_takes_the_kept_snapshot_and_reads_a_changed_one_whole(started_game):
    if connection.vendor != "postgresql":
        pytest.skip("only PostgreSQL batches the lock (SQLite reads the row as it is)")
    stored = Game.objects.get(pk=started_game.pk).state
    first, skipped = _locked(started_game.pk)  # snapshot and stamp read together: trusted
    assert not skipped
    rules.load_game(first)  # this process keeps its load
    game, skipped = _locked(started_game.pk)
    assert skipped and game.state == stored
    assert rules.load_game(game)[1] is rules.load_game(first)[1]
    changed = {**stored, "round": stored["round"] + 1}
    Game.objects.filter(pk=started_game.pk).update(state=changed)  # another process's write: a new stamp
    game, skipped = _locked(started_game.pk)
    assert skipped and game.state == changed  # asked with the kept stamp, answered whole


def test_a_stamp_read_apart_from_its_snapshot_is_never_trusted_by_the_lock(alice, bob):
    """A page reads the row's stamp first and its snapshot later, after a move committed
    (stamp A, snapshot B); a take-back in another process brings the row back to stamp A.
    The next lock in this process must read A's snapshot, not the B this process parsed."""
    if connection.vendor != "postgresql":
        pytest.skip("only PostgreSQL's lock leaves a kept snapshot out")
    game = play_until(new_started_game(alice, bob, seed=11),
                      lambda s: sorted(engine.awaiting(s).items()) == [(0, "plan"), (1, "plan")])
    game.refresh_from_db()
    stamp_a, state_a = game.state_stamp, game.state
    user0 = seats(game)[0].user
    # process P: a page read, snapshot deferred (stamp s_A)
    page_game, _ = game_with_seat(game.pk, user0, state=False)
    assert page_game.state_stamp == stamp_a
    # meanwhile a move commits (any process)
    submit(game, seats(game)[0], {"type": "submit_plan", "placements": CASTLE_PLAN})
    game.refresh_from_db()
    stamp_b = game.state_stamp
    assert stamp_b != stamp_a
    # P's page misses the cache: the deferred snapshot is read now (B), loaded and kept
    rules.load_game(page_game)
    assert page_game.state_stamp == stamp_a and page_game.state == game.state  # stamp A, content B
    p_memory = (dict(rules._LOADED), dict(rules._NEWEST))
    # the take-back runs in another process Q (its memos are its own)
    game_take_back(game_id=game.pk, user=user0, expected_version=game.version)
    game.refresh_from_db()
    assert game.state_stamp == stamp_a
    # back in P
    rules._LOADED.clear(); rules._LOADED.update(p_memory[0])
    rules._NEWEST.clear(); rules._NEWEST.update(p_memory[1])
    with transaction.atomic():
        locked = _lock_game(game.pk)
        state = rules.load_game(locked)[1]
    assert locked.state == state_a and state.data == engine.from_json(state_a).data
