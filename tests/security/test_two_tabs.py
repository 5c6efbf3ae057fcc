"""The same player in two tabs, a double click, two players clicking in the same phase.

The optimistic version check must refuse the second submission of the same page as stale
and never apply anything twice.
"""
from __future__ import annotations

import json
import re

import pytest
from django.urls import reverse

import engine
from games.models import Move
from tests.support.game_driver import new_started_game, state_of, user_at
from tests.support.html_forms import HTMX
from tests.support.snapshots import game_snapshot

VERSION_FIELD = re.compile(r'name="expected_version" value="(\d+)"')
POLL_VERSION = re.compile(r'data-version="(\d+)"')


def page_version(client, game) -> int:
    """The expected_version the game page's forms carry (what a tab would post)."""
    page = client.get(reverse("games-detail", kwargs={"game_id": game.pk}))
    versions = {int(v) for v in VERSION_FIELD.findall(page.text)}
    if not versions:  # nothing to decide: the page still knows the version it shows
        versions = {int(v) for v in POLL_VERSION.findall(page.text)}
    assert len(versions) == 1, versions
    return versions.pop()


def post(client, game, action, version, **extra):
    return client.post(reverse("games-act", kwargs={"game_id": game.pk}),
                       {"action": json.dumps(action), "expected_version": version}, **extra)


@pytest.fixture
def game(alice, bob, carol):
    return new_started_game(alice, bob, carol)


@pytest.mark.parametrize("htmx", [True, False], ids=["htmx", "plain"])
def test_the_same_form_submitted_twice_is_applied_once(client_for, game, htmx):
    user = user_at(game, 0)
    client = client_for(user)
    version = page_version(client, game)
    action = engine.legal_actions(state_of(game), 0)[0]
    extra = HTMX if htmx else {}
    first = post(client, game, action, version, **extra)
    assert first.status_code in (200, 302)
    after_first = game_snapshot(game.pk)
    assert after_first["version"] == version + 1
    second = post(client, game, action, version, **extra)  # the double click
    if htmx:
        assert "moved on" in second.text
    else:
        assert second.status_code == 302
        assert "moved on" in client.get(second["Location"]).text
    assert game_snapshot(game.pk) == after_first
    assert Move.objects.filter(game=game, seat=0).count() == 1


def test_two_tabs_of_one_player_the_second_is_stale(client_for, game):
    user = user_at(game, 1)
    tab1, tab2 = client_for(user), client_for(user)
    v1, v2 = page_version(tab1, game), page_version(tab2, game)
    assert v1 == v2
    legal = engine.legal_actions(state_of(game), 1)
    a, b = legal[0], legal[-1]
    assert 'class="flash"' not in post(tab1, game, a, v1, **HTMX).text
    after_first = game_snapshot(game.pk)
    response = post(tab2, game, b, v2, **HTMX)
    assert "moved on" in response.text
    assert game_snapshot(game.pk) == after_first
    # the refreshed tab now carries the current version and may go on
    assert f'data-version="{v1 + 1}"' in response.text
    assert page_version(tab2, game) == v1 + 1


def test_a_submitted_plan_cannot_be_submitted_again_from_another_tab(client_for, game):
    user = user_at(game, 2)
    tab1, tab2 = client_for(user), client_for(user)
    post(tab1, game, {"type": "submit_plan"}, page_version(tab1, game), **HTMX)
    after = game_snapshot(game.pk)
    # tab 2 reloads (so not stale) and still tries to submit the plan again
    response = post(tab2, game, {"type": "submit_plan"}, page_version(tab2, game), **HTMX)
    assert 'class="flash"' in response.text
    assert game_snapshot(game.pk) == after
    assert Move.objects.filter(game=game, seat=2).count() == 1


def test_another_players_planning_does_not_make_my_page_stale(client_for, game):
    """While players plan at once, one player's placements do not refuse the others'
    clicks made on pages from before them (games.services._only_others_moved_independently);
    the action is still checked against the current state."""
    alice_client, bob_client = client_for(user_at(game, 0)), client_for(user_at(game, 1))
    seen = page_version(alice_client, game)
    assert page_version(bob_client, game) == seen
    bob_action = next(a for a in engine.legal_actions(state_of(game), 1) if a["type"] == "place")
    post(bob_client, game, bob_action, seen, **HTMX)
    alice_action = next(a for a in engine.legal_actions(state_of(game), 0) if a["type"] == "place")
    response = post(alice_client, game, alice_action, seen, **HTMX)
    assert "moved on" not in response.text
    game.refresh_from_db()
    assert game.version == seen + 2
    assert list(Move.objects.filter(game=game).order_by("seq").values_list("seat", flat=True))[-2:] == [1, 0]
