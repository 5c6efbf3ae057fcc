"""A game of one player and three random bots plays to the end through the services, the
bots' moves made by their Celery task queued on commit (eager here, as embedded)."""
import random

import pytest

from games import services
from games.models import Move, MoveSource, Seat
from games.tasks import continue_bot_turn
from tests.support.bot_games import human_move, is_active


@pytest.mark.django_db(transaction=True)
def test_one_player_and_three_random_bots_finish_a_game(settings, alice):
    rng = random.Random(10)
    game = services.game_create(creator=alice, name="Against bots", max_seats=4, options={},
                                bots=["random"] * 3, seed=7)
    assert game.is_active and game.has_bots
    bot_runs_per_request = []
    for _step in range(5000):
        if not is_active(game):
            break
        before = game.version
        if not human_move(game, rng):  # nobody human is awaited: the chain was cut, a poll goes on
            assert continue_bot_turn(game), "the bots' turn was neither played nor continued"
        game.refresh_from_db()
        bot_runs_per_request.append(Move.objects.filter(game=game, seq__gt=before, source=MoveSource.BOT).count())
    game.refresh_from_db()
    assert game.is_finished and len(game.outcome["ranking"]) == 4
    human_orders = set(Seat.objects.filter(game=game, user__isnull=False).values_list("order", flat=True))
    moves = Move.objects.filter(game=game)
    assert moves.count() == game.version
    assert set(moves.filter(source=MoveSource.BOT).values_list("seat", flat=True)).isdisjoint(human_orders)
    assert set(moves.filter(seat__in=human_orders).values_list("source", flat=True)) <= {MoveSource.PLAYER}
    assert moves.filter(source=MoveSource.BOT).count() > moves.filter(source=MoveSource.PLAYER).count()
    # no request played more bot moves than the eager chain's bound
    assert max(bot_runs_per_request) <= settings.GAMES_BOT_CHAIN_MOVES
