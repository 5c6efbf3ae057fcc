"""pages.game_new"""
from django.urls import reverse

from games.models import Game, GameStatus

URL = reverse("games-new")


def test_it_requires_login(client):
    response = client.get(URL)
    assert response.status_code == 302
    assert reverse("account_login") in response["Location"]


def test_it_shows_the_form_with_defaults(client_for, alice):
    response = client_for(alice).get(URL)
    assert response.status_code == 200
    form = response.context["form"]
    assert form["seats"].value() == 4
    assert form["simultaneous_followers"].value() is True
    assert form["place_tile_market"].value() == "normal"
    assert form["event_strength"].value() == "phased"
    assert form["hourglass_order"].value() == "abc"
    assert form["is_public"].value() is True


def test_it_opens_a_game_and_redirects_to_it(client_for, alice):
    response = client_for(alice).post(URL, {
        "name": "Friday game",
        "seats": "3",
        "place_tile_market": "market3",
        "event_strength": "constant",
        "hourglass_order": "classic_shuffle",
        # unchecked boxes are absent from a real POST
    })
    game = Game.objects.get()
    assert response.status_code == 302
    assert response["Location"] == reverse("games-detail", kwargs={"game_id": game.pk})
    assert (game.name, game.max_seats, game.is_public, game.status) == (
        "Friday game", 3, False, GameStatus.OPEN)
    assert game.options["simultaneous_followers"] is False
    assert game.options["place_tile_market"] == "market3"
    assert game.options["event_strength"] == "constant"
    assert game.options["hourglass_order"] == "classic_shuffle"
    assert game.seats.get().user == alice


def test_it_refuses_bad_input(client_for, alice):
    response = client_for(alice).post(URL, {"seats": "7", "place_tile_market": "normal",
                                            "event_strength": "phased", "hourglass_order": "abc"})
    assert response.status_code == 200
    assert response.context["form"].errors["seats"]
    assert not Game.objects.exists()


def test_the_pace_chosen_in_the_form_sets_the_clock(client_for, alice):
    form = client_for(alice).get(URL).text
    assert 'name="pace"' in form and "Slow: 7 days, +2 days per decision" in form
    client_for(alice).post(URL, {"seats": "2", "place_tile_market": "normal",
                                 "event_strength": "phased", "hourglass_order": "abc",
                                 "pace": "slow"})
    game = Game.objects.get()
    assert (game.clock_initial_seconds, game.clock_increment_seconds,
            game.clock_cap_seconds) == (7 * 86400, 2 * 86400, 14 * 86400)


def test_an_unknown_pace_is_refused(client_for, alice):
    response = client_for(alice).post(URL, {"seats": "2", "place_tile_market": "normal",
                                            "event_strength": "phased", "hourglass_order": "abc",
                                            "pace": "glacial"})
    assert response.context["form"].errors["pace"]
    assert not Game.objects.exists()
