"""Paginators for the lists of the pages that read no more than they show: the count comes
with the page (``COUNT(*) OVER ()``) or from a record that keeps it."""
from __future__ import annotations

from collections.abc import Callable

from django.core.paginator import Page, Paginator
from django.db.models import QuerySet

from games.selectors import LIST_TOTAL, with_total


class CountedPaginator(Paginator):
    """A ``Paginator`` told its ``count`` (a record keeps it): no COUNT query."""

    def __init__(self, object_list, per_page: int, *, count: int) -> None:
        super().__init__(object_list, per_page)
        self.__dict__["count"] = count  # the cached_property's slot


#: The highest page number a query is taken at its word for: past the end of any list the
#: site keeps, and its offset still fits the database's integers (``?page=10**20`` had
#: answered 500: "bigint out of range").
MAX_PAGE = 10**6


def page_number(number) -> int:
    """The page a query asks for (``number``: a string or int, or None): the number, at
    most ``MAX_PAGE``, 1 when missing or not a number (it may be below 1:
    ``Paginator.get_page`` then gives the last)."""
    try:
        return 1 if number is None else min(int(number), MAX_PAGE)
    except (TypeError, ValueError, OverflowError):
        return 1


def show_pages(request, **pages: Page) -> None:
    """Note the page each list of the request's answer shows (``param=page``: its query
    parameter, its ``Page``): the pager links of its other lists keep these numbers
    (``games_extras.page_query``), never the query's own text (junk, or past the end)."""
    shown = request.__dict__.setdefault("shown_pages", {})
    shown.update({param: page.number for param, page in pages.items()})


class OneQueryPaginator(Paginator):
    """A ``Paginator`` of a ``QuerySet`` that reads the page asked for and the list's length
    in one query (each row carries ``COUNT(*) OVER ()``: ``selectors.with_total``) instead
    of a COUNT and then the page. ``get_page`` behaves as ``Paginator.get_page``; a page
    past the end (or not a positive number) is read as ``Paginator`` does.

    ``page_rows(low, high)``: rows ``low``..``high`` of the list, each with
    ``selectors.LIST_TOTAL``, read another way than slicing the queryset (a query compiled
    once, ``games.compiled``); the queryset still serves a page past the end."""

    object_list: QuerySet

    def __init__(self, object_list, per_page: int, *, page_rows: Callable[[int, int], list] | None = None) -> None:
        super().__init__(object_list, per_page)
        self._page_rows = page_rows

    def get_page(self, number) -> Page:
        """Page ``number`` (a string or int from the query; the first when missing or not a number)."""
        wanted = page_number(number)
        if wanted < 1:
            return super().get_page(number)
        bottom = (wanted - 1) * self.per_page
        if self._page_rows is not None:
            rows = self._page_rows(bottom, bottom + self.per_page)
        else:
            rows = list(with_total(self.object_list)[bottom:bottom + self.per_page])
        if not rows and wanted > 1:
            return super().get_page(number)
        self.__dict__["count"] = getattr(rows[0], LIST_TOTAL) if rows else 0  # the cached_property's slot
        return self._get_page(rows, wanted, self)
