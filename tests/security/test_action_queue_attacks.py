"""Attacks on the action queue (RULES §8.7) from the player's own tabs and from outsiders:
a place used by hand that is still queued, edits from two tabs, edits of a game that is
not being played (the refusal says what the game is instead), and forged queue posts. A
refused edit changes nothing: the game, its move log and every seat's queue stay as they
were."""
from __future__ import annotations

import json

import pytest
from django.urls import reverse

import engine
from games import services
from games.models import Game, Seat
from tests.support.game_driver import (CASTLE_PLAN, VILLAGE_PLAN, moves_after, queue_set, richer_markets, seats,
                                       state_of, submit)
from tests.support.html_forms import HTMX
from tests.support.snapshots import game_snapshot

VILLAGE = {"type": "activate", "space": "village"}
CASTLE = {"type": "activate", "space": "castle"}
FARMHOUSE = {"type": "activate", "space": "farmhouse"}
PASS = {"type": "pass"}
#: Round 1 plan readying the Village, the Castle and the Farmhouse (with ``richer_markets``
#: and one more Boatman and Craftsman).
THREE_PLACES = VILLAGE_PLAN + [{"follower": "farmer", "space": "castle"}, {"follower": "boatman", "space": "castle"},
                               {"follower": "start_trader", "space": "castle"},
                               {"follower": "boatman", "space": "farmhouse"},
                               {"follower": "craftsman", "space": "farmhouse"}]


def queues(game) -> list:
    return list(Seat.objects.filter(game=game).order_by("order").values_list(
        "action_queue", "action_queue_round", "action_queue_note"))


def queue_url(game) -> str:
    return reverse("games-queue", kwargs={"game_id": game.pk})


def flash(response) -> str:
    assert response.status_code == 200, response.status_code
    return response.text.split('class="flash"', 1)[1].split("</", 1)[0]


@pytest.fixture
def alice_to_act(started_game, django_capture_on_commit_callbacks):
    """Round 1 action phase: alice (seat 0) has the Village, the Castle and the Farmhouse
    ready and queued them in that order; bob planned the Castle and queued a pass. Alice's queue waits
    at the Village (which follower to recruit is open)."""
    game = started_game
    richer_markets(game)
    data = dict(game.state)
    data["players"][0]["market"] = sorted(data["players"][0]["market"] + ["boatman", "craftsman"])
    Game.objects.filter(pk=game.pk).update(state=data)
    by_order = seats(game)
    queue_set(game_id=game.pk, user=by_order[0].user, entries=[VILLAGE, CASTLE, FARMHOUSE])
    queue_set(game_id=game.pk, user=by_order[1].user, entries=[PASS])
    with django_capture_on_commit_callbacks(execute=True):
        submit(game, by_order[0], {"type": "submit_plan", "placements": THREE_PLACES})
        submit(game, by_order[1], {"type": "submit_plan", "placements": CASTLE_PLAN})
    assert engine.awaiting(state_of(game)) == {0: "action"}
    by_order[0].refresh_from_db()
    assert by_order[0].action_queue == [VILLAGE, CASTLE, FARMHOUSE]
    return game


def test_a_queued_place_used_by_hand_leaves_the_queue_and_the_rest_still_plays(alice_to_act):
    """The Castle, queued second, is used by hand while the queue waits at the Village: its
    entry can never be played again this round, so it goes; after the Village (by hand) the
    queued Farmhouse plays instead of the whole queue being dropped at the used Castle."""
    game = alice_to_act
    alice = seats(game)[0]
    submit(game, alice, CASTLE)
    alice.refresh_from_db()
    assert alice.action_queue == [VILLAGE, FARMHOUSE]
    start = game.version
    submit(game, alice, {"type": "activate", "space": "village", "recruit": "boatman"})
    assert moves_after(game, start)[-1] == (0, True, FARMHOUSE)
    alice.refresh_from_db()
    assert alice.action_queue_note == ""


#: Forged queue posts: (op, entry as posted, index as posted).
FORGED = [
    ("add", "", None), ("add", "null", None), ("add", "[]", None), ("add", "5", None), ("add", '"castle"', None),
    ("add", '{"type": "activate"}', None), ("add", '{"type": ["pass"]}', None),
    ("add", '{"type": "activate", "space": ["castle"]}', None),
    ("add", '{"type": "activate", "space": {"castle": 1}}', None),
    ("add", '{"type": "activate", "space": "castle", "seat": 1}', None),
    ("add", '{"type": "activate", "space": "village", "recruit": true}', None),
    ("add", '{"type": "activate", "space": "village", "recruit": ["trader"]}', None),
    ("add", '{"type": "activate", "space": "village", "recruit": "knight"}', None),
    ("add", '{"type": "activate", "space": "pharmacy", "coins": -1}', None),
    ("add", '{"type": "activate", "space": "ship", "route": 1e400}', None),
    ("add", '{"type": "activate", "space": "sacristy"}', None),
    ("add", '{"type": "activate", "space": "\\u00e9\\u202e\\u0000"}', None),
    ("add", '{"type": "activate", "space": "village", "' + "k" * 3000 + '": 1}', None),
    ("add", "[" * 5000 + "]" * 5000, None), ("add", "{not json", None),
    ("add", json.dumps(VILLAGE), None),  # already queued: a place once a round
    ("remove", json.dumps(VILLAGE), "1"), ("remove", json.dumps(VILLAGE), "-3"),
    ("remove", json.dumps(VILLAGE), "99999999999999999999"), ("remove", json.dumps(VILLAGE), "1.5"),
    ("remove", json.dumps(VILLAGE), "abc"), ("remove", json.dumps(VILLAGE), ""), ("remove", json.dumps(VILLAGE), None),
    ("remove", json.dumps(CASTLE), "0"), ("remove", "[]", "0"),
    ("", json.dumps(PASS), None), ("ADD", json.dumps(PASS), None), ("x" * 5000, "", None),
]


@pytest.mark.parametrize("op, entry, index", FORGED, ids=[f"{n}-{f[0][:8]}" for n, f in enumerate(FORGED)])
def test_a_forged_queue_post_on_the_players_turn_is_refused_readably_and_changes_nothing(
        client_for, alice_to_act, op, entry, index):
    game = alice_to_act
    before, queued = game_snapshot(game.pk), queues(game)
    data = {"op": op, "entry": entry} | ({} if index is None else {"index": index})
    response = client_for(seats(game)[0].user).post(queue_url(game), data, **HTMX)
    shown = flash(response)
    assert shown.strip()
    for developer in ("{'type'", "{&#x27;", "queue refused", "seat 0", "Error", "params"):
        assert developer not in shown, developer
    assert game_snapshot(game.pk) == before
    assert queues(game) == queued


@pytest.mark.parametrize("status, sentence", [("finished", "This game is over."),
                                               ("cancelled", "This game was cancelled."),
                                               ("open", "This game has not started yet.")])
def test_queue_changes_of_a_game_not_being_played_are_refused_and_change_nothing(
        client_for, started_game, status, sentence):
    """A tab left open on a game that has ended (or a forged post at a lobby)."""
    game = started_game
    Game.objects.filter(pk=game.pk).update(status=status)
    before, queued = game_snapshot(game.pk), queues(game)
    for op in ("add", "clear", "remove"):
        response = client_for(seats(game)[0].user).post(
            queue_url(game), {"op": op, "entry": json.dumps(PASS), "index": "0"}, **HTMX)
        assert sentence in flash(response)
    assert game_snapshot(game.pk) == before
    assert queues(game) == queued


def test_another_seats_queue_cannot_be_touched_from_a_tab_of_mine(client_for, alice_to_act):
    """The queue changed is always the poster's own: nothing in the post names a seat."""
    game = alice_to_act
    bob = seats(game)[1]
    bob.refresh_from_db()
    bob_queue = (bob.action_queue, bob.action_queue_round)
    client = client_for(seats(game)[0].user)
    for data in ({"op": "clear", "seat": "1"}, {"op": "remove", "index": "0", "entry": json.dumps(PASS), "seat": "1"},
                 {"op": "clear", "user": str(bob.user_id)}):
        client.post(queue_url(game), data, **HTMX)
    bob.refresh_from_db()
    assert (bob.action_queue, bob.action_queue_round) == bob_queue


def test_two_tabs_adding_and_clearing_leave_what_the_last_edit_saw(client_for, started_game):
    """Tab A adds the Castle, tab B (showing the empty queue) clears, tab A adds a pass: the
    clear removed the Castle (an edit applies to the queue as stored, never to a tab's copy)."""
    game = started_game
    user = seats(game)[0].user
    tab_a, tab_b = client_for(user), client_for(user)
    tab_a.post(queue_url(game), {"op": "add", "entry": json.dumps(CASTLE)}, **HTMX)
    tab_b.post(queue_url(game), {"op": "clear"}, **HTMX)
    tab_a.post(queue_url(game), {"op": "add", "entry": json.dumps(PASS)}, **HTMX)
    assert queues(game)[0][0] == [PASS]


def test_a_tab_acting_after_its_queue_played_from_another_tab_is_stale(alice_to_act):
    """Tab A shows alice's turn; in tab B she queues the Castle, which plays at once (her
    own move, then bob's queued pass). Tab A's Castle, posted on its old version, is refused
    as stale: the queued move counts as hers, it never plays twice."""
    from games.errors import StaleVersion

    game = alice_to_act
    alice = seats(game)[0].user
    seen = game.version
    services.seat_queue_change(game_id=game.pk, user=alice, op="clear")
    services.seat_queue_change(game_id=game.pk, user=alice, op="add", entry=CASTLE)
    assert (0, True, CASTLE) in moves_after(game, seen)
    after = game_snapshot(game.pk)
    with pytest.raises(StaleVersion):
        services.game_submit_action(game_id=game.pk, user=alice, action=CASTLE, expected_version=seen)
    assert game_snapshot(game.pk) == after


#: Queue heads that ``check_queue`` never stores, as a row edited by hand (or stored by an
#: older release) might hold them.
UNCHECKED_HEADS = ["castle", None, [], 5, {"type": 5}, {"type": "activate"},
                   {"type": "activate", "space": ["castle"]},
                   {"type": "activate", "space": "castle", "route": [1]},
                   {"type": "activate", "space": "town_hall", "deeds": None}]


@pytest.mark.parametrize("head", UNCHECKED_HEADS, ids=[repr(h)[:30] for h in UNCHECKED_HEADS])
def test_an_unchecked_queue_head_is_dropped_never_raises_nor_plays(head):
    """``engine.queue.next_queued`` on any JSON value: ``{"type": "activate"}`` with no place
    used to match the only legal activation and play it; a list where a route goes raised a
    TypeError (a server error for whoever moved before the seat's turn)."""
    from tests.support.engine_states import action_state

    state = action_state({"spaces": {"castle": ["start_farmer", "start_boatman", "start_trader"]}})
    verdict, reason = engine.queue.next_queued(state, 0, [head, PASS])
    assert verdict == "drop"
    assert reason["code"] == "queue_not_playable" and "{" not in reason["message"]


def test_a_bogus_stored_queue_does_not_break_the_other_players_move(alice_to_act):
    """Alice's stored queue holds an entry no check would let in; bob's move, which hands
    her the turn, still goes through and her queue is dropped with a reason."""
    game = alice_to_act
    alice, bob = seats(game)[0], seats(game)[1]
    Seat.objects.filter(pk=bob.pk).update(action_queue=[])
    submit(game, alice, CASTLE)  # bob's turn now
    assert engine.awaiting(state_of(game)) == {1: "action"}
    Seat.objects.filter(pk=alice.pk).update(action_queue=[{"type": "activate", "space": "village", "route": [1]}])
    submit(game, bob, CASTLE)
    alice.refresh_from_db()
    assert alice.action_queue == []
    assert "could not be played" in alice.action_queue_note


def test_a_drop_note_longer_than_200_characters_is_stored_whole(alice, bob, django_capture_on_commit_callbacks):
    """A Village entry fixing a Trader and a place tile of a hidden stack drops with a
    sentence of over 200 characters; the note used to be a CharField(200): on PostgreSQL
    storing it failed (DataError), a server error for the move that handed over the turn."""
    from tests.support.game_driver import new_started_game

    game = new_started_game(alice, bob, place_tile_market="market3")
    by_order = seats(game)
    import engine

    # the longest-named hidden tile: the sentence must be over 200 characters whatever the seed
    hidden = max(game.state["place_tiles"]["stack"]["I"], key=lambda tile: len(engine.place_name(tile)))
    entry = {"type": "activate", "space": "village", "recruit": "trader", "place_tile": hidden}
    queue_set(game_id=game.pk, user=by_order[0].user, entries=[entry])
    with django_capture_on_commit_callbacks(execute=True):
        submit(game, by_order[0], {"type": "submit_plan", "placements": VILLAGE_PLAN})
        submit(game, by_order[1], {"type": "submit_plan", "placements": CASTLE_PLAN})
    note = Seat.objects.get(pk=by_order[0].pk).action_queue_note
    assert len(note) > 200
    # SQLite keeps any length: check the column's own limit as well
    assert len(note) <= (Seat._meta.get_field("action_queue_note").max_length or len(note))
    assert note.endswith("is not available to take.")
