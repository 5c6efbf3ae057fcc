"""The board draws what the engine decides (games.presenters.board).

Readiness comes from the view's ``ready_places`` (the viewer, with its plan) and
``usable_places`` (every seat); which circle a follower stands on from ``plan_circles`` (the
viewer) and ``circles`` (everyone else); track, place and event texts from the engine's
descriptions. Positions are built with the engine tests' scenario builders; the page tests
install them in a started two-player game and read the rendered board.
"""
from __future__ import annotations

import random
import re

import pytest
from django.urls import reverse

import engine
from engine.simulate import choose
from games.presenters.board import VIEW_SLICES
from games.presenters.page import board_context
from tests.support import engine_states as H
from tests.support.game_driver import install, user_at

NAMES = {0: "first", 1: "second"}


def cards(state, viewer, seat: int) -> dict[str, dict]:
    """``seat``'s place cards as ``viewer`` (None: a spectator) sees them, by place id."""
    board = board_context(engine, engine.view(state, viewer), NAMES)
    mine = next(b for b in board["boards"] if b["seat"] == seat)
    return {card["id"]: card for card in mine["places"]}


def standing(card: dict) -> list[tuple]:
    """``(circle kind, tile or "technology" or None, planned)`` per circle of a card."""
    return [(s["kind"], "technology" if s["technology"] else s["tile"], s["planned"]) for s in card["slots"]]


def knight_planned_on_the_town_hall():
    state = H.planning_state({0: {"market": ["knight"]}})
    return H.act(state, 0, type="place", follower="knight", space="town_hall")


def knight_on_the_town_hall():
    return H.action_state({"spaces": {"town_hall": ["knight"]}})


# --- readiness -------------------------------------------------------------------------------


def test_one_planned_knight_makes_the_town_hall_ready_for_the_planner():
    card = cards(knight_planned_on_the_town_hall(), 0, 0)["town_hall"]
    assert card["ready"]
    assert standing(card) == [("any", "knight", True), ("any", None, False)]


@pytest.mark.parametrize("viewer", [1, None])
def test_a_plan_before_the_reveal_readies_nothing_for_others(viewer):
    card = cards(knight_planned_on_the_town_hall(), viewer, 0)["town_hall"]
    assert not card["ready"]
    assert standing(card) == [("any", None, False), ("any", None, False)]


@pytest.mark.parametrize("viewer", [0, 1, None])
def test_one_knight_on_the_town_hall_shows_it_ready_to_everyone(viewer):
    card = cards(knight_on_the_town_hall(), viewer, 0)["town_hall"]
    assert card["ready"]
    assert standing(card)[0] == ("any", "knight", False)


@pytest.mark.parametrize("viewer", [0, 1, None])
def test_the_gunpowder_tower_shows_ready_while_it_can_be_used(viewer):
    state = H.action_state({"places": ["gunpowder_tower"], "market": ["knight"]})
    assert any(a.get("space") == "gunpowder_tower" for a in engine.legal_actions(state, 0))
    assert cards(state, viewer, 0)["gunpowder_tower"]["ready"]


@pytest.mark.parametrize("viewer", [0, 1, None])
def test_a_used_gunpowder_tower_is_not_ready(viewer):
    state = H.action_state({"places": ["gunpowder_tower"], "market": ["knight"], "tower_used": True})
    assert not any(a.get("space") == "gunpowder_tower" for a in engine.legal_actions(state, 0))
    assert not cards(state, viewer, 0)["gunpowder_tower"]["ready"]


def test_a_half_filled_space_is_not_ready():
    state = H.action_state({"spaces": {"castle": ["start_farmer", "start_boatman"]}})
    assert not cards(state, 0, 0)["castle"]["ready"]


# --- which circle a follower stands on ---------------------------------------------------------


@pytest.mark.parametrize("viewer", [0, 1, None])
def test_a_wild_monk_is_drawn_on_the_circle_the_engine_leaves_it(viewer):
    # Farmhouse: a Boatman and a Craftsman circle. The Monk listed first would take the
    # Boatman circle in a first-come drawing; the engine gives it the Craftsman one.
    state = H.action_state({"spaces": {"farmhouse": ["monk", "start_boatman"]}})
    card = cards(state, viewer, 0)["farmhouse"]
    assert standing(card) == [("boatman", "start_boatman", False), ("craftsman", "monk", False)]
    assert card["ready"]


def test_the_viewers_planned_follower_takes_the_circle_the_engine_assigns():
    state = H.planning_state({0: {"market": ["start_boatman"], "spaces": {"farmhouse": ["monk"]}}})
    state = H.act(state, 0, type="place", follower="start_boatman", space="farmhouse")
    assert standing(cards(state, 0, 0)["farmhouse"]) == [
        ("boatman", "start_boatman", True), ("craftsman", "monk", False)]
    # others see only the committed Monk, still on the circle the engine's matching gives it
    assert standing(cards(state, 1, 0)["farmhouse"]) == [("boatman", "monk", False), ("craftsman", None, False)]


def test_a_technology_tile_is_drawn_on_the_circle_it_covers():
    state = H.action_state({"technology": {"castle": "farmer"}, "spaces": {"castle": ["boatman", "trader"]}})
    card = cards(state, 1, 0)["castle"]
    assert standing(card) == [("farmer", "technology", False), ("boatman", "boatman", False),
                              ("trader", "trader", False)]
    assert card["ready"]


# --- texts from the engine ---------------------------------------------------------------------


def test_track_rewards_are_the_engines_labels():
    board = board_context(engine, engine.view(knight_on_the_town_hall(), 0), NAMES)
    tracks = {t["track"]: [c["reward"] for c in t["cells"]][1:] for t in board["tracks"]}
    assert tracks == engine.track_rewards()
    assert tracks["boatman"][-1] == "citizen / 6 coins"


def test_place_and_event_texts_are_the_engines_descriptions():
    state = knight_on_the_town_hall()
    view = engine.view(state, 0)
    board = board_context(engine, view, NAMES)
    card = cards(state, 0, 0)["town_hall"]
    assert card["effect"] == engine.describe_place("town_hall")
    letter = view["event_phase"]
    assert board["event"]["name"] == engine.event_name(view["event"])
    assert board["event"]["effect"] == engine.describe_event(view["event"], letter, "phased")
    shown = [t["effect"] for stack in board["place_tiles"] for t in stack["tiles"]]
    assert shown and shown == [engine.describe_place(t["id"]) for stack in board["place_tiles"] for t in stack["tiles"]]


# --- the rendered page -------------------------------------------------------------------------


def place_card_html(html: str, seat: int, place: str) -> str:
    """The HTML of ``seat``'s card for ``place`` on the players' boards region."""
    board = re.search(rf'<article [^>]*class="[^"]*player-board[^"]*" data-seat="{seat}".*?</article>', html, re.S)
    assert board, f"no board for seat {seat}"
    card = re.search(rf'<div class="place[^"]*" data-place="{place}".*?</div>', board.group(0), re.S)
    assert card, f"no {place} card"
    return card.group(0)


@pytest.fixture
def town_hall_game(started_game):
    return install(started_game, knight_on_the_town_hall())


@pytest.mark.parametrize("viewer", [0, 1, None])
def test_the_page_shows_the_town_hall_with_one_knight_ready(town_hall_game, client_for, carol, viewer):
    user = carol if viewer is None else user_at(town_hall_game, viewer)
    html = client_for(user).get(reverse("games-detail", kwargs={"game_id": town_hall_game.pk})).content.decode()
    card = place_card_html(html, 0, "town_hall")
    assert card.startswith('<div class="place ready" data-place="town_hall"')
    assert 'title="Knight"' in card


def test_the_page_draws_the_monk_on_the_circle_the_engine_assigned(started_game, client_for):
    game = install(started_game, H.action_state({"spaces": {"farmhouse": ["monk", "start_boatman"]}}))
    html = client_for(user_at(game, 1)).get(reverse("games-detail", kwargs={"game_id": game.pk})).content.decode()
    titles = re.findall(r'<span class="tile[^"]*" title="([^"]+)"', place_card_html(html, 0, "farmhouse"))
    assert titles == ["starting Boatman", "Monk"]


def random_game_views(seed: int, players: int = 3, every: int = 7):
    """Every seat's and a spectator's view of the states of one random game, every
    ``every`` steps: ``[[view of seat 0, ..., spectator's view], ...]``."""
    rng = random.Random(seed)
    state = engine.new_game({"players": players}, seed)
    out, step = [], 0
    while engine.awaiting(state) or engine.needs_resolution(state):
        if step % every == 0:
            out.append([engine.view(state, seat) for seat in [*range(players), None]])
        if engine.needs_resolution(state):
            state, _ = engine.resolve(state)
        else:
            awaited = engine.awaiting(state)
            seat = rng.choice(sorted(awaited))
            state, _ = engine.apply(state, seat, choose(rng, awaited[seat], engine.legal_actions(state, seat),
                                                        state.data, seat))
        step += 1
    return out


@pytest.mark.parametrize("region", sorted(VIEW_SLICES))
def test_a_shared_region_is_a_function_of_its_view_slice_alone(region):
    # the region's fingerprint is taken from its slice before its presenter runs
    # (games.views.regions): equal slices must give equal regions, for every viewer
    seen: dict[str, object] = {}
    for views in random_game_views(seed=3):
        for view in views:
            board = board_context(engine, view, NAMES)
            key = repr(board.inputs(region))
            assert seen.setdefault(key, board[region]) == board[region]
        assert len({repr(board_context(engine, view, NAMES).inputs(region)) for view in views}) == 1
    assert len(seen) > 1


def test_player_boards_from_the_memo_equal_boards_built_afresh():
    # a board is remembered by its player's slice of the view (games.presenters.board's
    # _PLAYER_BOARDS): every viewer's boards of every position equal a build without it
    from games.presenters import board as presenters

    for views in random_game_views(seed=4, every=7):
        for view in views:
            remembered = presenters.player_boards(engine, view, NAMES)
            presenters._PLAYER_BOARDS.clear()
            assert presenters.player_boards(engine, view, NAMES) == remembered


def test_changing_a_returned_board_leaves_the_next_answer_as_it_was():
    from games.presenters import board as presenters

    view = engine.view(engine.new_game({"players": 2}, 5), 0)
    first = presenters.player_boards(engine, view, NAMES)
    first[0]["fragment"] = "changed"
    first[0]["coins"] = -1
    again = presenters.player_boards(engine, view, NAMES)
    assert "fragment" not in again[0] and again[0]["coins"] == view["players"][0]["coins"]


def test_a_player_boards_fragment_key_stands_for_one_board_only():
    # an article is cached under its board's fragment (_boards.html): a key never stands for
    # two boards, so a board that changed gets a new key and its article is rendered again
    # (the key comes from what the board is built of: equal boards may still have two keys)
    by_fragment: dict[str, str] = {}
    for views in random_game_views(seed=5, every=3):
        for view in views:
            for shown in (False, True):
                for b in board_context(engine, view, NAMES, places_shown=shown)["boards"]:
                    fragment = b.pop("fragment")
                    article = repr((b, shown and b["is_viewer"]))
                    assert by_fragment.setdefault(fragment, article) == article
    assert len(by_fragment) > 50


def test_the_presenters_revision_follows_the_catalogues_and_the_engines_texts(monkeypatch):
    # player boards' articles and the shared regions are cached under the fingerprint of
    # their inputs and this revision: a deploy that changes a translation or an engine text
    # must not serve the old article
    from pathlib import Path

    from django.conf import settings

    from games.presenters import page

    japanese = Path(settings.BASE_DIR) / "games" / "locale" / "ja" / "LC_MESSAGES" / "django.mo"
    assert japanese.read_bytes() in page._catalogues()
    assert (Path(engine.__file__).parent / "messages.py").read_bytes() in page._package_files(engine)
    page.presenters_revision.cache_clear()
    before = page.presenters_revision(engine)
    monkeypatch.setattr(page, "_catalogues", lambda: b"another translation")
    page.presenters_revision.cache_clear()
    try:
        assert page.presenters_revision(engine) != before
    finally:
        page.presenters_revision.cache_clear()
