"""A torture debt is paid in one decision on the game page (issue 9; RULES §10.1): one form
shows the amount owed and a field per payable item, and one submit posts the whole
``pay_debt`` payment through the usual submit endpoint."""
from __future__ import annotations

import html
import json

from django.urls import reverse

import engine
from games.forms import ActionForm
from games.models import Move
from tests.support import engine_states as H
from tests.support.game_driver import install, state_of
from tests.support.html_forms import HTMX, decision_forms, form_inputs


def seven_short():
    """Seat 0 owes 7 coins of phase-A Taxes (7 goods, no coins); it also holds stations, a
    knight in its bag, development steps and a place tile with a technology tile. Its Farmer
    track leads, so the next round's census does not tax it again (RULES §8.2)."""
    state, _ = H.run_event("taxes", {0: {"coins": 0, "goods": {"wool": 4, "grain": 3}, "stations_left": 2,
                                         "tracks": {"farmer": 2},
                                         "bag": {"knight": 1}, "development": 3, "places": ["cellar"],
                                         "technology": {"cellar": "scholar"}}}, round=2)
    assert H.player(state)["prompts"] == [{"kind": "torture", "debt": 7, "reason": "taxes"}]
    return state


def page_text(client, game) -> str:
    return client.get(reverse("games-detail", kwargs={"game_id": game.pk})).text


def filled(inputs: list[dict], wanted: dict) -> dict:
    """The POST data of the payment form with ``wanted`` ({item JSON key: count}) filled in,
    as a browser sends it (unchecked checkboxes send nothing)."""
    data, rows = {}, {}
    for a in inputs:
        name = a.get("name")
        if a.get("type") == "hidden":
            data[name] = a.get("value")
            if name.startswith("item_"):
                rows[name.removeprefix("item_")] = json.loads(a["value"])
    for n, item in rows.items():
        count = wanted.get(json.dumps(item, sort_keys=True), 0)
        if count:
            data[f"count_{n}"] = str(count)
    return data


def key(**item) -> str:
    return json.dumps(item, sort_keys=True)


def test_the_payment_form_shows_the_debt_and_each_payable_item(client_for, started_game):
    game = install(started_game, seven_short())
    text = page_text(client_for(game.seats.get(order=0).user), game)
    inputs = form_inputs(text, "pay_debt")
    items = [json.loads(a["value"]) for a in inputs if a.get("name", "").startswith("item_")]
    assert items == [{"item": "station", "town": None}, {"item": "follower"}, {"item": "development"},
                     {"item": "good", "good": "grain"}, {"item": "good", "good": "wool"},
                     {"item": "technology", "place": "cellar"}, {"item": "place_tile", "place": "cellar"}]
    counts = [(a["type"], a.get("max")) for a in inputs if a.get("name", "").startswith("count_")]
    assert counts == [("number", "2"), ("checkbox", None), ("number", "3"), ("number", "3"), ("number", "4"),
                      ("checkbox", None), ("checkbox", None)]
    form = text[text.index('data-form="pay_debt"'):]
    form = html.unescape(form[:form.index("</form>")])
    assert "You owe <strong>7</strong> coins (taxes)" in form
    assert "<output data-pay-remaining>7</output> of 7" in form
    # the single items stay, folded under the payment, so every legal action keeps its form
    single = [f for f in decision_forms(text) if f["attrs"]["data-form"] == "torture"]
    assert [a for f in single for a in f["actions"]] == engine.legal_actions(state_of(game), 0)


def test_a_seven_coin_debt_is_paid_with_one_submit(client_for, started_game):
    game = install(started_game, seven_short())
    client = client_for(game.seats.get(order=0).user)
    data = filled(form_inputs(page_text(client, game), "pay_debt"), {
        key(item="good", good="wool"): 3, key(item="station", town=None): 2, key(item="follower"): 1,
        key(item="technology", place="cellar"): 1})
    response = client.post(reverse("games-act", kwargs={"game_id": game.pk}), data, **HTMX)
    assert response.status_code == 200 and '<p class="flash">' not in response.text
    (move,) = Move.objects.filter(game=game)
    assert move.action == {"type": "pay_debt", "items": [
        {"item": "station", "town": None}, {"item": "station", "town": None}, {"item": "follower"},
        {"item": "good", "good": "wool"}, {"item": "good", "good": "wool"}, {"item": "good", "good": "wool"},
        {"item": "technology", "place": "cellar"}]}
    p = state_of(game).data["players"][0]
    assert (p["prompts"], p["stations_left"], p["bag"], p["goods"]["wool"], p["technology"]) == ([], 0, {}, 1, {})


def test_a_payment_that_does_not_settle_the_debt_is_refused_with_its_sentence(client_for, started_game):
    game = install(started_game, seven_short())
    client = client_for(game.seats.get(order=0).user)
    data = filled(form_inputs(page_text(client, game), "pay_debt"), {key(item="good", good="wool"): 4})
    response = client.post(reverse("games-act", kwargs={"game_id": game.pk}), data, **HTMX)
    assert "Your payment does not settle the debt of 7 coins: choose 3 more items, one per missing coin." in \
        html.unescape(response.text)
    assert not Move.objects.filter(game=game).exists()
    assert state_of(game).data["players"][0]["prompts"][0]["debt"] == 7


def test_the_action_form_builds_the_payment_in_row_order():
    form = ActionForm({"expected_version": "3", "payment": "1", "item_0": '{"item": "station", "town": null}',
                       "count_0": "2", "item_1": '{"item": "good", "good": "wool"}', "count_1": "",
                       "item_2": '{"item": "place_tile", "place": "cellar"}', "count_2": "1"})
    assert form.is_valid(), form.errors
    assert form.cleaned_data["action"] == {"type": "pay_debt", "items": [
        {"item": "station", "town": None}, {"item": "station", "town": None}, {"item": "place_tile", "place": "cellar"}]}


def test_a_payment_that_cannot_be_read_is_refused_by_the_form():
    for bad in ({"item_0": "not json", "count_0": "1"}, {"item_0": '["good"]', "count_0": "1"},
                {"item_0": '{"item": "follower"}', "count_0": "-1"}, {"item_0": '{"item": "follower"}',
                                                                      "count_0": "many"}):
        form = ActionForm({"expected_version": "0", "payment": "1", **bad})
        assert not form.is_valid()
        assert form.first_error() == "The payment could not be read."
    assert not ActionForm({"expected_version": "0"}).is_valid()
