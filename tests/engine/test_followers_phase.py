"""RULES §8.3 Followers phase, §6.6 draw count by Knight track, §14.5 optional draws,
pull-back and market capacity (8, or 10 with the Gunpowder Tower)."""
import engine
import pytest

from tests.support.engine_states import act, assert_refused, draw_counts, draw_state, player

BIG_BAG = {"farmer": 10}


@pytest.mark.parametrize("knight, most", [(0, 4), (1, 5), (2, 6), (3, 7), (4, 7), (5, 8)])
def test_draw_count_follows_knight_track(knight, most):
    """§6.6: 4, 5, 6, 7, 7, 8 tiles by Knight-track position; §14.5: 0..count allowed."""
    state = draw_state({0: {"tracks": {"knight": knight}, "bag": BIG_BAG}})
    assert draw_counts(state) == list(range(most + 1))


def test_market_cap_eight_limits_draws():
    """§8.3: the market holds at most 8 tiles; draws that would not fit are not allowed."""
    state = draw_state({0: {"tracks": {"knight": 5}, "bag": BIG_BAG, "market": ["monk"] * 6}})
    assert max(draw_counts(state)) == 2
    assert_refused(state, 0, {"type": "draw", "count": 3})


def test_gunpowder_tower_raises_market_cap_to_ten():
    """§11 Gunpowder Tower / §14.5: the market has 10 spaces."""
    state = draw_state({0: {"tracks": {"knight": 5}, "bag": BIG_BAG, "market": ["monk"] * 6,
                            "places": ["gunpowder_tower"]}})
    assert max(draw_counts(state)) == 4


def test_draws_limited_by_bag_contents():
    """§8.3: with fewer tiles in the bag, fewer are drawn."""
    state = draw_state({0: {"bag": {"knight": 2}}})
    assert draw_counts(state) == [0, 1, 2]


def test_draw_moves_tiles_from_bag_to_market():
    """§8.3: drawn tiles go from the bag to the market."""
    state = act(draw_state({0: {"bag": {"knight": 3}, "market": ["monk"]}}), type="draw", count=3)
    assert player(state)["market"] == ["knight", "knight", "knight", "monk"]
    assert player(state)["bag"] == {}
    assert player(state)["stage"] == "plan"


def test_pull_back_replaces_one_draw():
    """§8.3 / §14.5: each draw not taken may pull one tile from an action space back."""
    state = draw_state({0: {"bag": BIG_BAG, "spaces": {"village": ["boatman", "farmer"]}}})
    state = act(state, type="pull_back", space="village", follower="farmer")
    assert player(state)["spaces"] == {"village": ["boatman"]}
    assert player(state)["market"] == ["farmer"]
    assert max(draw_counts(state)) == 3  # 4 draws − 1 pull-back


def test_pull_back_counts_against_market_capacity():
    """§14.5: pulled-back tiles count against the market capacity like drawn ones."""
    state = draw_state({0: {"bag": BIG_BAG, "market": ["monk"] * 7, "spaces": {"village": ["boatman", "farmer"]}}})
    state = act(state, type="pull_back", space="village", follower="farmer")
    assert len(player(state)["market"]) == 8
    # no room left: the only legal action (draw 0) was forced, no second pull-back
    assert player(state)["stage"] == "plan"
    assert player(state)["spaces"] == {"village": ["boatman"]}


def test_four_pull_backs_use_every_draw():
    """§14.5: draws + pull-backs ≤ draw count (4 at Knight 0)."""
    state = draw_state({0: {"bag": BIG_BAG, "spaces": {"university": ["craftsman", "farmer", "trader"],
                                                         "monastery": ["scholar", "trader"]}}})
    for space, tile in [("university", "farmer"), ("university", "trader"), ("monastery", "scholar"),
                        ("monastery", "trader")]:
        state = act(state, type="pull_back", space=space, follower=tile)
    # the only legal action left (draw 0) is forced by the engine
    assert player(state)["stage"] == "plan"
    assert player(state)["spaces"] == {"university": ["craftsman"]}


def test_non_simultaneous_followers_draw_in_turn_order():
    """§8.3 best choice: with the option off, players draw one after another from the start
    player."""
    state = draw_state({0: {"bag": BIG_BAG}, 1: {"bag": BIG_BAG}}, options={"simultaneous_followers": False},
                       start_player=1)
    assert engine.awaiting(state) == {1: "draw"}
    state = act(state, 1, type="draw", count=2)
    assert engine.awaiting(state) == {0: "draw", 1: "plan"}
