"""The players' records of finished games (``PlayerStats``), written in the transaction that
stores a game's results (``store.store_seat_results``) so the profile never aggregates
every game a player finished."""
from __future__ import annotations

import uuid
from typing import Iterable

from django.db import transaction
from django.db.models import OuterRef, Subquery
from django.db.models.functions import Coalesce

from games.models import Game, GameStatus, PlayerStats, Seat
from games.records import SEAT_COLUMNS, add_game, records_from_seats


def _locked_rows(user_ids: Iterable[int]) -> list[PlayerStats]:
    """The users' rows, created when missing, locked in user order (two games finishing at
    once for one player wait for each other, never deadlock)."""
    ids = sorted(set(user_ids))
    PlayerStats.objects.bulk_create([PlayerStats(user_id=pk) for pk in ids], ignore_conflicts=True)
    return list(PlayerStats.objects.select_for_update().filter(user_id__in=ids).order_by("user_id"))


def record_finished_game(seats: list[Seat]) -> None:
    """Add a game that has just finished to the record of each player seated (``seats``:
    every seat of the game, its results stored). Caller holds the game row lock; the game
    must not have been counted before (a game finished again is ``records_rebuild``'s)."""
    rows = [{column: getattr(seat, column) for column in SEAT_COLUMNS} for seat in seats]
    records = _locked_rows(row["user_id"] for row in rows if row["user_id"] is not None)
    for stats in records:
        mine = next(row for row in rows if row["user_id"] == stats.user_id)
        add_game(stats.by_players, stats.rivals, mine, rows)
        stats.finished += 1
        stats.stamp = uuid.uuid4()
    PlayerStats.objects.bulk_update(records, ["finished", "by_players", "rivals", "stamp"])


@transaction.atomic
def records_rebuild(user_ids: Iterable[int] | None = None) -> int:
    """Recount the records of ``user_ids`` (every user with a finished game when None) from
    their seats' stored results, replacing what the rows held; their finished seats without
    ``finished_at`` (results written by hand) get the game's. For a game whose results
    changed after it was counted (a repair) and for operators (``manage.py games_records``).
    Returns how many records were written."""
    finished = Seat.objects.filter(game__status=GameStatus.FINISHED)
    wanted = None if user_ids is None else set(user_ids)
    undated = finished.filter(finished_at=None)
    if wanted is not None:
        undated = undated.filter(user_id__in=wanted)
    undated.update(finished_at=Subquery(
        Game.objects.filter(pk=OuterRef("game_id")).values(when=Coalesce("finished_at", "created_at"))[:1]))
    if wanted is not None:
        finished = finished.filter(game__in=finished.filter(user_id__in=wanted).values("game_id"))
    records = records_from_seats(finished.values(*SEAT_COLUMNS).order_by("game_id", "order").iterator(), wanted)
    rows = _locked_rows(wanted if wanted is not None
                        else set(records) | set(PlayerStats.objects.values_list("user_id", flat=True)))
    for stats in rows:
        record = records.get(stats.user_id, {"finished": 0, "by_players": {}, "rivals": {}})
        stats.finished, stats.by_players, stats.rivals = record["finished"], record["by_players"], record["rivals"]
        stats.stamp = uuid.uuid4()
    PlayerStats.objects.bulk_update(rows, ["finished", "by_players", "rivals", "stamp"], batch_size=500)
    return len(rows)


def records_touch(user_ids: Iterable[int]) -> None:
    """A new ``stamp`` on the users' records (their rating changed: what the profile cached
    under the old stamp is stale)."""
    PlayerStats.objects.filter(user_id__in=list(user_ids)).update(stamp=uuid.uuid4())
