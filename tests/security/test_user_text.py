"""Names typed by users (a game's, a user's) refuse control characters and are
length-limited where they enter: the form says why, the service refuses too."""
import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from games import services
from games.errors import InvalidGameName
from games.models import Game
from orleans_site.text import header_text
from tests.conftest import PASSWORD

NEW_GAME = reverse("games-new")


def _new_game_post(name: str) -> dict:
    return {"name": name, "seats": "2", "place_tile_market": "normal", "event_strength": "phased",
            "hourglass_order": "abc"}


def test_a_game_name_with_a_line_break_is_refused_with_a_message(client_for, alice):
    response = client_for(alice).post(NEW_GAME, _new_game_post("Loire\r\nBcc: everyone@example.com"))
    assert response.status_code == 200
    assert not Game.objects.exists()
    errors = response.context["form"].errors["name"]
    assert errors == ["Names cannot contain a line break: use letters, digits, spaces and punctuation."]
    assert "Names cannot contain a line break" in response.content.decode()


@pytest.mark.parametrize("name, what", [
    ("Tab\there", "a tab"), ("Null\x00byte", "U+0000"), ("Right\u202eto-left", "U+202E"),
    ("Zero\u200bwidth", "U+200B"),
])
def test_other_control_and_format_characters_are_refused(client_for, alice, name, what):
    response = client_for(alice).post(NEW_GAME, _new_game_post(name))
    assert not Game.objects.exists()
    assert what in response.context["form"].errors["name"][0]


def test_a_game_name_longer_than_80_characters_is_refused(client_for, alice):
    response = client_for(alice).post(NEW_GAME, _new_game_post("x" * 81))
    assert not Game.objects.exists()
    assert "at most 80 characters" in response.context["form"].errors["name"][0]


def test_the_create_service_refuses_a_name_with_a_line_break(alice):
    with pytest.raises(InvalidGameName, match="line break"):
        services.game_create(creator=alice, name="Loire\nSubject: spam", max_seats=2, options={})
    with pytest.raises(InvalidGameName, match="at most 80"):
        services.game_create(creator=alice, name="x" * 81, max_seats=2, options={})
    assert not Game.objects.exists()


def test_accents_and_punctuation_are_fine_in_a_game_name(alice):
    game = services.game_create(creator=alice, name="  Orléans – à 4, «vite» !  ", max_seats=2,
                                options={})
    assert game.name == "Orléans – à 4, «vite» !"


def _signup(client, username: str):
    return client.post(reverse("account_signup"), {
        "email": "erin@example.com", "username": username,
        "password1": PASSWORD, "password2": PASSWORD,
    })


@pytest.mark.parametrize("username", ["er\nin", "er\tin", "er\x07in", "er\u200bin"])
def test_a_username_with_a_control_character_is_refused_at_signup(db, client, username):
    response = _signup(client, username)
    assert response.status_code == 200
    assert not get_user_model().objects.exists()
    assert "Names cannot contain" in response.context["form"].errors["username"][0]


def test_a_username_longer_than_30_characters_is_refused_at_signup(db, client):
    response = _signup(client, "e" * 31)
    assert not get_user_model().objects.exists()
    assert "at most 30 characters" in response.context["form"].errors["username"][0]


def test_an_ordinary_username_still_signs_up(db, client):
    assert _signup(client, "erin.b-2").status_code == 302
    assert get_user_model().objects.filter(username="erin.b-2").exists()


def test_header_text_flattens_every_line_break_and_control_character():
    assert header_text("Your turn in “Loire\r\nBcc: x@y”\t now\u2028!") == "Your turn in “Loire Bcc: x@y” now !"
