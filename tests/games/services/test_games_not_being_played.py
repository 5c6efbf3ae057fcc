"""Every move-like service refuses a game that is not being played, saying what the game is
instead (not started, over, cancelled: ``Game.not_playing_reason``), and changes nothing."""
import pytest

from games import services
from games.errors import WrongStatus
from games.models import Game, GameStatus
from tests.support.snapshots import game_snapshot

SENTENCES = {GameStatus.OPEN: "This game has not started yet.", GameStatus.FINISHED: "This game is over.",
             GameStatus.CANCELLED: "This game was cancelled."}
#: Each service a seated player's tab can call on a game in progress, with the page's version.
CALLS = {
    "move": lambda game, user: services.game_submit_action(
        game_id=game.pk, user=user, action={"type": "pass"}, expected_version=game.version),
    "take back": lambda game, user: services.game_take_back(game_id=game.pk, user=user, expected_version=game.version),
    "queue": lambda game, user: services.seat_queue_change(game_id=game.pk, user=user, op="clear"),
    "take the seat back from its bot": lambda game, user: services.seat_take_back(game_id=game.pk, user=user),
    "vote to end": lambda game, user: services.game_vote_end(game_id=game.pk, user=user),
}


@pytest.mark.django_db
@pytest.mark.parametrize("status", list(SENTENCES))
@pytest.mark.parametrize("call", list(CALLS))
def test_a_game_not_being_played_is_refused_saying_what_it_is(started_game, call, status):
    Game.objects.filter(pk=started_game.pk).update(status=status)
    game = Game.objects.get(pk=started_game.pk)
    before = game_snapshot(game.pk)

    with pytest.raises(WrongStatus) as refused:
        CALLS[call](game, game.creator)

    assert str(refused.value) == SENTENCES[status]
    assert game_snapshot(game.pk) == before
