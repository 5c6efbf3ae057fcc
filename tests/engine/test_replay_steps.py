"""``engine.replay_steps``: every position of a logged game, as it was live, with its events;
full information only for a log that ends the game; the table of loadable engine versions."""
from __future__ import annotations

import random

import pytest

import engine
from engine.simulate import choose


def play_live(players: int, seed: int) -> tuple[list, list]:
    """A random game played live: (log, [(state as JSON, events) after setup and each entry])."""
    rng = random.Random(seed)
    options = engine.GameOptions(players=players)
    state = engine.new_game(options, seed)
    log, seen = [], [(engine.to_json(state), [])]
    while not engine.is_over(state):
        if engine.needs_resolution(state):
            state, events = engine.resolve(state)
            log.append((None, None))
        else:
            awaited = engine.awaiting(state)
            seat = rng.choice(sorted(awaited))
            action = choose(rng, awaited[seat], engine.legal_actions(state, seat), state.data, seat)
            state, events = engine.apply(state, seat, action)
            log.append((seat, action))
        seen.append((engine.to_json(state), list(events)))
    return log, seen


@pytest.mark.parametrize("players,seed", [(2, 3), (3, 17), (4, 29)])
def test_every_replayed_step_equals_the_live_position_and_events(players, seed):
    log, seen = play_live(players, seed)
    steps = list(engine.replay_steps(engine.GameOptions(players=players), seed, log))
    assert len(steps) == len(log) + 1 == len(seen)
    for step, (live_state, live_events) in zip(steps, seen, strict=True):
        assert engine.to_json(step.state) == live_state, f"step {step.number}"
        assert step.events == live_events, f"step {step.number}"
    assert [(s.seat, s.action) for s in steps[1:]] == log
    assert [s.number for s in steps] == list(range(len(log) + 1))
    assert engine.is_over(steps[-1].state)


def test_step_zero_is_the_position_after_setup():
    step = next(engine.replay_steps({"players": 2}, 5, []))
    assert (step.number, step.seat, step.action, step.events) == (0, None, None, [])
    assert step.state == engine.new_game(engine.GameOptions(players=2), 5)


def test_a_bad_log_entry_raises_after_the_steps_before_it():
    state = engine.new_game(engine.GameOptions(players=2), 5)
    seat = sorted(engine.awaiting(state))[0]
    good = engine.legal_actions(state, seat)[0]
    steps = engine.replay_steps({"players": 2}, 5, [(seat, good), (seat, {"type": "pass"})])
    assert [next(steps).number, next(steps).number] == [0, 1]
    with pytest.raises(engine.RulesError):
        next(steps)


def test_a_finished_replay_reveals_every_market_and_plan():
    log, _ = play_live(2, 3)
    steps = list(engine.replay_steps({"players": 2}, 3, log, reveal=True))
    planning = next(s for s in steps if s.state.data["players"][1]["plan"])
    hidden = engine.view(planning.state, 0)
    shown = engine.view(planning.state, 0, reveal=True)
    assert hidden["players"][1]["plan"] is None and hidden["players"][1]["bag"] is None
    assert shown["players"][1]["plan"] == [list(x) for x in planning.state.data["players"][1]["plan"]]
    assert shown["players"][1]["bag"] == planning.state.data["players"][1]["bag"]
    assert shown["revealed"] is True and hidden["revealed"] is False
    assert "seed" not in shown and "rng" not in shown


def test_full_information_is_refused_while_the_game_is_not_over():
    log, _ = play_live(2, 3)
    with pytest.raises(engine.NotOver):
        list(engine.replay_steps({"players": 2}, 3, log[:-1], reveal=True))
    unfinished = list(engine.replay_steps({"players": 2}, 3, log[:-1]))
    with pytest.raises(engine.NotOver) as refused:
        engine.view(unfinished[-1].state, 0, reveal=True)
    assert refused.value.code == "not_over"


def test_a_game_ended_by_vote_may_be_replayed_with_full_information():
    log, _ = play_live(2, 3)
    steps = list(engine.replay_steps({"players": 2}, 3, log[:40], reveal=True, ended=True))
    assert len(steps) == 41
    assert engine.view(steps[10].state, 0, reveal=True)["players"][1]["bag"] is not None


def test_the_engine_loads_only_the_versions_of_its_compatibility_table():
    assert engine.loads_version(engine.ENGINE_VERSION)
    assert engine.ENGINE_VERSION in engine.COMPATIBLE_VERSIONS
    assert not engine.loads_version("0.9.0")
    assert not engine.loads_version("1.99.0")
