"""Bot seats where the site lists seats: no emails go to a bot, the vote to end counts the
present players only, the profile names bots, and the sweep plays a bot turn whose task was
lost."""
import datetime as dt

from django.urls import reverse
from django.utils import timezone

from games import services
from games.access import make_invite_token
from games.models import Move, MoveSource, Seat
from games.tasks import play_stalled_bots_task
from notifications.models import Notification


def _alice_and_bots(alice, bots=2, **kwargs):
    return services.game_create(creator=alice, name="Bots", max_seats=bots + 1, options={},
                                bots=["random"] * bots, seed=2, **kwargs)


def test_only_the_player_is_emailed_when_a_game_with_bots_starts(db, alice):
    game = _alice_and_bots(alice)
    assert list(Notification.objects.filter(game=game).values_list("recipient__username", flat=True)) == ["alice"]


def test_the_sweep_plays_a_bot_turn_whose_task_was_lost(db, settings, alice):
    game = _alice_and_bots(alice)  # the test transaction never commits: the task was "lost"
    assert play_stalled_bots_task() == 0  # not stalled yet
    Seat.objects.filter(game=game).update(awaiting_since=timezone.now() - dt.timedelta(
        seconds=settings.GAMES_BOT_STALLED_SECONDS + 1))
    assert play_stalled_bots_task() == 1
    assert Move.objects.filter(game=game, source=MoveSource.BOT).count() == 1


def test_the_vote_to_end_needs_the_present_players_only(db, alice, bob):
    game = services.game_create(creator=alice, name="Vote", max_seats=3, options={}, bots=["random"])
    services.seat_join(game_id=game.pk, user=bob, invite_token=make_invite_token(game))
    Seat.objects.filter(game=game, user=bob).update(absent=True)
    assert services.game_vote_end(game_id=game.pk, user=alice) is True  # the bot has no vote


def test_the_profile_names_the_bots(db, alice, client_for):
    _alice_and_bots(alice)
    page = client_for(alice).get(reverse("games-profile")).text
    assert "Bot (Random) 1" in page and "Bot (Random) 2" in page
