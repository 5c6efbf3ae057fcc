"""The in-game history (the replay viewer of a game in progress) never shows a seat another
seat's hidden information, nor anything from a later step.

While a game runs, the board of step k for seat s must be exactly the board the live page
showed seat s at version k (the live page is covered by test_hidden_information.py's
non-interference checks, so the replay adds nothing to it), for every seat and a spectator;
its log holds the moves up to step k only; a step past the present is the present; and no
page holds the seed. A finished game's replay is revealed for everyone, and only then.
"""
from __future__ import annotations

import re

import pytest
from django.template.loader import render_to_string
from django.urls import reverse

import engine
from games import services
from games.models import Game, Move, Seat
from games.presenters.page import game_context
from games.presenters.replay import replay_context
from tests.support.game_driver import new_started_game, state_of, user_at
from tests.support.game_driver import random_policy

SEED = 246_813_579_024_681
#: The board regions the replay shows, by partial (the viewer's own board is compared
#: outside planning: while planning the live page shows the planning board instead).
REGIONS = ("map", "boards", "tracks", "development", "deeds", "place_tiles", "supply", "event")


def regions(context: dict) -> dict[str, str]:
    """The rendered regions; the layout class saying the live page shows the viewer's places
    on its clickable board instead (``places-shown``) is left out: it carries no information;
    so are the player boards' fingerprints (``data-region-hash``), which cover that class."""
    return {name: FINGERPRINT.sub("", render_to_string(f"games/partials/_{name}.html", context)
                                  .replace(" places-shown", ""))
            for name in REGIONS}


FINGERPRINT = re.compile(r' data-region-hash="[0-9a-f]+"')


@pytest.fixture
def recorded(alice, bob, carol):
    """A three-seat game played into round 3 through the services; the live board regions
    of every seat and a spectator recorded at every fifth version."""
    import random

    game = new_started_game(alice, bob, carol, seed=SEED)
    rng = random.Random(3)
    policy = random_policy(rng)
    seen: dict[int, dict] = {}
    viewers = [None, *Seat.objects.filter(game=game).order_by("order")]
    while True:
        state = state_of(game)
        if game.version % 5 == 0:
            seen[game.version] = {None if v is None else v.order: regions(game_context(game, v)) for v in viewers}
        if state.round >= 3 and state.phase == "actions":
            break
        if engine.needs_resolution(state):
            services.game_resolve(game_id=game.pk, expected_version=game.version)
            continue
        awaited = engine.awaiting(state)
        order = rng.choice(sorted(awaited))
        action = policy(state, order, awaited[order], engine.legal_actions(state, order))
        services.game_submit_action(game_id=game.pk, user=user_at(game, order), action=action,
                                    expected_version=game.version)
    game.refresh_from_db()
    return game, viewers, seen


def test_each_step_shows_a_seat_exactly_what_the_live_page_showed_it_then(recorded):
    game, viewers, seen = recorded
    assert len(seen) >= 8
    for version, by_viewer in seen.items():
        for viewer in viewers:
            key = None if viewer is None else viewer.order
            context = replay_context(game, viewer, version)
            assert context["reveal"] is False and context["step"] == version
            assert regions(context) == by_viewer[key], f"step {version}, seat {key}"


def test_a_step_log_holds_the_moves_up_to_that_step_only(recorded, client_for):
    game, viewers, seen = recorded
    seat = viewers[1]
    moves = list(Move.objects.filter(game=game).order_by("seq"))
    for step in (0, 5, len(moves) // 2):
        html = client_for(seat.user).get(
            reverse("games-replay", kwargs={"game_id": game.pk}) + f"?step={step}").content.decode()
        log = html[html.index('id="replay-log"'):]
        assert log.count('href="?step=') == sum(len(m.events) or (m.seat is not None) for m in moves[:step])
        for later in moves[step:]:
            assert f'href="?step={later.seq}">' not in log


def test_a_step_past_the_present_is_the_present(recorded):
    game, viewers, _ = recorded
    context = replay_context(game, viewers[2], game.version + 50)
    assert context["step"] == game.version
    assert context["view"] == engine.view(state_of(game), viewers[2].order)


def test_no_replay_page_holds_the_seed(recorded, client_for, dave):
    game, viewers, seen = recorded
    for user in (viewers[1].user, dave):
        for step in list(seen)[::4]:
            html = client_for(user).get(reverse("games-replay", kwargs={"game_id": game.pk}) + f"?step={step}")
            assert str(SEED) not in html.content.decode()


def test_full_information_only_once_the_game_has_ended(recorded):
    game, viewers, _ = recorded
    context = replay_context(game, viewers[1], 3)
    assert context["reveal"] is False and context["view"]["revealed"] is False
    assert context["view"]["players"][1]["bag"] is None  # seat 1's bag, seen by seat 0
    Game.objects.filter(pk=game.pk).update(status="finished")  # ended by vote: nothing is secret any more
    game.refresh_from_db()
    context = replay_context(game, viewers[1], 3)
    assert context["reveal"] is True and context["view"]["players"][1]["bag"] is not None
