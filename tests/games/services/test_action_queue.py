"""The action queue: actions queued while planning are played on the seat's turns
(games.services.seat_queue_change and _play_queues), also after a timeout; a queue that no
longer fits is dropped. The queue card and its form: tests/games/views/test_queue.py."""
import pytest

import engine
from games import services
from games.models import Game, Move, Seat
from tests.support.game_driver import (CASTLE_PLAN, THREE_PLACE_PLAN, VILLAGE_PLAN, both_plan_the_castle, moves_after,
                                       queue_set, richer_markets, seats, submit)


def test_queued_actions_play_on_the_seats_turn_and_the_log_marks_them(started_game,
                                                                         django_capture_on_commit_callbacks):
    by_order = seats(started_game)
    queue_set(game_id=started_game.pk, user=by_order[0].user,
              entries=[{"type": "activate", "space": "castle"}, {"type": "pass"}])
    queue_set(game_id=started_game.pk, user=by_order[1].user,
              entries=[{"type": "activate", "space": "castle"}, {"type": "pass"}])
    both_plan_the_castle(started_game, django_capture_on_commit_callbacks)
    queued = list(Move.objects.filter(game=started_game, source="queue").values_list("seat", "action"))
    assert (0, {"type": "activate", "space": "castle"}) in queued
    assert (1, {"type": "activate", "space": "castle"}) in queued
    state = engine.from_json(started_game.state)
    assert state.round == 2  # both castles used, both passed, the round ended by itself
    assert all(p["tracks"]["knight"] == 1 for p in state.data["players"])
    # what is left (a "pass" the engine already made by itself) belongs to round 1: ignored now
    assert all(not s.action_queue or s.action_queue_round < state.round for s in started_game.seats.all())
    from games.selectors import game_moves, move_log

    entries = [e for r in move_log(list(game_moves(started_game)), {0: "a", 1: "b"}) for e in r.entries]
    assert any(e["source"] == "queue" and "uses Castle" in e["text"] for e in entries)


def test_a_queued_action_that_is_not_legal_drops_the_queue(started_game, django_capture_on_commit_callbacks):
    by_order = seats(started_game)
    queue_set(game_id=started_game.pk, user=by_order[0].user,
              entries=[{"type": "activate", "space": "university"}, {"type": "pass"}])
    both_plan_the_castle(started_game, django_capture_on_commit_callbacks)
    assert not Move.objects.filter(game=started_game, source="queue", seat=0).exists()
    by_order[0].refresh_from_db()
    assert by_order[0].action_queue == []
    state = engine.from_json(started_game.state)
    assert engine.awaiting(state).get(0) == "action"  # the player decides by hand


def test_a_dropped_queue_leaves_its_player_the_engines_reason(started_game, django_capture_on_commit_callbacks):
    by_order = seats(started_game)
    queue_set(game_id=started_game.pk, user=by_order[0].user,
              entries=[{"type": "activate", "space": "university"}, {"type": "pass"}])
    both_plan_the_castle(started_game, django_capture_on_commit_callbacks)
    by_order[0].refresh_from_db()
    assert by_order[0].action_queue_note == (
        "Your queue stopped at “Use University”: it could not be played when your turn came, so the rest "
        "was dropped. The University is not ready: not all its circles are filled.")


def test_a_choice_the_queue_does_not_fix_waits_for_the_player(started_game, django_capture_on_commit_callbacks):
    by_order = seats(started_game)
    queue_set(game_id=started_game.pk, user=by_order[0].user, entries=[{"type": "activate", "space": "village"}])
    with django_capture_on_commit_callbacks(execute=True):
        submit(started_game, by_order[0], {"type": "submit_plan", "placements": VILLAGE_PLAN})
        submit(started_game, by_order[1], {"type": "submit_plan"})
    started_game.refresh_from_db()
    by_order[0].refresh_from_db()
    assert by_order[0].action_queue == [{"type": "activate", "space": "village"}]  # recruit what?
    submit(started_game, by_order[0], {"type": "activate", "space": "village", "recruit": "boatman"})
    by_order[0].refresh_from_db()
    assert by_order[0].action_queue == []  # the hand-made choice took the queue's head


def test_queue_entries_are_checked(started_game, monkeypatch):
    alice_seat = seats(started_game)[0]
    with pytest.raises(services.QueueError):
        queue_set(game_id=started_game.pk, user=alice_seat.user, entries=[{"type": "draw", "count": 2}])
    with pytest.raises(services.QueueError):
        queue_set(game_id=started_game.pk, user=alice_seat.user,
                  entries=[{"type": "activate", "space": "hay_rick"}])  # not owned
    monkeypatch.setattr(services.queue, "ACTION_QUEUE_LIMIT", 2)
    with pytest.raises(services.QueueError, match="At most 2"):
        queue_set(game_id=started_game.pk, user=alice_seat.user,
                  entries=[{"type": "activate", "space": s} for s in ("castle", "village", "university")])


def test_the_log_marks_only_the_queued_moves_own_line(started_game, django_capture_on_commit_callbacks):
    from games.selectors import game_moves, move_log

    by_order = seats(started_game)
    for order in (0, 1):
        queue_set(game_id=started_game.pk, user=by_order[order].user,
                  entries=[{"type": "activate", "space": "castle"}, {"type": "pass"}])
    both_plan_the_castle(started_game, django_capture_on_commit_callbacks)
    entries = [e for r in move_log(list(game_moves(started_game)), {0: "a", 1: "b"}) for e in r.entries]
    marked = [e["text"] for e in entries if e["source"] == "queue"]
    assert marked and all("uses Castle" in t or "passes" in t for t in marked)
    assert not any(e["source"] == "queue" for e in entries if "Round 2 begins" in e["text"])


# --- two queues, prompts and timeouts ------------------------------------------------------


def test_two_queues_alternate_until_both_have_passed(make_game, alice, bob, django_capture_on_commit_callbacks):
    game = make_game(alice, bob, seats=2)
    richer_markets(game)
    by = seats(game)
    queue_set(game_id=game.pk, user=by[0].user, entries=[
        {"type": "activate", "space": "castle"}, {"type": "activate", "space": "farmhouse"},
        {"type": "activate", "space": "university"}, {"type": "pass"}])
    queue_set(game_id=game.pk, user=by[1].user, entries=[
        {"type": "activate", "space": "university"}, {"type": "pass"}])
    with django_capture_on_commit_callbacks(execute=True):
        for seat in by.values():
            submit(game, seat, {"type": "submit_plan", "placements": THREE_PLACE_PLAN})
    played = [(seat, action) for seat, queued, action in moves_after(game, 3) if queued]
    assert played == [
        (0, {"type": "activate", "space": "castle"}), (1, {"type": "activate", "space": "university"}),
        (0, {"type": "activate", "space": "farmhouse"}), (1, {"type": "pass"}),
        (0, {"type": "activate", "space": "university"}),
    ]
    game.refresh_from_db()
    assert engine.from_json(game.state).round == 2


def test_a_queued_pass_stops_at_the_technology_prompt_and_the_other_queue_resumes_after_it(
        make_game, alice, bob, django_capture_on_commit_callbacks):
    game = make_game(alice, bob, seats=2)
    richer_markets(game)
    data = dict(game.state)
    data["players"][0]["technology_pending"] = 1
    Game.objects.filter(pk=game.pk).update(state=data)
    by = seats(game)
    queue_set(game_id=game.pk, user=by[0].user, entries=[
        {"type": "activate", "space": "castle"}, {"type": "pass"}])
    queue_set(game_id=game.pk, user=by[1].user, entries=[
        {"type": "activate", "space": "castle"}, {"type": "activate", "space": "farmhouse"}, {"type": "pass"}])
    with django_capture_on_commit_callbacks(execute=True):
        for seat in by.values():
            submit(game, seat, {"type": "submit_plan", "placements": THREE_PLACE_PLAN})
    game.refresh_from_db()
    state = engine.from_json(game.state)
    assert engine.awaiting(state) == {0: "technology"}
    assert Seat.objects.get(game=game, order=0).action_queue == []  # the pass emptied it
    with django_capture_on_commit_callbacks(execute=True):
        submit(game, by[0], engine.legal_actions(state, 0)[0])
    assert [(s, a["type"]) for s, q, a in moves_after(game, 7)] == [(1, "activate"), (1, "pass")]


def test_a_timeout_passes_and_the_next_seats_queue_plays_with_its_increment(
        clocked_game, frozen_now, alice, bob, django_capture_on_commit_callbacks):
    game = clocked_game(alice, bob)
    by = seats(game)
    queue_set(game_id=game.pk, user=by[0].user, entries=[{"type": "activate", "space": "village"}])
    queue_set(game_id=game.pk, user=by[1].user,
                            entries=[{"type": "activate", "space": "castle"}, {"type": "pass"}])
    with django_capture_on_commit_callbacks(execute=True):
        submit(game, by[0], {"type": "submit_plan", "placements": VILLAGE_PLAN})
        submit(game, by[1], {"type": "submit_plan", "placements": CASTLE_PLAN})
    game.refresh_from_db()
    assert Seat.objects.get(game=game, order=0).action_queue == [{"type": "activate", "space": "village"}]
    bank_before = Seat.objects.get(game=game, order=1).bank_seconds
    frozen_now.advance(hours=30)
    with django_capture_on_commit_callbacks(execute=True):
        moves = services.game_timeout(game_id=game.pk, seat_order=0, expected_version=game.version)
    assert [m.action for m in moves] == [{"type": "pass"}]
    assert (1, True, {"type": "activate", "space": "castle"}) in moves_after(game, 0)
    bob_seat = Seat.objects.get(game=game, order=1)
    assert bob_seat.bank_seconds == bank_before + game.clock_increment_seconds  # the queued decision


def test_a_timeout_on_the_last_action_of_a_round_does_not_play_the_next_round(
        clocked_game, frozen_now, alice, bob, django_capture_on_commit_callbacks):
    game = clocked_game(alice, bob)
    richer_markets(game)
    by = seats(game)
    plan = VILLAGE_PLAN + [{"follower": "farmer", "space": "castle"}, {"follower": "boatman", "space": "castle"},
                      {"follower": "trader", "space": "castle"}]
    queue_set(game_id=game.pk, user=by[1].user, entries=[{"type": "pass"}])
    with django_capture_on_commit_callbacks(execute=True):
        submit(game, by[0], {"type": "submit_plan", "placements": plan})
        submit(game, by[1], {"type": "submit_plan", "placements": []})
    with django_capture_on_commit_callbacks(execute=True):
        submit(game, by[0], {"type": "activate", "space": "castle"})  # bob's queue passes; alice's turn again
    game.refresh_from_db()
    frozen_now.advance(days=3)
    with django_capture_on_commit_callbacks(execute=True):
        moves = services.game_timeout(game_id=game.pk, seat_order=0, expected_version=game.version)
    # only the timed-out seat's pass: not the next round's draw and plan as well
    assert [m.action["type"] for m in moves] == ["pass"]


# --- the queue's rules are the engine's -----------------------------------------------------


def test_the_services_play_what_any_engines_queue_says(fake_engine, started_game):
    """The site holds no queue rule of its own: with the fake rules, a queued pick is
    checked by the fake's check_queue and played at once (its next_queued says "play")."""
    by_order = seats(started_game)
    with pytest.raises(services.QueueError, match="Queue picks of 1 or 2."):
        queue_set(game_id=started_game.pk, user=by_order[0].user, entries=[{"type": "activate", "space": "castle"}])
    queue_set(game_id=started_game.pk, user=by_order[0].user, entries=[{"type": "pick", "n": 2}])
    assert list(Move.objects.filter(game=started_game).values_list("seat", "source", "action")) == [
        (0, "queue", {"type": "pick", "n": 2})]
    by_order[0].refresh_from_db()
    assert by_order[0].action_queue == []
