"""bot_move_task is keyed by (game, version): a duplicate or stale delivery changes nothing,
and a task for a position where no bot is awaited does nothing."""
from games import services
from games.models import Move, MoveSource
from games.tasks import bot_move_task


def _bot_game(alice, **kwargs):
    # the test's transaction never commits: no task runs by itself
    return services.game_create(creator=alice, name="Tasks", max_seats=2, options={}, bots=["random"], seed=5,
                                **kwargs)


def _log(game):
    return list(Move.objects.filter(game=game).values_list("seq", "seat", "source", "action"))


def test_the_task_plays_one_bot_move_as_a_bot(db, alice):
    game = _bot_game(alice)
    bot = game.seats.get(bot_level="random")
    assert bot_move_task(str(game.pk), 0) is True
    assert _log(game)[0][1:3] == (bot.order, MoveSource.BOT)
    game.refresh_from_db()
    assert game.version == 1


def test_a_duplicate_task_changes_nothing(db, alice):
    game = _bot_game(alice)
    bot_move_task(str(game.pk), 0)
    before = _log(game)
    assert bot_move_task(str(game.pk), 0) is False
    assert _log(game) == before


def test_a_stale_or_future_task_changes_nothing(db, alice):
    game = _bot_game(alice)
    assert bot_move_task(str(game.pk), 7) is False
    bot_move_task(str(game.pk), 0)
    before = _log(game)
    assert bot_move_task(str(game.pk), 0) is False
    assert _log(game) == before


def test_no_bot_awaited_means_no_move(db, fake_engine, alice):
    game = _bot_game(alice)  # fake rules: both seats pick at once
    assert bot_move_task(str(game.pk), 0) is True  # the bot picks
    game.refresh_from_db()
    assert bot_move_task(str(game.pk), game.version) is False  # only alice is awaited now
    assert Move.objects.filter(game=game).count() == 1


def test_a_game_that_is_not_active_gets_no_bot_move(db, alice):
    game = services.game_create(creator=alice, name="Open", max_seats=3, options={}, bots=["random"])
    assert game.is_open
    assert bot_move_task(str(game.pk), 0) is False
    assert not Move.objects.filter(game=game).exists()
