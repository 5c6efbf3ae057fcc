"""Bot decisions are seeded from the game id (``games.bots.decision_rng``): the games of these
tests get ids counted from 1, so every run of a test plays the same moves."""
import itertools
import uuid

import pytest


@pytest.fixture(autouse=True)
def _counted_game_ids(monkeypatch):
    from games.models import Game

    numbers = itertools.count(1)
    # get_default() calls the cached _get_default: replace that (the field's default may be cached)
    monkeypatch.setattr(Game._meta.get_field("id"), "_get_default", lambda: uuid.UUID(int=next(numbers)))
