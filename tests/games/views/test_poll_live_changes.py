"""What a game page shows can change without a move (``Game.live_version``,
``services.locks.touch_live``): a vote to end, a vacation, a seat taken back from the
takeover bot, a chat message hidden by a moderator, a rematch asked for. The poll of a page
shown before such a change answers the regions, not 204."""
import re

import pytest
from django.urls import reverse

from games import services
from games.models import ChatMessage, Game, Seat

POLL = re.compile(r'poll/\?v=(\d+)&amp;c=(\d+)&amp;l=(\d+)"')


def poll_of_page(client, game):
    """The poll request a page of ``game`` shown to ``client`` now would make."""
    v, c, live = POLL.search(client.get(reverse("games-detail", kwargs={"game_id": game.pk})).text).groups()
    return lambda: client.get(reverse("games-poll", kwargs={"game_id": game.pk}), {"v": v, "c": c, "l": live})


@pytest.fixture
def game(make_game, alice, bob, carol):
    return make_game(alice, bob, carol, seats=3)


def absent(game, user):
    Seat.objects.filter(game=game, user=user).update(absent=True)


def vote(game, alice, bob, carol):
    absent(game, carol)
    return lambda: services.game_vote_end(game_id=game.pk, user=alice)


def vacation(game, alice, bob, carol):
    return lambda: services.vacation_start(user=alice)


def seat_taken_back(game, alice, bob, carol):
    absent(game, carol)
    return lambda: services.seat_take_back(game_id=game.pk, user=carol)


def older_message_hidden(game, alice, bob, carol):
    first = services.chat_post(game_id=game.pk, user=alice, text="first")
    services.chat_post(game_id=game.pk, user=carol, text="second")
    return lambda: services.chat_set_hidden(ChatMessage.objects.filter(pk=first.pk), hidden=True)


@pytest.mark.parametrize("change", [vote, vacation, seat_taken_back, older_message_hidden],
                         ids=["a vote to end", "a vacation", "a seat taken back", "an older chat message hidden"])
def test_a_change_without_a_move_is_sent_to_open_pages(client_for, game, alice, bob, carol, change):
    make_change = change(game, alice, bob, carol)
    poll = poll_of_page(client_for(bob), game)
    assert poll().status_code == 204
    before = Game.objects.get(pk=game.pk).version
    make_change()
    answer = poll()
    assert answer.status_code == 200
    assert 'id="game-players"' in answer.text or 'id="game-chat"' in answer.text
    assert Game.objects.get(pk=game.pk).version == before  # no move was made
    assert poll_of_page(client_for(bob), game)().status_code == 204  # a page shown afterwards is up to date


def test_a_rematch_asked_for_is_sent_to_the_finished_games_open_pages(
        fake_engine, client_for, started_game, alice, bob, django_capture_on_commit_callbacks):
    from tests.support.game_driver import play_fake_game_to_the_end

    play_fake_game_to_the_end(started_game, django_capture_on_commit_callbacks)
    poll = poll_of_page(client_for(bob), started_game)
    assert poll().status_code == 204
    services.game_rematch(game_id=started_game.pk, user=alice)
    answer = poll()
    assert answer.status_code == 200 and "A rematch is asked for" in answer.text
