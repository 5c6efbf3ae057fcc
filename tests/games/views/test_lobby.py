"""pages.lobby"""
import re

import pytest

from django.urls import reverse


def test_it_lists_open_public_games_with_free_seats(client, make_game, alice, bob):
    game = make_game(alice, bob, seats=3)
    response = client.get(reverse("games-lobby"))
    assert response.status_code == 200
    assert list(response.context["open_games"]) == [game]
    assert "2 / 3" in response.text


def test_it_leaves_out_an_open_rematch_whose_seats_are_its_players(client, make_game, alice, bob):
    from games.models import Game, GameStatus

    finished = make_game(alice, bob, seats=2)
    Game.objects.filter(pk=finished.pk).update(status=GameStatus.FINISHED)
    rematch = make_game(alice, bob, seats=2)
    # open (waiting for the players' answers) and public, as a public game's rematch is
    Game.objects.filter(pk=rematch.pk).update(rematch_of=finished, status=GameStatus.OPEN, is_public=True)
    response = client.get(reverse("games-lobby"))
    assert list(response.context["open_games"]) == []
    assert reverse("games-detail", kwargs={"game_id": rematch.pk}) not in response.text


def test_it_hides_private_games(client, make_game, alice):
    make_game(alice, is_public=False)
    assert list(client.get(reverse("games-lobby")).context["open_games"]) == []


def test_it_rejects_post(client):
    assert client.post(reverse("games-lobby")).status_code == 405


def test_it_lists_public_games_in_progress_to_watch_and_not_private_ones(client, make_game, alice, bob):
    watched = make_game(alice, bob, seats=2)
    make_game(alice, bob, seats=2, is_public=False)
    response = client.get(reverse("games-lobby"))
    assert [game.pk for game in response.context["playing_games"]] == [watched.pk]
    section = response.text[response.text.index('id="playing-games"'):response.text.index('id="finished-games"')]
    assert reverse("games-detail", kwargs={"game_id": watched.pk}) in section


def test_a_game_finishing_shows_on_a_lobby_shown_before_and_cached_is_as_rendered(client, alice, bob):
    from django.core.cache import caches

    from tests.support.many_games import finished_games, waiting_games

    def lobby() -> str:
        return re.sub(r'"X-CSRFToken": "[^"]*"|name="csrfmiddlewaretoken" value="[^"]*"', "",
                      client.get(reverse("games-lobby")).text)

    waiting_games([alice, bob], 1)
    finished_games([alice, bob], 1)
    before = lobby()
    assert lobby() == before
    caches["regions"].clear()
    assert lobby() == before
    finished_games([bob, alice], 1, start=1)
    after = lobby()
    assert "Game finished 1" in after and "Game finished 1" not in before


def test_a_watched_games_players_are_listed_in_seat_order_with_bots_named_in_the_viewers_language(
        client, alice, bob):
    from django.utils import timezone, translation

    from games.models import Game, GameStatus, Seat
    from games.vocabulary import bot_display_name

    game = Game.objects.create(name="watched", creator=alice, status=GameStatus.ACTIVE, max_seats=3,
                               started_at=timezone.now())
    # created in another order than the seats': the list follows the seats
    Seat.objects.create(game=game, user=alice, order=2)
    Seat.objects.create(game=game, user=None, bot_level="random", bot_name="Bot (Random) 1", order=0)
    Seat.objects.create(game=game, user=bob, order=1)
    with translation.override("ja"):
        japanese_bot = bot_display_name("random", "Bot (Random) 1")
    assert japanese_bot != "Bot (Random) 1"

    english = client.get(reverse("games-lobby"))
    japanese = client.get(reverse("games-lobby"), HTTP_ACCEPT_LANGUAGE="ja")
    with translation.override("en"):
        assert [seat.display_name for seat in english.context["playing_games"][0].seats] == [
            "Bot (Random) 1", "bob", "alice"]
    assert "Bot (Random) 1, bob, alice" in english.text
    assert japanese_bot in japanese.text and "Bot (Random) 1" not in japanese.text


def test_a_later_page_of_open_tables_links_to_the_watch_lists_instead_of_repeating_them(client_for, alice, bob,
                                                                                     monkeypatch):
    from games import selectors
    from games.views import pages
    from tests.support.many_games import finished_games, open_games

    open_games([bob], pages.LOBBY_OPEN_PER_PAGE + 1)
    finished_games([alice, bob], 1)
    client = client_for(alice)
    first = client.get(reverse("games-lobby")).text
    assert 'id="playing-games"' in first and 'id="finished-games"' in first and 'id="watch-elsewhere"' not in first
    monkeypatch.setattr(selectors, "lobby_watch_lists", lambda limit: pytest.fail("page 2 read the watch lists"))
    second = client.get(reverse("games-lobby"), {"page": 2}).text
    assert 'id="finished-games"' not in second and 'id="playing-games"' not in second
    elsewhere = second[second.index('id="watch-elsewhere"'):]
    assert f'href="{reverse("games-lobby")}#playing-games"' in elsewhere[:elsewhere.index("</p>")]
