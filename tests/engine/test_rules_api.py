"""Engine contract (engine/__init__.py; RULES §14.12 determinism): apply never changes its
input, every refusal raises the right RulesError subclass with the state unchanged,
replays are exact; plus setup facts of RULES §2–§3, §8.7 turn order and §8.9 start player."""
import random

import pytest

import engine
from engine.state import clone
from tests.support.engine_states import act, action_state, assert_refused, draw_state, new_data, planning_state, run_event

SCRIPTORIUM = {"scriptorium": ["knight", "scholar"]}


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


def test_illegal_placements():
    """§8.4: placing a follower not in the market or on a wrong circle is refused."""
    state = planning_state({0: {"market": ["knight"]}})
    assert_refused(state, 0, {"type": "place", "follower": "monk", "space": "castle"})
    assert_refused(state, 0, {"type": "place", "follower": "knight", "space": "castle"})
    assert_refused(state, 0, {"type": "place", "follower": "knight", "space": "cellar"})
    assert_refused(state, 0, {"type": "place", "follower": "dragon", "space": "castle"})
    assert_refused(state, 0, {"type": "submit_plan", "placements": [{"follower": "knight", "space": "ship"},
                                                                    {"follower": "knight", "space": "ship"}]})


def test_nothing_to_resolve():
    """resolve without a completed simultaneous step raises NothingToResolve."""
    state = action_state({"spaces": SCRIPTORIUM})
    before = clone(state.data)
    with pytest.raises(engine.NothingToResolve):
        engine.resolve(state)
    assert state.data == before


def test_errors_are_rules_errors():
    """Every refusal is a RulesError (a ValueError)."""
    for error in (engine.MalformedAction, engine.IllegalAction, engine.NotYourTurn, engine.GameOver,
                  engine.NothingToResolve, engine.InvalidOptions):
        assert issubclass(error, engine.RulesError) and issubclass(error, ValueError)


@pytest.mark.parametrize("options", [{"players": 1}, {"players": 5}, {"players": "2"},
                                     {"event_strength": "strong"}, {"hourglass_order": "abc", "colour": 1},
                                     {"place_tile_market": "market4"}, {"simultaneous_followers": 1}])
def test_invalid_options(options):
    """Only 2–4 players and the listed option values (RULES §1, §12.1)."""
    with pytest.raises(engine.InvalidOptions):
        engine.new_game(options, seed=1)


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


def test_replay_is_exact():
    """§14.12: a replay of the action log from (options, seed) reproduces the state."""
    options = engine.GameOptions(players=3)
    log, last = [], None
    for state, seat, action in random_walk(3, 11, 400):
        log.append((seat, action))
        last = state.data
        final = engine.resolve(state)[0] if seat is None else engine.apply(state, seat, action)[0]
    assert last is not None
    assert engine.replay(options, 11, log) == final


def test_json_round_trip():
    """to_json / from_json are exact."""
    state = action_state({"spaces": SCRIPTORIUM, "technology": {"castle": "farmer"}})
    assert engine.from_json(engine.to_json(state)) == state


@pytest.mark.parametrize("players, removed, on_map, farmers", [(2, 12, 43, 12), (3, 6, 48, 14), (4, 0, 52, 16)])
def test_setup_by_player_count(players, removed, on_map, farmers):
    """§2.2, §2.3, §3.1, §4.2: supply by player count; 5 coins, 10 stations, starting
    followers on the market; round 1 is a Pilgrimage round."""
    d = new_data(players)
    assert sum(d["removed"]["goods"].values()) == removed
    assert sum(len(g) for g in d["routes"].values()) == on_map
    assert sum(d["supply"]["goods"].values()) == 90 - removed - on_map
    assert d["supply"]["followers"]["farmer"] == farmers
    assert d["event"] == "pilgrimage" and d["round"] == 1 and len(d["hourglass"]) == 17
    for p in d["players"]:
        assert (p["coins"], p["stations_left"], p["merchant"]) == (5, 10, "orleans")
        assert p["market"] == ["start_boatman", "start_craftsman", "start_farmer", "start_trader"]


def test_abc_hourglass_has_one_of_each_event_per_phase():
    """§9.2: A/B/C stacks each hold the six events; the light Pilgrimage is first."""
    d = new_data(2, seed=9)
    order = [d["event"]] + d["hourglass"]
    for start in (0, 6, 12):
        assert sorted(order[start:start + 6]) == sorted(engine.content.EVENTS)


def test_turn_order_clockwise_from_start_player():
    """§8.7: from the start player clockwise; passed players are skipped."""
    ready = {"spaces": SCRIPTORIUM}
    state = action_state(ready, players=3, others=ready, start_player=2, turn=2)
    state = act(state, 2, type="activate", space="scriptorium")
    assert engine.awaiting(state) == {0: "action"}
    state = act(state, 0, type="pass")
    assert engine.awaiting(state) == {1: "action"}
    state = act(state, 1, type="activate", space="scriptorium")
    # nobody has anything ready: the engine passes seats 2 and 1, the round ends and the
    # start player moves from seat 2 to seat 0 (§8.9)
    assert state.round == 3 and state.data["start_player"] == 0


def test_start_player_passes_left():
    """§8.9: the start-player token passes to the left after each round."""
    state, _ = run_event("pilgrimage", {}, players=3)
    assert state.data["start_player"] == 1
