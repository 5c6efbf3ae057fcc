"""A bot takes over an absent player (the game's takeover option): it plays the seat while
its player is absent, the log and the page say so, the player takes the seat back from the
game page, and the others may still vote to end the game."""
import pytest
from django.urls import reverse

from games import bots, services
from games.models import Move, MoveSource, Seat
from games.tasks import enforce_deadlines_task


@pytest.fixture
def absent_alice(fake_engine, settings, clocked_game, frozen_now, django_capture_on_commit_callbacks, alice, bob):
    """A clocked fake game with a random takeover bot where alice timed out once (absent
    after one timeout here) in round 1; the round is resolved and round 2 begins."""
    settings.GAMES_ABSENT_AFTER_TIMEOUTS = 1
    game = clocked_game(alice, bob, absent_bot_level="random")
    with django_capture_on_commit_callbacks(execute=True):
        game.refresh_from_db()
        services.game_submit_action(game_id=game.pk, user=bob, action={"type": "pick", "n": 2},
                                    expected_version=game.version)
    frozen_now.advance(days=3)
    with django_capture_on_commit_callbacks(execute=True):
        assert enforce_deadlines_task() == 1  # alice times out; the round resolves; round 2 begins
    game.refresh_from_db()
    return game


def _alice(game):
    return Seat.objects.get(game=game, user__username="alice")


def test_clocked_games_get_a_takeover_bot_by_default(alice, bob, db):
    game = services.game_create(creator=alice, name="Clocked", max_seats=2, options={}, pace="fast")
    assert game.absent_bot_level == bots.default_takeover_level() != ""
    unclocked = services.game_create(creator=alice, name="Slow", max_seats=2, options={})
    assert unclocked.absent_bot_level == ""


def test_the_bot_plays_the_absent_players_seat(absent_alice):
    seat = _alice(absent_alice)
    assert seat.absent
    bot_moves = Move.objects.filter(game=absent_alice, seat=seat.order, source=MoveSource.BOT)
    assert bot_moves.count() == 1  # round 2's pick, made at once
    assert not seat.awaiting
    absent_alice.refresh_from_db()
    assert absent_alice.has_bots
    assert _alice(absent_alice).absent  # a bot's move does not bring the player back


def test_the_log_and_the_players_list_show_the_bot(absent_alice, client_for, bob):
    page = client_for(bob).get(reverse("games-detail", kwargs={"game_id": absent_alice.pk})).text
    assert "(played by a bot)" in page
    assert "played by a bot (Random)" in page


def test_the_player_takes_the_seat_back_from_the_game_page(absent_alice, client_for, alice, bob,
                                                           django_capture_on_commit_callbacks):
    client = client_for(alice)
    page = client.get(reverse("games-detail", kwargs={"game_id": absent_alice.pk})).text
    assert "Take my seat back" in page
    response = client.post(reverse("games-take-back", kwargs={"game_id": absent_alice.pk}))
    assert response.status_code == 302
    seat = _alice(absent_alice)
    assert (seat.absent, seat.timeouts_in_a_row) == (False, 0)
    # the bot no longer plays: the next decision of alice's waits for her
    with django_capture_on_commit_callbacks(execute=True):
        absent_alice.refresh_from_db()
        services.game_submit_action(game_id=absent_alice.pk, user=bob, action={"type": "pick", "n": 1},
                                    expected_version=absent_alice.version)
    absent_alice.refresh_from_db()
    assert absent_alice.is_finished  # the fake game has two rounds: round 2 resolved
    assert Move.objects.filter(game=absent_alice, source=MoveSource.BOT).count() == 1


def test_taking_back_a_seat_that_is_not_absent_is_refused(absent_alice, client_for, bob):
    response = client_for(bob).post(reverse("games-take-back", kwargs={"game_id": absent_alice.pk}), follow=True)
    assert "You are playing this seat yourself already." in response.text
    with pytest.raises(services.NotAbsent):
        services.seat_take_back(game_id=absent_alice.pk, user=bob)


def test_the_others_can_still_vote_to_end_the_game(absent_alice, bob):
    assert services.game_vote_end(game_id=absent_alice.pk, user=bob) is True
    absent_alice.refresh_from_db()
    assert absent_alice.is_finished and absent_alice.outcome["ended_early"]


def test_results_count_the_moves_the_bot_made(absent_alice, client_for, bob):
    services.game_vote_end(game_id=absent_alice.pk, user=bob)
    page = client_for(bob).get(reverse("games-detail", kwargs={"game_id": absent_alice.pk})).text
    assert "(1 move by a bot)" in page
