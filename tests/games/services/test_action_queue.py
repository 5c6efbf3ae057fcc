"""The action queue: actions queued while planning are played on the seat's turns
(games.services.seat_queue_change and _play_queues)."""
import pytest

import engine
from games import services
from games.models import Move
from tests.games.helpers import queue_set

CASTLE_PLAN = [{"follower": "start_farmer", "space": "castle"}, {"follower": "start_boatman", "space": "castle"},
               {"follower": "start_trader", "space": "castle"}]


def seats(game):
    return {s.order: s for s in game.seats.select_related("user")}


def submit(game, seat, action):
    game.refresh_from_db()
    return services.game_submit_action(game_id=game.pk, user=seat.user, action=action,
                                       expected_version=game.version)


def both_plan_the_castle(game, capture):
    with capture(execute=True):
        for seat in seats(game).values():
            submit(game, seat, {"type": "submit_plan", "placements": CASTLE_PLAN})
    game.refresh_from_db()


def test_queued_actions_play_on_the_seats_turn_and_the_log_marks_them(started_game,
                                                                         django_capture_on_commit_callbacks):
    by_order = seats(started_game)
    queue_set(game_id=started_game.pk, user=by_order[0].user,
              entries=[{"type": "activate", "space": "castle"}, {"type": "pass"}])
    queue_set(game_id=started_game.pk, user=by_order[1].user,
              entries=[{"type": "activate", "space": "castle"}, {"type": "pass"}])
    both_plan_the_castle(started_game, django_capture_on_commit_callbacks)
    queued = list(Move.objects.filter(game=started_game, queued=True).values_list("seat", "action"))
    assert (0, {"type": "activate", "space": "castle"}) in queued
    assert (1, {"type": "activate", "space": "castle"}) in queued
    state = engine.from_json(started_game.state)
    assert state.round == 2  # both castles used, both passed, the round ended by itself
    assert all(p["tracks"]["knight"] == 1 for p in state.data["players"])
    # what is left (a "pass" the engine already made by itself) belongs to round 1: ignored now
    assert all(not s.action_queue or s.action_queue_round < state.round for s in started_game.seats.all())
    from games.selectors import game_moves, move_log

    entries = [e for r in move_log(list(game_moves(started_game)), {0: "a", 1: "b"}) for e in r.entries]
    assert any(e["queued"] and "uses Castle" in e["text"] for e in entries)


def test_a_queued_action_that_is_not_legal_drops_the_queue(started_game, django_capture_on_commit_callbacks):
    by_order = seats(started_game)
    queue_set(game_id=started_game.pk, user=by_order[0].user,
              entries=[{"type": "activate", "space": "university"}, {"type": "pass"}])
    both_plan_the_castle(started_game, django_capture_on_commit_callbacks)
    assert not Move.objects.filter(game=started_game, queued=True, seat=0).exists()
    by_order[0].refresh_from_db()
    assert by_order[0].action_queue == []
    state = engine.from_json(started_game.state)
    assert engine.awaiting(state).get(0) == "action"  # the player decides by hand


def test_a_choice_the_queue_does_not_fix_waits_for_the_player(started_game, django_capture_on_commit_callbacks):
    by_order = seats(started_game)
    village = [{"follower": "start_farmer", "space": "village"}, {"follower": "start_boatman", "space": "village"},
               {"follower": "start_craftsman", "space": "village"}]
    queue_set(game_id=started_game.pk, user=by_order[0].user,
              entries=[{"type": "activate", "space": "village"}])
    with django_capture_on_commit_callbacks(execute=True):
        submit(started_game, by_order[0], {"type": "submit_plan", "placements": village})
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


def queue_region(client, game):
    page = client.get(f"/games/{game.pk}/").text
    return page.split('id="game-queue"')[1].split("</section>")[0]


def test_the_queue_is_private(client_for, started_game):
    by_order = seats(started_game)
    queue_set(game_id=started_game.pk, user=by_order[0].user,
              entries=[{"type": "activate", "space": "scriptorium"}])
    mine = queue_region(client_for(by_order[0].user), started_game)
    theirs = queue_region(client_for(by_order[1].user), started_game)
    assert '<ol class="queue-entries">' in mine and "Use Scriptorium" in mine.split("</ol>")[0]
    assert "Nothing queued." in theirs and '<ol class="queue-entries">' not in theirs


def test_the_queue_form_adds_and_clears_entries(client_for, started_game):
    alice_seat = seats(started_game)[0]
    client = client_for(alice_seat.user)
    url = f"/games/{started_game.pk}/queue/"
    client.post(url, {"op": "add", "entry": '{"type": "activate", "space": "castle"}'}, HTTP_HX_REQUEST="true")
    client.post(url, {"op": "add", "entry": '{"type": "pass"}'}, HTTP_HX_REQUEST="true")
    alice_seat.refresh_from_db()
    assert alice_seat.action_queue == [{"type": "activate", "space": "castle"}, {"type": "pass"}]
    client.post(url, {"op": "remove", "index": "0", "entry": '{"type": "activate", "space": "castle"}'},
                HTTP_HX_REQUEST="true")
    alice_seat.refresh_from_db()
    assert alice_seat.action_queue == [{"type": "pass"}]
    response = client.post(url, {"op": "add", "entry": "{not json"}, HTTP_HX_REQUEST="true")
    assert "could not be read" in response.text
    client.post(url, {"op": "clear"}, HTTP_HX_REQUEST="true")
    alice_seat.refresh_from_db()
    assert alice_seat.action_queue == []
    assert client.get(url).status_code == 405


def test_a_dropped_queue_tells_its_player_why(started_game, django_capture_on_commit_callbacks, client_for):
    by_order = seats(started_game)
    queue_set(game_id=started_game.pk, user=by_order[0].user,
              entries=[{"type": "activate", "space": "university"}, {"type": "pass"}])
    both_plan_the_castle(started_game, django_capture_on_commit_callbacks)
    by_order[0].refresh_from_db()
    assert "Use University" in by_order[0].action_queue_note
    assert "Use University" in queue_region(client_for(by_order[0].user), started_game)


def test_only_places_the_plan_fills_are_offered(started_game, client_for):
    by_order = seats(started_game)
    services.game_submit_action(game_id=started_game.pk, user=by_order[0].user, expected_version=0,
                                action={"type": "submit_plan", "placements": CASTLE_PLAN})
    region = queue_region(client_for(by_order[0].user), started_game)
    offered = region.split("<select")[1]
    assert "Use Castle" in offered and "Pass for the rest of the round" in offered
    assert "Use Scriptorium" not in offered and "Use Farmhouse" not in offered


def test_the_log_marks_only_the_queued_moves_own_line(started_game, django_capture_on_commit_callbacks):
    from games.selectors import game_moves, move_log

    by_order = seats(started_game)
    for order in (0, 1):
        queue_set(game_id=started_game.pk, user=by_order[order].user,
                  entries=[{"type": "activate", "space": "castle"}, {"type": "pass"}])
    both_plan_the_castle(started_game, django_capture_on_commit_callbacks)
    entries = [e for r in move_log(list(game_moves(started_game)), {0: "a", 1: "b"}) for e in r.entries]
    marked = [e["text"] for e in entries if e["queued"]]
    assert marked and all("uses Castle" in t or "passes" in t for t in marked)
    assert not any(e["queued"] for e in entries if "Round 2 begins" in e["text"])


def test_a_spectator_gets_no_queue_card(client, make_game, alice, bob):
    game = make_game(alice, bob, seats=2)
    page = client.get(f"/games/{game.pk}/").text
    assert '<section data-region-hash' in page
    assert 'id="game-queue" class="card' not in page and "Action queue" not in page
