"""games.tasks: thin, idempotent on (game_id, version)."""
import pytest

from games.models import Move
from tests.support.game_driver import everyone_picks
from games.tasks import resolve_game_task, resolve_stalled_games_task


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


def test_the_sweep_resolves_a_phase_whose_task_was_lost(fake_engine, started_game, make_game,
                                                       carol, dave):
    everyone_picks(started_game)  # outside a commit: the on-commit task never ran
    waiting = make_game(carol, dave, seats=2)  # still awaiting its players: left alone
    assert resolve_stalled_games_task() == 1
    assert resolve_stalled_games_task() == 0
    assert Move.objects.filter(game=started_game, seat=None).count() == 1
    assert not Move.objects.filter(game=waiting).exists()


def test_beat_runs_the_deadline_reminder_and_open_game_sweeps():
    from django.conf import settings

    tasks = {entry["task"] for entry in settings.CELERY_BEAT_SCHEDULE.values()}
    # the reminder sweep is a notifications job: it runs under its own app's name
    assert {"games.tasks.enforce_deadlines_task", "notifications.tasks.send_reminders_task",
            "games.tasks.expire_open_games_task"} <= tasks


@pytest.mark.django_db
def test_the_reminder_task_still_answers_to_its_old_games_name():
    from orleans_site.celery import app

    old = app.tasks["games.tasks.send_reminders_task"]  # messages queued before the move
    assert old.name == "games.tasks.send_reminders_task"
    assert old() == 0
