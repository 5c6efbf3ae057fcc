"""A bot seat's name shows in the viewer's language, whoever created the game (issue 11)."""
from django.utils.translation import override

from games.models import Seat


def test_a_bot_named_in_japanese_reads_in_english_for_an_english_viewer():
    seat = Seat(order=1, bot_level="greedy", bot_name="ボット（貪欲）2")
    with override("en-gb"):
        assert seat.display_name == "Bot (Greedy) 2"


def test_a_bot_named_in_english_reads_in_japanese_for_a_japanese_viewer():
    seat = Seat(order=1, bot_level="random", bot_name="Bot (Random) 1")
    with override("ja"):
        name = seat.display_name
    assert name != "Bot (Random) 1" and name.endswith("1") and "Bot" not in name


def test_a_stored_bot_name_without_a_number_is_shown_as_stored():
    seat = Seat(order=1, bot_level="random", bot_name="Marvin")
    with override("en-gb"):
        assert seat.display_name == "Marvin"
