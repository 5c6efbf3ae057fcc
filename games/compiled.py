"""Querysets of one user's lists compiled once per process (issue 14).

The home page's lists (its waiting games, invitations, rematches, unread chat counts and
open tables) are small, and the ORM took longer to build and compile each of them than the
database took to run it: 1.5–2.5 ms a list on the 2-core box against 0.2–1 ms of the
database's own time. A ``UserQuery`` builds its queryset once, with ``ANY_USER_ID`` where
the user's id goes, compiles it once per database, and then runs that SQL with the user's id put in (and a
page's ``LIMIT`` and ``OFFSET`` as parameters) (``games.statements``: prepared once a database session on
PostgreSQL), building the rows into models as the ORM does (``select_related`` objects and
annotations included; tuples for a ``values_list``): the same objects as iterating the
queryset, without its build and compile (``tests/games/test_compiled_queries.py`` compares them).
"""
from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.db import connections, router
from django.db.models import Model, QuerySet
from django.db.models.query import ModelIterable, ValuesListIterable, get_related_populators
from django.db.models.sql import Query

from games import statements

#: No user has this id: it marks where a user's id goes in a query compiled once.
ANY_USER_ID = -917_000_000_003


@dataclass(frozen=True)
class _Compiled:
    """The compiled statement of a ``UserQuery`` on one database: its SQL and parameters
    (``at``: the indexes of the user's id among them) and what its compiler worked out to
    build its rows into models."""

    query: Query
    sql: str
    params: tuple
    at: tuple[int, ...]
    select: Any
    klass_info: dict | None  # None: rows are tuples (``values_list``)
    annotation_col_map: dict
    col_count: int
    init_list: tuple[str, ...]
    populators: tuple


class UserQuery:
    """A queryset of one user, compiled once per process and database (and slice).

    ``build(user_id)``: the queryset for the user with that id; it is called once, with
    ``ANY_USER_ID``, and must filter on the id only through parameters that equal it
    (``build`` may also ignore it: a list that is the same for every user). The queryset
    reads models (then ``run`` builds them) or ``values_list`` of several fields (then
    ``run`` gives tuples), without ``prefetch_related``, and is not sliced (``run`` pages
    it); else ``run`` raises ``ValueError``. It is read from the database the router
    reads its model from (a ``using()`` of the queryset is not followed)."""

    def __init__(self, build: Callable[[int], QuerySet]) -> None:
        self._build = build
        self._compiled: dict[tuple[str, str], _Compiled] = {}
        self._lock = threading.Lock()
        self._model: type[Model] | None = None

    def _compile(self, alias: str) -> _Compiled:
        queryset = self._build(ANY_USER_ID)
        models = queryset._iterable_class is ModelIterable
        if queryset._prefetch_related_lookups or not (models or queryset._iterable_class is ValuesListIterable):
            raise ValueError("a UserQuery reads models or values_list, without prefetch_related")
        if queryset.query.is_sliced:
            raise ValueError("a UserQuery's queryset is not sliced: run() pages it")
        query = queryset.query
        compiler = query.get_compiler(using=alias)
        sql, params = compiler.as_sql()
        klass_info, select = compiler.klass_info if models else None, compiler.select
        init_list, populators = (), ()
        if klass_info is not None:
            fields = klass_info["select_fields"]
            init_list = tuple(f[0].target.attname for f in select[fields[0]:fields[-1] + 1])
            populators = tuple(get_related_populators(klass_info, select, alias))
        return _Compiled(
            query=query, sql=sql, params=tuple(params),
            at=tuple(i for i, param in enumerate(params) if param == ANY_USER_ID),
            select=select, klass_info=klass_info, annotation_col_map=dict(compiler.annotation_col_map or {}),
            col_count=compiler.col_count, init_list=init_list, populators=populators)

    def _compiled_for(self, alias: str) -> _Compiled:
        key = (alias, connections[alias].vendor)
        compiled = self._compiled.get(key)
        if compiled is None:
            with self._lock:  # compiled once even when threads ask together
                compiled = self._compiled.get(key)
                if compiled is None:
                    compiled = self._compiled[key] = self._compile(alias)
        return compiled

    def model(self) -> type[Model]:
        """The model the queryset reads."""
        if self._model is None:
            self._model = self._build(ANY_USER_ID).model
        return self._model

    def run(self, user_id: int | None, low: int = 0, high: int | None = None) -> list:
        """The queryset's objects (models, or tuples of a ``values_list``) for the user with
        ``user_id`` (put where the queryset had ``ANY_USER_ID``; None only for a queryset
        that ignores it), ``[low:high]`` as slicing the queryset (ints, 0 <= low <= high;
        high None: to the end). The page is a parameter of the statement (``LIMIT %s OFFSET
        %s``), so every page runs the one statement. Raises ``ValueError`` for a queryset it
        cannot run (see the class) or a negative or reversed slice, and what the database
        raises."""
        if low < 0 or (high is not None and high < low):
            raise ValueError(f"a UserQuery runs a slice [low:high] with 0 <= low <= high, not [{low}:{high}]")
        alias = router.db_for_read(self.model())
        compiled = self._compiled_for(alias)
        params = list(compiled.params)
        for i in compiled.at:
            params[i] = user_id
        sql = compiled.sql
        if high is not None:
            sql, params = f"{sql} LIMIT %s OFFSET %s", [*params, high - low, low]
        elif low:
            raise ValueError("a UserQuery runs a slice with an end (high)")
        rows = statements.read(connections[alias], sql, params)
        # a compiler of this thread's connection converts the values (dates, uuids...) as the ORM does
        compiler = compiled.query.get_compiler(using=alias)
        compiler.select, compiler.klass_info = compiled.select, compiled.klass_info
        compiler.annotation_col_map, compiler.col_count = compiled.annotation_col_map, compiled.col_count
        if compiled.klass_info is None:
            return list(compiler.results_iter([rows], tuple_expected=True))
        model, (start, *_rest) = compiled.klass_info["model"], compiled.klass_info["select_fields"]
        end = start + len(compiled.init_list)
        objects = []
        for row in compiler.results_iter([rows]):
            obj = model.from_db(alias, compiled.init_list, row[start:end])
            for populator in compiled.populators:
                populator.populate(row, obj)
            for name, position in compiled.annotation_col_map.items():
                setattr(obj, name, row[position])
            objects.append(obj)
        return objects
