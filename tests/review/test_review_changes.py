"""Review of three changes: stale-version tolerance (games.services._only_others_moved_independently),
changed-region-only answers (games.views.regions) and the action queue (games.services.seat_queue_change,
_play_queues, games.views.fragments.set_queue).

Tests marked ``xfail(strict=True)`` with a "BUG:" reason reproduce a defect found in review."""
import json
import re

import pytest
from django.test import Client
from django.urls import reverse

import engine
from games import services
from games.models import Game, Move, Seat
from tests.games.helpers import decision_forms, play_until, queue_set

REGION = re.compile(r'<\w+ data-region-hash="([0-9a-f]+)" id="([\w-]+)"')
EXTRA = ["boatman", "farmer", "trader", "craftsman"]
THREE_PLACES = [
    {"follower": "start_boatman", "space": "farmhouse"}, {"follower": "start_craftsman", "space": "farmhouse"},
    {"follower": "start_farmer", "space": "castle"}, {"follower": "boatman", "space": "castle"},
    {"follower": "start_trader", "space": "castle"},
    {"follower": "farmer", "space": "university"}, {"follower": "craftsman", "space": "university"},
    {"follower": "trader", "space": "university"},
]
CASTLE = [{"follower": "start_farmer", "space": "castle"}, {"follower": "start_boatman", "space": "castle"},
          {"follower": "start_trader", "space": "castle"}]
VILLAGE = [{"follower": "start_farmer", "space": "village"}, {"follower": "start_boatman", "space": "village"},
           {"follower": "start_craftsman", "space": "village"}]


def hashes_on(html):
    return {region_id: digest for digest, region_id in REGION.findall(html)}


def reported(hashes):
    return ",".join(f"{k}:{v}" for k, v in hashes.items())


def seats(game):
    return {s.order: s for s in game.seats.select_related("user")}


def submit(game, seat, action):
    game.refresh_from_db()
    return services.game_submit_action(game_id=game.pk, user=seat.user, action=action,
                                       expected_version=game.version)


def queue_url(game):
    return reverse("games-queue", kwargs={"game_id": game.pk})


def page_url(game):
    return reverse("games-detail", kwargs={"game_id": game.pk})


def poll_url(game):
    return reverse("games-poll", kwargs={"game_id": game.pk})


def richer_markets(game):
    """Round 1 planning: four more followers on every market, so each seat can plan three places."""
    data = dict(game.state)
    for p in data["players"]:
        p["market"] = sorted(p["market"] + EXTRA)
    Game.objects.filter(pk=game.pk).update(state=data)
    game.refresh_from_db()


def moves_after(game, seq):
    return [(m.seat, m.queued, m.action) for m in Move.objects.filter(game=game, seq__gt=seq).order_by("seq")]


# --- 3. the action queue ------------------------------------------------------------------


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
            submit(game, seat, {"type": "submit_plan", "placements": THREE_PLACES})
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
            submit(game, seat, {"type": "submit_plan", "placements": THREE_PLACES})
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
        submit(game, by[0], {"type": "submit_plan", "placements": VILLAGE})
        submit(game, by[1], {"type": "submit_plan", "placements": CASTLE})
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
    plan = VILLAGE + [{"follower": "farmer", "space": "castle"}, {"follower": "boatman", "space": "castle"},
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
    # today: [pass, draw 4 (round 2), submit_plan (round 2)]
    assert [m.action["type"] for m in moves] == ["pass"]


def test_queueing_on_your_turn_plays_at_once_through_the_view(client_for, started_game,
                                                              django_capture_on_commit_callbacks):
    by = seats(started_game)
    with django_capture_on_commit_callbacks(execute=True):
        submit(started_game, by[0], {"type": "submit_plan", "placements": CASTLE})
        submit(started_game, by[1], {"type": "submit_plan", "placements": CASTLE})
    started_game.refresh_from_db()
    turn = next(o for o, k in engine.awaiting(engine.from_json(started_game.state)).items() if k == "action")
    response = client_for(by[turn].user).post(
        queue_url(started_game), {"op": "add", "entry": '{"type": "activate", "space": "castle"}'},
        HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    assert Move.objects.filter(game=started_game, seat=turn, queued=True,
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


# --- 2. changed-region-only answers ---------------------------------------------------------


@pytest.mark.parametrize("garbage", [",,,:::" * 50000, "x" * 500000, "\x00:\x00", "game-actions:" + "f" * 5000,
                                     "game-actions", ":", "%zz", "game-actions:a:b:c," * 100])
def test_garbage_region_reports_still_send_the_regions(client_for, started_game, garbage):
    seat = seats(started_game)[0]
    response = client_for(seat.user).get(poll_url(started_game), {"v": 999, "regions": garbage})
    assert response.status_code == 200
    assert {"game-actions", "game-map", "game-poll"} <= set(hashes_on(response.text))


def test_fingerprints_of_the_other_seat_do_not_change_with_hidden_planning(client_for, started_game):
    by = seats(started_game)
    v = started_game.version
    services.game_submit_action(game_id=started_game.pk, user=by[0].user, expected_version=v,
                                action={"type": "place", "follower": "start_farmer", "space": "castle"})
    bob = client_for(by[1].user)
    before = hashes_on(bob.get(page_url(started_game)).text)
    services.game_submit_action(game_id=started_game.pk, user=by[0].user, expected_version=v + 1,
                                action={"type": "unplace", "follower": "start_farmer", "space": "castle"})
    services.game_submit_action(game_id=started_game.pk, user=by[0].user, expected_version=v + 2,
                                action={"type": "place", "follower": "start_trader", "space": "castle"})
    after = hashes_on(bob.get(page_url(started_game)).text)
    changed = {k for k in before if before[k] != after.get(k)}
    assert changed <= {"game-status", "game-poll", "game-players"}  # move counter / version / clocks only


def test_a_second_tab_gets_fresh_decision_forms_after_own_moves_elsewhere(client_for, started_game):
    seat = seats(started_game)[0]
    tab1 = client_for(seat.user)
    page = tab1.get(page_url(started_game)).text
    shown = hashes_on(page)
    v = started_game.version
    # tab 2 (or the phone): put a follower on the Castle and take it back
    services.game_submit_action(game_id=started_game.pk, user=seat.user, expected_version=v,
                                action={"type": "place", "follower": "start_farmer", "space": "castle"})
    services.game_submit_action(game_id=started_game.pk, user=seat.user, expected_version=v + 1,
                                action={"type": "unplace", "follower": "start_farmer", "space": "castle"})
    polled = tab1.get(poll_url(started_game), {"v": v, "regions": reported(shown)}).text
    form = (decision_forms(polled) or decision_forms(page))[0]  # what tab 1 shows now
    response = tab1.post(reverse("games-act", kwargs={"game_id": started_game.pk}), {
        "action": json.dumps(form["actions"][0]), "expected_version": form["hidden"]["expected_version"],
        "regions": reported(shown | hashes_on(polled))}, HTTP_HX_REQUEST="true")
    assert "moved on" not in response.text


# --- 1. stale-version tolerance ---------------------------------------------------------------


def test_a_queued_move_in_between_makes_an_old_page_stale(make_game, alice, bob, django_capture_on_commit_callbacks):
    game = make_game(alice, bob, seats=2)
    richer_markets(game)
    by = seats(game)
    queue_set(game_id=game.pk, user=by[1].user, entries=[{"type": "activate", "space": "university"}])
    with django_capture_on_commit_callbacks(execute=True):
        for seat in by.values():
            submit(game, seat, {"type": "submit_plan", "placements": THREE_PLACES})
    game.refresh_from_db()
    seen = game.version
    submit(game, by[0], {"type": "activate", "space": "castle"})  # bob's queued University follows
    assert moves_after(game, seen + 1) == [(1, True, {"type": "activate", "space": "university"})]
    with pytest.raises(services.StaleVersion):
        services.game_submit_action(game_id=game.pk, user=by[0].user, expected_version=seen + 1,
                                    action={"type": "activate", "space": "farmhouse"})


def test_sequential_followers_an_old_page_cannot_draw_out_of_turn(make_game, alice, bob, carol):
    game = make_game(alice, bob, carol, seats=3, simultaneous_followers=False)

    def drawing(state):
        return state.round == 2 and "draw" in engine.awaiting(state).values()

    game = play_until(game, drawing, seed=5)
    state = engine.from_json(game.state)
    first = next(o for o, k in engine.awaiting(state).items() if k == "draw")
    waiting = [o for o in range(3) if o != first and state.data["players"][o]["stage"] == "draw"]
    assert waiting
    seen = game.version
    for order in waiting:  # not their turn to draw yet: refused by the engine, nothing stored
        with pytest.raises(engine.RulesError):
            services.game_submit_action(game_id=game.pk, user=game.seats.get(order=order).user,
                                        expected_version=seen, action={"type": "draw", "count": 0})
    first_draw = next(a for a in engine.legal_actions(state, first) if a["type"] == "draw")
    services.game_submit_action(game_id=game.pk, user=game.seats.get(order=first).user,
                                expected_version=seen, action=first_draw)
    game.refresh_from_db()
    after = engine.from_json(game.state)
    later = next(o for o in waiting if engine.awaiting(after).get(o) == "draw")
    later_user = game.seats.get(order=later).user
    move = engine.legal_actions(after, later)[0]
    # its page is older than the first seat's draw: accepted (a draw never depends on another's), once
    services.game_submit_action(game_id=game.pk, user=later_user, expected_version=seen, action=move)
    with pytest.raises(services.StaleVersion):
        services.game_submit_action(game_id=game.pk, user=later_user, expected_version=seen, action=move)
