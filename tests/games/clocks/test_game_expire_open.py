"""games.services.game_expire_open and its sweep: open games not started in time are
cancelled, their creator emailed once."""
from django.core import mail

from games.models import GameStatus
from games.services import game_expire_open
from games.tasks import expire_open_games_task


def test_an_old_open_game_is_cancelled_and_the_creator_emailed_once(
        make_game, frozen_now, settings, alice, bob, django_capture_on_commit_callbacks):
    settings.GAMES_OPEN_GAME_MAX_DAYS = 30
    game = make_game(alice, bob, seats=3)
    frozen_now.advance(days=29)
    assert expire_open_games_task() == 0
    frozen_now.advance(days=1, minutes=1)
    with django_capture_on_commit_callbacks(execute=True):
        assert expire_open_games_task() == 1
    with django_capture_on_commit_callbacks(execute=True):
        assert expire_open_games_task() == 0
    game.refresh_from_db()
    assert game.status == GameStatus.CANCELLED
    assert [m.to for m in mail.outbox] == [["alice@example.com"]]
    assert "did not start in time" in mail.outbox[0].subject


def test_a_started_game_is_never_expired(fake_engine, started_game, frozen_now):
    frozen_now.advance(days=400)
    assert game_expire_open(game_id=started_game.pk) is False
    started_game.refresh_from_db()
    assert started_game.status == GameStatus.ACTIVE
