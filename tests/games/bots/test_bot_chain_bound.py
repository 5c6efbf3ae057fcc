"""With eager tasks (the embedded default) each bot move's commit runs the next bot's task
inside the same request: the chain stops after GAMES_BOT_CHAIN_MOVES task runs (or
GAMES_BOT_CHAIN_MS) and goes on at the next page load or poll."""
import pytest
from django.urls import reverse

from games import services
from games.models import Move, MoveSource
from games.selectors import bot_turn_waiting
from games.tasks import continue_bot_turn


@pytest.fixture
def three_bots(settings, alice):
    """A started game of alice and three random bots, the chain bound at 3 task runs."""
    settings.GAMES_BOT_CHAIN_MOVES = 3
    settings.GAMES_BOT_CHAIN_MS = 60_000
    return services.game_create(creator=alice, name="Bound", max_seats=4, options={}, bots=["random"] * 3, seed=3)


@pytest.mark.django_db(transaction=True)
def test_the_start_plays_at_most_the_bound_then_stops(three_bots):
    three_bots.refresh_from_db()
    assert three_bots.version == 3
    assert Move.objects.filter(game=three_bots, source=MoveSource.BOT).count() == 3
    assert bot_turn_waiting(three_bots)


@pytest.mark.django_db(transaction=True)
def test_a_page_load_continues_the_chain_by_one_more_bound(three_bots, client_for, alice):
    response = client_for(alice).get(reverse("games-detail", kwargs={"game_id": three_bots.pk}))
    assert response.status_code == 200
    three_bots.refresh_from_db()
    assert three_bots.version == 6


@pytest.mark.django_db(transaction=True)
def test_a_poll_continues_the_chain_and_sends_the_new_position(three_bots, client_for, alice):
    response = client_for(alice).get(reverse("games-poll", kwargs={"game_id": three_bots.pk}), {"v": 3})
    assert response.status_code == 200  # not 204: the bots moved during the poll
    three_bots.refresh_from_db()
    assert three_bots.version == 6


@pytest.mark.django_db(transaction=True)
def test_a_long_bound_runs_many_nested_bot_moves_without_overflowing(settings, alice):
    settings.GAMES_BOT_CHAIN_MOVES = 200
    settings.GAMES_BOT_CHAIN_MS = 600_000
    game = services.game_create(creator=alice, name="Deep", max_seats=4, options={}, bots=["random"] * 3, seed=3)
    while continue_bot_turn(game):
        game.refresh_from_db()
    game.refresh_from_db()
    assert game.version > 10  # the bots played everything they could before alice's turn
    assert not bot_turn_waiting(game)
