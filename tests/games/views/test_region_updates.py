"""Answers send only the regions that changed (games.views.regions.render_regions): region
fingerprints, reports a browser sends back (garbage included), another seat's hidden planning."""
import json
import re

import pytest
from django.urls import reverse

import engine
from games import services
from games.services import game_submit_action
from tests.support.game_driver import new_started_game, play_until, seats, state_of
from tests.support.html_forms import decision_forms

REGION = re.compile(r'<\w+ data-region-hash="([0-9a-f]+)" id="([\w-]+)"')


def hashes_on(html):
    return {region_id: digest for digest, region_id in REGION.findall(html)}


def reported(hashes):
    return ",".join(f"{k}:{v}" for k, v in hashes.items())


def page_url(game):
    return reverse("games-detail", kwargs={"game_id": game.pk})


def poll_url(game):
    return reverse("games-poll", kwargs={"game_id": game.pk})


def poll(client, game, version, hashes=None):
    params = {"v": version}
    if hashes is not None:
        params["regions"] = reported(hashes)
    return client.get(reverse("games-poll", kwargs={"game_id": game.pk}), params)


def other_seat_plans(game, viewer_order):
    seat = game.seats.exclude(order=viewer_order).select_related("user").first()
    game_submit_action(game_id=game.pk, user=seat.user, expected_version=game.version,
                       action={"type": "place", "follower": "start_farmer", "space": "castle"})


def test_every_region_of_the_page_has_a_fingerprint(client_for, started_game, alice):
    page = client_for(alice).get(reverse("games-detail", kwargs={"game_id": started_game.pk})).text
    found = hashes_on(page)
    assert {"game-map", "game-actions", "game-boards", "game-tracks", "game-log", "game-poll"} <= set(found)


def test_a_poll_after_another_seats_hidden_planning_leaves_unchanged_regions_alone(
        client_for, started_game, alice):
    client = client_for(alice)
    me = started_game.seats.get(user=alice).order
    hashes = hashes_on(client.get(reverse("games-detail", kwargs={"game_id": started_game.pk})).text)
    other_seat_plans(started_game, me)
    response = poll(client, started_game, 0, hashes)
    sent = set(hashes_on(response.text))
    # the other player's board shows one more planned follower (its article alone: the
    # section and the other boards are as they were); the move number alone, not the status
    other = started_game.seats.exclude(order=me).first().order
    assert {"flash", "game-move", f"player-board-{other}", "game-poll"} == sent
    assert f">move {started_game.version + 1}<" in response.text.split('id="game-move"')[1][:200]
    # the map, the tracks, the log and my own half-made decision did not change: not re-sent


def test_a_changed_player_board_is_sent_alone_and_a_changed_frame_whole(client_for, started_game, alice):
    client = client_for(alice)
    me = started_game.seats.get(user=alice).order
    other = started_game.seats.exclude(order=me).first().order
    shown = hashes_on(client.get(page_url(started_game)).text)
    assert {f"player-board-{seat.order}" for seat in started_game.seats.all()} <= set(shown)
    other_seat_plans(started_game, me)
    answer = poll(client, started_game, 0, shown).text
    # the article replaces its old self on the page (an out-of-band swap of its id)
    assert f'id="player-board-{other}" hx-swap-oob="true"' in answer
    assert 'id="game-boards"' not in answer and f'id="player-board-{me}"' not in answer
    # a page that shows another frame (here: none reported) gets the section with every
    # article in it, and no article besides
    del shown["game-boards"]
    whole = poll(client, started_game, 0, shown).text
    assert 'id="game-boards" hx-swap-oob="true"' in whole
    assert whole.count('class="card player-board') == started_game.seats.count()
    assert 'hx-swap-oob="true" class="card player-board' not in whole


def test_without_a_report_every_region_is_sent(client_for, started_game, alice):
    me = started_game.seats.get(user=alice).order
    other_seat_plans(started_game, me)
    sent = set(hashes_on(poll(client_for(alice), started_game, 0).text))
    assert {"game-map", "game-tracks", "game-actions", "game-log", "game-poll"} <= sent


def test_a_stale_refusal_sends_every_region(client_for, started_game, alice):
    client = client_for(alice)
    page = client.get(reverse("games-detail", kwargs={"game_id": started_game.pk})).text
    game_submit_action(game_id=started_game.pk, user=alice, expected_version=0,
                       action={"type": "place", "follower": "start_farmer", "space": "castle"})
    response = client.post(reverse("games-act", kwargs={"game_id": started_game.pk}), {
        "action": '{"type": "submit_plan"}', "expected_version": 0, "regions": reported(hashes_on(page)),
    }, HTTP_HX_REQUEST="true")
    assert "moved on" in response.text
    assert {"game-map", "game-actions", "game-tracks"} <= set(hashes_on(response.text))


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
    assert changed <= {"game-move", "game-poll", "game-players"}  # move counter / version / clocks only


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


@pytest.mark.parametrize("cycles, resent", [(20, False), (21, True)], ids=["40 moves", "42 moves"])
def test_past_the_stale_window_the_decision_forms_are_sent_again(client_for, alice, bob, cycles, resent):
    """Another seat's independent planning steps leave the decision forms alone until the
    page's version is older than the services accept (``STALE_WINDOW`` moves): then they are
    sent again, and the form they carry is accepted."""
    assert 2 * 20 <= services.STALE_WINDOW < 2 * 21
    game = play_until(new_started_game(alice, bob, seed=11),
                      lambda state: sorted(engine.awaiting(state).items()) == [(0, "plan"), (1, "plan")])
    client = client_for(alice)
    page = client.get(page_url(game)).text
    shown, seen = hashes_on(page), game.version
    place = next(a for a in engine.legal_actions(state_of(game), 1) if a["type"] == "place")
    for _ in range(cycles):
        for action in (place, place | {"type": "unplace"}):
            game.refresh_from_db()
            game_submit_action(game_id=game.pk, user=bob, expected_version=game.version, action=action)
    game.refresh_from_db()
    polled = poll(client, game, seen, shown).text
    assert ('id="game-actions"' in polled) is resent
    form = decision_forms(polled if resent else page)[0]
    assert int(form["hidden"]["expected_version"]) == (game.version if resent else seen)
    response = client.post(reverse("games-act", kwargs={"game_id": game.pk}), {
        "action": json.dumps(form["actions"][0]), "expected_version": form["hidden"]["expected_version"],
        "regions": reported(shown | hashes_on(polled))}, HTTP_HX_REQUEST="true")
    assert "moved on" not in response.text
    game.refresh_from_db()
    assert game.version == seen + 2 * cycles + 1
