"""games.services.game_submit_action: the single write path for moves."""
import pytest

import engine
from games.models import GameStatus, Move
from games.services import NotSeated, StaleVersion, WrongStatus, game_submit_action
from tests.support.game_driver import awaited_move, idle_seat, play_fake_game_to_the_end
from tests.support.queries import statements


def _snapshot(game):
    game.refresh_from_db()
    return game.version, game.state, list(Move.objects.filter(game=game).values_list("seq", flat=True))


def test_it_applies_the_action_and_appends_a_move(started_game):
    seat, action = awaited_move(started_game)
    expected_state, expected_events = engine.apply(
        engine.from_json(started_game.state), seat.order, action
    )
    move = game_submit_action(
        game_id=started_game.pk, user=seat.user, action=action, expected_version=0
    )
    started_game.refresh_from_db()
    assert started_game.version == 1
    assert (move.seq, move.seat, move.action) == (1, seat.order, action)
    assert move.events == expected_events
    assert started_game.state == engine.to_json(expected_state)


def test_it_rejects_a_stale_version_and_changes_nothing(started_game):
    seat, action = awaited_move(started_game)
    before = _snapshot(started_game)
    with pytest.raises(StaleVersion, match=r"move number \(7\) is not the game's \(move 0\)"):
        game_submit_action(game_id=started_game.pk, user=seat.user, action=action, expected_version=7)
    assert _snapshot(started_game) == before


def test_it_rejects_a_user_without_a_seat(started_game, carol):
    _, action = awaited_move(started_game)
    before = _snapshot(started_game)
    with pytest.raises(NotSeated):
        game_submit_action(game_id=started_game.pk, user=carol, action=action, expected_version=0)
    assert _snapshot(started_game) == before


@pytest.mark.parametrize(
    "action", [{"type": "no_such_action"}, {"type": "pick", "n": 99}, {}, {"type": 3}]
)
def test_it_rejects_illegal_or_malformed_actions_and_changes_nothing(started_game, action):
    seat, _ = awaited_move(started_game)
    before = _snapshot(started_game)
    with pytest.raises(engine.RulesError):
        game_submit_action(game_id=started_game.pk, user=seat.user, action=action, expected_version=0)
    assert _snapshot(started_game) == before


def test_it_rejects_a_seat_that_is_not_awaited(fake_engine, started_game):
    seat, action = awaited_move(started_game)
    game_submit_action(game_id=started_game.pk, user=seat.user, action=action, expected_version=0)
    before = _snapshot(started_game)
    with pytest.raises(fake_engine.NotYourTurn):
        game_submit_action(game_id=started_game.pk, user=seat.user, action=action, expected_version=1)
    assert _snapshot(started_game) == before
    assert idle_seat(started_game) == seat


def test_it_refuses_a_game_that_has_not_started(make_game, alice, bob):
    game = make_game(alice, bob)
    with pytest.raises(WrongStatus):
        game_submit_action(game_id=game.pk, user=alice, action={"type": "pass"}, expected_version=0)


def test_it_updates_whose_turn_it_is(fake_engine, started_game):
    seat, action = awaited_move(started_game)
    game_submit_action(game_id=started_game.pk, user=seat.user, action=action, expected_version=0)
    seat.refresh_from_db()
    assert seat.awaiting == ""
    assert started_game.seats.exclude(pk=seat.pk).get().awaiting == "pick"


def test_it_queues_the_resolution_on_commit_once_everyone_has_submitted(
    fake_engine, started_game, django_capture_on_commit_callbacks
):
    alice_seat, bob_seat = started_game.seats.order_by("order")
    with django_capture_on_commit_callbacks() as callbacks:
        game_submit_action(game_id=started_game.pk, user=alice_seat.user,
                           action={"type": "pick", "n": 2}, expected_version=0)
    assert callbacks == []
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        game_submit_action(game_id=started_game.pk, user=bob_seat.user,
                           action={"type": "pick", "n": 1}, expected_version=1)
    # the resolution, then the turn emails of the round it opens
    assert [c.args[0].name for c in callbacks] == [
        "games.tasks.resolve_game_task", "notifications.tasks.deliver_game_notifications_task"]
    started_game.refresh_from_db()
    assert started_game.version == 3
    resolution = Move.objects.get(game=started_game, seq=3)
    assert resolution.seat is None and resolution.action == {"type": "resolve"}
    assert fake_engine.from_json(started_game.state).round == 2


def test_it_finishes_the_game_and_stores_the_outcome(
    fake_engine, started_game, django_capture_on_commit_callbacks
):
    first, second = started_game.seats.order_by("order")
    play_fake_game_to_the_end(started_game, django_capture_on_commit_callbacks, winner=first.user)
    assert started_game.status == GameStatus.FINISHED
    assert started_game.finished_at is not None
    assert [r["seat"] for r in started_game.outcome["ranking"]] == [first.order, second.order]
    assert not started_game.seats.exclude(awaiting="").exists()


def _writes(captured, table):
    return [sql for sql in statements(captured) if sql.startswith(f'UPDATE "{table}"')]


def test_a_decision_that_changes_nothing_of_its_seat_writes_no_seat_row(fake_engine, started_game):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    seat, action = awaited_move(started_game)  # no clock, present, never timed out: nothing to reset
    with CaptureQueriesContext(connection) as captured:
        game_submit_action(game_id=started_game.pk, user=seat.user, action=action, expected_version=0)
    assert not [sql for sql in _writes(captured, "games_seat") if "timeouts_in_a_row" in sql]


def test_a_decision_brings_a_timed_out_player_back(fake_engine, started_game):
    seat, action = awaited_move(started_game)
    seat.timeouts_in_a_row, seat.absent = 2, True
    seat.save(update_fields=["timeouts_in_a_row", "absent"])
    game_submit_action(game_id=started_game.pk, user=seat.user, action=action, expected_version=0)
    seat.refresh_from_db()
    assert (seat.timeouts_in_a_row, seat.absent) == (0, False)


def test_a_move_reads_the_seats_once_when_no_seat_has_a_queue(fake_engine, started_game):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    seat, action = awaited_move(started_game)
    with CaptureQueriesContext(connection) as captured:
        game_submit_action(game_id=started_game.pk, user=seat.user, action=action, expected_version=0)
    reads = [sql for sql in statements(captured) if sql.startswith("SELECT") and 'FROM "games_seat"' in sql]
    assert len(reads) == 2  # the lock's check of the user's seat, then every seat once (the store reuses them)


def test_seated_only_refuses_a_user_without_a_seat_before_anything_else(started_game, carol):
    from games.models import GameStatus as Status

    _, action = awaited_move(started_game)
    started_game.status = Status.FINISHED  # a seated player would hear WrongStatus first
    started_game.save(update_fields=["status"])
    before = _snapshot(started_game)
    with pytest.raises(NotSeated):
        game_submit_action(game_id=started_game.pk, user=carol, action=action, expected_version=9,
                           seated_only=True)
    with pytest.raises(WrongStatus):  # without it, the refusals come in their order
        game_submit_action(game_id=started_game.pk, user=carol, action=action, expected_version=9)
    assert _snapshot(started_game) == before


def test_a_game_that_does_not_exist_is_not_found_or_not_seated_with_seated_only(started_game, alice):
    import uuid

    from games.services import GameNotFound

    _, action = awaited_move(started_game)
    with pytest.raises(GameNotFound):
        game_submit_action(game_id=uuid.uuid4(), user=alice, action=action, expected_version=0)
    with pytest.raises(NotSeated):
        game_submit_action(game_id=uuid.uuid4(), user=alice, action=action, expected_version=0, seated_only=True)


def test_a_stale_version_is_refused_through_the_seated_lock(started_game):
    seat, action = awaited_move(started_game)
    before = _snapshot(started_game)
    with pytest.raises(StaleVersion):
        game_submit_action(game_id=started_game.pk, user=seat.user, action=action, expected_version=3,
                           seated_only=True)
    assert _snapshot(started_game) == before


def test_every_move_stored_through_the_services_has_the_round_its_log_gives(alice, bob):
    from tests.support.game_driver import new_started_game, play_until

    game = new_started_game(alice, bob, seed=5)
    play_until(game, lambda state: state.round >= 3)
    moves = list(Move.objects.filter(game=game).order_by("seq").values_list("events", "round"))
    assert [r for _, r in moves] == Move.rounds_of([events for events, _ in moves], 1)
    assert len({r for _, r in moves}) >= 3


def test_the_seats_one_decision_changes_are_stored_in_one_write_field_by_field(clocked_game, frozen_now,
                                                                              alice, bob):
    import datetime as dt

    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from games.models import Seat
    from games.services.store import _AWAITING_FIELDS
    from tests.support.game_driver import kind_awaited, play_until, state_of, user_at

    game = clocked_game(alice, bob, simultaneous_followers=False)
    play_until(game, kind_awaited("action"), lowest_seat_first=True)
    game.refresh_from_db()
    state = state_of(game)
    order = next(o for o, kind in engine.awaiting(state).items() if kind == "action")
    frozen_now.advance(hours=1)
    action = next(a for a in engine.legal_actions(state, order) if a["type"] == "pass")
    with CaptureQueriesContext(connection) as captured:
        move = game_submit_action(game_id=game.pk, user=user_at(game, order), action=action,
                                  expected_version=game.version)
    seat_writes = [sql for sql in statements(captured) if sql.startswith('UPDATE "games_seat"') and "CASE" in sql]
    assert len(seat_writes) == 1
    written = {seat.pk: seat for seat in move.game._synced_seats}
    stored = {seat.pk: seat for seat in Seat.objects.filter(game=game)}
    for pk, seat in written.items():
        assert [getattr(stored[pk], name) for name in _AWAITING_FIELDS] == \
            [getattr(seat, name) for name in _AWAITING_FIELDS]
    mine = next(s for s in stored.values() if s.order == order)
    theirs = next(s for s in stored.values() if s.order != order)
    assert (mine.awaiting, mine.awaiting_since, mine.clock_started_at, mine.deadline, mine.next_reminder_at) == \
        ("", None, None, None, None)
    assert theirs.awaiting == "action"
    assert theirs.awaiting_since == theirs.clock_started_at == frozen_now.now
    assert theirs.deadline == frozen_now.now + dt.timedelta(seconds=theirs.bank_seconds)
    assert theirs.next_reminder_at is not None


def test_a_clocked_decision_writes_its_seats_clock_with_the_awaited_seats_once(clocked_game, frozen_now, alice, bob):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from games.models import Seat
    from tests.support.game_driver import kind_awaited, play_until, state_of, user_at

    game = clocked_game(alice, bob, simultaneous_followers=False)
    play_until(game, kind_awaited("action"), lowest_seat_first=True)
    game.refresh_from_db()
    state = state_of(game)
    order = next(o for o, kind in engine.awaiting(state).items() if kind == "action")
    before = Seat.objects.get(game=game, order=order)
    frozen_now.advance(minutes=5)
    action = next(a for a in engine.legal_actions(state, order) if a["type"] == "pass")
    with CaptureQueriesContext(connection) as captured:
        game_submit_action(game_id=game.pk, user=user_at(game, order), action=action, expected_version=game.version)
    assert len(_writes(captured, "games_seat")) == 1  # the decision's clock and the awaited seats together
    after = Seat.objects.get(game=game, order=order)
    # five minutes charged, the increment added, the clock stopped (no longer awaited)
    assert after.bank_seconds == min(game.clock_cap_seconds,
                                     before.bank_seconds - 300 + game.clock_increment_seconds)
    assert (after.clock_started_at, after.deadline, after.awaiting) == (None, None, "")
