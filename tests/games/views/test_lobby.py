"""pages.lobby"""
import re

from django.urls import reverse


def test_it_lists_open_public_games_with_free_seats(client, make_game, alice, bob):
    game = make_game(alice, bob, seats=3)
    response = client.get(reverse("games-lobby"))
    assert response.status_code == 200
    assert list(response.context["open_games"]) == [game]
    assert "2 / 3" in response.text


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
    in_seat_order = [seat.user.username for seat in watched.seats.order_by("order")]
    assert [seat.display_name for seat in response.context["playing_games"][0].seats] == in_seat_order
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


def test_a_watched_games_bot_seats_show_the_bots_names_in_the_viewers_language(client, alice):
    from django.utils import translation

    from games import services
    from games.models import Game

    with translation.override("en"):
        services.game_create(creator=alice, name="with bots", max_seats=2, options={}, bots=["random"])
    assert Game.objects.get(name="with bots").status == "active"
    english = client.get(reverse("games-lobby")).text
    japanese = client.get(reverse("games-lobby"), HTTP_ACCEPT_LANGUAGE="ja").text
    assert "Bot (Random) 1" in english and "alice" in english
    assert "Bot (Random) 1" not in japanese and "alice" in japanese  # the stored English name is not shown as stored
