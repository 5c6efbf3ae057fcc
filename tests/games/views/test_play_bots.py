"""pages.play_bots: "Play against bots" starts a private game with the chosen bots at once;
the bots are named and marked as bots on the board and in the log."""
import pytest
from django.urls import reverse

from games.models import Game, GameStatus

URL = reverse("games-play-bots")


def test_it_requires_login(client):
    response = client.post(URL, {"bots": "3", "level": "random"})
    assert response.status_code == 302
    assert reverse("account_login") in response["Location"]


def test_the_home_page_offers_it_and_the_new_game_page_links_to_it(client_for, alice):
    client = client_for(alice)
    assert 'action="' + URL + '"' in client.get(reverse("home")).text
    assert reverse("home") + "#play-bots" in client.get(reverse("games-new")).text


@pytest.mark.django_db(transaction=True)
def test_one_click_starts_a_game_against_the_bots(client_for, alice):
    client = client_for(alice)
    response = client.post(URL, {"bots": "3", "level": "random"})
    game = Game.objects.get()
    assert response["Location"] == reverse("games-detail", kwargs={"game_id": game.pk})
    assert (game.status, game.max_seats, game.is_public, game.has_bots) == (GameStatus.ACTIVE, 4, False, True)
    assert game.name.startswith("alice vs 3 Random bots, ")  # then the day and time: games told apart
    seats = list(game.seats.order_by("bot_name"))
    assert [(s.user, s.bot_level, s.bot_name) for s in seats] == [
        (alice, "", ""), (None, "random", "Bot (Random) 1"), (None, "random", "Bot (Random) 2"),
        (None, "random", "Bot (Random) 3")]
    page = client.get(response["Location"]).text
    for name in ("Bot (Random) 1", "Bot (Random) 2", "Bot (Random) 3"):
        assert name in page
    assert page.count('<span class="badge bot">bot</span>') == 3
    assert "(played by a bot)" in page  # the bots moved at once


def test_an_unknown_level_or_count_is_refused_and_nothing_is_created(client_for, alice):
    client = client_for(alice)
    for data in ({"bots": "3", "level": "godlike"}, {"bots": "4", "level": "random"}, {"bots": "0", "level": "random"}):
        response = client.post(URL, data)
        assert response.status_code == 400
        assert 'class="errorlist' in response.text
    assert not Game.objects.exists()
