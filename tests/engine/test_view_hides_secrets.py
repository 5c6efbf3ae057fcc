"""Hidden information (docs/engine.md "The view"): ``engine.view`` gives a seat, or a
spectator (``None``), only what it may see — never another seat's bag, market or plan
before the reveal, nor prompt details, the seed, the hourglass order or hidden stacks.

The site-level scanner over every page and partial is tests/security/test_hidden_information.py.
"""
import json

import engine

SEED = 123_456_789_012_345


def test_the_engine_view_does_not_order_the_events_left_by_the_hidden_stack():
    """engine.view's ``hourglass_left`` may give counts, but its key order must not follow
    the hidden stack (the first key would be the next round's event)."""
    state = engine.new_game(engine.GameOptions(players=3), seed=SEED)
    data = engine.to_json(state)
    reordered = dict(data, hourglass=list(reversed(data["hourglass"])))
    views = [engine.view(engine.from_json(d), None)["hourglass_left"] for d in (data, reordered)]
    assert views[0] == views[1]
    assert json.dumps(views[0]) == json.dumps(views[1]), (
        "hourglass_left lists the events in the hidden stack's order")

