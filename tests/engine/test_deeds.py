"""RULES §7.2 Beneficial Deeds via the Town Hall and §14.8: exact type (monks only on
monk spaces), reward per tile, citizen for the last space, Canalisation coin or
development (§14.4), tiles with no free space stay on the Town Hall."""
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import engine
from engine import content
from tests.support.engine_states import (action_state, activate, activations, assert_refused, can_activate, edited,
                                         player)


def town_hall(tiles, deeds=None, **fields):
    state = action_state({"spaces": {"town_hall": sorted(tiles)}, **fields})
    if deeds:
        state = edited(state, lambda d: d["deeds"].update(deeds))
    return state


def deed_choices(state):
    return [[(i["follower"], i["deed"], i["reward"]) for i in a["deeds"]] for a in activations(state, "town_hall")]


def test_farmer_goes_only_to_farmer_spaces():
    """§7.2: a tile only goes on an empty deed space showing its own type."""
    choices = deed_choices(town_hall(["farmer"]))
    assert choices == sorted([[("farmer", "canalisation", "coins")], [("farmer", "canalisation", "development")],
                              [("farmer", "city_wall", "coins")], [("farmer", "defeating_plague", "coins")]])


def test_monk_only_on_monk_spaces():
    """§7.2 / §8.5: monks are not wild on deeds."""
    assert {c[0][1] for c in deed_choices(town_hall(["monk"]))} == {"papal_conclave", "cathedral", "peace_treaty"}


@pytest.mark.parametrize("tile, deed, coins", [("monk", "papal_conclave", 3), ("knight", "city_wall", 1),
                                               ("scholar", "defeating_plague", 2), ("scholar", "astronomy", 1),
                                               ("boatman", "boatmen_guild", 1), ("trader", "cathedral", 2),
                                               ("knight", "peace_treaty", 2), ("trader", "canalisation", 1)])
def test_reward_per_tile(tile, deed, coins):
    """§7.2: flat reward per tile placed; the tile stays on the deed (leaves the bag)."""
    after = activate(town_hall([tile]), "town_hall", deeds=[{"follower": tile, "deed": deed}])
    assert player(after)["coins"] == 5 + coins
    assert after.data["deeds"][deed] == [[tile, 0]]
    assert player(after)["spaces"] == {} and player(after)["bag"] == {}


def test_two_tiles_at_once():
    """§7.2: the action works with 1 or 2 tiles."""
    after = activate(town_hall(["monk", "knight"]), "town_hall",
                     deeds=[{"follower": "knight", "deed": "papal_conclave"},
                            {"follower": "monk", "deed": "papal_conclave"}])
    assert player(after)["coins"] == 11
    assert sorted(after.data["deeds"]["papal_conclave"]) == [["knight", 0], ["monk", 0]]


def test_last_space_takes_the_deed_citizen():
    """§7.2: whoever fills the last empty space of a deed takes its citizen."""
    state = town_hall(["trader"], deeds={"astronomy": [["scholar", 1], ["scholar", 1]]})
    after = activate(state, "town_hall", deeds=[{"follower": "trader", "deed": "astronomy"}])
    assert player(after)["citizens"] == 1 and player(after, 1)["citizens"] == 0
    assert "deed_astronomy" not in after.data["citizens"]
    assert player(after)["coins"] == 6


def test_no_citizen_before_the_deed_is_full():
    """§7.2: the citizen goes only with the last space."""
    after = activate(town_hall(["scholar"]), "town_hall", deeds=[{"follower": "scholar", "deed": "astronomy"}])
    assert player(after)["citizens"] == 0


def test_canalisation_choice_of_coin_or_development():
    """§7.2: each tile on Canalisation earns 1 coin or 1 development step."""
    after = activate(town_hall(["boatman"], development=5), "town_hall",
                     deeds=[{"follower": "boatman", "deed": "canalisation", "reward": "development"}])
    assert (player(after)["development"], player(after)["coins"]) == (6, 5)
    after = activate(town_hall(["boatman"], development=5), "town_hall",
                     deeds=[{"follower": "boatman", "deed": "canalisation", "reward": "coins"}])
    assert (player(after)["development"], player(after)["coins"]) == (5, 6)


def test_canalisation_on_thirty_offers_only_the_coin():
    """§14.4: Canalisation with the marker on 30 offers only the coin."""
    state = town_hall(["boatman"], development=30)
    assert [("boatman", "canalisation", "development")] not in deed_choices(state)
    assert [("boatman", "canalisation", "coins")] in deed_choices(state)


def test_canalisation_second_tile_after_reaching_thirty_offers_only_the_coin():
    """§14.4: with the marker on 30, Canalisation offers only the coin — also for the second
    tile of the same action once the first has moved the marker to 30."""
    state = town_hall(["farmer", "farmer"], development=29, development_coins=[7, 12, 25])
    both_develop = [("farmer", "canalisation", "development")] * 2
    assert both_develop not in deed_choices(state)


def test_tile_without_free_space_stays_on_town_hall():
    """§14.8: a tile with no free space of its type stays on the Town Hall."""
    full_guild = [["boatman", 1]] * 3 + [["scholar", 1]]
    state = town_hall(["boatman", "knight"], deeds={"boatmen_guild": full_guild, "canalisation": [
        ["boatman", 1]] * 3 + [["trader", 1]] * 2, "defeating_plague": [["boatman", 1]]})
    choices = deed_choices(state)
    assert choices and all([t for t, _d, _r in c] == ["knight"] for c in choices)
    after = activate(state, "town_hall", deeds=[{"follower": "knight", "deed": "city_wall"}])
    assert player(after)["spaces"] == {"town_hall": ["boatman"]}


def test_town_hall_not_allowed_when_no_tile_can_go():
    """§14.8: the action is allowed only if at least one tile can be sent."""
    state = town_hall(["monk"], deeds={"papal_conclave": [["monk", 1], ["monk", 1]],
                                       "cathedral": [["monk", 1], ["monk", 1]],
                                       "peace_treaty": [["monk", 1]]})
    assert not can_activate(state, "town_hall")


def test_town_hall_must_send_every_tile_that_can_go():
    """§14.8: the player sends each tile there to a free space of its type."""
    state = town_hall(["knight", "monk"])
    assert_refused(state, 0, {"type": "activate", "space": "town_hall",
                              "deeds": [{"follower": "knight", "deed": "city_wall"}]})


def test_all_deed_spaces_exist():
    """§7.2: eight deeds, 45 spaces, rewards as tabled."""
    assert sum(d.total for d in content.DEEDS.values()) == 45
    assert {d: (x.total, x.coins) for d, x in content.DEEDS.items()} == {
        "city_wall": (10, 1), "papal_conclave": (3, 3), "defeating_plague": (5, 2), "astronomy": (3, 1),
        "boatmen_guild": (4, 1), "cathedral": (6, 2), "peace_treaty": (4, 2), "canalisation": (10, 1)}
    assert engine.content.DEEDS["canalisation"].development_choice


def test_substitutes_do_not_apply_on_deeds():
    """§11 Herb Garden / School: the substitution applies to action spaces only; on deeds a
    Boatman or Scholar still needs a space of its own type."""
    state = town_hall(["boatman", "scholar"], places=["herb_garden", "school"])
    deeds_by_tile = {}
    for choice in deed_choices(state):
        for tile, deed, _r in choice:
            deeds_by_tile.setdefault(tile, set()).add(deed)
    assert deeds_by_tile == {"boatman": {"boatmen_guild", "canalisation", "defeating_plague"},
                             "scholar": {"astronomy", "boatmen_guild", "defeating_plague", "peace_treaty"}}


def test_canalisation_development_collects_coin_space():
    """§7.1 / §7.2: a development step from Canalisation that reaches 7 pays its 3 coins."""
    after = activate(town_hall(["trader"], development=6), "town_hall",
                     deeds=[{"follower": "trader", "deed": "canalisation", "reward": "development"}])
    assert (player(after)["development"], player(after)["coins"]) == (7, 8)


def test_deed_list_order_does_not_matter():
    """The deeds of one Town Hall action may be listed in any order; reward defaults to coins."""
    after = activate(town_hall(["monk", "knight"]), "town_hall",
                     deeds=[{"follower": "monk", "deed": "papal_conclave"},
                            {"follower": "knight", "deed": "peace_treaty"}])
    assert player(after)["coins"] == 5 + 3 + 2


def _walk_over_every_deed(s, p, tiles, exact_count=None):
    """The reference: the free spaces of every deed counted, then every tile stays or goes
    to each deed with room for it; the assignments sending the most (or ``exact_count``) kept."""
    from engine import steps as S

    results, free = set(), S.deed_free_spaces(s)
    options = [S._deed_options(tile) for tile in tiles]

    def walk(i, chosen, room):
        if i == len(tiles):
            results.add(tuple(sorted(chosen)))
            return
        walk(i + 1, chosen, room)
        if options[i] is None:
            return
        kind, deeds = options[i]
        for deed_id, development_choice in deeds:
            if free[deed_id].get(kind, 0) > 0:
                free[deed_id][kind] -= 1
                walk(i + 1, chosen + ((tiles[i], deed_id, "coins"),), room)
                if development_choice and room > 0:
                    walk(i + 1, chosen + ((tiles[i], deed_id, "development"),), room - 1)
                free[deed_id][kind] += 1

    walk(0, (), S.development_room(p))
    best = max(len(r) for r in results) if exact_count is None else exact_count
    return [[{"follower": t, "deed": d, "reward": r} for t, d, r in combo]
            for combo in sorted(results) if len(combo) == best and combo]


_FILLED = st.fixed_dictionaries({
    deed_id: st.lists(st.sampled_from(sorted(k for k, n in deed.spaces.items() for _ in range(n))), max_size=deed.total)
    for deed_id, deed in content.DEEDS.items()})


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(filled=_FILLED, tiles=st.lists(st.sampled_from(content.ALL_FOLLOWER_TILES), max_size=5),
       development=st.integers(26, 30), exact=st.booleans())
def test_counting_only_the_deeds_the_tiles_may_go_to_lists_the_same_assignments(filled, tiles, development, exact):
    """§7.2, §14.8: a tile goes only to a deed with a space of its type, so counting the free
    spaces of just those deeds lists the same Town Hall assignments as counting every deed;
    the Gunpowder Tower's exact count the same."""
    from engine import steps as S

    deeds = {}
    for deed_id, kinds in filled.items():  # at most a deed's spaces of each type
        room = dict(content.DEEDS[deed_id].spaces)
        deeds[deed_id] = []
        for kind in kinds:
            if room[kind]:
                room[kind] -= 1
                deeds[deed_id].append([kind, 1])
    s = {"deeds": deeds}
    p = {"development": development}
    tiles = sorted(tiles)
    exact_count = len(tiles) if exact else None
    assert S.deed_assignments(s, p, tiles, exact_count) == _walk_over_every_deed(s, p, tiles, exact_count)
