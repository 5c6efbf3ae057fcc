"""games.tasks: thin, idempotent on (game_id, version)."""
from games.models import Move
from tests.games.helpers import everyone_picks
from games.tasks import resolve_game_task


def test_it_resolves_a_completed_phase(fake_engine, started_game):
    everyone_picks(started_game)
    assert resolve_game_task.delay(str(started_game.pk), 2).get() is True
    assert Move.objects.filter(game=started_game, seat=None).count() == 1


def test_a_duplicate_delivery_does_nothing(fake_engine, started_game):
    everyone_picks(started_game)
    resolve_game_task(str(started_game.pk), 2)
    assert resolve_game_task(str(started_game.pk), 2) is False
    assert Move.objects.filter(game=started_game).count() == 3


def test_a_late_delivery_does_nothing(fake_engine, started_game):
    everyone_picks(started_game)
    assert resolve_game_task(str(started_game.pk), 1) is False
    started_game.refresh_from_db()
    assert started_game.version == 2
