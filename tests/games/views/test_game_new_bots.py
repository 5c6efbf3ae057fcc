"""pages.game_new with bots: bot seats by level, the takeover bot, and their validation."""
import pytest
from django.urls import reverse

from games import services
from games.access import make_invite_token
from games.models import Game, GameStatus

URL = reverse("games-new")
BASE = {"seats": "3", "place_tile_market": "normal", "event_strength": "phased", "hourglass_order": "abc",
        "pace": "none", "is_public": "on"}


def test_the_form_offers_a_count_per_level_and_the_takeover_bot(client_for, alice):
    form = client_for(alice).get(URL).context["form"]
    assert form["bots_random"].value() == 0
    assert form["absent_bot"].value() is True


def test_bot_seats_are_taken_at_once_and_shown_in_the_lobby(client_for, alice):
    client = client_for(alice)
    response = client.post(URL, {**BASE, "bots_random": "1"})
    game = Game.objects.get()
    assert game.status == GameStatus.OPEN and game.has_bots
    assert [(s.order, s.bot_name) for s in game.seats.all()] == [(0, ""), (1, "Bot (Random) 1")]
    lobby = client.get(response["Location"]).text
    assert 'Bot (Random) 1 <span class="badge bot">bot</span>' in lobby
    assert "Players (2 / 3)" in lobby
    public = client.get(reverse("games-lobby")).text
    assert "2 / 3" in public


def test_bots_filling_the_game_start_it_at_once(client_for, alice):
    client_for(alice).post(URL, {**BASE, "seats": "2", "bots_random": "1"})
    assert Game.objects.get().status == GameStatus.ACTIVE


def test_a_player_joining_the_last_free_seat_starts_the_game(client_for, alice, bob):
    client_for(alice).post(URL, {**BASE, "bots_random": "1"})
    game = Game.objects.get()
    services.seat_join(game_id=game.pk, user=bob, invite_token=make_invite_token(game))
    game.refresh_from_db()
    assert game.status == GameStatus.ACTIVE and game.seats.count() == 3


def test_bots_must_leave_the_creator_a_seat(client_for, alice):
    response = client_for(alice).post(URL, {**BASE, "bots_random": "3"})
    assert response.status_code == 200
    assert "A game of 3 seats has room for 2 bots at most (one seat is yours)." in response.text
    assert not Game.objects.exists()


def test_a_negative_or_absurd_count_is_refused(client_for, alice):
    client = client_for(alice)
    for count in ("-1", "9", "two"):
        response = client.post(URL, {**BASE, "bots_random": count})
        assert response.status_code == 200 and 'class="errorlist' in response.text
    assert not Game.objects.exists()


def test_the_takeover_bot_is_stored_only_for_a_clocked_game(client_for, alice):
    client = client_for(alice)
    client.post(URL, {**BASE, "name": "clocked", "pace": "fast", "absent_bot": "on", "absent_bot_level": "random"})
    client.post(URL, {**BASE, "name": "unclocked", "absent_bot": "on", "absent_bot_level": "random"})
    client.post(URL, {**BASE, "name": "declined", "pace": "fast"})
    levels = dict(Game.objects.values_list("name", "absent_bot_level"))
    assert levels == {"clocked": "random", "unclocked": "", "declined": ""}


def test_an_unknown_takeover_level_is_refused(client_for, alice):
    response = client_for(alice).post(URL, {**BASE, "pace": "fast", "absent_bot": "on", "absent_bot_level": "nope"})
    assert 'class="errorlist' in response.text
    assert not Game.objects.exists()


def test_the_service_refuses_unknown_levels_and_too_many_bots(db, alice):
    with pytest.raises(services.InvalidGameOptions, match="There is no 'nope' bot."):
        services.game_create(creator=alice, name="x", max_seats=2, options={}, bots=["nope"])
    with pytest.raises(services.InvalidGameOptions, match="room for 1 bot at most"):
        services.game_create(creator=alice, name="x", max_seats=2, options={}, bots=["random", "random"])
    assert not Game.objects.exists()
