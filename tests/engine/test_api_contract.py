"""The public API contract (engine/__init__.py, docs/engine.md): apply and resolve never change
their input, every refusal raises the right RulesError subclass with the state unchanged,
JSON round-trips and replays are exact (RULES §14.12 determinism), outcomes and options."""
import json
import random

import pytest

import engine
from engine.flow import awaiting_data
from engine.simulate import play_game
from engine.state import clone
from tests.support.engine_states import action_state, assert_refused, draw_state

SCRIPTORIUM = {"scriptorium": ["knight", "scholar"]}


def fresh(players=2, seed=7, **options):
    return engine.new_game(engine.GameOptions(players=players, **options), seed)


def random_walk(players, seed, steps):
    """Yield (state, seat, action) along a random legal playout (None seat = resolve)."""
    rng = random.Random(seed)
    state = engine.new_game(engine.GameOptions(players=players), seed=seed)
    for _ in range(steps):
        if engine.is_over(state):
            return
        if engine.needs_resolution(state):
            yield state, None, None
            state = engine.resolve(state)[0]
            continue
        seat = rng.choice(sorted(engine.awaiting(state)))
        legal = engine.legal_actions(state, seat)
        acts = [a for a in legal if a["type"] in ("place", "activate")]
        if acts and rng.random() < 0.85:
            action = rng.choice(acts)
        else:
            action = rng.choice([a for a in legal if a["type"] != "unplace"] or legal)
        yield state, seat, action
        state = engine.apply(state, seat, action)[0]


# --- determinism and immutability -----------------------------------------------------------


def test_same_seed_same_game_and_different_seed_different_setup():
    assert fresh(seed=3) == fresh(seed=3)
    assert fresh(seed=3).data["routes"] != fresh(seed=4).data["routes"]


def test_apply_never_mutates_its_input():
    s = fresh()
    before = json.dumps(s.data, sort_keys=True)
    s2, events = engine.apply(s, 0, {"type": "place", "follower": "start_boatman", "space": "farmhouse"})
    assert json.dumps(s.data, sort_keys=True) == before
    assert s2 != s and events == []


@pytest.mark.parametrize("players, seed", [(2, 3), (3, 4), (4, 5)])
def test_apply_and_resolve_never_mutate_input(players, seed):
    """apply/resolve return a new state and leave the input untouched, along a random game."""
    for state, seat, action in random_walk(players, seed, 1500):
        before = clone(state.data)
        if seat is None:
            engine.resolve(state)
        else:
            engine.apply(state, seat, clone({"a": action})["a"])
        assert state.data == before


@pytest.mark.parametrize("players, seed", [(2, 6), (4, 7)])
def test_every_returned_state_awaits_the_seats_its_tree_awaits(players, seed):
    """new_game, apply and resolve hand the state the awaited seats engine.flow.advance
    worked out: they are those the tree itself gives (awaiting_data)."""
    for state, _seat, _action in random_walk(players, seed, 1500):
        assert state.awaited == awaiting_data(state.data)
        assert engine.awaiting(state) == awaiting_data(state.data)


def test_json_round_trip_is_exact_and_schema_checked():
    """to_json / from_json are exact, for a finished game and a hand-built position."""
    s = play_game(engine.GameOptions(players=3), 5, check=False)["state"]
    again = engine.from_json(json.loads(json.dumps(engine.to_json(s))))
    assert again == s
    state = action_state({"spaces": SCRIPTORIUM, "technology": {"castle": "farmer"}})
    assert engine.from_json(engine.to_json(state)) == state
    with pytest.raises(engine.SchemaError):
        engine.from_json({"schema": 999})


def test_replay_of_the_log_reproduces_the_state():
    """§14.12: a replay of the action log from (options, seed) reproduces the state, at the
    end of a whole game and along a random walk (resolutions included)."""
    result = play_game(engine.GameOptions(players=2, event_strength="constant"), 3, check=False)
    assert engine.is_over(result["state"])
    replayed = engine.replay(engine.GameOptions(players=2, event_strength="constant"), 3, result["log"])
    assert replayed == result["state"]
    options = engine.GameOptions(players=3)
    log, last = [], None
    for state, seat, action in random_walk(3, 11, 400):
        log.append((seat, action))
        last = state.data
        final = engine.resolve(state)[0] if seat is None else engine.apply(state, seat, action)[0]
    assert last is not None
    assert engine.replay(options, 11, log) == final


# --- refusals --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "seat,action,error",
    [
        (0, "draw", engine.MalformedAction),
        (0, {"type": "fly"}, engine.MalformedAction),
        (0, {"type": "place", "follower": "start_boatman"}, engine.MalformedAction),
        (0, {"type": "place", "follower": "start_boatman", "space": "farmhouse", "x": 1}, engine.MalformedAction),
        (0, {"type": "place", "follower": "knight", "space": "farmhouse"}, engine.IllegalAction),
        (0, {"type": "place", "follower": "start_trader", "space": "farmhouse"}, engine.IllegalAction),
        (0, {"type": "place", "follower": "start_trader", "space": "town_hall"}, engine.IllegalAction),
        (0, {"type": "pass"}, engine.IllegalAction),
        (5, {"type": "submit_plan"}, engine.NotYourTurn),
    ],
)
def test_bad_actions_raise_a_rules_error_and_change_nothing(seat, action, error):
    s = fresh()
    before = json.dumps(s.data, sort_keys=True)
    with pytest.raises(error) as info:
        engine.apply(s, seat, action)
    assert isinstance(info.value, engine.RulesError) and str(info.value)
    assert json.dumps(s.data, sort_keys=True) == before


@pytest.mark.parametrize("action", [None, "pass", ["pass"], {}, {"type": "fly"}, {"type": "pass", "x": 1},
                                    {"type": "activate"}, {"type": "activate", "space": 3},
                                    {"type": "activate", "space": "ship", "route": "e06", "good": 4},
                                    {"type": "activate", "space": "town_hall", "deeds": [{"follower": "monk"}]},
                                    {"type": "activate", "space": "pharmacy", "coins": True}])
def test_malformed_actions(action):
    """Malformed actions raise MalformedAction and change nothing."""
    assert_refused(action_state({"spaces": SCRIPTORIUM}), 0, action, engine.MalformedAction)


@pytest.mark.parametrize("action", [{"type": "draw", "count": -1}, {"type": "draw", "count": "2"},
                                    {"type": "draw", "count": True}, {"type": "draw"}])
def test_malformed_draws(action):
    """Draw counts must be non-negative integers."""
    assert_refused(draw_state({0: {"bag": {"farmer": 3}}}), 0, action, engine.MalformedAction)


@pytest.mark.parametrize("seat", [1, 2, -1, True, "0", None])
def test_not_your_turn(seat):
    """A seat that is not awaited (or does not exist) raises NotYourTurn."""
    assert_refused(action_state({"spaces": SCRIPTORIUM}), seat, {"type": "pass"}, engine.NotYourTurn)


@pytest.mark.parametrize("action", [
    {"type": "activate", "space": "castle"},                       # not ready
    {"type": "activate", "space": "nowhere"},                      # unknown place
    {"type": "activate", "space": "brewery"},                      # not owned
    {"type": "draw", "count": 1},                                  # wrong decision kind
    {"type": "place", "follower": "knight", "space": "castle"},    # wrong decision kind
    {"type": "torture", "item": "station"},                        # no torture open
])
def test_illegal_actions(action):
    """Well-formed but not allowed now: IllegalAction, state unchanged."""
    assert_refused(action_state({"spaces": SCRIPTORIUM}), 0, action, engine.IllegalAction)


def test_nothing_to_resolve():
    """resolve without a completed simultaneous step raises NothingToResolve."""
    state = action_state({"spaces": SCRIPTORIUM})
    before = clone(state.data)
    with pytest.raises(engine.NothingToResolve):
        engine.resolve(state)
    assert state.data == before


def test_game_over_refuses_actions():
    state = play_game(engine.GameOptions(players=2), 9, check=False)["state"]
    with pytest.raises(engine.GameOver):
        engine.apply(state, 0, {"type": "pass"})


def test_errors_are_rules_errors():
    """Every refusal is a RulesError (a ValueError)."""
    for error in (engine.MalformedAction, engine.IllegalAction, engine.NotYourTurn, engine.GameOver,
                  engine.NothingToResolve, engine.InvalidOptions):
        assert issubclass(error, engine.RulesError) and issubclass(error, ValueError)


# --- simultaneous steps and resolve ----------------------------------------------------------


def test_submitting_a_whole_plan_validates_every_placement():
    s = fresh()
    good = [{"follower": "start_boatman", "space": "farmhouse"}, {"follower": "start_craftsman", "space": "farmhouse"}]
    s2, _ = engine.apply(s, 0, {"type": "submit_plan", "placements": good})
    assert s2.data["players"][0]["plan"] == [["farmhouse", "start_boatman"], ["farmhouse", "start_craftsman"]]
    assert engine.awaiting(s2) == {1: "plan"}
    bad = good + [{"follower": "start_boatman", "space": "village"}]
    with pytest.raises(engine.IllegalAction, match="placement 3"):
        engine.apply(s, 0, {"type": "submit_plan", "placements": bad})


def test_last_plan_waits_for_resolve_then_reveals():
    """The last simultaneous submission leaves the reveal to resolve() (site task)."""
    s = fresh()
    plan = {"type": "submit_plan", "placements": [{"follower": "start_boatman", "space": "farmhouse"},
                                                  {"follower": "start_craftsman", "space": "farmhouse"}]}
    s, _ = engine.apply(s, 0, plan)
    s, _ = engine.apply(s, 1, plan)
    assert engine.needs_resolution(s) and engine.awaiting(s) == {}
    with pytest.raises(engine.NotYourTurn):
        engine.apply(s, 0, {"type": "pass"})
    s, events = engine.resolve(s)
    assert s.phase == "actions" and engine.awaiting(s) == {0: "action"}
    assert any(e["kind"] == "reveal" for e in events)
    with pytest.raises(engine.NothingToResolve):
        engine.resolve(s)


# --- actions, outcome and options ------------------------------------------------------------


def test_every_legal_action_is_normal_form_and_describable():
    s = fresh(players=2)
    for seat in awaiting_data(s.data):
        for action in engine.legal_actions(s, seat):
            assert engine.normalize(clone(action)) == action
            assert engine.describe_action(action)


def test_outcome_is_none_until_the_end_then_ranks_every_seat():
    s = fresh()
    assert engine.outcome(s) is None
    result = play_game(engine.GameOptions(players=4), 2, check=False)
    out = engine.outcome(result["state"])
    assert sorted(r["seat"] for r in out["ranking"]) == [0, 1, 2, 3]
    for b in out["scores"]:
        assert b["total"] == b["coins"] + b["goods_total"] + (b["stations"] + b["citizens"]) * b["level"]


def test_invalid_options_are_refused():
    """GameOptions and GameOptions.from_dict refuse values outside RULES §1, §12.1."""
    with pytest.raises(engine.InvalidOptions):
        engine.GameOptions(players=5)
    with pytest.raises(engine.InvalidOptions):
        engine.GameOptions.from_dict({"players": 2, "market": "x"})
    with pytest.raises(engine.InvalidOptions):
        engine.GameOptions(players=2, place_tile_market="market4")


@pytest.mark.parametrize("options", [{"players": 1}, {"players": 5}, {"players": "2"},
                                     {"event_strength": "strong"}, {"hourglass_order": "abc", "colour": 1},
                                     {"place_tile_market": "market4"}, {"simultaneous_followers": 1}])
def test_invalid_options(options):
    """new_game refuses option dicts outside 2–4 players and the listed values (RULES §1, §12.1)."""
    with pytest.raises(engine.InvalidOptions):
        engine.new_game(options, seed=1)
