"""Every engine event, action label and refusal is a message id of the one English catalog
(engine.messages) with its params; the English text is that template rendered."""
import pytest

import engine
from engine.messages import CATALOG, placeholders, render, text
from engine.simulate import play_game

CONFIGS = [
    dict(players=2),
    dict(players=3, event_strength="constant", place_tile_market="market3"),
    dict(players=4, simultaneous_followers=False, place_tile_market="all"),
]


def playout_events(config, seed):
    """(events, labelled actions) of one seeded random game."""
    options = engine.GameOptions(**config)
    state = engine.new_game(options, seed)
    events, actions = [], []
    for seat, action in play_game(options, seed, check=False)["log"]:
        if seat is None:
            state, new = engine.resolve(state)
        else:
            actions.append((action, state, seat))
            state, new = engine.apply(state, seat, action)
        events += new
    return events, actions


@pytest.mark.parametrize("config", CONFIGS, ids=lambda c: "-".join(f"{k}={v}" for k, v in c.items()))
def test_every_event_of_a_playout_is_its_catalog_template_rendered_with_its_params(config):
    events, _ = playout_events(config, seed=7 + config["players"])
    assert {e["msg"] for e in events} >= {"event.round", "event.draw", "event.activate", "event.pass"}
    for event in events:
        assert event["msg"] in CATALOG
        assert event["text"] == render(event["msg"], event["params"])


@pytest.mark.parametrize("config", CONFIGS[:2], ids=lambda c: "-".join(f"{k}={v}" for k, v in c.items()))
def test_event_params_are_ids_and_amounts_not_english_words(config):
    events, _ = playout_events(config, seed=3)

    def leaves(value):
        if isinstance(value, dict):
            for v in value.values():
                yield from leaves(v)
        elif isinstance(value, list):
            for v in value:
                yield from leaves(v)
        else:
            yield value

    for event in events:
        for leaf in leaves(event["params"]):
            assert leaf is True or isinstance(leaf, int) or (isinstance(leaf, str) and (leaf in CATALOG or " " not in leaf
                                                                                      and leaf == leaf.lower())), event


def test_an_action_label_is_its_message_rendered():
    _, actions = playout_events(CONFIGS[0], seed=11)
    for action, state, seat in actions:
        msg = engine.action_message(action, state, seat)
        assert msg["msg"] in CATALOG
        assert engine.describe_action(action, state, seat) == text(msg)


def test_every_refusal_code_has_a_catalog_template():
    for code in engine.REFUSAL_MESSAGES:
        assert f"refusal.{code}" in CATALOG
        assert engine.refusal_structured(code, {})["msg"].startswith("refusal.")


def test_a_refusal_is_its_message_rendered_with_the_params_as_ids():
    msg = engine.refusal_structured("track_end", {"place": "castle", "track": "knight"})
    assert msg == {"msg": "refusal.cannot_use",
                   "params": {"place": "castle", "why": {"msg": "refusal.track_end",
                                                         "params": {"place": "castle", "track": "knight"}}}}
    assert text(msg) == "The Castle cannot be used: the Knight track is at its last space."


def test_counted_placeholders_use_the_singular_for_one():
    assert render("event.gain_coins", {"coins": 1, "reason": {"place": "ship"}}) == "{player} gains 1 coin (Ship)"
    assert render("event.gain_coins", {"coins": 2, "reason": {"census": True}}, player="Ann") == "Ann gains 2 coins (census)"


def test_every_template_is_a_valid_format_string():
    for msg_id, template in CATALOG.items():
        assert isinstance(placeholders(template), set), msg_id


def test_the_english_text_memo_gives_what_render_gives_and_keeps_a_bool_apart_from_its_int():
    from engine.messages import english

    for params in ({"round": 1, "event": "plague"}, {"round": True, "event": "plague"}, {"round": 1.0, "event": "plague"},
                   {"round": 1, "event": "plague"}):
        assert english("event.round", params) == render("event.round", params)
    nested = {"plan": [{"msg": "part.reveal", "params": {"follower": "knight", "place": "castle"}}]}
    assert english("event.reveal", nested) == render("event.reveal", nested)
    assert english("event.reveal", nested) == english("event.reveal", dict(nested))
