"""RULES §9.3 events (phased A/B/C by round, §14.1; constant as an option), Harvest's
5 coins per missing food, Plague, the Sacristy exemption (§11, §14.7), the Pilgrimage's
closed Monastery, and the round end's order (§8: the event before the next census)."""
import engine
import pytest

from tests.support.engine_states import act, action_state, build, can_activate, player, run_event

ROUND = {"A": 2, "B": 8, "C": 14}
SACRISTY = {"places": ["sacristy"], "spaces": {"sacristy": ["monk"]}}


def coins_after(event, letter, fields, constant=False, seat=0):
    options = {"event_strength": "constant"} if constant else {}
    state, _ = run_event(event, {0: fields}, round=ROUND[letter], options=options)
    return state, player(state, seat)["coins"]


@pytest.mark.parametrize("letter, per_level", [("A", 3), ("B", 2), ("C", 1)])
def test_income_phased(letter, per_level):
    """§9.3 phased Income: 3/2/1 coins per development level (position 9 = level 3)."""
    assert coins_after("income", letter, {"development": 9, "development_coins": [7]})[1] == 5 + 3 * per_level


def test_income_constant():
    """§9.3 constant Income: coins equal to the development level."""
    assert coins_after("income", "A", {"development": 22, "development_coins": [7, 12]}, constant=True)[1] == 10


def test_phase_follows_round_number_in_classic_shuffle():
    """§14.1: rounds 1–6 A, 7–12 B, 13–18 C whatever the hourglass order."""
    state, _ = run_event("income", {0: {"development": 4}}, round=7, options={"hourglass_order": "classic_shuffle"})
    assert player(state)["coins"] == 5 + 2 * 2
    state, _ = run_event("income", {0: {"development": 4}}, round=6, options={"hourglass_order": "classic_shuffle"})
    assert player(state)["coins"] == 5 + 2 * 3


@pytest.mark.parametrize("letter, per_station", [("A", 3), ("B", 2), ("C", 1)])
def test_trading_day_phased(letter, per_station):
    """§9.3 phased Trading Day: 3/2/1 coins per built trading station (not the supply)."""
    state, _ = run_event("trading_day", {0: {"stations_left": 7}}, round=ROUND[letter],
                         stations={"orleans": [0, 1], "blois": [0]})
    assert player(state)["coins"] == 5 + 2 * per_station
    assert player(state, 1)["coins"] == 5 + per_station


def test_trading_day_constant():
    """§9.3 constant Trading Day: 1 coin per built station."""
    state, _ = run_event("trading_day", {}, round=2, stations={"orleans": [0], "blois": [0], "tours": [0]},
                         options={"event_strength": "constant"})
    assert player(state)["coins"] == 8


@pytest.mark.parametrize("letter, goods, due", [("A", 7, 7), ("B", 7, 3), ("C", 7, 2), ("C", 2, 0), ("B", 1, 0)])
def test_taxes_phased(letter, goods, due):
    """§9.3 phased Taxes: 1 coin per good / per 2 goods / per 3 goods, rounded down; all
    goods count."""
    mix = {"grain": goods - goods // 2, "brocade": goods // 2}
    assert coins_after("taxes", letter, {"goods": mix, "coins": 10})[1] == 10 - due


def test_taxes_constant():
    """§9.3 constant Taxes: 1 coin per full 3 goods."""
    assert coins_after("taxes", "A", {"goods": {"wool": 8}}, constant=True)[1] == 3


def test_taxes_unpaid_becomes_torture():
    """§8.8 / §10.1: too few coins: pay all, torture for each missing coin."""
    state, _ = run_event("taxes", {0: {"goods": {"wool": 4}, "coins": 1}}, round=2)
    assert player(state)["coins"] == 0
    assert engine.awaiting(state) == {0: "torture"}
    assert player(state)["prompts"] == [{"kind": "torture", "debt": 3, "reason": "taxes"}]


@pytest.mark.parametrize("letter, need", [("A", 1), ("B", 2), ("C", 3)])
def test_harvest_player_chooses_food(letter, need):
    """§9.3 Harvest: return 1/2/3 food; the player picks which."""
    state, _ = run_event("harvest", {0: {"goods": {"grain": 3, "wine": 3, "wool": 2}}}, round=ROUND[letter])
    assert engine.awaiting(state) == {0: "harvest"}
    choices = [a["food"] for a in engine.legal_actions(state, 0)]
    assert all(len(c) == need and set(c) <= {"grain", "wine"} for c in choices)
    assert ["wine"] * need in choices
    supply = state.data["supply"]["goods"]["wine"]
    state = act(state, type="return_food", food=["wine"] * need)
    assert player(state)["goods"] == {"grain": 3, "cheese": 0, "wine": 3 - need, "wool": 2, "brocade": 0}
    assert state.data["supply"]["goods"]["wine"] == supply + need
    assert engine.needs_resolution(state)
    state, _ = engine.resolve(state)
    assert state.round == ROUND[letter] + 1


def test_harvest_no_food_costs_five_coins():
    """§9.3: no food: pay 5 coins."""
    assert coins_after("harvest", "A", {"coins": 7, "goods": {"wool": 3}})[1] == 2


def test_harvest_five_coins_per_missing_food():
    """§9.3 UNCERTAIN best choice: 5 coins per missing food (phase C, 1 food held: the food
    is returned and 10 coins paid)."""
    state, coins = coins_after("harvest", "C", {"coins": 12, "goods": {"cheese": 1}})
    assert coins == 2 and player(state)["goods"]["cheese"] == 0


def test_harvest_unable_to_pay_is_tortured():
    """§9.3 / §10.1: no food and too few coins: torture for the missing coins."""
    state, _ = run_event("harvest", {0: {"coins": 2, "goods": {"wool": 2}}}, round=2)
    assert player(state)["coins"] == 0 and player(state)["prompts"][0]["debt"] == 3


def test_plague_loses_a_neutral_follower_to_the_supply():
    """§9.3 Plague: a random tile from the bag; a non-starting one returns to the supply;
    track markers do not move."""
    state, _ = run_event("plague", {0: {"bag": {"knight": 1}, "tracks": {"knight": 1}}}, round=2,
                         supply={"followers": {"knight": 3}, "goods": {}, "technology": 16})
    assert player(state)["bag"] == {}
    assert state.data["supply"]["followers"]["knight"] == 4
    assert player(state)["tracks"]["knight"] == 1


def test_plague_starting_follower_goes_back():
    """§9.3 Plague: a starting character drawn is put back — no loss."""
    state, _ = run_event("plague", {0: {"bag": {"start_farmer": 1}}}, round=2)
    assert player(state)["bag"] == {"start_farmer": 1}


def test_plague_empty_bag_nothing_happens():
    """§9.3 Plague: empty bag, nothing happens."""
    state, events = run_event("plague", {}, round=2)
    assert player(state)["bag"] == {} and not [e for e in events if e["kind"] == "plague"]


@pytest.mark.parametrize("event, fields", [
    ("taxes", {"goods": {"wool": 6}}),
    ("harvest", {"goods": {"grain": 2}}),
    ("harvest", {}),
    ("plague", {"bag": {"knight": 1}}),
    ("taxes", {}),  # §14.7: even when the event would have cost nothing
])
def test_sacristy_exempts_from_negative_events_and_monk_returns(event, fields):
    """§11 Sacristy / §14.7: owner exempt from Harvest, Taxes, Plague; the Monk goes back
    to the bag."""
    state, _ = run_event(event, {0: {**SACRISTY, **fields}}, round=2)
    p = player(state)
    assert p["coins"] == 5 and p["prompts"] == []
    assert p["spaces"] == {}
    assert p["bag"] == {**fields.get("bag", {}), "monk": 1}
    assert p["goods"] == {**{g: 0 for g in p["goods"]}, **fields.get("goods", {})}


@pytest.mark.parametrize("event, coins", [("income", 5 + 3), ("trading_day", 5 + 3), ("pilgrimage", 5)])
def test_sacristy_monk_stays_on_other_events(event, coins):
    """§14.7: on other events the Monk stays and the event applies normally."""
    state, _ = run_event(event, {0: SACRISTY}, round=2, stations={"blois": [0]})
    assert player(state)["spaces"] == {"sacristy": ["monk"]}
    assert player(state)["coins"] == coins


def test_sacristy_protects_only_its_owner():
    """§11: only the owner of the Sacristy is exempt."""
    state, _ = run_event("taxes", {0: {**SACRISTY, "goods": {"wool": 3}}, 1: {"goods": {"wool": 3}}}, round=2)
    assert player(state)["coins"] == 5 and player(state, 1)["coins"] == 2


def test_event_prompts_answered_independently():
    """§14.12: each player answers their own event prompt; the phase waits for all."""
    both = {"goods": {"grain": 1, "cheese": 1}}
    state, _ = run_event("harvest", {0: both, 1: both}, round=2)
    assert engine.awaiting(state) == {0: "harvest", 1: "harvest"}
    state = act(state, 1, type="return_food", food=["cheese"])
    assert engine.awaiting(state) == {0: "harvest"}
    state = act(state, 0, type="return_food", food=["grain"])
    assert engine.needs_resolution(state)


# --- §8.8/§8.9 order of the round end: event, start player, next census ----------------------


def test_harvest_coins_are_paid_before_the_next_census():
    """§8 phase order: the Harvest (phase 6) is paid before the next round's census
    (phase 2): seat 2 pays 5 coins for its missing food, then, last on the Farmer track,
    owes the census coin it no longer has (§14.10: torture)."""
    seats = {0: {"tracks": {"farmer": 3}, "goods": {"grain": 1}},
             1: {"tracks": {"farmer": 2}, "goods": {"grain": 1}},
             2: {"tracks": {"farmer": 0}, "coins": 5, "goods": {"wool": 1}}}
    state, _ = run_event("harvest", seats, players=3, round=2)
    # seats 0 and 1 have one food each: the only choice is forced; the phase then waits
    assert engine.needs_resolution(state)
    state, _ = engine.resolve(state)
    assert state.round == 3 and state.data["start_player"] == 1
    assert [player(state, i)["coins"] for i in range(3)] == [6, 5, 0]
    assert player(state, 2)["prompts"] == [{"kind": "torture", "debt": 1, "reason": "census"}]
    assert state.data["supply"]["goods"]["grain"] == build("actions").data["supply"]["goods"]["grain"] + 2


def test_sacristy_checked_per_event_monk_back_before_plague_draw():
    """§14.7: with a Monk on the Sacristy the owner is exempt from the Plague; the Monk goes
    back to the bag and is not drawn; the other seat loses its only neutral follower."""
    seats = {0: {"places": ["sacristy"], "spaces": {"sacristy": ["monk"]}, "bag": {"knight": 1}},
             1: {"bag": {"knight": 1}}}
    state, _ = run_event("plague", seats, round=2)
    assert player(state, 0)["bag"] == {"knight": 1, "monk": 1}
    assert player(state, 1)["bag"] == {}
    assert state.data["supply"]["followers"]["knight"] == build("actions").data["supply"]["followers"]["knight"] + 1


# --- §9.3 / §14.1 phased vs constant strength by round ---------------------------------------


@pytest.mark.parametrize("round_, need", [(6, 1), (7, 2), (12, 2), (13, 3), (18, 3)])
def test_phased_harvest_by_round_number(round_, need):
    """§14.1: rounds 1–6 A, 7–12 B, 13–18 C: Harvest returns 1/2/3 food."""
    state, _ = run_event("harvest", {0: {"goods": {"grain": 5}}}, round=round_)
    p = player(state)
    # five grain: the only choice (all grain) is forced
    assert p["goods"]["grain"] == 5 - need


@pytest.mark.parametrize("round_", [2, 8, 14])
def test_constant_strength_ignores_the_round(round_):
    """§9.3 constant: Harvest 1 food, Taxes per 3 goods, Income = level, whatever the round."""
    opts = {"event_strength": "constant"}
    state, _ = run_event("harvest", {0: {"goods": {"grain": 5}}}, round=round_, options=opts)
    assert player(state)["goods"]["grain"] == 4
    state, _ = run_event("taxes", {0: {"goods": {"wool": 7}}}, round=round_, options=opts)
    assert player(state)["coins"] == 5 - 2
    state, _ = run_event("income", {0: {"development": 15, "development_coins": [7, 12]}}, round=round_,
                         options=opts)
    assert player(state)["coins"] == 5 + 4


def test_harvest_phase_b_one_food_short_pays_five_and_is_tortured_for_the_rest():
    """§9.3 UNCERTAIN best choice: 5 coins per missing food; §10.1 torture for the missing
    coins: phase B needs 2 food, 1 wine held → wine returned, 5 coins due, 3 paid, 2 items."""
    state, _ = run_event("harvest", {0: {"goods": {"wine": 1, "wool": 2}, "coins": 3}}, round=ROUND["B"])
    p = player(state)
    assert p["goods"]["wine"] == 0 and p["coins"] == 0
    assert p["prompts"] == [{"kind": "torture", "debt": 2, "reason": "harvest"}]


# --- §9.3 Pilgrimage ----------------------------------------------------------------------------


def test_pilgrimage_blocks_only_the_monastery():
    """§9.3 Pilgrimage: no Monastery action; other actions (Castle) stay allowed, and the
    Monastery is usable in any other round."""
    fields = {"spaces": {"monastery": ["scholar", "trader"], "castle": ["boatman", "farmer", "trader"]}}
    state = action_state(fields, event="pilgrimage")
    assert not can_activate(state, "monastery") and can_activate(state, "castle")
    assert can_activate(action_state(fields, event="taxes"), "monastery")


def test_harvest_torture_is_paid_whole_in_one_decision():
    """§9.3 / §10.1: phase A Harvest, no food and 2 coins: 3 coins short, paid with 2 wool
    and a station in one ``pay_debt``; the round then waits only for its resolution."""
    state, _ = run_event("harvest", {0: {"coins": 2, "goods": {"wool": 2}, "stations_left": 2}}, round=2)
    assert player(state)["prompts"] == [{"kind": "torture", "debt": 3, "reason": "harvest"}]
    state = act(state, type="pay_debt", items=[{"item": "good", "good": "wool"}] * 2 + [{"item": "station"}])
    p = player(state)
    assert (p["coins"], p["goods"]["wool"], p["stations_left"], p["prompts"]) == (0, 0, 1, [])
    assert engine.awaiting(state) == {} and engine.needs_resolution(state)


def test_taxes_torture_is_paid_whole_in_one_decision():
    """§9.3 phase B Taxes (1 coin per 2 goods): 9 goods and 1 coin owe 4, 3 short, paid at once."""
    state, _ = run_event("taxes", {0: {"coins": 1, "goods": {"wool": 5, "grain": 4}, "stations_left": 1}}, round=8)
    assert player(state)["prompts"] == [{"kind": "torture", "debt": 3, "reason": "taxes"}]
    state = act(state, type="pay_debt", items=[{"item": "good", "good": "grain"}, {"item": "good", "good": "wool"},
                                               {"item": "station"}])
    p = player(state)
    assert (p["coins"], p["goods"]["wool"], p["goods"]["grain"], p["stations_left"]) == (0, 4, 3, 0)
    assert p["prompts"] == []
