"""games.views.paging: a page and the list's length in one query, paged exactly as Django's
Paginator pages (a missing, invalid, zero or too large page number included)."""
import pytest
from django.core.paginator import Paginator

from games.models import Game
from games.views.paging import CountedPaginator, OneQueryPaginator
from tests.support.many_games import open_games

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("number", [None, "1", "2", "3", "9", "0", "-1", "abc", 2])
def test_a_page_is_the_one_django_gives(alice, number):
    open_games([alice], 7)
    games = Game.objects.order_by("name")
    mine, django = OneQueryPaginator(games, 3).get_page(number), Paginator(games, 3).get_page(number)
    assert (list(mine), mine.number, mine.paginator.count, mine.paginator.num_pages) == (
        list(django), django.number, django.paginator.count, django.paginator.num_pages)


def test_a_page_and_the_count_are_one_query(alice, django_assert_num_queries):
    open_games([alice], 7)
    with django_assert_num_queries(1):
        page = OneQueryPaginator(Game.objects.order_by("name"), 3).get_page("2")
        assert (len(page), page.paginator.count, page.has_next()) == (3, 7, True)


def test_an_empty_list_has_one_empty_page(db, django_assert_num_queries):
    with django_assert_num_queries(1):
        page = OneQueryPaginator(Game.objects.order_by("name"), 3).get_page(None)
        assert (list(page), page.paginator.count, page.paginator.num_pages) == ([], 0, 1)


def test_a_told_count_is_not_asked(db, django_assert_num_queries):
    with django_assert_num_queries(0):
        assert CountedPaginator(Game.objects.all(), 3, count=10).num_pages == 4
