"""No region shows another seat's bag contents, market (before the action phase) or
unrevealed plan: every partial is rendered for every seat and a spectator of mid-game
positions, then re-rendered after changing only what that viewer must not see."""
import copy
import re

import pytest
from django.contrib.auth.models import AnonymousUser
from django.template.loader import render_to_string
from django.test import RequestFactory

import engine
from games.models import Game
from games.presenters.page import game_context
from tests.games.helpers import play_until

PARTIALS = ("_status", "_decision", "_map", "_my_board", "_event", "_boards", "_tracks",
            "_development", "_deeds", "_place_tiles", "_supply", "_players", "_log", "_poll",
            "_flash")
CSRF = re.compile(r'name="csrfmiddlewaretoken" value="[^"]*"')


def render_all(game: Game, seat) -> dict[str, str]:
    request = RequestFactory().get("/")
    request.user = seat.user if seat else AnonymousUser()
    context = game_context(game, seat)
    return {name: CSRF.sub("", render_to_string(f"games/partials/{name}.html", context, request=request))
            for name in PARTIALS}


def hide_changed(data: dict, hidden: int) -> dict:
    """``data`` with seat ``hidden``'s bag, plan and (before the action phase) market changed."""
    d = copy.deepcopy(data)
    p = d["players"][hidden]
    total = sum(p["bag"].values())
    p["bag"] = {"monk": total} if p["bag"] != {"monk": total} else {"knight": total}
    if d["phase"] not in ("actions", "event", "over"):
        p["market"] = ["monk" if t != "monk" else "knight" for t in p["market"]]
    p["plan"] = [[space, "monk" if t != "monk" else "knight"] for space, t in p["plan"]]
    return d


def planning_with_secrets(state) -> bool:
    d = state.data
    return (d["round"] >= 3 and d["phase"] == "planning"
            and any(p["plan"] for p in d["players"]) and any(p["bag"] for p in d["players"])
            and any(p["market"] for p in d["players"]))


def action_phase(state) -> bool:
    return state.data["round"] >= 3 and state.data["phase"] == "actions" and \
        any(p["bag"] for p in state.data["players"])


@pytest.mark.parametrize("position", [planning_with_secrets, action_phase])
def test_no_region_shows_another_seats_secrets(position, make_game, alice, bob, carol):
    game = play_until(make_game(alice, bob, carol, seats=3), position, seed=11)
    seats = {s.order: s for s in game.seats.select_related("user")}
    original = game.state
    changed_something = False
    for viewer in (0, 1, 2, None):
        seat = seats.get(viewer)
        before = render_all(game, seat)
        for hidden in (s for s in seats if s != viewer):
            changed = hide_changed(original, hidden)
            changed_something |= changed["players"][hidden] != original["players"][hidden]
            Game.objects.filter(pk=game.pk).update(state=changed)
            game.refresh_from_db()
            try:
                after = render_all(game, seat)
            finally:
                Game.objects.filter(pk=game.pk).update(state=original)
                game.refresh_from_db()
            for name, html in before.items():
                assert after[name] == html, f"{name} shows seat {hidden}'s secrets to {viewer!r}"
    assert changed_something


def test_the_viewer_alone_sees_its_bag_and_plan(make_game, alice, bob, carol):
    game = play_until(make_game(alice, bob, carol, seats=3), planning_with_secrets, seed=11)
    data = game.state
    planner = next(i for i, p in enumerate(data["players"]) if p["plan"])
    seat = game.seats.get(order=planner)
    regions = render_all(game, seat)
    assert " planned" in regions["_boards"]
    view = engine.view(engine.from_json(data), planner)
    assert view["players"][planner]["market"] is not None
    for other in game.seats.exclude(order=planner):
        if not data["players"][other.order]["plan"]:  # its own plan would show, rightly
            assert " planned" not in "".join(render_all(game, other).values())
