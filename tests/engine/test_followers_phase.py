"""RULES §8.3 Followers phase, §6.6 draw count by Knight track, §14.5 optional draws,
pull-back and market capacity (8, or 10 with the Gunpowder Tower); the sequential option
(§8.3, draws in turn order) with a census torture prompt (§8.2, §14.10)."""
import engine
import pytest

from tests.support.engine_states import (act, assert_refused, build, draw_counts, draw_state, player, run_event,
                                         torture_items)

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


def test_gunpowder_tower_market_ten_with_pull_backs():
    """§14.5: ten market spaces; pulled-back tiles count like drawn ones."""
    state = build("planning", {0: {"places": ["gunpowder_tower"], "market": ["monk"] * 8, "bag": {"farmer": 5},
                                   "spaces": {"village": ["boatman", "craftsman"]}}}, stage="draw", round=2,
                  event="income")
    assert draw_counts(state) == [0, 1, 2]
    state = act(state, type="pull_back", space="village", follower="boatman")
    assert draw_counts(state) == [0, 1]


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


# --- §8.3 sequential followers phase with a census torture prompt (§8.2, §14.10) ----------


def _sequential_census(simultaneous=False):
    """Round 2 ends (Pilgrimage); round 3 starts with start player 1 and the census: seat 1
    leads the Farmer track (+1 coin), seat 0 is last without coins (torture for 1 coin)."""
    seats = {0: {"tracks": {"farmer": 0}, "coins": 0, "goods": {"wool": 1}, "bag": {"knight": 3}},
             1: {"tracks": {"farmer": 2}, "bag": {"scholar": 3}},
             2: {"tracks": {"farmer": 1}, "bag": {"monk": 3}}}
    state, _ = run_event("pilgrimage", seats, players=3, options={"simultaneous_followers": simultaneous})
    assert (state.round, state.data["start_player"]) == (3, 1)
    return state


def test_sequential_followers_census_torture_then_draw_in_turn_order():
    """§8.3 best choice (option off): seats draw one after another from the start player;
    §8.2/§14.10: the last player without coins is tortured for the census coin at once.
    Seat 0 is last in turn order (1, 2, 0): it answers its torture now but draws last."""
    state = _sequential_census()
    assert [player(state, i)["coins"] for i in range(3)] == [0, 6, 5]
    assert engine.awaiting(state) == {1: "draw", 0: "torture"}
    assert torture_items(state, 0) == [{"item": "station", "town": None}, {"item": "follower"},
                                       {"item": "good", "good": "wool"}]
    state = act(state, 0, type="torture", item="good", good="wool")
    assert player(state, 0)["goods"]["wool"] == 0 and player(state, 0)["prompts"] == []
    assert engine.awaiting(state) == {1: "draw"}          # seat 0 waits for seats 1 and 2
    assert_refused(state, 0, {"type": "draw", "count": 1}, engine.NotYourTurn)
    state = act(state, 1, type="draw", count=2)
    assert engine.awaiting(state) == {1: "plan", 2: "draw"}
    state = act(state, 2, type="draw", count=1)
    assert engine.awaiting(state) == {1: "plan", 2: "plan", 0: "draw"}
    assert draw_counts(state, 0) == [0, 1, 2, 3]


def test_simultaneous_followers_census_torture_does_not_block_others():
    """§8.3 option on: everybody draws at once; the tortured seat answers its prompt first."""
    state = _sequential_census(simultaneous=True)
    assert engine.awaiting(state) == {0: "torture", 1: "draw", 2: "draw"}


def test_sequential_followers_later_seat_sees_earlier_draws():
    """§8.3 best choice: with the option off, each player sees the earlier players' results."""
    state = _sequential_census()
    state = act(state, 0, type="torture", item="good", good="wool")
    state = act(state, 1, type="draw", count=2)
    assert engine.awaiting(state)[2] == "draw"
    # the draw's result is public; the market (with tiles kept from earlier rounds) and the
    # plan stay hidden
    seen = engine.view(state, 2)["players"][1]
    assert seen["drawn"] == ["scholar", "scholar"] and seen["market"] is None and seen["plan"] is None
