"""Colour is never the only cue and the board has a text alternative (issue 9): the map in
words names every player's merchant town and trading stations, the legend names each good
and each player's colour, goods tiles carry their initials, and the board's targets have a
skip link to the text view."""
import re

from django.urls import reverse

from games.presenters.board import GOOD_INITIALS, seat_colour_name
from tests.support import engine_states as H
from tests.support.game_driver import install


def region(text: str, region_id: str) -> str:
    start = text.index(f'id="{region_id}"')
    return text[start:text.index("</section>", start)]


def test_the_map_in_words_gives_every_players_position(client_for, started_game):
    state = H.action_state({"merchant": "tours"}, stations={"blois": [0], "orleans": [0, 1]})
    game = install(started_game, state)
    seats = {s.order: s for s in game.seats.select_related("user")}
    text = client_for(seats[0].user).get(reverse("games-detail", kwargs={"game_id": game.pk})).text
    words = region(text, "game-map").split('id="map-text"')[1]
    assert (f"{seats[0].user.username} ({seat_colour_name(0)}): merchant in Tours; "
            "trading stations in Orléans, Blois.") in words  # in the map's town order
    assert f"{seats[1].user.username} ({seat_colour_name(1)}): merchant in Orléans; trading station in Orléans." in words
    assert 'aria-describedby="map-text"' in text


def test_the_legend_names_each_good_and_goods_carry_their_initials(client_for, started_game):
    seats = {s.order: s for s in started_game.seats.select_related("user")}
    text = client_for(seats[0].user).get(reverse("games-detail", kwargs={"game_id": started_game.pk})).text
    legend = region(text, "game-map").split('class="legend"')[1].split("</p>")[0]
    for good, initials in GOOD_INITIALS.items():
        assert re.search(rf'class="good g-{good}" title="{good}">{initials}</span> {good}', legend)
    for order, seat in seats.items():
        assert f"{seat.user.username} ({seat_colour_name(order)})" in legend
    letters = re.findall(r'class="good-letter g-(\w+)" aria-hidden="true">(\w+)<', text)
    assert letters and all(GOOD_INITIALS[good] == initials for good, initials in letters)


def test_the_action_board_has_a_skip_link_to_the_text_view(client_for, started_game):
    game = install(started_game, H.action_state({"spaces": {"castle": ["farmer", "boatman", "trader"]}}))
    text = client_for(game.seats.get(order=0).user).get(reverse("games-detail", kwargs={"game_id": game.pk})).text
    board = region(text, "game-mine")
    assert 'class="skip-link" href="#game-actions"' in board and "data-act-target" in board
