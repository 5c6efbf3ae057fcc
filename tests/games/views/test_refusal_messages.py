"""Refusals a player can read (issue 7 item 2): whatever refuses a move — the rules engine,
the action queue, a stale page, a submission that cannot be read — the ``#flash`` area (or
the message after a plain post) shows one sentence for the player, never the engine's
developer text (``{'type': 'place', ...} (seat 0, round 1, planning): …``)."""
from __future__ import annotations

import html
import json

import pytest
from django.urls import reverse

import engine
from games import services
from games.models import Game
from tests.support.game_driver import both_plan_the_castle, seats, state_of
from tests.support.html_forms import HTMX

#: Fragments of the engine's developer text (``str(err)``): the action dict, the seat, the
#: round and the phase.
DEVELOPER_TEXT = ("{'type'", "'space'", "seat 0", "seat 1", "(seat", "round 1", "planning)", "actions)")


def act(client, game, action, version, **extra):
    raw = action if isinstance(action, str) else json.dumps(action)
    return client.post(reverse("games-act", kwargs={"game_id": game.pk}),
                       {"action": raw, "expected_version": version}, **extra)


def flash_region(response) -> str:
    """The html of the ``#flash`` area (alone, or among the refreshed regions)."""
    return response.text.split('id="flash"', 1)[1].split("</div>", 1)[0]


def flash_of(response) -> str:
    """The player-visible text of the ``#flash`` area of an htmx answer."""
    assert response.status_code == 200
    region = flash_region(response)
    assert '<p class="flash">' in region, "a refusal must show a sentence"
    return html.unescape(region.split('<p class="flash">', 1)[1].split("</p>", 1)[0])


def assert_for_players(sentence: str) -> None:
    for developer in DEVELOPER_TEXT:
        assert developer not in sentence, (developer, sentence)


@pytest.fixture
def action_phase(started_game, django_capture_on_commit_callbacks):
    """Both seats planned the Castle; the game is in round 1's action phase."""
    both_plan_the_castle(started_game, django_capture_on_commit_callbacks)
    (turn,) = engine.awaiting(state_of(started_game))
    return started_game, seats(started_game)[turn]


def test_a_castle_with_the_knight_track_at_its_end_says_so_in_the_flash(action_phase, client_for):
    game, seat = action_phase
    data = dict(game.state)
    data["players"][seat.order]["tracks"]["knight"] = 5
    Game.objects.filter(pk=game.pk).update(state=data)
    response = act(client_for(seat.user), game, {"type": "activate", "space": "castle"}, game.version, **HTMX)
    sentence = flash_of(response)
    assert sentence == "The Castle cannot be used: the Knight track is at its last space."
    assert_for_players(flash_region(response))


def test_a_place_that_is_not_ready_says_so_in_the_flash(action_phase, client_for):
    game, seat = action_phase
    response = act(client_for(seat.user), game, {"type": "activate", "space": "university"}, game.version, **HTMX)
    assert flash_of(response) == "The University is not ready: not all its circles are filled."


def test_a_plain_post_shows_the_same_sentence_after_the_redirect(action_phase, client_for):
    game, seat = action_phase
    client = client_for(seat.user)
    response = act(client, game, {"type": "activate", "space": "university"}, game.version)
    page = client.get(response["Location"]).text
    message = html.unescape(page.split('class="message error">', 1)[1].split("</li>", 1)[0])
    assert message == "The University is not ready: not all its circles are filled."


def test_a_move_out_of_turn_is_one_sentence(action_phase, client_for):
    game, seat = action_phase
    other = seats(game)[1 - seat.order]
    response = act(client_for(other.user), game, {"type": "activate", "space": "castle"}, game.version, **HTMX)
    assert flash_of(response) == "It is not your turn."


@pytest.mark.parametrize(("raw", "sentence"), [
    ("{not json", "The action is not valid JSON."),
    ('{"type": "win_the_game"}', "That move could not be read."),
    ('{"type": "place", "follower": ["start_boatman"], "space": "castle"}', "That move could not be read."),
])
def test_a_malformed_action_is_a_readable_sentence(started_game, client_for, raw, sentence):
    seat = seats(started_game)[0]
    response = act(client_for(seat.user), started_game, raw, started_game.version, **HTMX)
    assert flash_of(response) == sentence


@pytest.mark.parametrize("moved, posted, sentence", [
    (1, 0, "The game has moved on since this page was shown (you saw move 0, it is now at move 1): here is the "
           "current position."),
    # only an edited or damaged form shows a move the game has not reached
    (0, 5, "This page's move number (5) is not the game's (move 0): here is the current position."),
], ids=["an older page", "a page ahead of the game"])
def test_a_stale_page_names_both_moves_and_carries_the_engines_stale_code(started_game, client_for, moved,
                                                                          posted, sentence):
    seat = seats(started_game)[0]
    for version in range(moved):
        services.game_submit_action(game_id=started_game.pk, user=seat.user, expected_version=version,
                                    action=engine.legal_actions(state_of(started_game), 0)[0])
        started_game.refresh_from_db()
    action = engine.legal_actions(state_of(started_game), 0)[0]
    assert flash_of(act(client_for(seat.user), started_game, action, posted, **HTMX)) == sentence
    with pytest.raises(services.StaleVersion) as stale:
        services.game_submit_action(game_id=started_game.pk, user=seat.user, action=action, expected_version=posted)
    assert stale.value.code == engine.STALE


def test_a_refused_queue_entry_shows_the_engines_sentence(started_game, client_for):
    seat = seats(started_game)[0]
    response = client_for(seat.user).post(
        reverse("games-queue", kwargs={"game_id": started_game.pk}),
        {"op": "add", "entry": '{"type": "activate", "space": "castle", "recruit": "boatman"}'}, **HTMX)
    assert flash_of(response) == "The Castle has no choice called recruit."
    with pytest.raises(services.QueueError) as refused:
        services.seat_queue_change(game_id=started_game.pk, user=seat.user, op="add",
                                   entry={"type": "activate", "space": "hay_rick"})
    assert (refused.value.code, refused.value.message) == (
        "queue_not_own", "You can only queue actions on your own places.")


def test_the_fake_engines_refusal_shows_its_sentence_not_its_developer_text(fake_engine, started_game, client_for):
    seat = seats(started_game)[0]
    response = act(client_for(seat.user), started_game, {"type": "pick", "n": 42}, 0, **HTMX)
    assert flash_of(response) == "Pick 1 or 2."
