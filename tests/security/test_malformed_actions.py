"""Illegal, malformed and stale actions posted straight at ``games-act``, bypassing the UI.

Every refusal must say why and leave the game exactly as it was: snapshot, version, move
log, seats (and so every supply, which lives in the snapshot).
"""
from __future__ import annotations

import json
import uuid

import pytest
from django.urls import reverse

import engine
from games.models import Game, GameStatus
from tests.support.game_driver import new_started_game, play_until, state_of, user_at
from tests.support.html_forms import HTMX
from tests.support.snapshots import game_snapshot

FARMHOUSE_PLAN = {"type": "submit_plan", "placements": [
    {"follower": "start_boatman", "space": "farmhouse"},
    {"follower": "start_craftsman", "space": "farmhouse"},
]}


def act_url(game_id) -> str:
    return reverse("games-act", kwargs={"game_id": game_id})


def post(client, game_id, action, version, **extra):
    data = {"action": action if isinstance(action, str) else json.dumps(action),
            "expected_version": version}
    return client.post(act_url(game_id), data, **extra)


def flash_text(response) -> str:
    assert response.status_code == 200, response.status_code
    assert 'id="flash"' in response.text
    assert 'class="flash"' in response.text, "a refusal must show a reason"
    return response.text


def shown(html: str, opening: str, closing: str) -> str:
    """The text of the first element opened by ``opening`` (the flash or a message)."""
    return html.split(opening, 1)[1].split(closing, 1)[0]


#: The engine's player sentence for an action it cannot read (code ``malformed``).
UNREADABLE = "That move could not be read."


def assert_no_developer_text(text: str) -> None:
    """The flash shows the player's sentence, never the engine's developer text (which names
    the action dict, the seat, the round and the phase)."""
    for developer in ("{&#x27;type&#x27;", "{'type'", "(seat ", "seat 0", "seat 1", "expected one of",
                      "unknown field", "wrong type", "unknown action type"):
        assert developer not in text, developer


def nested(depth: int) -> str:
    return '{"type": "submit_plan", "placements": ' + "[" * depth + "]" * depth + "}"


MALFORMED = {
    "not json": ("this is not json", "not valid JSON"),
    "truncated json": ('{"type": "place", "follower": ', "not valid JSON"),
    "empty": ("", "No move was sent: choose one on the page and try again."),
    "a list": ("[]", "object"),
    "null": ("null", "object"),
    "a bare string": ('"pass"', "object"),
    "numeric type": ('{"type": 5}', "object"),
    "unknown type": ('{"type": "win_the_game"}', UNREADABLE),
    "type with control chars": ('{"type": "\\u202epass\\u0000"}', UNREADABLE),
    "seat field (act for another seat)": (
        '{"type": "place", "follower": "start_boatman", "space": "farmhouse", "seat": 1}',
        UNREADABLE),
    "extra field": (
        '{"type": "place", "follower": "start_boatman", "space": "farmhouse", "x": "'
        + "y" * 5000 + '"}', UNREADABLE),
    "follower as a list": (
        '{"type": "place", "follower": ["start_boatman"], "space": "farmhouse"}', UNREADABLE),
    "negative draw": ('{"type": "draw", "count": -1}', UNREADABLE),
    "huge draw": ('{"type": "draw", "count": 1000000000000000000000000000000}', "First finish your plan."),
    "float draw": ('{"type": "draw", "count": 1e3}', UNREADABLE),
    "NaN draw": ('{"type": "draw", "count": NaN}', UNREADABLE),
    "Infinity draw": ('{"type": "draw", "count": -Infinity}', UNREADABLE),
    "boolean draw": ('{"type": "draw", "count": true}', UNREADABLE),
    "huge pharmacy coins": (
        '{"type": "activate", "space": "pharmacy", "coins": -99999999999999999999}', "First finish your plan."),
    "unknown space": ('{"type": "place", "follower": "start_boatman", "space": "__proto__"}',
                      "There is no place called “__proto__”."),
    "unknown follower": ('{"type": "place", "follower": "dragon", "space": "farmhouse"}',
                         "There is no follower called “dragon”."),
    "placements not objects": ('{"type": "submit_plan", "placements": [1, 2, 3]}', UNREADABLE),
    "placement with extra key": (
        '{"type": "submit_plan", "placements": '
        '[{"follower": "start_boatman", "space": "farmhouse", "seat": 1}]}', UNREADABLE),
    "the same follower placed 300 times": (
        json.dumps({"type": "submit_plan", "placements": [
            {"follower": "start_boatman", "space": "farmhouse"}] * 300}),
        "You have no starting Boatman in your market."),
    "over the size limit": ('{"type": "pass", "x": "' + "z" * 20_000 + '"}', "That move is too long to be read."),
    "nested 500 deep": (nested(500), UNREADABLE),
}


@pytest.fixture
def game(alice, bob):
    """A two-player game in round 1's planning phase: both seats are awaited."""
    game = new_started_game(alice, bob)
    assert set(engine.awaiting(state_of(game))) == {0, 1}
    return game


@pytest.mark.parametrize("case", list(MALFORMED), ids=list(MALFORMED))
def test_a_malformed_action_is_refused_with_a_reason_and_changes_nothing(
        client_for, game, case):
    raw, reason = MALFORMED[case]
    before = game_snapshot(game.pk)
    response = post(client_for(user_at(game, 0)), game.pk, raw, game.version, **HTMX)
    text = flash_text(response)
    assert reason in text
    assert_no_developer_text(shown(text, '<p class="flash">', "</p>"))
    assert game_snapshot(game.pk) == before


@pytest.mark.parametrize("case", list(MALFORMED), ids=list(MALFORMED))
def test_a_malformed_plain_post_redirects_back_with_the_reason(client_for, game, case):
    raw, reason = MALFORMED[case]
    before = game_snapshot(game.pk)
    client = client_for(user_at(game, 1))
    response = post(client, game.pk, raw, game.version)
    assert response.status_code == 302
    assert response["Location"] == reverse("games-detail", kwargs={"game_id": game.pk})
    page = client.get(response["Location"])
    assert page.status_code == 200
    assert 'class="message error"' in page.text and reason in page.text
    assert_no_developer_text(shown(page.text, 'class="message error">', "</li>"))
    assert game_snapshot(game.pk) == before


def test_deeply_nested_json_is_refused_not_a_server_error(client_for, game):
    before = game_snapshot(game.pk)
    client = client_for(user_at(game, 0))
    client.raise_request_exception = True
    response = post(client, game.pk, nested(5000), game.version, **HTMX)
    assert "not valid JSON" in flash_text(response) or "object" in response.text
    assert game_snapshot(game.pk) == before


@pytest.mark.parametrize("version", ["", "abc", "-1", "1.5", "1e3", "0x0", " "])
def test_a_malformed_expected_version_is_refused(client_for, game, version):
    seat_user = user_at(game, 0)
    before = game_snapshot(game.pk)
    action = engine.legal_actions(state_of(game), 0)[0]
    response = post(client_for(seat_user), game.pk, action, version, **HTMX)
    assert "The page&#x27;s move number could not be read: reload the page." in flash_text(response)
    assert game_snapshot(game.pk) == before


@pytest.mark.parametrize("version", ["", "abc", "-1"])
def test_a_take_back_with_an_unreadable_version_is_refused_with_the_same_reason(client_for, game, version):
    before = game_snapshot(game.pk)
    response = client_for(user_at(game, 0)).post(reverse("games-undo", kwargs={"game_id": game.pk}),
                                                 {"expected_version": version}, **HTMX)
    assert "The page&#x27;s move number could not be read: reload the page." in flash_text(response)
    assert game_snapshot(game.pk) == before


def test_a_post_without_its_fields_names_what_is_missing(client_for, game):
    before = game_snapshot(game.pk)
    client = client_for(user_at(game, 0))
    text = flash_text(client.post(act_url(game.pk), {}, **HTMX))
    assert "No move was sent: choose one on the page and try again." in text  # the first field's error
    assert "This field is required." not in text
    action = json.dumps(engine.legal_actions(state_of(game), 0)[0])
    text = flash_text(client.post(act_url(game.pk), {"action": action}, **HTMX))
    assert "The page&#x27;s move number could not be read: reload the page." in text
    assert game_snapshot(game.pk) == before


@pytest.mark.parametrize("delta", [1, 2, 10**30, -1])
def test_a_version_from_the_future_or_the_past_is_stale(client_for, game, alice, bob, delta):
    # move the game on once, by the same seat, so that "the past" exists and is stale
    # (another seat's planning step alone would not make the page stale: test_two_tabs)
    services_move = engine.legal_actions(state_of(game), 0)[0]
    from games.services import game_submit_action
    game_submit_action(game_id=game.pk, user=user_at(game, 0), action=services_move,
                       expected_version=0)
    game.refresh_from_db()
    before = game_snapshot(game.pk)
    action = engine.legal_actions(state_of(game), 0)[0]
    response = post(client_for(user_at(game, 0)), game.pk, action, game.version + delta, **HTMX)
    if delta < 0:
        assert f"has moved on since this page was shown (you saw move {game.version + delta}, it is now at move " \
               f"{game.version})" in flash_text(response)
    else:  # no page showed a move the game has not reached: the page is said not to match
        assert f"This page&#x27;s move number ({game.version + delta}) is not the game&#x27;s (move " \
               f"{game.version})" in flash_text(response)
    # the regions come back refreshed at the current version
    assert f'data-version="{game.version}"' in response.text
    assert game_snapshot(game.pk) == before


def test_a_legal_action_of_another_seat_is_refused_out_of_turn(client_for, alice, bob):
    game = new_started_game(alice, bob)
    play_until(game, lambda s: s.data["phase"] == "actions", lowest_seat_first=True,
               policy=lambda state, seat, kind, legal: FARMHOUSE_PLAN if kind == "plan" else legal[0])
    state = state_of(game)
    (turn,) = engine.awaiting(state)
    other = 1 - turn
    their_action = next(a for a in engine.legal_actions(state, turn) if a["type"] == "activate")
    before = game_snapshot(game.pk)
    response = post(client_for(user_at(game, other)), game.pk, their_action, game.version, **HTMX)
    flash_text(response)
    assert game_snapshot(game.pk) == before
    # and the awaited seat can still make that very move
    response = post(client_for(user_at(game, turn)), game.pk, their_action, game.version, **HTMX)
    assert 'class="flash"' not in response.text
    game.refresh_from_db()
    assert game.version == before["version"] + 1


def test_a_seat_that_already_submitted_its_plan_cannot_plan_again(client_for, game):
    client = client_for(user_at(game, 0))
    response = post(client, game.pk, FARMHOUSE_PLAN, game.version, **HTMX)
    assert 'class="flash"' not in response.text
    game.refresh_from_db()
    before = game_snapshot(game.pk)
    for action in (FARMHOUSE_PLAN, {"type": "submit_plan"},
                   {"type": "unplace", "follower": "start_boatman", "space": "farmhouse"}):
        flash_text(post(client, game.pk, action, game.version, **HTMX))
    assert game_snapshot(game.pk) == before


@pytest.mark.parametrize("status, sentence", [(GameStatus.FINISHED, "This game is over."),
                                               (GameStatus.CANCELLED, "This game was cancelled.")])
def test_actions_on_a_game_that_is_not_being_played_are_refused_saying_what_it_is(client_for, game, status, sentence):
    action = engine.legal_actions(state_of(game), 0)[0]
    Game.objects.filter(pk=game.pk).update(status=status)
    before = game_snapshot(game.pk)
    response = post(client_for(user_at(game, 0)), game.pk, action, game.version, **HTMX)
    assert sentence in flash_text(response)
    assert game_snapshot(game.pk) == before


def test_actions_on_an_open_game_are_refused(client_for, alice, bob, make_game):
    game = make_game(alice, bob, seats=3)
    before = game_snapshot(game.pk)
    response = post(client_for(alice), game.pk, {"type": "pass"}, 0, **HTMX)
    assert "This game has not started yet." in flash_text(response)
    assert game_snapshot(game.pk) == before


def test_a_game_that_does_not_exist_is_a_404(client_for, alice):
    response = post(client_for(alice), uuid.uuid4(), {"type": "pass"}, 0, **HTMX)
    assert response.status_code == 404


def test_an_anonymous_post_goes_to_the_login_page(client, game):
    before = game_snapshot(game.pk)
    response = post(client, game.pk, {"type": "submit_plan"}, game.version, **HTMX)
    assert reverse("account_login") in response["HX-Redirect"]  # htmx loads it as a page (the site's middleware)
    assert game_snapshot(game.pk) == before


def test_a_spectator_cannot_act_in_a_public_game(client_for, game, carol):
    before = game_snapshot(game.pk)
    response = post(client_for(carol), game.pk, {"type": "submit_plan"}, game.version, **HTMX)
    assert response.status_code == 403
    assert game_snapshot(game.pk) == before


def test_a_stranger_cannot_even_see_a_private_game_when_acting(client_for, alice, bob, carol):
    game = new_started_game(alice, bob)
    Game.objects.filter(pk=game.pk).update(is_public=False)
    before = game_snapshot(game.pk)
    response = post(client_for(carol), game.pk, {"type": "submit_plan"}, game.version, **HTMX)
    assert response.status_code == 404
    assert game_snapshot(game.pk) == before


def test_get_on_the_action_endpoint_is_refused(client_for, game):
    before = game_snapshot(game.pk)
    response = client_for(user_at(game, 0)).get(
        act_url(game.pk), {"action": '{"type": "submit_plan"}', "expected_version": game.version})
    assert response.status_code == 405
    assert game_snapshot(game.pk) == before


def test_a_refusal_message_is_escaped(client_for, game):
    # the player's sentence names the unknown place as posted (the action type is not echoed)
    evil = '{"type": "place", "follower": "start_boatman", "space": "<script>alert(1)</script>"}'
    client = client_for(user_at(game, 0))
    htmx = post(client, game.pk, evil, game.version, **HTMX)
    assert "<script>alert(1)</script>" not in htmx.text
    assert "&lt;script&gt;" in htmx.text
    plain = post(client, game.pk, evil, game.version)
    page = client.get(plain["Location"])
    assert "<script>alert(1)</script>" not in page.text
