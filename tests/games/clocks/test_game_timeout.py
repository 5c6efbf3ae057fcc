"""games.services.game_timeout and the deadline sweep: a clock that runs out applies the
timeout policy once, marks the moves, emails the player once, counts timeouts in a row."""
import pytest
from django.core import mail
from django.urls import reverse

from games.models import Move, Seat
from games.services import game_resolve, game_submit_action, game_timeout
from games.tasks import enforce_deadlines_task
from notifications.models import Notification, NotificationKind


@pytest.fixture
def sweep(django_capture_on_commit_callbacks):
    """Run the deadline sweep as beat would, with its on-commit tasks (emails)."""

    def run():
        with django_capture_on_commit_callbacks(execute=True):
            return enforce_deadlines_task()

    return run


def pick(game, user):
    game.refresh_from_db()
    game_submit_action(game_id=game.pk, user=user, action={"type": "pick", "n": 2},
                       expected_version=game.version)


def resolve(game):
    game.refresh_from_db()
    game_resolve(game_id=game.pk, expected_version=game.version)


def test_nothing_happens_before_the_deadline(fake_engine, clocked_game, frozen_now, sweep,
                                             alice, bob):
    game = clocked_game(alice, bob)
    frozen_now.advance(hours=23, minutes=59)
    assert sweep() == 0
    assert not Move.objects.filter(game=game).exists()


def test_a_clock_that_ran_out_applies_the_timeout_policy_exactly_once(
        fake_engine, clocked_game, frozen_now, sweep, alice, bob):
    game = clocked_game(alice, bob)
    pick(game, bob)
    frozen_now.advance(hours=24, seconds=1)
    assert sweep() == 1
    assert sweep() == 0
    moves = list(Move.objects.filter(game=game, source="timeout"))
    assert [(m.seat, m.action) for m in moves] == [(0 if game.seats.get(user=alice).order == 0
                                                    else 1, {"type": "pick", "n": 1})]
    seat = Seat.objects.get(game=game, user=alice)
    assert (seat.timeouts_in_a_row, seat.absent) == (1, False)
    assert seat.bank_seconds == 6 * 3600  # the increment, for the next wait (round 2 now)


def test_the_service_does_nothing_if_the_version_moved_on_or_the_seat_is_not_awaited(
        fake_engine, clocked_game, frozen_now, alice, bob):
    game = clocked_game(alice, bob)
    alice_order = game.seats.get(user=alice).order
    bob_order = game.seats.get(user=bob).order
    frozen_now.advance(hours=25)
    pick(game, bob)  # bob acts late but before any sweep: his clock stopped, he is not awaited
    assert game_timeout(game_id=game.pk, seat_order=alice_order, expected_version=0) == []
    assert game_timeout(game_id=game.pk, seat_order=bob_order, expected_version=1) == []
    assert len(game_timeout(game_id=game.pk, seat_order=alice_order, expected_version=1)) == 1
    assert game_timeout(game_id=game.pk, seat_order=alice_order, expected_version=1) == []
    assert Move.objects.filter(game=game, source="timeout").count() == 1


def test_the_timed_out_email_is_sent_once(fake_engine, clocked_game, frozen_now, sweep,
                                          alice, bob):
    game = clocked_game(alice, bob)
    pick(game, bob)
    mail.outbox.clear()
    frozen_now.advance(hours=25)
    sweep()
    sweep()
    timed_out = [m for m in mail.outbox if "timed out" in m.subject]
    assert len(timed_out) == 1
    assert timed_out[0].to == ["alice@example.com"]
    assert "Clocked" in timed_out[0].subject
    assert Notification.objects.filter(kind=NotificationKind.TIMED_OUT, game=game).count() == 1


def test_the_log_shows_the_timeout(clocked_game, frozen_now, sweep, client_for, alice, bob):
    """Real engine: round 1 is planning; the policy submits alice's plan as it stands."""
    game = clocked_game(alice, bob)
    frozen_now.advance(days=2)
    assert sweep() == 2  # both planned nothing: both timed out
    move = Move.objects.filter(game=game, source="timeout").first()
    assert move.action == {"type": "submit_plan"}
    page = client_for(bob).get(reverse("games-detail", kwargs={"game_id": game.pk})).text
    assert "(timed out)" in page


def test_a_seat_timed_out_n_times_in_a_row_is_absent_and_a_decision_brings_it_back(
        fake_engine, settings, clocked_game, frozen_now, sweep, alice, bob, client_for):
    settings.GAMES_ABSENT_AFTER_TIMEOUTS = 2  # the fake game has only two rounds
    game = clocked_game(alice, bob)
    for _round in range(2):
        pick(game, bob)
        frozen_now.advance(days=3)
        assert sweep() == 1
        resolve(game)
    seat = Seat.objects.get(game=game, user=alice)
    assert (seat.timeouts_in_a_row, seat.absent) == (2, True)
    last_timeout = [m for m in mail.outbox if "timed out" in m.subject][-1]
    assert "now shown as absent" in last_timeout.body


def test_a_decision_by_the_player_resets_the_count(fake_engine, clocked_game, frozen_now, sweep,
                                                   alice, bob):
    game = clocked_game(alice, bob)
    pick(game, bob)
    frozen_now.advance(days=3)
    sweep()
    resolve(game)
    Seat.objects.filter(game=game, user=alice).update(absent=True)  # as if after more timeouts
    pick(game, alice)
    seat = Seat.objects.get(game=game, user=alice)
    assert (seat.timeouts_in_a_row, seat.absent) == (0, False)


def test_the_default_is_absent_after_three_timeouts():
    from django.conf import settings

    assert settings.GAMES_ABSENT_AFTER_TIMEOUTS == 3
