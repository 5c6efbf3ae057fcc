"""games.services.game_resolve: automatic resolution of a completed simultaneous phase."""
from games.models import Move
from games.services import game_resolve
from tests.support.game_driver import everyone_picks


def test_it_records_an_automatic_move(fake_engine, started_game):
    everyone_picks(started_game)
    move = game_resolve(game_id=started_game.pk, expected_version=2)
    assert (move.seq, move.seat) == (3, None)
    assert move.events and "Round 1" in move.events[0]["text"]
    started_game.refresh_from_db()
    assert started_game.version == 3
    assert set(started_game.seats.values_list("awaiting", flat=True)) == {"pick"}


def test_it_does_nothing_when_the_version_moved_on(fake_engine, started_game):
    everyone_picks(started_game)
    assert game_resolve(game_id=started_game.pk, expected_version=1) is None
    assert Move.objects.filter(game=started_game).count() == 2


def test_it_does_nothing_when_nothing_needs_resolving(fake_engine, started_game):
    assert game_resolve(game_id=started_game.pk, expected_version=0) is None
    started_game.refresh_from_db()
    assert started_game.version == 0


def test_it_is_idempotent(fake_engine, started_game):
    everyone_picks(started_game)
    assert game_resolve(game_id=started_game.pk, expected_version=2) is not None
    assert game_resolve(game_id=started_game.pk, expected_version=2) is None
    assert Move.objects.filter(game=started_game).count() == 3
