"""The game page's log: the current and previous rounds on the page, each older round on
demand (``games-log-round``), together exactly the whole log."""
import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games import selectors
from games.models import Game, Move
from games.presenters.page import game_page
from tests.support.game_driver import new_started_game, play_until, state_of

HEADING = re.compile(r"<h3>Round (\d+)</h3>")


@pytest.fixture
def round_five(alice, bob):
    game = new_started_game(alice, bob, seed=11)
    play_until(game, lambda state: state.round >= 5 and state.data["phase"] == "actions", seed=5)
    game.refresh_from_db()
    return game


def current_round(game):
    return state_of(game).round


def names_of(game):
    return {s.order: s.display_name for s in game.seats.select_related("user")}


def round_url(game, number):
    return reverse("games-log-round", kwargs={"game_id": game.pk, "round": number})


def test_every_move_is_stored_with_the_round_its_events_reach(round_five):
    moves = list(Move.objects.filter(game=round_five).order_by("seq"))
    assert [m.round for m in moves] == Move.rounds_of([m.events for m in moves])
    assert moves[-1].round == current_round(round_five) >= 5


def test_the_page_shows_the_current_and_previous_rounds_and_links_the_one_before(client_for, round_five, alice):
    html = client_for(alice).get(reverse("games-detail", kwargs={"game_id": round_five.pk})).text
    log = html[html.index('id="game-log"'):]
    now = current_round(round_five)
    assert HEADING.findall(log) == [str(now), str(now - 1)]
    assert f'hx-get="{round_url(round_five, now - 2)}"' in log and f"Show round {now - 2}" in log


def test_the_recent_rounds_and_the_older_ones_together_are_the_whole_log(round_five, alice):
    names = names_of(round_five)
    whole = selectors.move_log(list(selectors.game_moves(round_five)), names)
    page = game_page(round_five, round_five.seats.get(user=alice))
    older = [selectors.round_log(round_five, n, names) for n in range(page.log_older, 0, -1)]
    assert page.log + older == whole


def test_an_older_round_is_its_lines_and_the_link_to_the_round_before(client_for, round_five, alice):
    names = names_of(round_five)
    expected = selectors.round_log(round_five, 2, names)
    html = client_for(alice).get(round_url(round_five, 2)).text
    assert HEADING.findall(html) == ["2"]
    assert html.count("<li") == len(expected.entries)
    assert f'hx-get="{round_url(round_five, 1)}"' in html
    assert "Show round" not in client_for(alice).get(round_url(round_five, 1)).text


def test_a_finished_round_is_served_from_the_cache_afterwards(client_for, round_five, alice):
    client = client_for(alice)

    def reads_the_round(captured):
        return any('"games_move"."round" IN' in q["sql"] for q in captured.captured_queries)

    with CaptureQueriesContext(connection) as first_time:
        first = client.get(round_url(round_five, 3)).text
    with CaptureQueriesContext(connection) as second_time:
        again = client.get(round_url(round_five, 3)).text
    assert again == first
    assert reads_the_round(first_time) and not reads_the_round(second_time)


def test_a_round_the_log_does_not_have_is_not_found(client_for, round_five, alice):
    client = client_for(alice)
    for number in (0, current_round(round_five) + 1, 999):
        assert client.get(round_url(round_five, number)).status_code == 404


def test_a_private_games_rounds_are_not_found_for_others(client_for, round_five, carol):
    Game.objects.filter(pk=round_five.pk).update(is_public=False)
    assert client_for(carol).get(round_url(round_five, 2)).status_code == 404
