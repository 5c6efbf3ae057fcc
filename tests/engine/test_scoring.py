"""RULES §10.2 end of the game (after round 18; majority citizen) and §10.3 / §14.6
scoring and tie-break."""
import engine
import pytest

from tests.support.engine_states import player, run_event


def final(seats, stations=None, players=2):
    """Finish round 18 (Pilgrimage) and return the outcome."""
    state, _ = run_event("pilgrimage", seats, players=players, round=18, stations=stations or {})
    assert engine.is_over(state) and state.phase == "over"
    return state, engine.outcome(state)


def test_game_ends_after_round_eighteen():
    """§10.2: the game ends after round 18; no more actions are accepted."""
    state, out = final({})
    assert out is not None
    assert engine.awaiting(state) == {}
    with pytest.raises(engine.GameOver):
        engine.apply(state, 0, {"type": "pass"})


def test_game_goes_on_after_round_seventeen():
    """§10.2: not over before round 18."""
    state, _ = run_event("pilgrimage", {}, round=17)
    assert not engine.is_over(state) and engine.outcome(state) is None and state.round == 18


def test_score_breakdown():
    """§10.3: 1 VP per coin; goods 1/2/3/4/5; (built stations + citizens) × level of the
    final position (§14.6)."""
    seats = {0: {"coins": 7, "goods": {"grain": 2, "cheese": 1, "wine": 1, "wool": 1, "brocade": 2},
                 "citizens": 2, "development": 16, "stations_left": 7}}
    _, out = final(seats, stations={"orleans": [0], "blois": [0], "tours": [1]})
    s0 = out["scores"][0]
    assert s0["goods_total"] == 2 + 2 + 3 + 4 + 10
    assert (s0["stations"], s0["citizens"], s0["level"]) == (2, 3, 4)  # +1 majority citizen
    assert s0["total"] == 7 + 21 + (2 + 3) * 4
    s1 = out["scores"][1]
    assert s1["total"] == 5 + 1 * 1


def test_stations_in_supply_do_not_score():
    """§14.6: only built trading stations count."""
    _, out = final({0: {"stations_left": 10}})
    assert out["scores"][0]["stations"] == 0


def test_majority_citizen_to_single_leader():
    """§10.2: the 14th citizen goes to the single player with the most built stations."""
    state, out = final({}, stations={"orleans": [0, 1], "blois": [1]})
    assert player(state, 1)["citizens"] == 1 and player(state, 0)["citizens"] == 0
    assert "trading_station_majority" not in state.data["citizens"]


def test_majority_citizen_nobody_on_tie():
    """§10.2: on a tie nobody gets it."""
    state, _ = final({}, stations={"orleans": [0, 1], "blois": [1], "tours": [0], "nevers": [2]}, players=3)
    assert [player(state, i)["citizens"] for i in range(3)] == [0, 0, 0]
    assert "trading_station_majority" in state.data["citizens"]


def test_tie_broken_by_development_position():
    """§10.3: the player further along the development track (position) wins."""
    # both 5 + level 2 × 0 = 5 points; seat 1 is further along (8 vs 4), same level
    _, out = final({0: {"development": 4}, 1: {"development": 8, "development_coins": [7]}})
    assert [s["total"] for s in out["scores"]] == [5, 5]
    assert out["winners"] == [1]
    assert [r["place"] for r in out["ranking"]] == [1, 2]


def test_full_tie_shares_victory():
    """§10.3: still tied, the tied players share the victory."""
    _, out = final({0: {"development": 4}, 1: {"development": 4}})
    assert out["winners"] == [0, 1]
    assert [r["place"] for r in out["ranking"]] == [1, 1]


def test_final_multiplier_uses_final_position():
    """§14.6: the level of the final position, not the highest ever reached."""
    _, out = final({0: {"development": 14, "development_coins": [7, 12], "citizens": 1}})
    assert out["scores"][0]["level"] == 3 and out["scores"][0]["stations_and_citizens"] == 3


# --- §10.2 / §10.3 end-of-game numbers with three players ----------------------------------


def test_final_scores_majority_citizen_times_level_and_three_way_tie_break():
    """§10.2: the 14th citizen to the single station leader; §10.3: (stations + citizens)
    × level; ties by development position, then shared."""
    seats = {0: {"coins": 10, "development": 4, "stations_left": 8},     # 2 stations + majority
             1: {"coins": 13, "development": 9, "stations_left": 9},     # 1 station
             2: {"coins": 14, "development": 9, "stations_left": 10}}
    stations = {"orleans": [0, 1], "blois": [0]}
    state, _ = run_event("pilgrimage", seats, players=3, round=18, stations=stations)
    out = engine.outcome(state)
    s = out["scores"]
    assert [x["citizens"] for x in s] == [1, 0, 0]
    # seat 0: 10 + (2 + 1) × 2 = 16; seat 1: 13 + 1 × 3 = 16; seat 2: 14 + 0 = 14
    assert [x["total"] for x in s] == [16, 16, 14]
    assert out["ranking"] == [{"seat": 1, "place": 1, "total": 16}, {"seat": 0, "place": 2, "total": 16},
                              {"seat": 2, "place": 3, "total": 14}]
    assert out["winners"] == [1]


def test_majority_citizen_not_given_when_nobody_built():
    """§10.2: the 14th citizen needs a single leader; with no stations at all nobody."""
    state, _ = run_event("pilgrimage", {}, players=2, round=18)
    assert "trading_station_majority" in state.data["citizens"]
