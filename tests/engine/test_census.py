"""RULES §8.2 (Census) and §14.10 (census penalty is compulsory; torture when unable).

The census runs at the start of every round, so each scenario ends the previous round
(Pilgrimage, no event effect) and checks the coins at the start of the next one.
"""
import engine
import pytest

from tests.support.engine_states import player, run_event, torture_items


def census(farmer_positions, coins=5, **fields):
    """Run the census of round 3 with the given Farmer-track positions; return coins."""
    seats = {i: {"tracks": {"farmer": f}, "coins": coins, **fields} for i, f in enumerate(farmer_positions)}
    state, _ = run_event("pilgrimage", seats, players=len(farmer_positions))
    assert state.round == 3
    return state, [player(state, i)["coins"] for i in range(len(farmer_positions))]


@pytest.mark.parametrize("positions, expected", [
    ((3, 1, 0), [6, 5, 4]),          # single leader +1, single last -1
    ((2, 2, 0), [5, 5, 4]),          # tie at the top: no gain
    ((2, 0, 0), [6, 5, 5]),          # tie at the bottom: no payment
    ((1, 1, 1), [5, 5, 5]),          # all level: nothing
    ((1, 1, 1, 0), [5, 5, 5, 4]),    # 4 players, three-way tie on top
    ((4, 0, 2, 3), [6, 4, 5, 5]),
])
def test_census_leader_gains_last_pays_ties_cancel(positions, expected):
    """§8.2: single leader +1 coin, single last −1 coin; ties cancel."""
    assert census(positions)[1] == expected


def test_census_two_players_trailing_player_pays_nothing():
    """§8.2: with 2 players the trailing player pays nothing, the leader still gains."""
    assert census((0, 2))[1] == [5, 6]
    assert census((2, 2))[1] == [5, 5]


def test_census_last_player_without_coins_is_tortured():
    """§8.2 / §14.10: the census penalty is compulsory; without a coin the last player is
    tortured for the missing coin (here: 1 item)."""
    state, coins = census((3, 1, 0), coins=0, goods={"wool": 1})
    assert coins == [1, 0, 0]
    assert engine.awaiting(state) == {2: "torture"}
    assert player(state, 2)["prompts"][0]["debt"] == 1
    assert torture_items(state, 2) == [{"item": "station", "town": None}, {"item": "good", "good": "wool"}]
    removed = state.data["removed"]["goods"]["wool"]
    state = engine.apply(state, 2, {"type": "torture", "item": "good", "good": "wool"})[0]
    assert player(state, 2)["goods"]["wool"] == 0
    assert player(state, 2)["prompts"] == []
    assert state.data["removed"]["goods"]["wool"] == removed + 1  # §10.1: removed from the game


def test_census_torture_with_a_single_option_is_forced():
    """§14.10 / §10.1: with only one item to give (a station from the supply), the engine
    gives it at once."""
    state, coins = census((3, 1, 0), coins=0)
    assert player(state, 2)["stations_left"] == 9
    assert player(state, 2)["prompts"] == []


def test_census_penalty_with_one_coin_is_paid_without_torture():
    """§8.2: a player with exactly 1 coin pays it and is not tortured."""
    state, coins = census((3, 1, 0), coins=1)
    assert coins == [2, 1, 0]
    assert "torture" not in engine.awaiting(state).values()
