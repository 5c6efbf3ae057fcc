"""A player's record of finished games as plain data: what ``PlayerStats.by_players`` and
``PlayerStats.rivals`` hold, and what one finished game adds to them.

Pure functions over plain values (no queries), shared by the services that add a finished
game (``games.services.records``), the rebuild from the seats (the same service and the
backfill migration) and the profile's selector, so that every path counts alike.

Shapes:

- a seat row: ``{"game_id", "order", "user_id", "bot_name", "placement", "won", "final_score"}``
  (``Seat`` columns; ``final_score`` is the seat's line of the outcome, or None);
- ``by_players``: player count as a string -> ``{"played", "won", "best", "sums", "scored"}``,
  ``sums``/``scored`` keyed by ``PARTS`` (sum of that score part, games that had it);
- ``rivals``: ``rival_key`` -> ``{"games", "ahead", "behind", "level"}``.
"""
from __future__ import annotations

from collections import defaultdict
from typing import Any, Iterable

#: The parts of a final score the profile averages (``engine.outcome`` score keys).
SCORE_PARTS = ("coins", "goods_total", "stations", "citizens", "level")
#: Every score key a record sums: the total and the parts.
PARTS = ("total", *SCORE_PARTS)


def rival_key(user_id: int | None, bot_name: str) -> str:
    """The head-to-head key of a seat: ``"u<user id>"`` for a player (the name is read when
    shown), ``"b<bot name>"`` for a bot (bots of one name are one rival)."""
    return f"u{user_id}" if user_id is not None else f"b{bot_name}"


def _number(value: Any) -> float | int | None:
    return value if isinstance(value, (int, float)) and not isinstance(value, bool) else None


def add_game(by_players: dict, rivals: dict, mine: dict, seats: list[dict]) -> None:
    """Add one finished game to a record, in place: ``mine`` is the player's seat row,
    ``seats`` every seat row of the game (``mine`` among them). Counts the game in its
    player-count group (played, won, each score part present, the best total) and, when the
    player has a placement, one game against each other placed seat: ahead (a better, i.e.
    lower, placement), behind or level."""
    group = by_players.setdefault(str(len(seats)), {
        "played": 0, "won": 0, "best": None, "sums": dict.fromkeys(PARTS, 0), "scored": dict.fromkeys(PARTS, 0)})
    group["played"] += 1
    group["won"] += bool(mine["won"])
    score = mine["final_score"] if isinstance(mine["final_score"], dict) else {}
    for part in PARTS:
        value = _number(score.get(part))
        if value is not None:
            group["sums"][part] += value
            group["scored"][part] += 1
    total = _number(score.get("total"))
    if total is not None and (group["best"] is None or total > group["best"]):
        group["best"] = total
    if mine["placement"] is None:
        return
    for seat in seats:
        if seat["order"] == mine["order"] or seat["placement"] is None:
            continue
        rival = rivals.setdefault(rival_key(seat["user_id"], seat["bot_name"]),
                                  {"games": 0, "ahead": 0, "behind": 0, "level": 0})
        rival["games"] += 1
        side = ("ahead" if mine["placement"] < seat["placement"]
                else "behind" if mine["placement"] > seat["placement"] else "level")
        rival[side] += 1


def records_from_seats(rows: Iterable[dict], user_ids: set[int] | None = None) -> dict[int, dict]:
    """Every player's record from the seat rows of finished games (all seats of each game
    given): user id -> ``{"finished", "by_players", "rivals"}``; only ``user_ids`` when given."""
    games: dict[Any, list[dict]] = defaultdict(list)
    for row in rows:
        games[row["game_id"]].append(row)
    records: dict[int, dict] = {}
    for seats in games.values():
        for mine in seats:
            if mine["user_id"] is None or (user_ids is not None and mine["user_id"] not in user_ids):
                continue
            record = records.setdefault(mine["user_id"], {"finished": 0, "by_players": {}, "rivals": {}})
            record["finished"] += 1
            add_game(record["by_players"], record["rivals"], mine, seats)
    return records


#: The seat columns a record reads (``add_game``'s seat rows).
SEAT_COLUMNS = ("game_id", "order", "user_id", "bot_name", "placement", "won", "final_score")
