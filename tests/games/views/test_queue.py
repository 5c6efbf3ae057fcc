"""The queue card and its form (games.views.fragments.set_queue): private to its seat, only
places the plan makes usable, refusals shown in the card, never a broken page, safe with two
tabs. The queue's play: tests/games/services/test_action_queue.py."""
import json

import pytest
from django.test import Client
from django.urls import reverse

import engine
from games import services
from games.models import Move
from tests.support.game_driver import CASTLE_PLAN, both_plan_the_castle, seats, submit, queue_set


def queue_url(game):
    return reverse("games-queue", kwargs={"game_id": game.pk})


def page_url(game):
    return reverse("games-detail", kwargs={"game_id": game.pk})


def poll_url(game):
    return reverse("games-poll", kwargs={"game_id": game.pk})


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


def test_a_spectator_gets_no_queue_card(client, make_game, alice, bob):
    game = make_game(alice, bob, seats=2)
    page = client.get(f"/games/{game.pk}/").text
    assert '<section data-region-hash' in page
    assert 'id="game-queue" class="card' not in page and "Action queue" not in page


def test_queueing_on_your_turn_plays_at_once_through_the_view(client_for, started_game,
                                                              django_capture_on_commit_callbacks):
    by = seats(started_game)
    with django_capture_on_commit_callbacks(execute=True):
        submit(started_game, by[0], {"type": "submit_plan", "placements": CASTLE_PLAN})
        submit(started_game, by[1], {"type": "submit_plan", "placements": CASTLE_PLAN})
    started_game.refresh_from_db()
    turn = next(o for o, k in engine.awaiting(engine.from_json(started_game.state)).items() if k == "action")
    response = client_for(by[turn].user).post(
        queue_url(started_game), {"op": "add", "entry": '{"type": "activate", "space": "castle"}'},
        HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    assert Move.objects.filter(game=started_game, seat=turn, source="queue",
                               action={"type": "activate", "space": "castle"}).exists()


def test_the_queue_url_refuses_get_anonymous_spectators_and_missing_csrf(started_game, client_for, carol):
    by = seats(started_game)
    url = queue_url(started_game)
    entry = {"op": "add", "entry": '{"type": "pass"}'}
    assert client_for(by[0].user).get(url).status_code == 405
    assert Client().post(url, entry).status_code == 302  # to the login page
    assert client_for(carol).post(url, entry).status_code == 403
    strict = Client(enforce_csrf_checks=True)
    strict.force_login(by[0].user)
    assert strict.post(url, entry).status_code == 403
    assert all(s.action_queue == [] for s in started_game.seats.all())


def test_more_than_the_limit_through_the_view_is_refused(client_for, started_game, monkeypatch):
    monkeypatch.setattr(services.queue, "ACTION_QUEUE_LIMIT", 2)
    seat = seats(started_game)[0]
    client = client_for(seat.user)
    for space in ("castle", "village", "university"):
        response = client.post(queue_url(started_game), {"op": "add", "entry": json.dumps(
            {"type": "activate", "space": space})}, HTTP_HX_REQUEST="true")
    assert "At most" in response.text
    seat.refresh_from_db()
    assert len(seat.action_queue) == 2


def test_nothing_after_a_pass_and_no_place_twice(client_for, started_game):
    seat = seats(started_game)[0]
    client = client_for(seat.user)
    url = queue_url(started_game)
    client.post(url, {"op": "add", "entry": '{"type": "activate", "space": "castle"}'}, HTTP_HX_REQUEST="true")
    twice = client.post(url, {"op": "add", "entry": '{"type": "activate", "space": "castle"}'}, HTTP_HX_REQUEST="true")
    assert "once a round" in twice.text
    client.post(url, {"op": "add", "entry": '{"type": "pass"}'}, HTTP_HX_REQUEST="true")
    after = client.post(url, {"op": "add", "entry": '{"type": "activate", "space": "village"}'}, HTTP_HX_REQUEST="true")
    assert "nothing can be queued after it" in after.text
    seat.refresh_from_db()
    assert seat.action_queue == [{"type": "activate", "space": "castle"}, {"type": "pass"}]


@pytest.mark.parametrize("entry", [
    {"type": "activate", "space": "village", "recruit": "zzz"},
    {"type": "activate", "space": "ship", "route": "nowhere"},
])
def test_a_malformed_choice_field_is_refused_and_never_breaks_the_page(client_for, started_game, entry):
    seat = seats(started_game)[0]
    client = client_for(seat.user)
    client.raise_request_exception = False
    response = client.post(queue_url(started_game), {"op": "add", "entry": json.dumps(entry)}, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    assert client.get(page_url(started_game)).status_code == 200


def test_an_unhashable_space_is_a_clean_refusal(client_for, started_game):
    client = client_for(seats(started_game)[0].user)
    client.raise_request_exception = False
    response = client.post(queue_url(started_game),
                           {"op": "add", "entry": '{"type": "activate", "space": ["castle"]}'}, HTTP_HX_REQUEST="true")
    assert response.status_code == 200


def test_removing_from_a_stale_tab_does_not_remove_another_entry(client_for, started_game):
    seat = seats(started_game)[0]
    queue_set(game_id=started_game.pk, user=seat.user,
                            entries=[{"type": "activate", "space": "castle"}, {"type": "pass"}])
    tab1, tab2 = client_for(seat.user), client_for(seat.user)
    tab2.get(page_url(started_game))  # shows: 1. Use Castle ×  2. Pass ×
    castle = {"op": "remove", "index": "0", "entry": '{"type": "activate", "space": "castle"}'}
    tab1.post(queue_url(started_game), castle, HTTP_HX_REQUEST="true")  # Castle goes
    assert tab2.get(poll_url(started_game), {"v": started_game.version}).status_code == 204  # tab 2 never learns
    refused = tab2.post(queue_url(started_game), castle, HTTP_HX_REQUEST="true")  # × on "Use Castle"
    assert "queue has changed" in refused.text
    seat.refresh_from_db()
    assert seat.action_queue == [{"type": "pass"}]


def test_two_concurrent_adds_keep_both_entries(client_for, started_game, monkeypatch):
    from games.views import fragments

    seat = seats(started_game)[0]
    tab1, tab2 = client_for(seat.user), client_for(seat.user)
    real = services.seat_queue_change
    interleaved = []

    def tab2_commits_in_between(**kwargs):
        if not interleaved:  # tab 1's request is under way; tab 2's whole request runs now
            interleaved.append(True)
            tab2.post(queue_url(started_game), {"op": "add", "entry": '{"type": "activate", "space": "village"}'},
                      HTTP_HX_REQUEST="true")
        return real(**kwargs)

    monkeypatch.setattr(fragments, "seat_queue_change", tab2_commits_in_between)
    tab1.post(queue_url(started_game), {"op": "add", "entry": '{"type": "activate", "space": "castle"}'},
              HTTP_HX_REQUEST="true")
    seat.refresh_from_db()
    assert len(seat.action_queue) == 2
