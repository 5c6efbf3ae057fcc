"""The lists cost a constant number of queries: the profile, the home page and the lobby
ask the database as often with 30 games as with 3 (pages, aggregates, one count for the
navigation), and show the most recent (or most urgent) first."""
import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.support.many_games import finished_games, open_games, waiting_games

pytestmark = pytest.mark.django_db


def queries(client, url):
    with CaptureQueriesContext(connection) as captured:
        response = client.get(url)
    assert response.status_code == 200
    return len(captured.captured_queries), response


def test_the_profile_costs_the_same_with_30_games_as_with_3(client_for, alice, bob, carol):
    client = client_for(alice)
    finished_games([alice, bob], 2)
    finished_games([alice, bob, carol], 1, start=2)
    waiting_games([alice, bob], 3)
    few, _ = queries(client, reverse("games-profile"))
    finished_games([alice, bob], 18, start=3)
    finished_games([alice, carol, bob], 9, start=21)
    waiting_games([alice, bob], 27, start=3)
    many, response = queries(client, reverse("games-profile"))
    assert many == few
    assert response.context["record"].overall.played == 30
    assert len(response.context["finished"].object_list) == 20
    assert response.context["finished"][0].game.name == "Game finished 0"  # the most recent first


def test_the_profile_shown_again_costs_the_same_with_30_games_as_with_3_and_less_than_rendering_it(
        client_for, alice, bob, carol):
    client = client_for(alice)
    finished_games([alice, bob], 3)
    waiting_games([alice, bob], 3)
    rendered, _ = queries(client, reverse("games-profile"))
    few, _ = queries(client, reverse("games-profile"))
    finished_games([alice, carol, bob], 27, start=3)
    waiting_games([alice, bob], 27, start=3)
    queries(client, reverse("games-profile"))
    many, response = queries(client, reverse("games-profile"))
    assert many == few < rendered
    assert "Page 1 of 2" in response.content.decode()


def test_the_home_page_costs_the_same_with_30_games_as_with_3(client_for, alice, bob):
    client = client_for(alice)
    waiting_games([alice, bob], 3)
    open_games([bob], 3)
    few, _ = queries(client, reverse("home"))
    waiting_games([alice, bob], 27, start=3)
    open_games([bob], 27, start=3)
    many, response = queries(client, reverse("home"))
    assert many == few
    assert response.context["waiting"].paginator.count == 30
    assert response.context["waiting"][0].unread == 1


def test_the_lobby_costs_the_same_with_30_games_as_with_3(client_for, alice, bob):
    client = client_for(alice)
    open_games([bob], 3)
    finished_games([alice, bob], 3)
    few, _ = queries(client, reverse("games-lobby"))
    open_games([bob], 27, start=3)
    finished_games([alice, bob], 27, start=3)
    many, response = queries(client, reverse("games-lobby"))
    assert many == few
    assert response.context["open_games"].paginator.count == 30


def test_the_lobby_pages_its_open_games_newest_first(client_for, alice, bob):
    from games.views import pages

    games = open_games([bob], pages.LOBBY_OPEN_PER_PAGE + 1)
    client = client_for(alice)
    first = client.get(reverse("games-lobby")).context["open_games"]
    second = client.get(reverse("games-lobby") + "?page=2").context["open_games"]
    assert first[0] == games[-1] and list(second) == [games[0]]
    assert "?page=2" in client.get(reverse("games-lobby")).content.decode()


def test_games_made_at_the_same_moment_are_listed_by_id_each_on_exactly_one_page(client_for, alice, bob):
    from django.utils import timezone

    from games.models import Game
    from games.views import pages

    per_page = pages.LOBBY_OPEN_PER_PAGE
    games = open_games([bob], per_page + 1) + waiting_games([bob, alice], 1)
    Game.objects.update(created_at=timezone.now())  # one timestamp: only the id orders them
    client = client_for(bob)
    lobby = [game.pk for number in (1, 2)
             for game in client.get(reverse("games-lobby"), {"page": number}).context["open_games"]]
    last = client.get(reverse("games-profile")).context["in_progress"].paginator.num_pages
    playing = [game.pk for number in range(1, last + 1)
               for game in client.get(reverse("games-profile"), {"playing": number}).context["in_progress"]]
    # the id orders them, the same way on every page: each game on exactly one page
    assert lobby == sorted((game.pk for game in games[:-1]), reverse=True)  # the open ones
    assert playing == sorted((game.pk for game in games), reverse=True)


def test_the_home_page_pages_the_waiting_games_keeping_the_count(client_for, alice, bob):
    from games.views import pages

    waiting_games([alice, bob], pages.HOME_WAITING_PER_PAGE + 2)
    response = client_for(alice).get(reverse("home") + "?page=2")
    assert len(response.context["waiting"].object_list) == 2
    assert f'badge turn">{pages.HOME_WAITING_PER_PAGE + 2}<' in response.content.decode()


def test_the_profile_pages_its_games_in_progress_keeping_the_other_list(client_for, alice, bob):
    from games.views import pages

    waiting_games([alice, bob], pages.PROFILE_GAMES_PER_PAGE + 1)
    html = client_for(alice).get(reverse("games-profile") + "?page=1&playing=1").content.decode()
    assert "?page=1&amp;playing=2" in html


@pytest.mark.parametrize("junk", ["abc", "99", "0"])
def test_the_profile_pager_links_keep_the_page_the_other_list_shows_not_the_query(client_for, alice, bob, junk):
    from games.views import pages

    waiting_games([alice, bob], pages.PROFILE_GAMES_PER_PAGE + 1)
    finished_games([alice, bob], pages.PROFILE_GAMES_PER_PAGE + 1)
    html = client_for(alice).get(reverse("games-profile"), {"page": junk, "playing": "1"}).content.decode()
    pagers = "".join(re.findall(r'<nav class="pagination".*?</nav>', html, re.S))
    shown = "1" if junk == "abc" else "2"  # a word: the first page; past the end or below 1: the last
    assert f"?page={shown}&amp;playing=2" in pagers  # the games in progress' pager keeps the finished games' page
    assert f"page={junk}&amp;" not in pagers


def test_the_home_page_links_to_the_lobby_when_it_shows_only_some_open_tables(client_for, alice, bob):
    from games.views import pages

    open_games([bob], pages.HOME_OPEN_SHOWN)
    client = client_for(alice)
    lobby = f'href="{reverse("games-lobby")}">More open tables'
    response = client.get(reverse("home"))
    assert len(response.context["open_games"]) == pages.HOME_OPEN_SHOWN and lobby not in response.content.decode()
    open_games([bob], 1, start=pages.HOME_OPEN_SHOWN)
    response = client.get(reverse("home"))
    assert len(response.context["open_games"]) == pages.HOME_OPEN_SHOWN and lobby in response.content.decode()


def test_the_navigation_count_is_one_query(alice, bob, django_assert_num_queries):
    from games import selectors

    waiting_games([alice, bob], 3)
    with django_assert_num_queries(1):
        assert selectors.waiting_count(alice) == 3


def test_the_profile_shows_the_last_page_of_games_in_progress_for_a_page_past_the_end(client_for, alice, bob):
    from games.views import pages

    waiting_games([alice, bob], pages.PROFILE_GAMES_PER_PAGE + 1)
    for number in ("99", "0"):
        page = client_for(alice).get(reverse("games-profile") + f"?playing={number}").context["in_progress"]
        assert (page.number, len(page), page.paginator.num_pages) == (2, 1, 2)


@pytest.mark.parametrize("number", ["100000000000000000000", "1000001", "-99999999999999999999"])
def test_a_page_number_past_any_list_shows_the_last_page(client_for, alice, bob, number):
    from games.views import pages

    open_games([bob], pages.LOBBY_OPEN_PER_PAGE + 1)
    waiting_games([alice, bob], pages.HOME_WAITING_PER_PAGE + 1)
    client = client_for(alice)
    for url, listed in (("home", "waiting"), ("games-lobby", "open_games"), ("games-profile", "in_progress")):
        for query in ("page", "playing") if url == "games-profile" else ("page",):
            response = client.get(reverse(url), {query: number})
            assert response.status_code == 200, (url, query)
            if query != "page" or url != "games-profile":
                assert response.context[listed].number == response.context[listed].paginator.num_pages == 2
