"""What a game page shows can change without a move (``Game.live_version``,
``services.live.touch_live``): a vote to end, a vacation, a seat taken back from the
takeover bot, a chat message hidden by a moderator, a game made private, a rematch asked
for or cancelled. The poll of a page shown before such a change answers the regions that
show it, not 204."""
import re

import pytest
from django.urls import reverse

from games import services
from games.models import ChatMessage, Game, Seat

POLL = re.compile(r'poll/\?v=(\d+)&amp;c=(\d+)&amp;l=(\d+)"')
REGION = re.compile(r'<\w+ data-region-hash="([0-9a-f]+)" id="([\w-]+)"')


def poll_of_page(client, game):
    """The poll a page of ``game`` shown to ``client`` now would make, reporting the
    page's regions as ``static/js/regions.js`` does (only what changed is sent)."""
    page = client.get(reverse("games-detail", kwargs={"game_id": game.pk})).text
    v, c, live = POLL.search(page).groups()
    shown = ",".join(f"{region_id}:{digest}" for digest, region_id in REGION.findall(page))
    return lambda: client.get(reverse("games-poll", kwargs={"game_id": game.pk}),
                              {"v": v, "c": c, "l": live, "regions": shown})


@pytest.fixture
def game(make_game, alice, bob, carol):
    return make_game(alice, bob, carol, seats=3)


def absent(game, user):
    Seat.objects.filter(game=game, user=user).update(absent=True)


def vote(game, alice, bob, carol):
    absent(game, carol)
    return (lambda: services.game_vote_end(game_id=game.pk, user=alice)), "1 of 2 present players agree"


def vacation(game, alice, bob, carol):
    return (lambda: services.vacation_start(user=alice)), "on vacation"


def seat_taken_back(game, alice, bob, carol):
    absent(game, carol)
    return (lambda: services.seat_take_back(game_id=game.pk, user=carol)), "no player is absent"


def older_message_hidden(game, alice, bob, carol):
    first = services.chat_post(game_id=game.pk, user=alice, text="first words")
    services.chat_post(game_id=game.pk, user=carol, text="second")
    hide = lambda: services.chat_set_hidden(messages=ChatMessage.objects.filter(pk=first.pk), hidden=True)  # noqa: E731
    return hide, "no first words"


def made_private(game, alice, bob, carol):
    return (lambda: services.game_set_public(game_id=game.pk, user=alice, is_public=False)), "no Nobody else is watching"


@pytest.mark.parametrize("change", [vote, vacation, seat_taken_back, older_message_hidden, made_private],
                         ids=["a vote to end", "a vacation", "a seat taken back", "an older chat message hidden",
                              "made private"])
def test_a_change_without_a_move_is_sent_to_open_pages(
        client_for, game, alice, bob, carol, change, django_capture_on_commit_callbacks):
    make_change, shown = change(game, alice, bob, carol)
    poll = poll_of_page(client_for(bob), game)
    assert poll().status_code == 204
    before = Game.objects.get(pk=game.pk).version
    with django_capture_on_commit_callbacks(execute=True):
        make_change()
    answer = poll()
    assert answer.status_code == 200
    if shown.startswith("no "):
        assert shown[3:] not in answer.text and ('id="game-players"' in answer.text or 'id="game-chat"' in answer.text)
    else:
        assert shown in answer.text
    assert Game.objects.get(pk=game.pk).version == before  # no move was made
    assert poll_of_page(client_for(bob), game)().status_code == 204  # a page shown afterwards is up to date


@pytest.fixture
def finished(fake_engine, started_game, django_capture_on_commit_callbacks):
    from tests.support.game_driver import play_fake_game_to_the_end

    return play_fake_game_to_the_end(started_game, django_capture_on_commit_callbacks)


def test_a_rematch_asked_for_then_cancelled_is_sent_to_the_finished_games_open_pages(
        finished, client_for, alice, bob, django_capture_on_commit_callbacks):
    poll = poll_of_page(client_for(bob), finished)
    assert poll().status_code == 204
    with django_capture_on_commit_callbacks(execute=True):
        rematch = services.game_rematch(game_id=finished.pk, user=alice)
    assert "A rematch is asked for" in poll().text
    poll = poll_of_page(client_for(bob), finished)
    with django_capture_on_commit_callbacks(execute=True):
        services.game_cancel(game_id=rematch.pk, user=alice)
    answer = poll()
    assert answer.status_code == 200 and "A rematch is asked for" not in answer.text
