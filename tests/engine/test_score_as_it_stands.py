"""``engine.score``: the outcome of a game ended early, as it stands (issue 7 item 1;
RULES §10.3), marked ``ended_early``."""
from __future__ import annotations

import engine
from engine.scoring import ranking, score_breakdown
from tests.support.engine_states import action_state, build


def test_an_unfinished_game_is_scored_as_it_stands_and_marked_ended_early():
    state = action_state({"coins": 12, "goods": {"wine": 1}}, others={"coins": 3})
    result = engine.score(state)
    assert result["ended_early"] is True
    assert [s["total"] for s in result["scores"]] == [15, 3]
    assert result["winners"] == [0]
    assert result["ranking"] == [{"seat": 0, "place": 1, "total": 15}, {"seat": 1, "place": 2, "total": 3}]


def test_the_score_has_the_outcome_shape_with_the_same_breakdown():
    d = build("actions", {0: {"coins": 5}, 1: {"coins": 5}}).data
    result = engine.score(engine.GameState(d))
    scores = [score_breakdown(d, seat) for seat in (0, 1)]
    assert result == {"scores": scores, "ranking": ranking(scores), "winners": [0, 1], "ended_early": True}


def test_a_finished_game_scores_like_its_outcome_and_is_not_ended_early():
    state = build("over", {0: {"coins": 4}})
    assert engine.score(state) == {**engine.outcome(state), "ended_early": False}


def _with_stations(state, stations: dict[str, list[int]]):
    d = state.data
    d["stations"] = stations
    return engine.GameState(d)


def test_a_game_ended_early_gives_the_majority_citizen_to_the_single_most_stations():
    state = action_state({"coins": 0, "development": 0}, others={"coins": 0})
    state = _with_stations(state, {"chartres": [0], "etampes": [0], "vendome": [1]})
    before = engine.to_json(state)
    result = engine.score(state)
    seat0, seat1 = result["scores"]
    assert (seat0["stations"], seat0["citizens"], seat1["stations"], seat1["citizens"]) == (2, 1, 1, 0)
    assert seat0["stations_and_citizens"] == 3 * seat0["level"]
    assert engine.to_json(state) == before  # scoring as it stands changes nothing


def test_a_game_ended_early_with_tied_stations_gives_nobody_the_majority_citizen():
    state = action_state({"coins": 0}, others={"coins": 0})
    state = _with_stations(state, {"chartres": [0], "vendome": [1]})
    assert [s["citizens"] for s in engine.score(state)["scores"]] == [0, 0]
