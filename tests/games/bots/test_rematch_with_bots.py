"""A rematch of a game with bots brings the bots back (same levels and names, accepted at
once); against bots only it starts at once."""
from games import services
from games.models import Game, GameStatus


def test_a_rematch_against_bots_starts_at_once_with_the_same_bots(db, alice):
    game = services.game_create(creator=alice, name="Bots", max_seats=3, options={}, bots=["random"] * 2)
    Game.objects.filter(pk=game.pk).update(status=GameStatus.FINISHED, outcome={})
    rematch = services.game_rematch(game_id=game.pk, user=alice)
    rematch.refresh_from_db()
    assert rematch.status == GameStatus.ACTIVE and rematch.has_bots
    assert sorted(s.bot_name for s in rematch.seats.all() if s.is_bot) == ["Bot (Random) 1", "Bot (Random) 2"]
