"""RULES §2–§4 setup and §9.2 hourglass: what a new game holds, by player count."""
import pytest

import engine
from tests.support.engine_states import new_data


def fresh(players=2, seed=7, **options):
    return engine.new_game(engine.GameOptions(players=players, **options), seed)


def test_new_game_is_round_1_pilgrimage_waiting_for_plans():
    """RULES §3.1, §9.2: round 1 shows the light Pilgrimage; starting followers on the market."""
    s = fresh(players=3)
    assert s.round == 1 and s.data["event"] == "pilgrimage"
    # the bag is empty in round 1, so drawing is forced (0) and every seat is planning
    assert engine.awaiting(s) == {0: "plan", 1: "plan", 2: "plan"}
    for p in s.data["players"]:
        assert p["market"] == ["start_boatman", "start_craftsman", "start_farmer", "start_trader"]
        assert p["coins"] == 5 and p["stations_left"] == 10 and p["merchant"] == "orleans"


@pytest.mark.parametrize("players,on_map,removed", [(2, 43, 12), (3, 48, 6), (4, 52, 0)])
def test_goods_on_the_map_by_player_count(players, on_map, removed):
    """RULES §2.3, §3.3, §4.2: goods spaces in use and goods removed at random."""
    s = fresh(players=players)
    assert sum(len(g) for g in s.data["routes"].values()) == on_map
    assert sum(s.data["removed"]["goods"].values()) == removed
    assert sum(s.data["supply"]["goods"].values()) == 90 - on_map - removed


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


@pytest.mark.parametrize("seed", [7, 9])
def test_abc_hourglass_has_one_of_each_event_per_phase(seed):
    """§9.2: A/B/C stacks each hold the six events; the light Pilgrimage is first."""
    d = new_data(2, seed=seed)
    order = [d["event"]] + d["hourglass"]
    assert order[0] == "pilgrimage"
    for start in (0, 6, 12):
        assert sorted(order[start:start + 6]) == sorted(engine.content.EVENTS)
