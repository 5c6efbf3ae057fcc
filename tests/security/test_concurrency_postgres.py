"""Requests racing each other on PostgreSQL: real row locks, one connection per thread.

Skipped unless DATABASE_URL is a postgres:// URL (.ci/run sets one). Threads start together
on a ``threading.Barrier``; nothing sleeps. Celery runs eagerly (autouse fixture), so the
resolution task runs on commit in the thread whose submission completed the phase.
"""
from __future__ import annotations

import pytest

import engine
from games import services, tasks
from games.models import Game, Move, Seat
from tests.support.concurrency import assert_log_is_gapless, needs_postgres, run_together
from tests.support.game_driver import new_started_game, state_of, user_at

pytestmark = [needs_postgres, pytest.mark.django_db(transaction=True)]


def submit_with_retry(game_id, user, action, first_version):
    """A client that, refused as stale, reloads the page and submits again (at most 3 times)."""
    version, attempts = first_version, []
    for _ in range(3):
        try:
            services.game_submit_action(game_id=game_id, user=user, action=action,
                                        expected_version=version)
            attempts.append("applied")
            return attempts
        except services.StaleVersion as exc:
            attempts.append("stale")
            version = exc.actual
    return attempts


def test_the_two_last_plans_at_the_same_moment_resolve_the_phase_exactly_once(
        alice, bob, carol):
    game = new_started_game(alice, bob, carol)
    services.game_submit_action(game_id=game.pk, user=user_at(game, 0),
                                action={"type": "submit_plan"}, expected_version=0)
    game.refresh_from_db()
    seen = game.version  # both players loaded the page at this version
    last_two = [user_at(game, 1), user_at(game, 2)]
    results = run_together(*[
        (lambda u=u: submit_with_retry(game.pk, u, {"type": "submit_plan"}, seen))
        for u in last_two
    ])
    for result in results:
        assert not isinstance(result, BaseException), repr(result)
    # another seat's plan does not make a page stale (services._only_others_moved_independently)
    assert sorted(results) == [["applied"], ["applied"]]
    assert Move.objects.filter(game=game, seat__isnull=True).count() == 1
    assert Move.objects.filter(game=game, action={"type": "submit_plan"}).count() == 3
    assert_log_is_gapless(game)
    state = state_of(game)
    assert not engine.needs_resolution(state)
    assert state.data["phase"] != "planning" or state.data["round"] >= 2  # plans revealed


def test_duplicate_resolution_deliveries_racing_the_last_plan_resolve_once(alice, bob, carol):
    """The last plan's on-commit resolution races three duplicate deliveries of the same
    (game, version) task: whatever the interleaving, the phase is resolved once."""
    game = new_started_game(alice, bob, carol)
    for order in range(2):
        game.refresh_from_db()
        services.game_submit_action(game_id=game.pk, user=user_at(game, order),
                                    action={"type": "submit_plan"}, expected_version=game.version)
    game.refresh_from_db()
    last_plan_version = game.version
    complete_version = last_plan_version + 1  # the version at which the phase is complete

    def last_plan():
        services.game_submit_action(game_id=game.pk, user=user_at(game, 2),
                                    action={"type": "submit_plan"},
                                    expected_version=last_plan_version)
        return "submitted"

    def duplicate_delivery():
        return tasks.resolve_game_task.run(str(game.pk), complete_version)

    results = run_together(last_plan, duplicate_delivery, duplicate_delivery, duplicate_delivery)
    assert results[0] == "submitted", repr(results[0])
    assert all(r in (True, False) for r in results[1:]), results
    assert results[1:].count(True) <= 1
    assert Move.objects.filter(game=game, seat__isnull=True).count() == 1
    assert Move.objects.get(game=game, seq=complete_version + 1).seat is None
    assert_log_is_gapless(game)


def test_the_same_click_from_two_tabs_at_the_same_moment_applies_once(alice, bob):
    game = new_started_game(alice, bob)
    user = user_at(game, 0)
    action = engine.legal_actions(state_of(game), 0)[0]

    def click():
        services.game_submit_action(game_id=game.pk, user=user, action=action,
                                    expected_version=0)
        return "applied"

    results = run_together(click, click)
    assert results.count("applied") == 1, results
    (refused,) = [r for r in results if r != "applied"]
    assert isinstance(refused, services.StaleVersion)
    assert Move.objects.filter(game=game).count() == 1
    assert_log_is_gapless(game)


def test_two_players_racing_for_the_last_seat(alice, bob, carol, dave, make_game):
    game = services.game_create(creator=alice, name="Race", max_seats=3, options={})
    services.seat_join(game_id=game.pk, user=bob)

    def join(user):
        return lambda: services.seat_join(game_id=game.pk, user=user)

    results = run_together(join(carol), join(dave))
    seated = [r for r in results if isinstance(r, Seat)]
    refused = [r for r in results if not isinstance(r, Seat)]
    assert len(seated) == 1 and len(refused) == 1, results
    assert isinstance(refused[0], (services.GameFull, services.WrongStatus)), repr(refused[0])
    game.refresh_from_db()
    assert game.is_active and game.version == 0
    assert sorted(game.seats.values_list("order", flat=True)) == [0, 1, 2]
    assert game.state["options"]["players"] == 3


def test_the_same_user_joining_twice_at_the_same_moment_gets_one_seat(alice, bob):
    game = services.game_create(creator=alice, name="Race", max_seats=4, options={})
    results = run_together(*[(lambda: services.seat_join(game_id=game.pk, user=bob))] * 2)
    assert sum(isinstance(r, Seat) for r in results) == 1, results
    assert any(isinstance(r, services.AlreadySeated) for r in results), results
    assert game.seats.filter(user=bob).count() == 1


def test_start_and_cancel_racing_leave_one_consistent_outcome(alice, bob):
    game = services.game_create(creator=alice, name="Race", max_seats=4, options={})
    services.seat_join(game_id=game.pk, user=bob)
    results = run_together(
        lambda: services.game_start(game_id=game.pk, user=alice),
        lambda: services.game_cancel(game_id=game.pk, user=alice),
    )
    assert sum(isinstance(r, Game) for r in results) == 1, results
    assert sum(isinstance(r, services.WrongStatus) for r in results) == 1, results
    game.refresh_from_db()
    assert (game.status, game.state is None) in {("active", False), ("cancelled", True)}


def test_leaving_while_the_last_seat_is_taken(alice, bob, carol):
    """bob leaves while carol takes the last seat: either order is fine, never a broken game."""
    game = services.game_create(creator=alice, name="Race", max_seats=3, options={})
    services.seat_join(game_id=game.pk, user=bob)
    results = run_together(
        lambda: services.seat_leave(game_id=game.pk, user=bob),
        lambda: services.seat_join(game_id=game.pk, user=carol),
    )
    game.refresh_from_db()
    orders = sorted(game.seats.values_list("order", flat=True))
    assert orders == list(range(len(orders)))
    if game.is_active:  # carol filled the table before bob could leave
        assert isinstance(results[0], services.WrongStatus)
        assert game.state["options"]["players"] == len(orders) == 3
    else:
        assert results[0] is None and isinstance(results[1], Seat)
        assert orders == [0, 1] and game.state is None


def _castles_planned(alice, bob):
    """Round 1 action phase, seat 0 to act, both seats with the Castle ready (the reveal
    ran on commit: Celery is eager)."""
    from tests.support.game_driver import CASTLE_PLAN

    game = new_started_game(alice, bob)
    for order in (0, 1):
        game.refresh_from_db()
        services.game_submit_action(game_id=game.pk, user=user_at(game, order), expected_version=game.version,
                                    action={"type": "submit_plan", "placements": CASTLE_PLAN})
    assert engine.awaiting(state_of(game)) == {0: "action"}
    return game


def test_queueing_a_place_while_using_it_by_hand_uses_it_once(alice, bob):
    """Tab A queues the Castle (which would play at once: it is the player's turn) while tab
    B clicks it: the Castle is used exactly once, the log has no gap."""
    castle = {"type": "activate", "space": "castle"}
    game = _castles_planned(alice, bob)
    user, version = user_at(game, 0), game.version

    def queue():
        services.seat_queue_change(game_id=game.pk, user=user, op="add", entry=castle)
        return "queued"

    def click():
        services.game_submit_action(game_id=game.pk, user=user, action=castle, expected_version=version)
        return "clicked"

    run_together(queue, click)
    used = Move.objects.filter(game=game, seat=0, action=castle).count()
    assert used == 1
    assert_log_is_gapless(game)


def test_two_tabs_adding_at_the_same_moment_keep_both_entries(alice, bob):
    """Planning: tab A queues the Castle, tab B a pass, at the same moment: the row lock
    makes one edit wait for the other, so neither is lost."""
    game = new_started_game(alice, bob)
    user = user_at(game, 0)
    entries = [{"type": "activate", "space": "castle"}, {"type": "pass"}]

    def add(entry):
        return lambda: services.seat_queue_change(game_id=game.pk, user=user, op="add", entry=entry)

    results = run_together(add(entries[0]), add(entries[1]))
    queue = Seat.objects.get(game=game, order=0).action_queue
    # a pass queued first refuses anything after it; otherwise both are kept
    assert queue == entries or (queue == [entries[1]] and any(isinstance(r, Exception) for r in results)), results
