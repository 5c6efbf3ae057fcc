"""Hidden information never reaches another seat's browser, nor a spectator's.

Two kinds of checks on every game page, poll response and refusal response, for every
seat and a spectator, in mid-game states (followers/planning with plans in progress, the
action phase, event prompts):

- concrete values: the seed, and the ordered list of the remaining hourglass events, never
  appear in any page;
- non-interference: change only what a seat must not see (another seat's bag contents,
  market before the reveal, unrevealed plan, prompt details, the seed and random counters,
  the order of the hourglass and of hidden place-tile stacks) and the viewer's HTML must
  not change at all.

Pages are compared rendered afresh and served from the region caches (filled by every
seat, the one whose secrets change included: ``games.views.regions``).

The same non-interference is checked on every partial template (templates/games/partials)
rendered on its own, for positions reached by random play through the services. The engine's
own hiding (``engine.view``) is tested in tests/engine/test_view_hides_secrets.py.
"""
from __future__ import annotations

import copy
import json
import random
import re

import pytest
from django.contrib.auth.models import AnonymousUser
from django.core.cache import caches
from django.template.loader import render_to_string
from django.test import Client, RequestFactory
from django.urls import reverse

import engine
from engine.simulate import choose as simulate_choice
from games import services
from games.models import Game
from games.presenters.page import game_context
from tests.support.act_board import sampled_positions
from tests.support.game_driver import install, new_started_game, play_until, state_of, user_at
from tests.support.html_forms import HTMX
from tests.support.snapshots import flat, normalised

SEED = 123_456_789_012_345


# --- setting up mid-game positions ---------------------------------------------------------


@pytest.fixture
def table(alice, bob, carol, dave):
    """A three-player game on a fixed seed; dave watches (and is listed as watching)."""
    game = new_started_game(alice, bob, carol, seed=SEED)
    clients = {}
    for order in range(3):
        client = Client()
        client.force_login(user_at(game, order))
        clients[order] = client
    spectator = Client()
    spectator.force_login(dave)
    clients[None] = spectator
    # dave is listed as watching (games.spectators) from his first visit on: visiting now keeps
    # that public list the same on every page the comparisons fetch
    spectator.get(reverse("games-detail", kwargs={"game_id": game.pk}))
    return game, clients


def planning_in_progress(game: Game) -> Game:
    """Round 1 planning: seat 1 has placed two followers, seat 2 has submitted its plan."""
    state = state_of(game)
    for order, actions in ((1, 2), (2, 2)):
        for _ in range(actions):
            state = state_of(game)
            place = next(a for a in engine.legal_actions(state, order) if a["type"] == "place")
            services.game_submit_action(game_id=game.pk, user=user_at(game, order),
                                        action=place, expected_version=game.version)
    game.refresh_from_db()
    services.game_submit_action(game_id=game.pk, user=user_at(game, 2),
                                action={"type": "submit_plan"}, expected_version=game.version)
    game.refresh_from_db()
    data = state_of(game).data
    assert data["phase"] == "planning" and data["players"][1]["plan"]
    return game


def followers_in_progress(game: Game) -> Game:
    """Round 4 or later, followers phase: seat 0 has drawn one follower (its bag is not
    empty) and placed one, seat 1 has drawn all it may, seat 2 has not drawn yet."""
    play_until(game, lambda s: s.data["round"] >= 4 and "draw" in engine.awaiting(s).values(),
               seed=7, lowest_seat_first=True)
    for order, pick in ((0, min), (1, max)):  # seat 0 leaves followers in its bag
        state = state_of(game)
        draws = [a for a in engine.legal_actions(state, order)
                 if a["type"] == "draw" and a["count"] > 0]
        if draws:
            services.game_submit_action(
                game_id=game.pk, user=user_at(game, order),
                action=pick(draws, key=lambda a: a["count"]), expected_version=game.version)
    places = [a for a in engine.legal_actions(state_of(game), 0) if a["type"] == "place"]
    if places:
        services.game_submit_action(game_id=game.pk, user=user_at(game, 0), action=places[0],
                                    expected_version=game.version)
    data = state_of(game).data
    assert data["round"] >= 4 and any(p["bag"] for p in data["players"])
    assert any(p["market"] for p in data["players"])
    return game


def action_phase(game: Game) -> Game:
    """The action phase of a later round, reached by random but purposeful play."""
    play_until(game, lambda s: s.data["round"] >= 3 and s.data["phase"] == "actions",
               seed=7, lowest_seat_first=True)
    return game


def event_prompts(game: Game) -> Game:
    """A Harvest prompt pending for two seats (a position found by the engine alone)."""
    state = engine.new_game(engine.GameOptions.from_dict(game.options), seed=1)
    rng = random.Random(1)
    while not set(engine.awaiting(state).values()) - {"draw", "plan", "action"}:
        if engine.needs_resolution(state):
            state, _ = engine.resolve(state)
            continue
        awaited = engine.awaiting(state)
        seat = min(awaited)
        action = simulate_choice(rng, awaited[seat], engine.legal_actions(state, seat),
                                 state.data, seat)
        state, _ = engine.apply(state, seat, action)
    assert any(p["prompts"] for p in state.data["players"])
    data = engine.to_json(state)
    data["seed"] = SEED + 1  # a seed long enough to search the pages for
    Game.objects.filter(pk=game.pk).update(state=data, seed=data["seed"])
    game.refresh_from_db()
    return game


POSITIONS = {
    "planning": planning_in_progress,
    "followers": followers_in_progress,
    "actions": action_phase,
    "event prompts": event_prompts,
}


# --- rendering everything a viewer can fetch ------------------------------------------------


def pages(game: Game, clients: dict, viewer) -> dict[str, str]:
    """Every game page, fragment and refusal a viewer (seat order or None) can get."""
    game.refresh_from_db()
    client = clients[viewer]
    kwargs = {"game_id": game.pk}
    out = {
        "detail": client.get(reverse("games-detail", kwargs=kwargs)),
        "poll": client.get(reverse("games-poll", kwargs=kwargs), {"v": -1}, **HTMX),
        "seats": client.get(reverse("games-seats", kwargs=kwargs), **HTMX),
    }
    if viewer is not None:
        draft = json.dumps(own_draft(game, viewer))
        out["plan preview"] = client.get(reverse("games-plan", kwargs=kwargs), {"plan_draft": draft}, **HTMX)
        out["poll with a draft"] = client.get(reverse("games-poll", kwargs=kwargs), {"v": -1, "plan_draft": draft},
                                              **HTMX)
        act = reverse("games-act", kwargs=kwargs)
        out["stale refusal"] = client.post(
            act, {"action": '{"type": "pass"}', "expected_version": game.version + 1000}, **HTMX)
        out["illegal refusal"] = client.post(
            act, {"action": '{"type": "pass", "x": 1}', "expected_version": game.version},
            **HTMX)
    for name, response in out.items():
        assert response.status_code < 400, (name, response.status_code)
    return {name: normalised(r.content.decode(), game) for name, r in out.items()}


def own_draft(game: Game, viewer: int) -> list[dict]:
    """A draft plan of the viewer's own (its first two legal placements, one after the
    other), as the planning board would send it; empty when the viewer is not planning."""
    state, draft = state_of(game), []
    for _ in range(2):
        place = next((a for a in engine.legal_actions(state, viewer) if a["type"] == "place"), None)
        if place is None:
            break
        draft.append(place)
        state, _ = engine.apply(state, viewer, place)
    return draft


def other_pages(client) -> str:
    return "".join(client.get(url).content.decode() for url in
                   ("/", reverse("games-lobby"), reverse("games-profile")))


# --- hiding: what a seat must not see, changed in place ---------------------------------------


def _different_follower_list(items: list) -> list:
    if not items:
        return []
    for fill in ("monk", "knight", "scholar"):
        candidate = [fill] * len(items)
        if candidate != list(items):
            return candidate
    raise AssertionError("unreachable")


def _keep_first_appearances_permuted(hourglass: list) -> list:
    """Reorder the remaining hourglass without changing which event kind first appears where."""
    first = {}
    for index, event in enumerate(hourglass):
        first.setdefault(event, index)
    tail_start = max(first.values(), default=0) + 1
    return hourglass[:tail_start] + list(reversed(hourglass[tail_start:]))


def with_hidden_changed(data: dict, hidden_seat: int | None, *, hourglass) -> dict:
    """``data`` with everything ``hidden_seat`` keeps secret (and the global secrets) changed."""
    d = copy.deepcopy(data)
    d["seed"] = d["seed"] + 1_000_003
    d["rng"] = {k: v + 11 for k, v in d["rng"].items()}
    d["hourglass"] = hourglass(d["hourglass"])
    for stack in d["place_tiles"]["stack"].values():
        stack.reverse()
    if hidden_seat is None:
        return d
    p = d["players"][hidden_seat]
    total = sum(p["bag"].values())
    if total:
        p["bag"] = {"farmer": total} if p["bag"] != {"farmer": total} else {"knight": total}
    if d["phase"] not in ("actions", "event", "over"):
        p["market"] = _different_follower_list(p["market"])
    p["plan"] = [["castle", f] for f in _different_follower_list([x[1] for x in p["plan"]])]
    for prompt in p["prompts"]:
        for key, value in list(prompt.items()):
            if key == "kind":
                continue
            if isinstance(value, bool):
                prompt[key] = not value
            elif isinstance(value, int):
                prompt[key] = value + 3
            elif isinstance(value, str):
                prompt[key] = value + "_changed"
            elif isinstance(value, list):
                prompt[key] = list(reversed(value)) + value
    return d


def assert_same_pages(game, clients, changed_state: dict, viewers, *, cached: bool = False) -> None:
    """Every page of each of ``viewers`` is the same with ``changed_state`` (same version).

    The pages after the change are rendered afresh (the region caches cleared: the state
    changes here without a new version). ``cached``: the pages before it are served from
    caches that every viewer, the seats whose secrets change included, filled first
    (``games.views.regions``); else they are rendered afresh too."""
    caches["regions"].clear()
    if cached:
        for viewer in clients:
            pages(game, clients, viewer)
    originals = {v: pages(game, clients, v) for v in viewers}
    original_state, original_seed = game.state, game.seed
    Game.objects.filter(pk=game.pk).update(state=changed_state, seed=changed_state["seed"])
    caches["regions"].clear()
    try:
        for viewer in viewers:
            after = pages(game, clients, viewer)
            for name, text in originals[viewer].items():
                assert after[name] == text, (
                    f"viewer {viewer!r} sees a difference in {name!r} when only hidden "
                    "information changed")
    finally:
        Game.objects.filter(pk=game.pk).update(state=original_state, seed=original_seed)


@pytest.mark.parametrize("cached", [False, True], ids=["uncached", "cached"])
@pytest.mark.parametrize("position", list(POSITIONS))
def test_no_seat_and_no_spectator_sees_another_seats_secrets(table, position, cached):
    game, clients = table
    POSITIONS[position](game)
    data = game.state
    for hidden in (0, 1, 2):
        changed = with_hidden_changed(data, hidden, hourglass=_keep_first_appearances_permuted)
        assert changed["players"][hidden] != data["players"][hidden] or \
            not data["players"][hidden]["bag"], "the change must touch something hidden"
        viewers = [v for v in (0, 1, 2, None) if v != hidden]
        assert_same_pages(game, clients, changed, viewers, cached=cached)


@pytest.mark.parametrize("position", list(POSITIONS))
def test_nobody_sees_the_seed_or_the_hourglass_order(table, position):
    game, clients = table
    POSITIONS[position](game)
    game.refresh_from_db()
    data = game.state
    seed_texts = {str(data["seed"]), str(game.seed), hex(data["seed"])[2:]}
    remaining = data["hourglass"]
    orders = {json.dumps(remaining[:4], separators=(",", ":"))}
    for sep in (",", "", "→", "->", "|"):
        for names in (remaining, [e.replace("_", "") for e in remaining]):
            orders.add(sep.join(names[:4]))
    for viewer in (0, 1, 2, None):  # the first fills the region caches the others are served from
        rendered = "".join(pages(game, clients, viewer).values()) + other_pages(clients[viewer])
        squashed = flat(rendered).lower()
        for secret in seed_texts:
            assert secret not in rendered, f"the seed is shown to viewer {viewer!r}"
        for order in orders:
            assert order.lower() not in squashed, (
                f"viewer {viewer!r} sees the order of the hourglass stack: {order}")


@pytest.mark.parametrize("position", ["planning", "followers"])
def test_a_spectator_sees_no_market_or_plan_and_no_bag_at_all(table, position):
    """The same non-interference, with every seat's secrets changed at once."""
    game, clients = table
    POSITIONS[position](game)
    changed = game.state
    for hidden in (0, 1, 2):  # one change after the other, on the same copy
        changed = with_hidden_changed(changed, hidden, hourglass=_keep_first_appearances_permuted)
    assert changed["players"] != game.state["players"]
    assert_same_pages(game, clients, changed, [None], cached=True)


@pytest.mark.parametrize("position", ["planning", "actions"])
def test_the_spectator_page_and_its_watching_list_carry_no_secret(table, position):
    """The spectator (listed as watching on every page) sees nothing hidden change, and the
    seats' pages that list him do not either."""
    game, clients = table
    POSITIONS[position](game)
    assert "Watching: dave" in pages(game, clients, 0)["detail"]
    assert "You are watching this game." in pages(game, clients, None)["detail"]
    changed = game.state
    for hidden in (0, 1, 2):
        changed = with_hidden_changed(changed, hidden, hourglass=_keep_first_appearances_permuted)
    assert_same_pages(game, clients, changed, [None])


@pytest.mark.parametrize("position", list(POSITIONS))
def test_reordering_the_hourglass_changes_no_page(table, position):
    """The events left are shown in a fixed order, never in the hidden stack's."""
    game, clients = table
    POSITIONS[position](game)
    changed = with_hidden_changed(game.state, None, hourglass=lambda h: list(reversed(h)))
    assert changed["hourglass"] != game.state["hourglass"]
    assert_same_pages(game, clients, changed, [0, 1, 2, None])


def test_the_comparison_sees_a_public_change(table):
    """Control: the non-interference check does notice when something public changes."""
    game, clients = table
    planning_in_progress(game)
    changed = copy.deepcopy(game.state)
    changed["players"][1]["coins"] += 1
    with pytest.raises(AssertionError, match="only hidden information changed"):
        assert_same_pages(game, clients, changed, [0])


def test_the_comparison_sees_a_change_to_the_viewers_own_secrets(table):
    """Control: a seat does see its own market and plan change."""
    game, clients = table
    planning_in_progress(game)
    changed = with_hidden_changed(game.state, 1, hourglass=_keep_first_appearances_permuted)
    with pytest.raises(AssertionError, match="only hidden information changed"):
        assert_same_pages(game, clients, changed, [1])


def test_the_move_log_does_not_carry_hidden_actions(table):
    """Moves store the raw action (plans included) but the pages show only the public events."""
    game, clients = table
    planning_in_progress(game)
    players = state_of(game).data["players"]
    for viewer in (0, 2, None):
        rendered = "".join(pages(game, clients, viewer).values())
        own = players[viewer]["plan"] if viewer is not None else []
        for space, follower in (p for p in players[1]["plan"] if p not in own):
            pair = re.escape(json.dumps([space, follower], separators=(",", ":")))
            assert not re.search(pair, flat(rendered))
            assert json.dumps({"follower": follower, "space": space}) not in rendered


# --- every partial template, rendered on its own ----------------------------------------------

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


def planning_with_secrets(state) -> bool:
    d = state.data
    return (d["round"] >= 3 and d["phase"] == "planning"
            and any(p["plan"] for p in d["players"]) and any(p["bag"] for p in d["players"])
            and any(p["market"] for p in d["players"]))


def action_phase_with_bags(state) -> bool:
    return state.data["round"] >= 3 and state.data["phase"] == "actions" and \
        any(p["bag"] for p in state.data["players"])


PLAYED_POSITIONS = {"planning_with_secrets": planning_with_secrets, "action_phase": action_phase_with_bags}


@pytest.mark.parametrize("position", list(PLAYED_POSITIONS))
def test_no_region_shows_another_seats_secrets(position, make_game, alice, bob, carol):
    game = play_until(make_game(alice, bob, carol, seats=3), PLAYED_POSITIONS[position], seed=11)
    seats = {s.order: s for s in game.seats.select_related("user")}
    original = game.state
    changed_something = False
    board_targets = 0
    for viewer in (0, 1, 2, None):
        seat = seats.get(viewer)
        before = render_all(game, seat)
        board_targets += before["_my_board"].count("data-act-target")
        for hidden in (s for s in seats if s != viewer):
            changed = with_hidden_changed(original, hidden, hourglass=_keep_first_appearances_permuted)
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
    if position != "planning_with_secrets":  # the board's own targets were among what was compared
        assert board_targets


@pytest.mark.parametrize("kind", ["action", "technology", "bathhouse"])
def test_no_region_with_board_targets_shows_the_other_seats_secrets(kind, started_game):
    """The board's targets (``_my_board`` with ``games.presenters.act_board``), for positions
    of each kind played on the board (engine-sampled, installed): changing only what the other
    seat keeps secret (its bag, plan, prompts, and the global secrets) changes no region of
    the viewer's page."""
    game = started_game
    seats = {s.order: s for s in game.seats.select_related("user")}
    targets = 0
    for state, viewer in sampled_positions()[kind]:
        install(game, state)
        original = game.state
        before = render_all(game, seats[viewer])
        targets += before["_my_board"].count("data-act-target")
        changed = with_hidden_changed(original, 1 - viewer, hourglass=_keep_first_appearances_permuted)
        assert changed["seed"] != original["seed"]  # the seed, random counters, hourglass and stacks always
        Game.objects.filter(pk=game.pk).update(state=changed)
        game.refresh_from_db()
        after = render_all(game, seats[viewer])
        for name, html in before.items():
            assert after[name] == html, f"{name} shows seat {1 - viewer}'s secrets to seat {viewer} ({kind})"
    assert targets


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


# --- Refusal sentences and queue notes say nothing about the hidden place-tile stacks ------


def _village_to_act(game: Game, capture) -> Game:
    """Round 1 action phase: alice (seat 0) planned the Village and acts first; bob the Castle."""
    from tests.support.game_driver import CASTLE_PLAN, VILLAGE_PLAN, seats, submit

    by_order = seats(game)
    with capture(execute=True):
        submit(game, by_order[0], {"type": "submit_plan", "placements": VILLAGE_PLAN})
        submit(game, by_order[1], {"type": "submit_plan", "placements": CASTLE_PLAN})
    assert engine.awaiting(state_of(game)) == {0: "action"}
    return game


def _refusals_about(game: Game, tile: str) -> dict:
    """Every sentence alice (seat 0) is given when she names the place tile ``tile``: taking
    it with the Village's Trader, using it, queueing it, and the note of a queue waiting at it."""
    from games.errors import ServiceError
    from games.rules import player_message, rules_errors

    alice = user_at(game, 0)
    said = {}
    attempts = {
        "take": {"type": "activate", "space": "village", "recruit": "trader", "place_tile": tile},
        "use": {"type": "activate", "space": tile},
    }
    for name, action in attempts.items():
        game.refresh_from_db()
        try:
            services.game_submit_action(game_id=game.pk, user=alice, action=action, expected_version=game.version)
        except (ServiceError, *rules_errors()) as exc:
            said[name] = (getattr(exc, "code", None), player_message(exc).replace(tile, "<tile>"))
    for name, entry in {"queue": {"type": "activate", "space": tile},
                        "queued take": attempts["take"]}.items():
        try:
            services.seat_queue_change(game_id=game.pk, user=alice, op="add", entry=entry)
        except ServiceError as exc:
            said[name] = (exc.code, exc.message)
        seat = game.seats.get(order=0)
        said[name + " note"] = seat.action_queue_note
        services.seat_queue_change(game_id=game.pk, user=alice, op="clear")
    return said


def _with_stack_swapped(game: Game, tile: str) -> str:
    """Swap hidden ``tile`` with the first hidden tile of the other stack (the stacks'
    sizes and every open tile unchanged); returns the tile it was swapped with."""
    data = copy.deepcopy(game.state)
    stacks = data["place_tiles"]["stack"]
    mine = next(k for k, tiles in stacks.items() if tile in tiles)
    other = next(k for k in stacks if k != mine)
    partner = stacks[other][0]
    stacks[mine][stacks[mine].index(tile)], stacks[other][0] = partner, tile
    Game.objects.filter(pk=game.pk).update(state=data)
    game.refresh_from_db()
    return partner


def test_no_refusal_or_queue_note_tells_which_hidden_stack_holds_a_place_tile(
        alice, bob, django_capture_on_commit_callbacks):
    """A tile in hidden stack I or II, asked for by the Village's Trader, used, queued, or
    queued for the Trader: the same code and sentence whichever hidden stack holds it, and
    nothing changes in the game (RULES §12.3: only open tiles are known)."""
    game = _village_to_act(new_started_game(alice, bob, seed=SEED, place_tile_market="market3"),
                           django_capture_on_commit_callbacks)
    hidden = [t for tiles in game.state["place_tiles"]["stack"].values() for t in tiles]
    assert hidden
    for tile in hidden[:3] + hidden[-3:]:
        version = Game.objects.get(pk=game.pk).version
        before = _refusals_about(game, tile)
        assert before["take"][0] == "place_tile_taken"
        assert before["use"][0] == "not_owned" and before["queue"][0] == "queue_not_own"
        assert "that choice is not possible now" in before["queued take note"]  # the queue waits at it
        _with_stack_swapped(game, tile)
        assert _refusals_about(game, tile) == before
        assert Game.objects.get(pk=game.pk).version == version
