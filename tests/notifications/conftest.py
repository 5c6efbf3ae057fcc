"""Fixtures for notification tests: committed game changes with their on-commit tasks."""
from __future__ import annotations

import pytest

from games import services
from games.access import make_invite_token
from tests.support.preferences import right_away


@pytest.fixture
def committed(django_capture_on_commit_callbacks):
    """``committed(fn, **kwargs)``: call a service and run its on-commit tasks (eager)."""

    def run(fn, **kwargs):
        with django_capture_on_commit_callbacks(execute=True):
            return fn(**kwargs)

    return run


@pytest.fixture
def start_game(committed):
    """``start_game(creator, *joiners, name=...)``: a started game, start emails delivered."""

    def make(creator, *joiners, name: str = "Loire", is_public: bool = True):
        game = services.game_create(creator=creator, name=name, max_seats=len(joiners) + 1,
                                    options={}, is_public=is_public)
        for user in joiners:
            committed(services.seat_join, game_id=game.pk, user=user,
                      invite_token=make_invite_token(game))
        game.refresh_from_db()
        return game

    return make


@pytest.fixture
def pick(committed):
    """``pick(game, user, n=1)``: fake engine; submit a pick at the game's current version."""

    def submit(game, user, n: int = 1):
        game.refresh_from_db()
        return committed(services.game_submit_action, game_id=game.pk, user=user,
                         action={"type": "pick", "n": n}, expected_version=game.version)

    return submit


@pytest.fixture
def turn(fake_engine, make_game, alice, bob):
    """A started game with a queued (not yet delivered) turn notification for alice, who
    chose turn emails right away (no delay: the delivery itself is under test)."""
    from games.models import Seat
    from notifications.models import Notification, NotificationKind
    from notifications.services import record_game_notifications

    right_away(alice)
    game = make_game(alice, bob, seats=2)  # on-commit tasks do not run here
    Notification.objects.filter(game=game).delete()  # the start emails, not under test here
    record_game_notifications(game=game, newly_awaited=[Seat.objects.get(game=game, user=alice)])
    return Notification.objects.get(game=game, kind=NotificationKind.TURN)

