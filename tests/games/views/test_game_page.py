"""The game page's board and decision forms (templates/games/partials/*), built from the
viewer's ``engine.view`` and ``engine.legal_actions`` only.

Positions are built with the engine tests' scenario builders and installed in a started
two-player game, so each kind of decision can be rendered and posted through its form.
"""
import json
import re

import pytest
from django.urls import reverse

import engine
from games.presenters.board import seat_colour
from games.models import Move
from tests.support import engine_states as H
from tests.support.game_driver import install
from tests.support.html_forms import HTMX, decision_forms

FULL = {"village": ["boatman", "craftsman", "farmer"], "ship": ["boatman", "farmer", "knight"],
        "scriptorium": ["knight", "scholar"]}


def canonical(action):
    return json.dumps(action, sort_keys=True)


def page(client, game):
    return client.get(reverse("games-detail", kwargs={"game_id": game.pk}))


def technology_prompt():
    return H.act(H.action_state({"technology_pending": 1}), type="pass")


def bathhouse_prompt():
    state = H.action_state({"places": ["bathhouse"], "spaces": {"bathhouse": ["start_boatman"]},
                            "bag": {"knight": 3}})
    return H.activate(state, "bathhouse")


def torture_prompt():
    return H.build("event", {0: {"coins": 0, "stations_left": 9, "bag": {"knight": 1},
                                 "development": 5, "places": ["brewery"], "goods": {"wool": 3},
                                 "prompts": [{"kind": "torture", "debt": 3, "reason": "taxes"}]}},
                   stations={"blois": [0]}, round=2, event="taxes")


POSITIONS = {
    "draw": (lambda: H.draw_state({0: {"bag": {"knight": 3, "farmer": 2},
                                       "spaces": {"castle": ["farmer"]}}}), "draw"),
    "plan": (lambda: H.planning_state({0: {"market": ["start_farmer", "knight", "scholar"]}}), "plan"),
    "action": (lambda: H.action_state({"spaces": FULL}), "action"),
    "town hall": (lambda: H.action_state({"spaces": {"town_hall": ["knight", "monk"]}}), "action"),
    "pharmacy": (lambda: H.action_state({"places": ["pharmacy"], "spaces": {"pharmacy": ["farmer"]},
                                         "coins": 5}), "action"),
    "torture": (torture_prompt, "torture"),
    "harvest": (lambda: H.run_event("harvest", {0: {"goods": {"grain": 3, "wine": 3}}}, round=8)[0],
                "harvest"),
    "technology": (technology_prompt, "technology"),
    "bathhouse": (bathhouse_prompt, "bathhouse"),
}


@pytest.mark.parametrize("position", list(POSITIONS))
def test_each_decision_is_a_real_form_and_posting_it_works(position, client_for, started_game):
    build, kind = POSITIONS[position]
    state = build()
    assert engine.awaiting(state).get(0) == kind
    game = install(started_game, state)
    user = game.seats.get(order=0).user
    client = client_for(user)
    response = page(client, game)
    act_url = reverse("games-act", kwargs={"game_id": game.pk})
    assert response.context["decision"]["kind"] == kind
    forms = decision_forms(response.text)
    legal = engine.legal_actions(state, 0)
    assert sorted(canonical(a) for f in forms for a in f["actions"]) == sorted(map(canonical, legal))
    for form in forms:
        assert (form["attrs"]["method"], form["attrs"]["action"], form["attrs"]["hx-post"]) == \
            ("post", act_url, act_url)
        assert form["hidden"]["csrfmiddlewaretoken"] and form["hidden"]["expected_version"] == "0"
    # post the last choice of the busiest form, as the browser would
    form = max(forms, key=lambda f: len(f["actions"]))
    chosen = form["actions"][-1]
    response = client.post(act_url, {"action": json.dumps(chosen), "expected_version": 0}, **HTMX)
    assert response.status_code == 200
    assert 'class="flash"' not in response.text
    assert Move.objects.get(game=game).action == chosen


def test_actions_are_grouped_one_form_per_space_with_their_choices(client_for, started_game):
    game = install(started_game, H.action_state({"spaces": FULL}))
    forms = {f["attrs"]["data-form"]: f for f in decision_forms(page(client_for(
        game.seats.get(order=0).user), game).text)}
    assert {a["recruit"] for a in forms["activate-village"]["actions"]} == {"boatman", "craftsman", "trader"}
    assert all(a["space"] == "ship" and "route" in a for a in forms["activate-ship"]["actions"])
    assert forms["activate-scriptorium"]["actions"] == [{"type": "activate", "space": "scriptorium"}]
    assert forms["pass"]["actions"] == [{"type": "pass"}]


def test_planning_offers_a_form_per_space_an_undo_per_planned_tile_and_submit(client_for, started_game):
    state = H.planning_state({0: {"market": ["start_farmer", "knight", "scholar"]}})
    state = H.act(state, type="place", follower="knight", space="scriptorium")
    game = install(started_game, state)
    text = page(client_for(game.seats.get(order=0).user), game).text
    forms = {f["attrs"]["data-form"]: f for f in decision_forms(text)}
    assert {a["follower"] for a in forms["place-scriptorium"]["actions"]} == {"scholar"}
    undo = [f for key, f in forms.items() if key.startswith("unplace-")]
    assert [f["actions"] for f in undo] == [[{"type": "unplace", "follower": "knight", "space": "scriptorium"}]]
    assert forms["submit_plan"]["actions"] == [{"type": "submit_plan"}]
    assert "Your turn" in text


def _region(text: str, region: str) -> str:
    start = text.index(f'id="{region}"')
    return text[start:text.index("</section>", start)]


def test_map_tracks_development_and_deeds_show_every_marker(client_for, started_game):
    state = H.action_state({"tracks": {"knight": 2, "farmer": 1}, "development": 5, "merchant": "tours"},
                           stations={"blois": [0], "orleans": [0, 1]},
                           deeds={**H.new_data()["deeds"], "city_wall": [["knight", 1]]})
    game = install(started_game, state)
    view = engine.view(state, 0)
    text = page(client_for(game.seats.get(order=0).user), game).text
    red, blue = seat_colour(0), seat_colour(1)
    game_map = _region(text, "game-map")
    assert re.search(r'data-town="blois".*?class="station" data-seat="0"', game_map, re.S)
    orleans = game_map.split('data-town="orleans"')[1].split('data-town=')[0]
    assert 'class="station" data-seat="0"' in orleans and 'class="station" data-seat="1"' in orleans
    assert 'class="merchant" data-seat="0"' in game_map.split('data-town="tours"')[1].split('data-town=')[0]
    goods = sum(len(g) for g in view["routes"].values())
    assert game_map.count('class="good-marker"') == goods
    for rid, on_route in view["routes"].items():
        for good in on_route:
            assert f'data-route="{rid}" data-good="{good}"' in game_map
    assert game_map.count('class="route water"') + game_map.count('class="route land"') == 43
    knight = _region(text, "game-tracks").split('data-track="knight"')[1].split("</tr>")[0]
    cells = knight.split("<td")[1:]
    assert red in cells[2] and red not in cells[0] and blue in cells[0]
    dev = _region(text, "game-development")
    fifth = dev.split('data-position="5"')[1].split("</li>")[0]
    assert red in fifth
    wall = _region(text, "game-deeds").split('data-deed="city_wall"')[1].split('data-deed=')[0]
    assert 'data-seat="1"' in wall and blue in wall
    event = _region(text, "game-event")
    assert view["event_phase"] in event and f"Round {view['round']} of 18" in event
    tiles = _region(text, "game-place-tiles")
    for stack in view["place_tiles"]["display"].values():
        for place in stack:
            assert f'data-place="{place}"' in tiles


def test_the_viewer_sees_own_bag_by_type_and_market(client_for, started_game):
    state = H.draw_state({0: {"bag": {"knight": 3, "farmer": 2}, "market": ["monk"]},
                          1: {"bag": {"scholar": 4}, "market": ["trader"]}})
    game = install(started_game, state)
    mine = _region(page(client_for(game.seats.get(order=0).user), game).text, "game-mine")
    assert 'title="Knight"' in mine and "×3" in mine and 'title="Monk"' in mine
    assert 'title="Scholar"' not in mine and 'title="Trader"' not in mine
