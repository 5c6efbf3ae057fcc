"""RULES §7.1 development track: coin spaces 7/12/25 (3/4/5 coins, once per player,
§14.3), citizen spaces 3/18/28 (first to reach or pass), end at 30 (§14.4), levels."""
import pytest

from engine import content
from tests.support.engine_states import action_state, activate, player

SCRIPTORIUM = {"scriptorium": ["knight", "scholar"]}
UNIVERSITY = {"university": ["craftsman", "farmer", "trader"]}


def university(development, scholar_track, others=None, **fields):
    """Seat 0 uses the University from ``development`` with the Scholar track at the given
    step (steps gained: 2 + scholar_track)."""
    state = action_state({"spaces": UNIVERSITY, "development": development,
                          "tracks": {"scholar": scholar_track}, **fields}, others=others)
    return activate(state, "university")


@pytest.mark.parametrize("start, track, end, coins", [
    (5, 3, 10, 3),     # passes 7
    (6, 0, 8, 3),      # passes 7 from just below
    (5, 0, 7, 3),      # lands on 7
    (10, 4, 16, 4),    # passes 12 (7 already collected)
    (23, 0, 25, 5),    # lands on 25
    (0, 4, 6, 0),
    (13, 4, 19, 0),
])
def test_coin_spaces(start, track, end, coins):
    """§7.1: 7 → 3 coins, 12 → 4 coins, 25 → 5 coins when reached or passed."""
    collected = [s for s in (7, 12, 25) if s <= start]
    after = university(start, track, development_coins=collected)
    assert player(after)["development"] == end
    assert player(after)["coins"] == 5 + coins


def test_coin_space_paid_once_per_player_per_game():
    """§14.3: coins of a coin space are collected once per player per game."""
    after = university(6, 0, development_coins=[7])
    assert player(after)["development"] == 8 and player(after)["coins"] == 5


def test_several_coin_spaces_in_one_move():
    """§7.1: a long move collects every coin space passed (here 7 and 12)."""
    after = university(5, 4, development_coins=[])
    assert player(after)["development"] == 11
    assert player(after)["coins"] == 5 + 3
    after = university(6, 4, development_coins=[])
    assert player(after)["development"] == 12 and player(after)["coins"] == 5 + 3 + 4


@pytest.mark.parametrize("start, track, space", [(1, 0, 3), (0, 2, 3), (16, 2, 18), (26, 0, 28), (24, 3, 28)])
def test_citizen_spaces_first_player_only(start, track, space):
    """§7.1 / §7.3: citizen spaces 3, 18, 28; only the first to reach or pass takes it."""
    coins = [s for s in (7, 12, 25) if s < start + 6]
    state = action_state({"spaces": UNIVERSITY, "development": start, "tracks": {"scholar": track},
                          "development_coins": coins},
                         others={"spaces": UNIVERSITY, "development": start, "tracks": {"scholar": track},
                                 "development_coins": coins})
    state = activate(state, "university")
    assert player(state)["citizens"] == 1
    assert f"development_{space}" not in state.data["citizens"]
    state = activate(state, "university", seat=1)
    assert player(state, 1)["citizens"] == 0


def test_development_stops_at_thirty():
    """§7.1: movement beyond 30 is lost."""
    after = university(27, 4, development_coins=[7, 12, 25])
    assert player(after)["development"] == 30


@pytest.mark.parametrize("position, level", [(0, 1), (3, 1), (4, 2), (8, 2), (9, 3), (14, 3), (15, 4),
                                             (21, 4), (22, 5), (29, 5), (30, 6)])
def test_development_levels(position, level):
    """§7.1: levels by position 0–3:1, 4–8:2, 9–14:3, 15–21:4, 22–29:5, 30:6."""
    assert content.development_level(position) == level
