"""With the broker unreachable, submissions are saved and acknowledged; the beat sweeps
resolve the phase and send the emails once it is back. Nothing is lost."""
from django.core import mail
from kombu.exceptions import OperationalError

from games import services
from games.models import Move
from games.tasks import resolve_game_task, resolve_stalled_games_task
from notifications.models import Notification, NotificationStatus
from notifications.tasks import deliver_game_notifications_task, send_due_notifications_task
from tests.support.preferences import right_away


def test_submissions_survive_a_broker_outage_and_the_sweeps_catch_up(
        fake_engine, start_game, committed, monkeypatch, alice, bob):
    right_away(alice, bob)
    game = start_game(alice, bob)
    mail.outbox.clear()

    def unreachable(*args, **kwargs):
        raise OperationalError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")

    with monkeypatch.context() as broker_down:
        for task in (resolve_game_task, deliver_game_notifications_task):
            broker_down.setattr(task, "delay", unreachable)
        for version, user in enumerate((alice, bob), start=game.version):
            move = committed(services.game_submit_action, game_id=game.pk, user=user,
                             action={"type": "pick", "n": 1}, expected_version=version)
            assert move.pk is not None  # acknowledged despite the broker
    assert Move.objects.filter(game=game).count() == 2  # saved, not yet resolved
    # the broker is back; beat runs its sweeps

    assert resolve_stalled_games_task() == 1
    assert Move.objects.filter(game=game, seat=None).count() == 1
    # the resolution's own emails were recorded in its transaction, outside any commit hook
    assert send_due_notifications_task() == 2
    assert sorted(m.to[0] for m in mail.outbox) == ["alice@example.com", "bob@example.com"]
    assert not Notification.objects.filter(game=game, status=NotificationStatus.QUEUED)
