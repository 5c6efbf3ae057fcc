"""The game page's template context holds display values only (games.presenters.page).

Templates never receive a model row: not the ``Game`` with its full ``state`` (seed, bags,
plans) nor any ``Seat`` with its action queue. The viewer's own queue reaches the page as
the queue panel; no other seat's queue or queue note reaches it at all. Checked by walking
everything reachable from the context, for every seat and a spectator, in a played
position where every seat has a queue.
"""
from __future__ import annotations

import dataclasses

import pytest
from django.db import models

from games.models import Seat
from games.presenters.page import GameInfo, SeatInfo, game_context
from tests.support.game_driver import new_started_game, play_until

SEED = 987_654_321_098_765


def reachable(value, seen=None):
    """Every value reachable from ``value``: containers, dataclass fields, object attributes."""
    seen = set() if seen is None else seen
    if id(value) in seen:
        return
    seen.add(id(value))
    yield value
    if isinstance(value, (str, bytes, int, float, bool)) or value is None:
        return
    if isinstance(value, dict):
        children = [*value.keys(), *value.values()]
    elif isinstance(value, (list, tuple, set, frozenset)):
        children = list(value)
    elif dataclasses.is_dataclass(value):
        children = [getattr(value, f.name) for f in dataclasses.fields(value)]
    elif hasattr(value, "__dict__") and not isinstance(value, type):
        children = list(vars(value).values())
    else:
        children = []
    for child in children:
        yield from reachable(child, seen)


def note_for(order: int) -> str:
    return f"queue note of seat {order} (marker)"


@pytest.fixture
def queued_game(alice, bob, carol):
    """Round 2 or later, action phase; every seat has a queue and a note for this round."""
    game = new_started_game(alice, bob, carol, seed=SEED)
    game = play_until(game, lambda s: s.data["round"] >= 2 and s.data["phase"] == "actions", seed=3)
    for seat in game.seats.all():
        seat.action_queue = [{"type": "pass"}]
        seat.action_queue_round = game.state["round"]
        seat.action_queue_note = note_for(seat.order)
        seat.save(update_fields=["action_queue", "action_queue_round", "action_queue_note"])
    game.refresh_from_db()
    return game


@pytest.mark.parametrize("viewer", [0, 1, 2, None])
def test_the_page_context_holds_no_model_row_no_state_and_no_seed(queued_game, viewer):
    seat = queued_game.seats.get(order=viewer) if viewer is not None else None
    values = list(reachable(game_context(queued_game, seat)))
    assert [v for v in values if isinstance(v, models.Model)] == []
    assert not any(isinstance(v, dict) and v == queued_game.state for v in values)
    assert queued_game.seed not in [v for v in values if isinstance(v, int) and not isinstance(v, bool)]
    assert not any(isinstance(v, str) and str(queued_game.seed) in v for v in values)


@pytest.mark.parametrize("viewer", [0, 1, 2, None])
def test_the_page_context_carries_no_other_seats_queue(queued_game, viewer):
    seat = queued_game.seats.get(order=viewer) if viewer is not None else None
    context = game_context(queued_game, seat)
    strings = [v for v in reachable(context) if isinstance(v, str)]
    for other in (0, 1, 2):
        if other != viewer:
            assert note_for(other) not in strings
    if viewer is not None:  # its own queue is on the page, as the queue panel
        assert context["queue"]["note"] == note_for(viewer)
        assert [e["value"] for e in context["queue"]["entries"]] == ['{"type": "pass"}']
    else:
        assert context["queue"] is None


def test_the_game_and_seats_reach_templates_as_display_records(queued_game):
    viewer = queued_game.seats.get(order=1)
    context = game_context(queued_game, viewer)
    assert isinstance(context["game"], GameInfo)
    assert not hasattr(context["game"], "state") and not hasattr(context["game"], "seed")
    assert all(isinstance(s, SeatInfo) for s in context["seats"])
    assert not any(hasattr(s, "action_queue") or hasattr(s, "action_queue_note") for s in context["seats"])
    assert context["seat"].pk == viewer.pk and context["seat"].user.username == viewer.user.username
    assert context["game"].pk == queued_game.pk and context["game"].version == queued_game.version
    assert context["game"].get_status_display() == queued_game.get_status_display()


def test_the_walk_finds_a_model_row_its_state_seed_and_note_where_there_are_some(queued_game):
    seat = Seat.objects.get(game=queued_game, order=0)
    values = list(reachable({"nested": [{"row": seat}, (queued_game,)]}))
    assert seat in values and queued_game in values
    assert note_for(0) in values and queued_game.seed in values
    assert any(isinstance(v, dict) and v == queued_game.state for v in values)
