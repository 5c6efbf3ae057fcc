"""A turn the action queue plays is not a turn the player is awaited for (issue #15): no
turn-notification row, no clock start, no clock time charged, ``awaiting_since`` unchanged;
when the queue stops at a decision the player must make, the seat is awaited as usual."""
from __future__ import annotations

import engine
from games.models import Move, Seat
from notifications.models import Notification, NotificationKind
from tests.support.game_driver import (CASTLE_PLAN, THREE_PLACE_PLAN, VILLAGE_PLAN, queue_set, richer_markets, seats,
                                       submit)


def turn_rows(game, seat):
    return list(Notification.objects.filter(game=game, recipient=seat.user, kind=NotificationKind.TURN)
                .values_list("version", flat=True))


def test_a_queued_turn_records_no_notification_and_charges_no_clock_time(
        clocked_game, frozen_now, alice, bob, django_capture_on_commit_callbacks):
    game = clocked_game(alice, bob)
    richer_markets(game)  # alice readies three places: the round goes on after bob's queued Castle
    by = seats(game)
    queue_set(game_id=game.pk, user=by[1].user, entries=[{"type": "activate", "space": "castle"}, {"type": "pass"}])
    with django_capture_on_commit_callbacks(execute=True):
        submit(game, by[0], {"type": "submit_plan", "placements": THREE_PLACE_PLAN})
        submit(game, by[1], {"type": "submit_plan", "placements": CASTLE_PLAN})
    game.refresh_from_db()
    bob_before = Seat.objects.get(game=game, order=1)
    rows_before = turn_rows(game, bob_before)
    assert engine.awaiting(engine.from_json(game.state)) == {0: "action"}
    frozen_now.advance(hours=5)
    with django_capture_on_commit_callbacks(execute=True):
        submit(game, by[0], {"type": "activate", "space": "castle"})  # bob's turn: his queue plays the Castle
    assert Move.objects.filter(game=game, seat=1, source="queue").count() == 1
    bob_after = Seat.objects.get(game=game, order=1)
    assert turn_rows(game, bob_after) == rows_before
    assert (bob_after.awaiting, bob_after.awaiting_since, bob_after.clock_started_at) == ("", None, None)
    assert bob_after.bank_seconds == min(game.clock_cap_seconds,
                                         bob_before.bank_seconds + game.clock_increment_seconds)
    alice_seat = Seat.objects.get(game=game, order=0)
    assert alice_seat.awaiting == "action"  # alice's turn again: she is awaited (and told)


def test_a_queue_that_stops_at_a_choice_awaits_its_player(
        clocked_game, frozen_now, alice, bob, django_capture_on_commit_callbacks):
    game = clocked_game(alice, bob)
    by = seats(game)
    queue_set(game_id=game.pk, user=by[0].user, entries=[{"type": "activate", "space": "village"}])
    with django_capture_on_commit_callbacks(execute=True):
        submit(game, by[0], {"type": "submit_plan", "placements": VILLAGE_PLAN})
        submit(game, by[1], {"type": "submit_plan", "placements": CASTLE_PLAN})
    alice_seat = Seat.objects.get(game=game, order=0)
    assert alice_seat.awaiting == "action" and alice_seat.clock_started_at is not None
    assert alice_seat.awaiting_since is not None
    assert alice_seat.action_queue_note == "Your queue waits at “Use Village”: choose how to use it."
    with django_capture_on_commit_callbacks(execute=True):
        submit(game, by[0], {"type": "activate", "space": "village", "recruit": "boatman"})
    alice_seat.refresh_from_db()
    assert (alice_seat.action_queue, alice_seat.action_queue_note) == ([], "")  # chosen by hand: read, cleared
