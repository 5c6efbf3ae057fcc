"""The replay viewer (``games-replay``): any step of a started game's log on the live page's
board partials; full information once the game is over, the viewer seat's view (and the
log up to the step) while it runs; stepping by move, phase and round; built steps cached."""
from __future__ import annotations

import re

import pytest
from django.core.cache import cache
from django.urls import reverse

import engine
from games import services
from games.models import Game
from games.presenters.replay import navigation, replay_context
from tests.history.fixture_games import load
from tests.support.game_driver import new_started_game, play_until, state_of, user_at


def replay_url(game, **query) -> str:
    url = reverse("games-replay", kwargs={"game_id": game.pk})
    return url + ("?" + "&".join(f"{k}={v}" for k, v in query.items()) if query else "")


@pytest.fixture
def finished_game(db):
    """A finished two-seat game (a fixture game, imported)."""
    return services.game_import(document=load("2p-default"))


@pytest.fixture
def running_game(game_in_round_two):
    return game_in_round_two


def test_navigation_steps_by_move_phase_and_round():
    timeline = [(1, "planning"), (1, "planning"), (1, "actions"), (1, "actions"), (2, "planning"), (2, "actions")]
    nav = navigation(timeline, 3)
    assert (nav["ArrowLeft"], nav["ArrowRight"]) == (2, 4)
    assert (nav["Shift+ArrowLeft"], nav["Shift+ArrowRight"]) == (2, 4)
    assert (nav["Shift+PageUp"], nav["Shift+PageDown"]) == (0, 4)
    assert (nav["Home"], nav["End"]) == (0, 5)
    assert nav["rounds"] == [{"round": 1, "step": 0}, {"round": 2, "step": 4}]
    at_start = navigation(timeline, 2)
    assert at_start["Shift+ArrowLeft"] == 0  # already at its phase's start: the phase before
    first = navigation(timeline, 0)
    assert (first["ArrowLeft"], first["Home"], first["Shift+PageUp"]) == (None, None, None)


def test_a_finished_game_replays_every_step_with_everything_revealed(finished_game, client_for, carol):
    response = client_for(carol).get(replay_url(finished_game, step=4))
    assert response.status_code == 200
    context = response.context
    assert context["reveal"] is True and context["step"] == 4
    log = [(m.seat, m.action) for m in finished_game.moves.order_by("seq")]
    step = list(engine.replay_steps(finished_game.options, finished_game.seed, log, reveal=True))[4]
    assert context["view"] == engine.view(step.state, None, reveal=True)
    revealed = context["view"]["players"]
    assert all(p["market"] is not None and p["bag"] is not None for p in revealed)
    html = response.content.decode()
    assert 'id="game-map"' in html and 'id="game-boards"' in html
    assert 'aria-current="step"' in html
    assert 'id="game-mine"' not in html  # no "your board": every board is shown in full


def test_the_last_step_is_the_final_position_and_past_the_end_is_the_last(finished_game, client_for, alice):
    context = client_for(alice).get(replay_url(finished_game, step=10 ** 6)).context
    assert context["step"] == context["last"] == finished_game.version
    assert context["view"]["phase"] == "over"
    assert client_for(alice).get(replay_url(finished_game, step="nope")).context["step"] == finished_game.version


def test_a_running_game_shows_the_viewer_seat_view_at_that_step(running_game, client_for):
    alice = user_at(running_game, 0)
    context = client_for(alice).get(replay_url(running_game, step=3)).context
    assert context["reveal"] is False
    players = context["view"]["players"]
    assert players[0]["bag"] is not None and players[1]["bag"] is None
    shown = sum(len(r.entries) for r in context["log"])
    moves = running_game.moves.order_by("seq")[:3]
    # one line per event, one per planning step (which has none)
    assert shown == sum(len(m.events) or (m.seat is not None) for m in moves)


def test_jump_to_a_round_lands_on_its_first_step(finished_game, client_for, alice):
    response = client_for(alice).get(replay_url(finished_game, round=3))
    assert response.status_code == 302
    step = int(re.search(r"step=(\d+)", response["Location"]).group(1))
    context = client_for(alice).get(response["Location"]).context
    assert context["round"] == 3
    previous = client_for(alice).get(replay_url(finished_game, step=step - 1)).context
    assert previous["round"] == 2


def test_built_steps_are_cached_by_game_step_and_viewer(running_game):
    cache.clear()
    seat = running_game.seats.get(order=0)
    replay_context(running_game, seat, 2)
    keys = [k for k in cache._cache if f"games:replay:{running_game.pk}" in k]  # locmem's store
    assert any(k.endswith(":seat0:2") for k in keys)


def test_a_step_viewed_before_a_take_back_shows_the_take_back_afterwards(alice, bob, carol, client_for):
    game = play_until(new_started_game(alice, bob, seed=11),
                      lambda state: sorted(engine.awaiting(state).items()) == [(0, "plan"), (1, "plan")])
    place = next(a for a in engine.legal_actions(state_of(game), 0) if a["type"] == "place")
    services.game_submit_action(game_id=game.pk, user=alice, action=place, expected_version=game.version)
    game.refresh_from_db()
    url = replay_url(game, step=game.version)
    assert "taken back" not in client_for(alice).get(url).text  # the step is cached now
    services.game_take_back(game_id=game.pk, user=alice, expected_version=game.version)
    assert client_for(carol).get(replay_url(game)).status_code == 200  # the new timeline, cached
    assert "taken back" in client_for(alice).get(url).text


def test_a_game_of_an_incompatible_engine_version_shows_the_repair_page(running_game, client_for):
    Game.objects.filter(pk=running_game.pk).update(engine_version="1.99.0")
    response = client_for(user_at(running_game, 0)).get(replay_url(running_game))
    assert response.status_code == 503


def test_a_private_game_replay_is_hidden_from_strangers(alice, bob, client_for, carol):
    game = new_started_game(alice, bob, seed=3)
    Game.objects.filter(pk=game.pk).update(is_public=False)
    assert client_for(carol).get(replay_url(game)).status_code == 404


def test_a_log_that_no_longer_replays_shows_the_repair_page(running_game, client_for):
    from games.models import Move

    Move.objects.filter(game=running_game, seq=4).update(action={"type": "no_such_action"})
    response = client_for(user_at(running_game, 0)).get(replay_url(running_game, step=2))
    assert response.status_code == 503
    assert "needs repair" in response.content.decode()


def test_the_lobby_lists_finished_public_games_with_their_replay(finished_game, client_for, alice):
    Game.objects.create(name="Secret", creator=alice, status="finished", is_public=False)
    html = client_for(alice).get(reverse("games-lobby")).content.decode()
    assert reverse("games-replay", kwargs={"game_id": finished_game.pk}) + "?step=0" in html
    assert "Secret" not in html
