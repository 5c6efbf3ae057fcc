"""Action metadata the site reads from the engine (issue 7 item 1; RULES §8): which
action types are private steps of a simultaneous phase, which are provisional planning
steps, and the ``activate`` choice fields with their ranges from the component data."""
from __future__ import annotations

import engine
from engine import content as C


def test_the_private_simultaneous_steps_are_exactly_these():
    private = {t for t in engine.ACTION_SPECS if engine.is_private_step(t)}
    assert private == {"draw", "pull_back", "place", "unplace", "submit_plan", "return_food", "torture", "pay_debt"}


def test_the_provisional_planning_steps_are_place_and_unplace():
    assert {t for t in engine.ACTION_SPECS if engine.is_provisional(t)} == {"place", "unplace"}


def test_the_flags_accept_an_action_dict_and_refuse_anything_else():
    assert engine.is_private_step({"type": "draw", "count": 2})
    assert engine.is_provisional({"type": "place", "follower": "knight", "space": "castle"})
    assert not engine.is_private_step({"type": "activate", "space": "castle"})
    for odd in (None, 3, [], {"type": ["draw"]}, {"type": {}}, "nonsense", {}):
        assert not engine.is_private_step(odd) and not engine.is_provisional(odd)


def test_every_action_type_names_the_decision_it_answers():
    kinds = {"draw", "plan", "action", "torture", "harvest", "technology", "bathhouse"}
    assert {spec.decision for spec in engine.ACTION_SPECS.values()} == kinds
    assert engine.ACTION_SPECS["activate"].required == ("space",)


def test_the_pharmacy_pays_the_coins_its_effect_data_allows():
    effect = C.PLACE_TILES["pharmacy"].effect["payCoins"]
    assert engine.activate_choice_fields("pharmacy") == {"coins": tuple(range(effect["min"], effect["max"] + 1))}
    assert engine.activate_choice_fields("pharmacy") == {"coins": (1, 2, 3)}


def test_the_village_recruits_a_boatman_craftsman_or_trader_and_takes_any_place_tile():
    fields = engine.activate_choice_fields("village")
    assert fields["recruit"] == ("boatman", "craftsman", "trader")
    assert set(fields["place_tile"]) == set(C.PLACE_TILES)


def test_the_ship_uses_waterways_and_the_wagons_use_roads():
    water = {r.id for r in C.ROUTES.values() if r.kind == "water"}
    assert set(engine.activate_choice_fields("ship")["route"]) == water
    assert set(engine.activate_choice_fields("horse_wagon")["route"]) == set(C.ROUTES) - water
    assert engine.activate_choice_fields("wagon")["good"] == C.GOODS + (None,)


def test_places_without_a_scalar_choice_have_no_fields():
    for place in ("castle", "town_hall", "gunpowder_tower", "hay_rick", "herb_garden"):
        assert engine.activate_choice_fields(place) == {}


def test_the_union_of_choice_fields_is_what_a_queue_entry_may_fix():
    fields = engine.activate_choice_fields()
    assert set(fields) == {"recruit", "place_tile", "route", "good", "coins"}
    assert set(fields["route"]) == set(C.ROUTES)
    assert fields["coins"] == (1, 2, 3)
