"""Answers send only the regions that changed (games.views.regions.render_regions)."""
import re

from django.urls import reverse

from games.services import game_submit_action

REGION = re.compile(r'<\w+ data-region-hash="([0-9a-f]+)" id="([\w-]+)"')


def hashes_on(html):
    return {region_id: digest for digest, region_id in REGION.findall(html)}


def reported(hashes):
    return ",".join(f"{k}:{v}" for k, v in hashes.items())


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
    # the other player's board shows one more planned follower; the status shows the move
    assert {"flash", "game-status", "game-boards", "game-poll"} == sent
    # the map, the tracks, the log and my own half-made decision did not change: not re-sent


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
