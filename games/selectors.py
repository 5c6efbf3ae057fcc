"""Read-only queries and projections for the views. Nothing here writes.

Game pages are built only from the engine's ``view(state, seat)``: templates never receive the
raw snapshot, so hidden information is filtered by the engine, not by a template.
"""
from __future__ import annotations

import datetime as dt
import functools
import json
import uuid
from dataclasses import dataclass, field
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import DEFAULT_DB_ALIAS, connection, connections, router, transaction
from django.db.models import (
    CharField, Count, Exists, ExpressionWrapper, F, IntegerField, JSONField, OuterRef, Prefetch, Q,
    QuerySet, Subquery, Window,
)
from django.db.models.expressions import RawSQL
from django.db.models.functions import Coalesce
from django.utils import timezone
from django.utils.translation import get_language, gettext_lazy

from games import clock, records, statements
from games.compiled import ANY_USER_ID, UserQuery
from games.models import (
    ChatChannel, ChatMessage, ChatReader, Game, GameStatus, Invitation, InvitationStatus, Move, MoveSource, PlayerClock,
    PlayerStats, Rating, RatingChange, Seat,
)
from games.messages import action_label, render_event
from games.rules import engine_for, load_game
from games.vocabulary import bot_display_name, forget_with_catalogs, remember

#: The seats a list of games shows (names, who is awaited), their players' names only.
_SEAT_NAMES = Prefetch("seats", queryset=Seat.objects.select_related("user").only(
    "game", "user", "order", "bot_level", "bot_name", "awaiting", "user__username"))


def games_open_public() -> QuerySet[Game]:
    """Open public games, newest first, with ``seat_count`` and their creator. A rematch is
    left out: its seats are the finished game's players', nobody else can take one.

    ``seat_count`` is a subquery per game rather than a join grouped by game: for a plain
    ``LIMIT`` (the home page's open tables) the database walks the games in their index's
    order and stops at the last row shown, where the grouped join counted the seats of every
    open game first (issue 14); a lobby page, which counts the whole list (``COUNT(*) OVER
    ()``), still reads every open game but counts the seats of the rows shown only."""
    seats = Seat.objects.filter(game=OuterRef("pk")).order_by().values("game").annotate(n=Count("pk")).values("n")
    return (
        Game.objects.filter(status=GameStatus.OPEN, is_public=True, rematch_of=None)
        .select_related("creator")
        .annotate(seat_count=Coalesce(Subquery(seats, output_field=IntegerField()), 0))
        .defer("state")
        .order_by("-created_at", "-pk")  # the id breaks ties: a page boundary never repeats nor skips a game
    )


def games_in_progress_public() -> QuerySet[Game]:
    """Public games in progress, most recently started first: the lobby's games anyone
    signed in may watch (``lobby_watch_lists`` reads their seats)."""
    return Game.objects.filter(status=GameStatus.ACTIVE, is_public=True).defer("state").order_by("-started_at", "-pk")


def games_finished_public() -> QuerySet[Game]:
    """Finished public games, most recently finished first (``lobby_watch_lists`` reads
    their seats)."""
    return Game.objects.filter(status=GameStatus.FINISHED, is_public=True).defer("state").order_by("-finished_at", "-pk")


@dataclass(frozen=True)
class WatchedGame:
    """A public game as the lobby's lists show it: id, name, when it started and finished
    (None: not yet), and its seats in seat order."""

    pk: uuid.UUID
    name: str
    started_at: dt.datetime | None
    finished_at: dt.datetime | None
    seats: tuple[ListedSeat, ...]


@functools.cache
def _lobby_watch_queries(limit: int) -> tuple[UserQuery, UserQuery]:
    """``lobby_watch_lists``' two queries for ``limit`` games a list, each compiled once
    (``games.compiled``): the seats of the games in progress and of the finished games, each
    seat with its game's fields, the games found by their list as a subquery (``LIMIT``) and
    in its order, then the seats in seat order."""
    def seats_of(games: QuerySet, newest: str) -> UserQuery:
        rows = (Seat.objects.filter(game__in=games[:limit].values("pk"))
                .order_by(F(newest).desc(nulls_last=True), F("game_id").desc(), "order")
                .values_list("game_id", "game__name", "game__started_at", "game__finished_at",
                             "user_id", "user__username", "bot_level", "bot_name"))
        return UserQuery(lambda _user_id: rows)

    return (seats_of(games_in_progress_public(), "game__started_at"),
            seats_of(games_finished_public(), "game__finished_at"))


def lobby_watch_lists(limit: int) -> tuple[list[WatchedGame], list[WatchedGame]]:
    """The lobby's public games in progress and finished ones (``games_in_progress_public``,
    ``games_finished_public``), at most ``limit`` of each, with their seats: two queries,
    one a list, each compiled once per process (``_lobby_watch_queries``); rows, not models
    (building a model for each game, seat and player took most of the lobby's time: issue
    14). A game without a seat is not listed (a game in progress or finished has seats)."""
    def watched(rows: list) -> list[WatchedGame]:
        games: dict[Any, tuple] = {}
        seats: dict[Any, list[ListedSeat]] = {}
        for game_id, name, started_at, finished_at, user_id, username, bot_level, bot_name in rows:
            games.setdefault(game_id, (name, started_at, finished_at))
            seats.setdefault(game_id, []).append(ListedSeat(user_id, username or "", bot_level, bot_name))
        return [WatchedGame(pk=pk, name=name, started_at=started_at, finished_at=finished_at, seats=tuple(seats[pk]))
                for pk, (name, started_at, finished_at) in games.items()]

    playing, finished = _lobby_watch_queries(limit)
    return watched(playing.run(None)), watched(finished.run(None))


#: The empty ``Seat.awaiting`` (no decision awaited) as SQL text, not a parameter: a
#: statement compiled once and planned once (a generic plan, ``orleans_site.database``)
#: then uses the partial index ``seat_awaited_by_user``, whose condition is this text.
_NOTHING_AWAITED = RawSQL("''", (), output_field=CharField())


def seats_waiting_for(user) -> QuerySet[Seat]:
    """The user's seats in active games where the engine awaits their decision, most urgent
    first: by deadline (games whose clock runs out first; no running clock last), then by
    how long the seat has waited (longest first)."""
    return (
        Seat.objects.filter(user=user, game__status=GameStatus.ACTIVE)
        .exclude(awaiting=_NOTHING_AWAITED)
        .select_related("game")
        .defer("game__state")
        .order_by(F("deadline").asc(nulls_last=True), F("awaiting_since").asc(nulls_last=True), "pk")
    )


def next_waiting_game(user, current_game_id: Any = None) -> Any:
    """The id of the game to open after ``current_game_id`` with the "Next game" button, or
    None when no other game waits for ``user``.

    The games waiting for the user in ``seats_waiting_for`` order; from a game in that list
    the one after it (wrapping round, so pressing again goes through them all), from any
    other page the most urgent one. The current game is never the answer.
    """
    ids = [str(game_id) for game_id in seats_waiting_for(user).values_list("game_id", flat=True)]
    current = str(current_game_id) if current_game_id is not None else None
    if current in ids:
        at = ids.index(current)
        ids = ids[at + 1:] + ids[:at]
    return ids[0] if ids else None


def rematch_of_game(game: Game) -> Game | None:
    """The rematch of the finished ``game`` that is still on (open or played), or None;
    state deferred."""
    return (Game.objects.filter(rematch_of=game).exclude(status=GameStatus.CANCELLED)
            .defer("state").first())


def invitations_for(user) -> QuerySet[Invitation]:
    """The user's pending invitations by name to games still open, oldest first."""
    return (
        Invitation.objects.filter(invitee=user, status=InvitationStatus.PENDING, game__status=GameStatus.OPEN)
        .select_related("game", "inviter").defer("game__state").order_by("created_at", "pk")
    )


def rematches_awaiting(user) -> QuerySet[Seat]:
    """The user's seats at rematches waiting for their answer (``Seat.accepted`` false),
    oldest first, with the game and the finished game it follows."""
    return (
        Seat.objects.filter(user=user, accepted=False, game__status=GameStatus.OPEN)
        .select_related("game", "game__rematch_of", "game__creator")
        .defer("game__state", "game__rematch_of__state").order_by("game__created_at", "pk")
    )


#: The annotation carrying a whole list's length on each row of a page (``with_total``).
LIST_TOTAL = "list_total"


def with_total(queryset: QuerySet) -> QuerySet:
    """``queryset`` with each row carrying the whole list's length (``LIST_TOTAL``:
    ``COUNT(*) OVER ()``), so that a page of it and the count are one query."""
    return queryset.annotate(**{LIST_TOTAL: Window(Count("*"))})


def _open_tables(user) -> QuerySet[Game]:
    # open public games with a free seat, those ``user`` (a user or its id) sits at left out; None: anyone's
    games = games_open_public().filter(seat_count__lt=F("max_seats"))
    if user is not None:
        # an open game's seats are unfinished: the user's unfinished seats' index finds them
        # (a generic plan otherwise read every seat the user ever had)
        games = games.exclude(Exists(Seat.objects.filter(game=OuterRef("pk"), user=user, finished_at=None)))
    return games


#: The home page's lists, each compiled once per process (``games.compiled``: the ORM took
#: longer to build and compile each than the database to run it).
_OPEN_TABLES = UserQuery(_open_tables)
_OPEN_TABLES_ANYONE = UserQuery(lambda _user_id: _open_tables(None))
_WAITING_PAGE = UserQuery(lambda user_id: with_total(seats_waiting_for(user_id)))
_OPEN_PUBLIC = UserQuery(lambda _user_id: with_total(games_open_public()))
_INVITATIONS = UserQuery(lambda user_id: invitations_for(user_id))
_REMATCHES = UserQuery(lambda user_id: rematches_awaiting(user_id))


def open_tables_for(user, limit: int = 20) -> list[Game]:
    """Open public games with a free seat that ``user`` does not already sit at (anyone's
    for an anonymous visitor), newest first, at most ``limit``, with ``seat_count`` and
    their creator (``games_open_public``); its SQL compiled once."""
    if getattr(user, "is_authenticated", False):
        return _OPEN_TABLES.run(user.pk, 0, limit)
    return _OPEN_TABLES_ANYONE.run(None, 0, limit)


def waiting_page_rows(user, low: int, high: int) -> list[Seat]:
    """Rows ``low``..``high`` of ``seats_waiting_for(user)`` (a signed-in user), each with
    the whole list's length (``with_total``), for ``OneQueryPaginator``'s
    ``page_rows``; its SQL compiled once per page."""
    return _WAITING_PAGE.run(user.pk, low, high)


def open_public_page_rows(low: int, high: int) -> list[Game]:
    """Rows ``low``..``high`` of ``games_open_public()``, each with the whole list's length
    (``with_total``), for ``OneQueryPaginator``'s ``page_rows`` (the lobby's open games);
    its SQL compiled once per page."""
    return _OPEN_PUBLIC.run(None, low, high)


def invitations_list(user) -> list[Invitation]:
    """``invitations_for(user)`` (a signed-in user) as a list; its SQL compiled once."""
    return _INVITATIONS.run(user.pk)


def rematches_list(user) -> list[Seat]:
    """``rematches_awaiting(user)`` (a signed-in user) as a list; its SQL compiled once."""
    return _REMATCHES.run(user.pk)



@functools.cache
def _waiting_count_sql(vendor: str) -> tuple[str, tuple, tuple[int, ...]]:
    """``(sql, params, where the user's id goes in params)`` of ``waiting_count``, compiled
    once per database vendor from the three lists' querysets (their one definition)."""
    ids = [rows.order_by().values("pk") for rows in
           (seats_waiting_for(ANY_USER_ID), invitations_for(ANY_USER_ID), rematches_awaiting(ANY_USER_ID))]
    sql, params = ids[0].union(*ids[1:], all=True).query.get_compiler(DEFAULT_DB_ALIAS).as_sql()
    at = tuple(i for i, param in enumerate(params) if param == ANY_USER_ID)
    assert len(at) == len(ids), "each list filters on the user once"
    return f"SELECT COUNT(*) FROM ({sql}) waiting", tuple(params), at


def _with_user(params, at: tuple[int, ...], user_id) -> list:
    """``params`` of a statement compiled once with ``ANY_USER_ID``, the user's id put in
    at the indexes ``at``."""
    return [user_id if i in at else param for i, param in enumerate(params)]


def waiting_count(user) -> int:
    """How many things wait for ``user`` (a user or its id): decisions in active games,
    pending invitations and rematches to answer (the navigation's count, on every page):
    one query, the three lists' ids counted as one ``UNION ALL``, its SQL compiled once (the
    ORM took three times the database's time to build it anew on every page)."""
    connection = connections[DEFAULT_DB_ALIAS]
    sql, params, at = _waiting_count_sql(connection.vendor)
    params = _with_user(params, at, getattr(user, "pk", user))
    return statements.read(connection, sql, params)[0][0]


def games_in_progress_for(user) -> QuerySet[Game]:
    """Games the user plays in that are open or active, newest first (found by the user's
    unfinished seats' index, whatever the number of games they finished)."""
    return (Game.objects.filter(seats__user=user, seats__finished_at=None, status__in=(GameStatus.OPEN, GameStatus.ACTIVE))
            .prefetch_related(_SEAT_NAMES).defer("state").order_by("-created_at", "-pk"))


@dataclass(frozen=True)
class ListedSeat:
    """A seat as a list of games shows it: who sits there (``display_name``) and what the
    engine awaits from it (``awaiting``, "" for nothing, or for a list that does not show it)."""

    user_id: int | None
    username: str
    bot_level: str
    bot_name: str
    awaiting: str = ""

    @property
    def display_name(self) -> str:
        """The player's username, or the bot seat's name in the active language (as ``Seat.display_name``)."""
        return bot_display_name(self.bot_level, self.bot_name) if self.bot_level else self.username


@dataclass
class ProfileHead:
    """What the profile reads on every request, in one query (``profile_head``): the user's
    ``PlayerStats`` (``stamp`` and ``finished`` loaded; None before a finished game), the
    navigation's ``waiting`` count, one page of ``games_in_progress_for`` (``playing``:
    games with ``id``, ``name``, ``status`` loaded and ``listed_seats``, seats in order) and
    that list's length (``playing_total``; 0 when the page is empty)."""

    stats: PlayerStats | None
    waiting: int
    playing: list[Game]
    playing_total: int


@functools.cache
def _profile_head_sql(vendor: str) -> tuple[str, tuple, tuple[int, ...]]:
    """``(sql, params, where the user's id goes in params)`` of ``profile_head``; the page's
    size and offset are its last two parameters. Written once per database vendor (the ORM
    took more time to build the lists' queries than the database to run them)."""
    qn = connections[DEFAULT_DB_ALIAS].ops.quote_name
    user_model = get_user_model()
    game, seat, stats, users = (qn(m._meta.db_table) for m in (Game, Seat, PlayerStats, user_model))
    waiting_sql, waiting_params, waiting_at = _waiting_count_sql(vendor)
    stats_of = f"FROM {stats} WHERE {stats}.{qn('user_id')} = %s"
    # the page of games as games_in_progress_for orders it (newest first), found by the user's unfinished seats
    page = (f"SELECT g.{qn('id')} AS id, g.{qn('name')} AS name, g.{qn('status')} AS status, "
            f"g.{qn('created_at')} AS created_at, g.{qn('rematch_of_id')} AS rematch_of_id, COUNT(*) OVER () AS total "
            f"FROM {seat} m JOIN {game} g ON g.{qn('id')} = m.{qn('game_id')} "
            f"WHERE m.{qn('user_id')} = %s AND m.{qn('finished_at')} IS NULL AND g.{qn('status')} IN (%s, %s) "
            f"ORDER BY g.{qn('created_at')} DESC, g.{qn('id')} DESC LIMIT %s OFFSET %s")
    sql = (f"SELECT (SELECT {qn('stamp')} {stats_of}), (SELECT {qn('finished')} {stats_of}), ({waiting_sql}), "
           f"p.id, p.name, p.status, p.rematch_of_id, p.total, s.{qn('user_id')}, u.{qn('username')}, s.{qn('bot_level')}, "
           f"s.{qn('bot_name')}, s.{qn('awaiting')} "
           f"FROM (SELECT 1 AS one) one LEFT JOIN ({page}) p ON 1 = 1 "
           f"LEFT JOIN {seat} s ON s.{qn('game_id')} = p.id "
           f"LEFT JOIN {users} u ON u.{qn(user_model._meta.pk.column)} = s.{qn('user_id')} "
           f"ORDER BY p.created_at DESC, p.id DESC, s.{qn('order')}")
    params = (ANY_USER_ID, ANY_USER_ID, *waiting_params, ANY_USER_ID, GameStatus.OPEN.value, GameStatus.ACTIVE.value)
    at = (0, 1, *(2 + i for i in waiting_at), 2 + len(waiting_params))
    return sql, params, at


def profile_head(user, number: int, per_page: int) -> ProfileHead:
    """The profile's ``ProfileHead`` of ``user`` (a signed-in user) with page ``number``
    (1-based; a page past the end is empty) of ``per_page`` games in progress: one query,
    written once (``_profile_head_sql``)."""
    sql, params, at = _profile_head_sql(connection.vendor)
    params = _with_user(params, at, user.pk) + [per_page, (number - 1) * per_page]
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        rows = cursor.fetchall()
    stamp, finished, waiting = rows[0][:3]
    stats = None
    if stamp is not None:
        stats = PlayerStats.from_db(connection.alias, ["user_id", "stamp", "finished"],
                                    [user.pk, PlayerStats._meta.get_field("stamp").to_python(stamp), finished])
    games, game_field = {}, Game._meta.pk
    for *_, game_id, name, status, rematch_of, _total, user_id, username, bot_level, bot_name, awaiting in rows:
        if game_id is None:
            break  # no game in progress on this page: the one row carries the rest
        game = games.get(game_id)
        if game is None:
            game = games[game_id] = Game.from_db(
                connection.alias, ["id", "name", "status", "rematch_of_id"],
                [game_field.to_python(game_id), name, status, None if rematch_of is None else game_field.to_python(rematch_of)])
            game.listed_seats = []
        game.listed_seats.append(ListedSeat(user_id, username or "", bot_level, bot_name, awaiting))
    return ProfileHead(stats=stats, waiting=waiting, playing=list(games.values()),
                       playing_total=rows[0][7] or 0)


@dataclass
class PlayerResult:
    """One player's line in a finished game's result."""

    seat: Seat
    score: Any
    placement: int | None
    breakdown: dict | None = None


@dataclass
class FinishedGame:
    """A finished game with every player's score and placement, in placement order."""

    game: Game
    results: list[PlayerResult] = field(default_factory=list)
    viewer: PlayerResult | None = None


def _placements(outcome: dict) -> dict[int, int]:
    """Seat index -> 1-based placement (ties share one), from ``engine.outcome``'s ranking."""
    return {entry["seat"]: entry["place"] for entry in outcome.get("ranking") or []}


def seat_results(outcome: dict | None) -> dict[int, tuple[int | None, bool, dict | None]]:
    """Seat index -> ``(placement, won, score line)`` read from a stored ``engine.outcome``
    (``ranking``, ``winners``, ``scores``); seats the outcome does not name are left out."""
    outcome = outcome or {}
    placements = _placements(outcome)
    winners = set(outcome.get("winners") or [])
    scores = {index: line for index, line in enumerate(outcome.get("scores") or []) if isinstance(line, dict)}
    return {seat: (placements.get(seat), seat in winners, scores.get(seat))
            for seat in set(placements) | winners | set(scores)}


def finished_game_result(game: Game, user=None) -> FinishedGame:
    """Scores and placements of a finished game, read from the stored ``outcome``."""
    outcome = game.outcome or {}
    seats = list(game.seats.all())
    scores = outcome.get("scores") or []
    placements = _placements(outcome)
    result = FinishedGame(game=game)
    for seat in seats:
        breakdown = scores[seat.order] if seat.order < len(scores) else None
        line = PlayerResult(seat=seat, score=breakdown["total"] if breakdown else None,
                            placement=placements.get(seat.order), breakdown=breakdown)
        result.results.append(line)
        if user is not None and seat.user_id == user.pk:
            result.viewer = line
    result.results.sort(key=lambda r: (r.placement is None, r.placement or 0, r.seat.order))
    return result


def bot_move_counts(game: Game) -> dict[int, int]:
    """Seat order -> how many of its moves in ``game`` a bot made (seats without any left out)."""
    return dict(Move.objects.filter(game=game, source=MoveSource.BOT).values("seat")
                .annotate(n=Count("pk")).values_list("seat", "n"))


def games_finished_for(user) -> QuerySet[Game]:
    """The user's finished games, most recently finished first, seats loaded (state deferred):
    page it, then ``finished_game_result`` each game of the page. Read in the order of the
    user's finished seats' index (``Seat.finished_at``, the game's, copied with the results)."""
    return (Game.objects.filter(seats__user=user, seats__finished_at__isnull=False, status=GameStatus.FINISHED)
            .prefetch_related(_SEAT_NAMES).only("id", "name", "status", "finished_at", "outcome")
            .order_by(F("seats__finished_at").desc(), "seats__game_id"))


#: The parts of a final score the profile averages (``engine.outcome`` score keys).
SCORE_PARTS = records.SCORE_PARTS
PARTS = records.PARTS


@dataclass
class ScoreStats:
    """Games played and won, mean and best total, mean of each score part (``SCORE_PARTS``;
    None where no game has a score)."""

    played: int = 0
    won: int = 0
    mean: float | None = None
    best: float | int | None = None
    mean_parts: dict = field(default_factory=lambda: dict.fromkeys(SCORE_PARTS))

    @property
    def win_rate(self) -> float:
        """Share of games won, 0..1 (0 without games)."""
        return self.won / self.played if self.played else 0.0


@dataclass
class HeadToHead:
    """The player against one opponent over the finished games they both played:
    ``ahead`` (placed better), ``behind``, ``level`` (same place)."""

    opponent: str
    games: int = 0
    ahead: int = 0
    behind: int = 0
    level: int = 0


@dataclass
class PlayerRecord:
    """A player's finished games: ``overall`` and ``by_players`` (player count ->
    ``ScoreStats``) and ``head_to_head`` (most games together first). The games themselves
    are ``games_finished_for``, paged; ``finished`` counts them."""

    overall: ScoreStats
    by_players: dict[int, ScoreStats]
    head_to_head: list[HeadToHead]
    finished: int = 0


def _stats(group: dict) -> ScoreStats:
    """``ScoreStats`` of a ``games.records`` player-count group (or of several summed)."""
    sums, scored, best = group["sums"], group["scored"], group["best"]
    return ScoreStats(played=group["played"], won=group["won"],
                      mean=sums["total"] / scored["total"] if scored["total"] else None,
                      best=int(best) if best is not None and float(best).is_integer() else best,
                      mean_parts={part: sums[part] / scored[part] if scored[part] else None for part in SCORE_PARTS})


def _all_groups(groups: list[dict]) -> dict:
    """One group of every game from the player-count groups: sums, counts and the best."""
    return {"played": sum(g["played"] for g in groups), "won": sum(g["won"] for g in groups),
            "best": max((g["best"] for g in groups if g["best"] is not None), default=None),
            "sums": {part: sum(g["sums"][part] for g in groups) for part in PARTS},
            "scored": {part: sum(g["scored"][part] for g in groups) for part in PARTS}}


def player_stats(user) -> PlayerStats | None:
    """The user's ``PlayerStats`` row (their record, kept as games finish: its ``stamp`` and
    ``finished``; ``player_record`` reads the rest), or None before their first finished
    game. One query."""
    return PlayerStats.objects.filter(user=user).only("stamp", "finished").first()


def player_record(user, stats: PlayerStats | None = None) -> PlayerRecord:
    """The statistics of ``user``'s finished games (ended normally or by vote), from their
    ``PlayerStats`` row (``stats`` when already read, else two queries): games played and won
    (among ``outcome["winners"]``), mean and best total and the mean score parts, by player
    count and overall; head-to-head against each rival (one more query for the players'
    names). The row is kept by ``services.records`` from the seats' copy of each outcome
    (``Seat.placement``, ``won``, ``final_score``), so the cost does not grow with the games."""
    stats = stats if stats is not None else player_stats(user)
    if stats is None:
        return PlayerRecord(overall=ScoreStats(), by_players={}, head_to_head=[])
    if stats.get_deferred_fields():
        stats.refresh_from_db(fields=["by_players", "rivals"])
    groups = {int(players): group for players, group in stats.by_players.items()}
    user_ids = [int(key[1:]) for key in stats.rivals if key.startswith("u")]
    names = dict(get_user_model().objects.filter(pk__in=user_ids).values_list("pk", "username")) if user_ids else {}
    head_to_head = [HeadToHead(opponent=names.get(int(key[1:]), "") if key.startswith("u") else key[1:], **counts)
                    for key, counts in stats.rivals.items()]
    head_to_head.sort(key=lambda h: (-h.games, h.opponent))
    return PlayerRecord(overall=_stats(_all_groups(list(groups.values()))) if groups else ScoreStats(),
                        by_players={players: _stats(groups[players]) for players in sorted(groups)},
                        head_to_head=head_to_head, finished=stats.finished)


def game_state(game: Game) -> Any:
    """The engine state of a started game (deserialised from the snapshot by its engine,
    ``games.rules.load_game``). Raises ``GameDamaged`` when it cannot be loaded."""
    return load_game(game)[1]


def game_view_for_seat(game: Game, state: Any, seat: Seat | None) -> dict:
    """The engine's ``view`` of ``state`` (of ``game``) for the viewer's seat (None: spectator)."""
    return engine_for(game).view(state, None if seat is None else seat.order)


def legal_actions_for_seat(game: Game, state: Any, seat: Seat | None) -> list[dict]:
    """The viewer's legal actions in ``state`` (of ``game``), each with its ``label`` in the
    active language and its ``message`` (the engine's structured label, None for an
    engine without one); empty for spectators."""
    rules_engine = engine_for(game)
    if seat is None or rules_engine.is_over(state):
        return []
    structured = getattr(rules_engine, "action_message", None)
    out = []
    for action in rules_engine.legal_actions(state, seat.order):
        message = structured(action, state, seat.order) if structured is not None else None
        out.append({"action": action, "label": action_label(rules_engine, action, state, seat.order, message),
                    "message": message})
    return out


def queue_options_for_seat(game: Game, state: Any, seat: Seat | None) -> list[dict] | None:
    """What the viewer may add to its action queue now (the engine's ``queue.queue_options``:
    only the viewer's own and public information); None for spectators, a finished game or
    rules without it."""
    rules_engine = engine_for(game)
    options = getattr(rules_engine.queue, "queue_options", None)
    if seat is None or options is None or rules_engine.is_over(state):
        return None
    return options(state, seat.order)


def game_moves(game: Game) -> QuerySet[Move]:
    """The game's move log, oldest first."""
    return Move.objects.filter(game=game).order_by("seq")


#: The columns the game page's log and its staleness check read of a move.
LOG_COLUMNS = ("seq", "seat", "action", "events", "source", "taken_back", "round")


def _recent_moves_query(game_id) -> QuerySet[Move]:
    newest = Move.objects.filter(game_id=game_id).order_by("-seq").values("round")[:1]
    since = ExpressionWrapper(Subquery(newest) - 1, output_field=IntegerField())
    return Move.objects.filter(game_id=game_id, round__gte=since).order_by("seq").only(*LOG_COLUMNS)


#: A game id no game has: ``_recent_moves_sql`` compiles the query with it once.
_SENTINEL_GAME = uuid.UUID(int=0)


@functools.cache
def _recent_moves_sql(alias: str) -> tuple[str, list, tuple, dict] | None:
    """The SQL and parameters of ``_recent_moves_query`` on database ``alias``, compiled
    once (the ORM takes longer to compile it than the database to answer it), the fields
    it reads in order and their converters (the compiler's, ``{index: (functions,
    column)}``); each parameter that is the game id is None, for the caller to fill in.
    None if the game id is not among them (then the ORM runs the query)."""
    compiler = _recent_moves_query(_SENTINEL_GAME).query.get_compiler(alias)
    sql, params = compiler.as_sql()
    expected = _game_id_param(_SENTINEL_GAME, alias)
    params = [None if param == expected else param for param in params]
    columns = [column for column, _sql, _alias in compiler.select]
    fields = tuple(column.target.attname for column in columns)
    return (sql, params, fields, compiler.get_converters(columns)) if None in params else None


def _game_id_param(game_id, alias: str):
    return Move._meta.get_field("game").get_db_prep_value(game_id, connections[alias])


def recent_moves(game: Game) -> list[LogMove] | list[Move]:
    """The moves of the game's last two log rounds (``Move.round`` at least the newest
    move's minus one), oldest first, only ``LOG_COLUMNS`` (``LogMove`` records; ``Move``
    instances where the statement cannot be compiled once): one query, as many rows whatever
    the length of the game (its SQL compiled once per process, ``_recent_moves_sql``; the
    rows read through the compiler's converters, without the raw queryset, which took four
    times the database's time to make them).

    No query if a store read them with its writes (``hand_over_page_reads``) and ``game``
    is still at the version it stored then (the rows are used once)."""
    handed = game.__dict__.pop("_recent_moves", None)
    if handed is not None and handed[0] == game.version:
        return handed[1]
    alias = router.db_for_read(Move)
    compiled = _recent_moves_sql(alias)
    if compiled is None:
        return list(_recent_moves_query(game.pk))
    rows = statements.read(connections[alias], compiled[0], _recent_moves_params(compiled, game.pk, alias))
    return _recent_move_rows(rows, alias)


def _recent_moves_params(compiled: tuple, game_id, alias: str) -> list:
    # the compiled statement's parameters with the game id in its places
    game_param = _game_id_param(game_id, alias)
    return [game_param if param is None else param for param in compiled[1]]


@dataclass(slots=True)
class LogMove:
    """A move as the game page's log and staleness check read it: its primary key and
    ``LOG_COLUMNS`` (``recent_moves``; a model instance took half of the rows' reading)."""

    pk: int
    seq: int
    seat: int | None
    action: dict
    events: list
    source: str
    taken_back: bool
    round: int


def _recent_move_rows(rows, alias: str) -> list[LogMove]:
    """``recent_moves``' moves from rows of its compiled statement (``_recent_moves_sql``).
    Their ``action`` and ``events`` are shared with other reads of the same text
    (``_decoded_json``): never change them."""
    fields = _recent_moves_sql(alias)[2]
    order = _log_move_order(fields)
    convert = _row_converter(alias)
    moves = []
    for row in rows:
        values = convert(row)
        moves.append(LogMove(*values) if order is None else LogMove(*[values[i] for i in order]))
    return moves


@functools.cache
def _row_converter(alias: str):
    # the compiled statement's converters as one function of a row: a JSON column without its
    # own decoder is decoded through _decoded_json, any other converter as the compiler says
    converters = _recent_moves_sql(alias)[3]
    db = connections[alias]
    plain = {index for index, (functions, column) in converters.items()
             if isinstance(column.target, JSONField) and column.target.decoder is None
             and list(functions) == [column.target.from_db_value]}

    def convert(row) -> list:
        values = list(row)
        for index, (functions, column) in converters.items():
            value = values[index]
            if index in plain and isinstance(value, str):
                values[index] = _decoded_json(value)
                continue
            for function in functions:
                value = function(value, column, db)
            values[index] = value
        return values
    return convert


#: JSON texts of the moves read lately -> their decoded value (``_decoded_json``).
_DECODED: dict[str, Any] = {}
#: At most this many texts are kept (the last two rounds of a 4-player game: about 200).
_DECODED_MOST = 2048


def _decoded_json(text: str) -> Any:
    """``json.loads(text)``, shared by every read of the same text in this process (a page's
    log rounds are read again at every move: decoding them was a twentieth of a decision's
    answer). Callers never change the value."""
    value = _DECODED.get(text)
    if value is None:
        value = remember(_DECODED, text, json.loads(text), _DECODED_MOST)
    return value


@functools.cache
def _log_move_order(fields: tuple[str, ...]) -> tuple[int, ...] | None:
    # where each of LogMove's fields is among the compiled statement's columns (None: in order)
    names = ["pk" if name == Move._meta.pk.attname else name for name in fields]
    order = tuple(names.index(name) for name in LogMove.__slots__)
    return None if order == tuple(range(len(names))) else order


def page_read_statements(game: Game, user, *, before: int | None = None) -> list[tuple[str, list, bool]]:
    """``page_seats``' and ``recent_moves``' statements for ``game`` and ``user`` (maybe a
    visitor), as ``(SQL, parameters, prepared)`` for ``services.locks._run_together`` on the
    default database, in that order: a store runs them after its writes, in the same round
    trip, and gives their rows to ``hand_over_page_reads``. [] when ``recent_moves`` would
    not read through its compiled statement on that database (then the page reads them).

    ``before``: the game's version before the store's writes (None: not known). If this
    process kept the game's recent moves at that version (a store's, after its commit:
    ``_RECENT``), the second statement reads only the moves after it, and
    ``hand_over_page_reads`` adds them to those kept (the moves of the two log rounds
    without the rows of the older ones: a third of the store's round trip at move 250)."""
    compiled = _recent_moves_sql(connection.alias)
    if compiled is None or router.db_for_read(Move) != connection.alias:
        return []
    seats = (_page_seats_sql(connection.vendor), _page_seats_params(user, game.pk), True)
    kept = _RECENT.get(game.pk) if before is not None and not game.__dict__.get("_recent_moves_changed") else None
    newer = _newer_moves_sql(connection.alias) if kept is not None and kept[0] == before else None
    if newer is not None:
        game._recent_kept = kept[1]
        return [seats, (newer, [_game_id_param(game.pk, connection.alias), before], True)]
    game.__dict__.pop("_recent_kept", None)
    return [seats, (compiled[0], _recent_moves_params(compiled, game.pk, connection.alias), True)]


#: Each game's recent moves (``recent_moves``) as the last store of it in this process read
#: them, kept once its transaction committed: game id -> (version, tuple of ``LogMove``);
#: per process, bounded (``_RECENT_MOST`` games). The moves of a version never change (every
#: write of a move makes a new version) but for a take-back's mark on an older move: a
#: take-back drops the game's entry first (``forget_recent_moves``).
_RECENT: dict[Any, tuple[int, tuple]] = {}
_RECENT_MOST = 256


def forget_recent_moves(game: Game) -> None:
    """Drop what this process kept of ``game``'s recent moves (``_RECENT``), and never take
    them for this ``game`` object again (another thread may keep them anew meanwhile): the
    caller is about to change a move that is stored already (a take-back's mark)."""
    game._recent_moves_changed = True
    _RECENT.pop(game.pk, None)


@functools.cache
def _newer_moves_sql(alias: str) -> str | None:
    # the moves after a version (game id, seq: the statement's two parameters), read as the
    # recent moves' statement reads them (same columns, same converters); None if it cannot be
    compiled = _recent_moves_sql(alias)
    query = Move.objects.filter(game_id=_SENTINEL_GAME, seq__gt=0).order_by("seq").only(*LOG_COLUMNS)
    compiler = query.query.get_compiler(alias)
    sql, params = compiler.as_sql()
    fields = tuple(column.target.attname for column, _sql, _alias in compiler.select)
    if compiled is None or fields != compiled[2] or list(params) != [_game_id_param(_SENTINEL_GAME, alias), 0]:
        return None
    return sql


def hand_over_page_reads(game: Game, user, seat_rows: list, move_rows: list) -> None:
    """Keep on ``game``, at its version, the rows of ``page_read_statements`` (``seat_rows``,
    ``move_rows``: as fetched) as ``page_seats(game, user)`` and ``recent_moves(game)`` give
    them, for those two to take once instead of querying while ``game`` is at that version
    (a later store at a newer version hands over its own). The caller read them under the
    game row lock after its last write of the rows they read. The recent moves are also
    kept in the process (``_RECENT``) once the transaction commits."""
    user_id = user.pk if getattr(user, "is_authenticated", False) else None
    game._page_seats = (game.version, user_id, _page_seat_rows(game, seat_rows))
    moves = _recent_move_rows(move_rows, connection.alias)
    kept = game.__dict__.pop("_recent_kept", None)
    if kept is not None:  # move_rows are the moves after the kept ones (page_read_statements)
        moves = [*kept, *moves]
        newest = moves[-1].round if moves else 0
        moves = [move for move in moves if move.round >= newest - 1]
    game._recent_moves = (game.version, moves)
    version, entry = game.version, tuple(moves)
    transaction.on_commit(lambda: remember(_RECENT, game.pk, (version, entry), _RECENT_MOST))


def forget_page_reads(game: Game) -> None:
    """Drop what ``hand_over_page_reads`` or ``game_with_seat(..., seats=True)`` kept on
    ``game``: ``page_seats`` and ``recent_moves`` will query (writes may have come since)."""
    game.__dict__.pop("_page_seats", None)
    game.__dict__.pop("_recent_moves", None)


def moves_before(game: Game, seq: int) -> QuerySet[Move]:
    """The game's moves before move ``seq``, newest first, reading ``seq``, ``seat`` and
    ``action`` only (the page's staleness check, when the recent rounds did not decide it)."""
    return Move.objects.filter(game=game, seq__lt=seq).order_by("-seq").only("seq", "seat", "action")


def first_log_round(moves: list[Move]) -> int:
    """The log round of the first event of ``moves`` (a run of consecutive moves, oldest
    first): the round before the first one opens if the first move opens a round, else its
    ``round``; 1 for no moves."""
    if not moves or moves[0].seq == 1:
        return 1
    first = moves[0]
    opens = Move.rounds_of([first.events], 0)[0]
    return max(1, opens - 1) if opens else first.round


def round_log(game: Game, number: int, names: dict[int, str]) -> "RoundLog | None":
    """The log of round ``number`` alone (``move_log``'s group), or None if it has no
    event: its events are in the moves of that round and the first move of the next one."""
    moves = list(Move.objects.filter(game=game, round__in=[number, number + 1]).order_by("seq")
                 .only(*LOG_COLUMNS))
    return next((r for r in move_log(moves, names, first_round=first_log_round(moves)) if r.round == number), None)


def event_text(event: dict, names: dict[int, str], language: str | None = None) -> str:
    """An engine event's line in the active language with ``{player}`` replaced by the
    seat's player name (``games.messages.render_event``: its message id and params; an old
    event without an id shows its stored text). ``language``: the active language's code,
    if known."""
    return render_event(event, names, language)


#: Move sources the log marks on the move's line, with the words it shows.
MARKED_SOURCES = {MoveSource.TIMEOUT: gettext_lazy("timed out"), MoveSource.QUEUE: gettext_lazy("queued"),
                  MoveSource.BOT: gettext_lazy("played by a bot")}


@dataclass
class RoundLog:
    """The public events of one round, oldest first."""

    round: int
    entries: list[dict] = field(default_factory=list)


def move_log(moves: list[Move], names: dict[int, str], quiet_line=None, first_round: int = 1,
             keep_lines: bool = False) -> list[RoundLog]:
    """Every public event of ``moves`` (oldest first) grouped by round, newest round first.

    Rounds are numbered from 1; an event of kind ``round`` (carrying ``round``) opens the
    next group. The first entry of a move not made by its player carries the move's
    ``source`` (``timeout``, ``queue``, ``bot``; "" on every other entry) and its ``mark``,
    the words the log shows ("played by a bot"); every entry of a move its player took back
    is marked ``taken_back`` (a take-back has its own line). ``quiet_line(move)``, if given,
    is the text of one line for a move that caused no event (the replay viewer lists every
    step; a planning step has none), or None for no line. ``first_round``: the round the
    first move's first events belong to (``first_log_round``, for moves that do not start
    the game). ``keep_lines``: ``moves`` are ``recent_moves``', whose events each read shares
    (``_decoded_json``), so each move's lines are kept for the next page (``_MOVE_LINES``);
    the entries are then shared by every caller: never change them.
    """
    rounds = [RoundLog(round=first_round)]
    language = get_language()
    cast = tuple(sorted(names.items())) if keep_lines else None  # part of _MOVE_LINES' key
    for move in moves:
        events = move.events
        if not events:
            text = quiet_line(move) if quiet_line is not None else None
            if not text:
                continue
            lines = _move_lines(move, [{"text": text, "seat": move.seat}], names, language)
        elif not keep_lines:
            lines = _move_lines(move, events, names, language)
        else:  # a recent move's lines: the same for every page that shows it (_MOVE_LINES)
            key = (id(events), move.seq, move.seat, move.source, move.taken_back, language, cast)
            kept = _MOVE_LINES.get(key)
            if kept is None or kept[0] is not events:
                kept = remember(_MOVE_LINES, key, (events, _move_lines(move, events, names, language)),
                                _MOVE_LINES_MOST)
            lines = kept[1]
        for opens, entry in lines:
            if opens is not None:
                rounds.append(RoundLog(round=opens))
            rounds[-1].entries.append(entry)
    return [r for r in reversed(rounds) if r.entries]


#: (id of a move's events, its seq, seat, source and take-back mark, the language, the
#: players' names) -> (those events, ``_move_lines``' lines): a move's log lines, made once
#: for the pages that show its round again and again (``move_log(..., keep_lines=True)``:
#: the recent moves, whose reads share the decoded events of the same text,
#: ``_decoded_json``). The events are kept with their lines, so an id is never another
#: list's while its entry lives. Callers never change the lines.
_MOVE_LINES: dict = {}
forget_with_catalogs(_MOVE_LINES.clear)
_MOVE_LINES_MOST = 4096


def _move_lines(move, events: list, names: dict[int, str], language: str) -> list[tuple[int | None, dict]]:
    """``move_log``'s lines of one move: per event (``events``: the move's, or its quiet
    line), the round it opens (None: none) and its entry."""
    lines = []
    for position, event in enumerate(events):
        opens = event["round"] if event.get("kind") == "round" and isinstance(event.get("round"), int) else None
        lines.append((opens, {
            "seq": move.seq,
            "text": event_text(event, names, language),
            "forced": bool(event.get("forced")),
            "automatic": move.seat is None,
            # the mark belongs to the move's own line, not to what the game did after it
            "source": move.source if position == 0 and move.source in MARKED_SOURCES else "",
            "mark": MARKED_SOURCES.get(move.source, "") if position == 0 else "",
            "taken_back": move.taken_back,  # every line of a move its player took back
        }))
    return lines


# --- Sweeps: what the beat tasks act on --------------------------------------------------


def seats_past_deadline(now: dt.datetime | None = None) -> list[tuple[Any, int]]:
    """``(game id, seat order)`` of awaited seats in active games whose running clock is
    past its deadline at ``now``, oldest deadline first (for the sweep)."""
    now = now or timezone.now()
    return list(
        Seat.objects.filter(game__status=GameStatus.ACTIVE, deadline__lte=now)
        .exclude(awaiting="").order_by("deadline", "pk")
        .values_list("game_id", "order")
    )


def games_stalled() -> list[tuple[Any, int]]:
    """``(game id, version)`` of active games where no seat is awaited: they wait only for
    ``engine.resolve`` (normally done by the task queued on commit, lost if the broker or
    worker was down)."""
    awaited = Seat.objects.exclude(awaiting="").values("game_id")
    return list(Game.objects.filter(status=GameStatus.ACTIVE).exclude(pk__in=awaited)
                .values_list("pk", "version"))


#: Awaited seats a bot plays: bot seats, and absent players' seats in games with the takeover.
_BOT_PLAYED = Q(game__status=GameStatus.ACTIVE) & ~Q(awaiting="") & (
    ~Q(bot_level="") | (Q(absent=True) & ~Q(game__absent_bot_level="")))


def bot_turn_waiting(game: Game) -> bool:
    """True if ``game`` (a ``Game`` row) is active and awaits a seat a bot plays
    (``games.bots.playing_level``). No query for a game no bot can play in (the poll of
    every game asks)."""
    if not game.is_active or not (game.has_bots or game.absent_bot_level):
        return False
    bot_played = ~Q(bot_level="") | (Q(absent=True) if game.absent_bot_level else Q(pk__in=[]))
    return Seat.objects.filter(bot_played, game=game).exclude(awaiting="").exists()


def bot_turns_stalled(now: dt.datetime | None = None) -> list[tuple[Any, int]]:
    """``(game id, version)`` of active games awaiting a seat a bot plays for more than
    ``GAMES_BOT_STALLED_SECONDS`` at ``now`` (its task was lost; for the sweep)."""
    cutoff = (now or timezone.now()) - dt.timedelta(seconds=settings.GAMES_BOT_STALLED_SECONDS)
    return list(Seat.objects.filter(_BOT_PLAYED, awaiting_since__lte=cutoff)
                .values_list("game_id", F("game__version")).distinct())


def open_game_cutoff(now: dt.datetime) -> dt.datetime:
    """Open games created before this moment are old enough to be cancelled."""
    return now - dt.timedelta(days=settings.GAMES_OPEN_GAME_MAX_DAYS)


def games_open_expired(now: dt.datetime | None = None) -> list[Any]:
    """Ids of open games created more than ``GAMES_OPEN_GAME_MAX_DAYS`` days before ``now``."""
    cutoff = open_game_cutoff(now or timezone.now())
    return list(Game.objects.filter(status=GameStatus.OPEN, created_at__lt=cutoff)
                .values_list("pk", flat=True))


# --- Vacation ------------------------------------------------------------------------------


def vacation_allowance_seconds() -> int:
    """Vacation a user has per calendar year, in seconds."""
    return settings.GAMES_VACATION_DAYS_PER_YEAR * clock.DAY


def vacation_used_seconds(player_clock: PlayerClock, now: dt.datetime) -> int:
    """Vacation used in ``now``'s calendar year (seconds), the running vacation included.

    A vacation is counted in the year it ends; a new year starts from zero.
    """
    used = player_clock.vacation_seconds_used if player_clock.vacation_year == now.year else 0
    if player_clock.vacation_since is not None:
        used += int((now - player_clock.vacation_since).total_seconds())
    return used


def vacation_days_left(player_clock: PlayerClock, now: dt.datetime) -> float:
    """Vacation days left this calendar year (never below 0)."""
    return max(0, vacation_allowance_seconds() - vacation_used_seconds(player_clock, now)) / clock.DAY


def player_clock_for(user) -> PlayerClock:
    """The user's vacation record (an unsaved one with the defaults if none is stored)."""
    return PlayerClock.objects.filter(user=user).first() or PlayerClock(user=user)


def vacation_status(user, now: dt.datetime | None = None) -> dict:
    """For the preferences page: ``since`` (when the running vacation started, or None)
    and ``days_left`` this calendar year."""
    player_clock = player_clock_for(user)
    return {"since": player_clock.vacation_since,
            # tenths of a day: a one-minute vacation leaves "21", not "20.999"
            "days_left": round(vacation_days_left(player_clock, now or timezone.now()), 1)}


def users_on_vacation(user_ids) -> set[int]:
    """Which of ``user_ids`` are on vacation now (their clocks do not run, no reminders)."""
    return set(PlayerClock.objects.filter(user_id__in=user_ids, vacation_since__isnull=False)
               .values_list("user_id", flat=True))


def vacations_used_up(now: dt.datetime | None = None) -> list[int]:
    """Ids of users whose running vacation has used up this year's days (for the sweep)."""
    now = now or timezone.now()
    return [row.user_id for row in PlayerClock.objects.filter(vacation_since__isnull=False)
            if vacation_days_left(row, now) <= 0]


# --- Chat ----------------------------------------------------------------------------------

#: How many of a channel's latest messages the game page shows.
CHAT_SHOWN = 50


def chat_write_channel(game: Game, seat: Seat | None, user) -> str | None:
    """The channel ``user`` writes in at ``game`` (``ChatChannel`` value), or None: players
    in the players' channel; other signed-in users, in a public game, in the spectators'."""
    if seat is not None:
        return ChatChannel.PLAYERS
    if game.is_public and getattr(user, "is_authenticated", False):
        return ChatChannel.SPECTATORS
    return None


def chat_read_channels(game: Game, seat: Seat | None) -> list[str]:
    """The channels a viewer of ``game`` reads: players read theirs only (spectators' table
    talk is kept from them) until the game is over; spectators of a public game read both."""
    return _read_channels(game, seated=seat is not None)


def _read_channels(game: Game, *, seated: bool) -> list[str]:
    if seated and game.status != GameStatus.FINISHED:
        return [ChatChannel.PLAYERS]
    if not seated and not game.is_public:
        return []
    return [ChatChannel.PLAYERS, ChatChannel.SPECTATORS]


def chat_messages(game: Game, channel: str, limit: int = CHAT_SHOWN) -> list[ChatMessage]:
    """The latest ``limit`` messages of ``game``'s ``channel`` not hidden by a moderator,
    oldest first, authors loaded."""
    rows = (ChatMessage.objects.filter(game=game, channel=channel, hidden=False)
            .select_related("author").order_by("-id")[:limit])
    return list(reversed(rows))


def chat_last_id(game: Game, channels: list[str]) -> int:
    """The id of the newest message of ``game``'s ``channels`` not hidden (0: none): the chat
    version a page shows (the poll compares it)."""
    return (ChatMessage.objects.filter(game=game, channel__in=channels, hidden=False)
            .order_by("-id").values_list("id", flat=True).first() or 0)


#: The columns the lean poll reads of a game: never its state (``game_for_poll``).
POLL_FIELDS = ("name", "rules", "engine_version", "version", "live_version", "status", "is_public", "has_bots",
               "absent_bot_level")


@functools.cache
def _poll_sql(vendor: str) -> str:
    """The one statement of ``game_for_poll``, written once per database vendor (PostgreSQL
    and SQLite read it alike): the ORM would build the same query anew on every poll, which
    cost twice the database's time. Parameters: user id, players' channel, spectators'
    channel, game id."""
    quote = connections[DEFAULT_DB_ALIAS].ops.quote_name

    def table(model) -> str:
        return quote(model._meta.db_table)

    def column(model, name: str) -> str:
        return quote(model._meta.get_field(name).column)

    game, seat, chat = table(Game), table(Seat), table(ChatMessage)
    game_id = f"{game}.{column(Game, 'id')}"
    chat_last = (f"(SELECT {chat}.{column(ChatMessage, 'id')} FROM {chat} "
                 f"WHERE {chat}.{column(ChatMessage, 'game')} = {game_id} "
                 f"AND {chat}.{column(ChatMessage, 'channel')} = %s AND NOT {chat}.{column(ChatMessage, 'hidden')} "
                 f"ORDER BY {chat}.{column(ChatMessage, 'id')} DESC LIMIT 1)")
    fields = ", ".join(f"{game}.{quote(f.column)}" for f in _poll_fields())
    return (f"SELECT {fields}, {game}.{column(Game, 'state')} IS NOT NULL, "
            f"(SELECT {seat}.{column(Seat, 'id')} FROM {seat} WHERE {seat}.{column(Seat, 'game')} = {game_id} "
            f"AND {seat}.{column(Seat, 'user')} = %s), {chat_last}, {chat_last} "
            f"FROM {game} WHERE {game_id} = %s")


def _poll_fields() -> list:
    # the game's id and POLL_FIELDS in the model's order (from_db's)
    return _loaded(Game, {"id", *POLL_FIELDS})


@functools.cache
def _poll_converters(vendor: str) -> list[tuple]:
    return _converters(_poll_fields())


def game_for_poll(game_id: Any, user) -> Game | None:
    """The game ``game_id`` (a UUID or its string; ValidationError if it is neither) as the
    unchanged poll needs it, in one query by primary key (no join, state deferred: reading
    ``state`` would cost a query), or None if there is none.

    Only ``POLL_FIELDS`` are loaded, with ``has_state`` (a snapshot is stored), ``seat_id``
    (the pk of ``user``'s seat, None: no seat or a visitor) and ``chat_players`` /
    ``chat_spectators`` (id of the newest message not hidden in each channel, None: none),
    each a subquery on an index (the seat's unique (game, user), the chat's (game, channel,
    id)). Visibility is the caller's (``chat_poll_id`` and ``games.access`` rules)."""
    pk_field = Game._meta.pk
    pk = pk_field.to_python(game_id)
    user_id = user.pk if getattr(user, "is_authenticated", False) else None
    connection = connections[DEFAULT_DB_ALIAS]
    rows = statements.read(connection, _poll_sql(connection.vendor), [
        user_id, ChatChannel.PLAYERS, ChatChannel.SPECTATORS, pk_field.get_db_prep_value(pk, connection)])
    if not rows:
        return None
    *values, has_state, seat_id, chat_players, chat_spectators = rows[0]
    game = Game.from_db(DEFAULT_DB_ALIAS, [f.attname for f in _poll_fields()],
                        _converted(_poll_converters(connection.vendor), values))
    game.has_state, game.seat_id = bool(has_state), seat_id
    game.chat_players, game.chat_spectators = chat_players, chat_spectators
    return game


@functools.cache
def _game_with_seat_sql(vendor: str, state: bool, waiting: bool,
                        seats: bool = False) -> tuple[str, tuple, tuple, tuple]:
    """``game_with_seat``'s statement, written once per database vendor, ``state``,
    ``waiting`` and ``seats``, and the fields it reads (game's, creator's, seat's). Parameters:
    with ``waiting``, ``_waiting_count_sql``'s (the user's id in its places); then user id;
    with ``seats``, ``_page_seats_sql``'s but the game id; then game id. With ``seats`` each
    row ends with ``_page_seats_sql``'s columns of one seat (in seat order; one row of
    nulls for a game without seats)."""
    quote = connections[DEFAULT_DB_ALIAS].ops.quote_name
    user_model = get_user_model()
    game_fields = tuple(f for f in Game._meta.concrete_fields if state or f.name != "state")
    user_fields, seat_fields = tuple(user_model._meta.concrete_fields), tuple(Seat._meta.concrete_fields)
    columns = [f"g.{quote(f.column)}" for f in game_fields]
    columns.append(f"g.{quote(Game._meta.get_field('state').column)} IS NOT NULL")
    columns.append(f"({_waiting_count_sql(vendor)[0]})" if waiting else "NULL")
    columns += [f"u.{quote(f.column)}" for f in user_fields] + [f"s.{quote(f.column)}" for f in seat_fields]
    if seats:  # every seat's page row: page_seats' statement, its columns named p0, p1, ...
        page_columns, tables, order = _page_seats_parts(quote)
        columns += [f"p.p{i}" for i in range(len(page_columns))]
    sql = (f"SELECT {', '.join(columns)} FROM {quote(Game._meta.db_table)} g "
           f"INNER JOIN {quote(user_model._meta.db_table)} u "
           f"ON u.{quote(user_model._meta.pk.column)} = g.{quote(Game._meta.get_field('creator').column)} "
           f"LEFT JOIN {quote(Seat._meta.db_table)} s ON s.{quote(Seat._meta.get_field('game').column)} = "
           f"g.{quote(Game._meta.pk.column)} AND s.{quote(Seat._meta.get_field('user').column)} = %s ")
    if seats:
        sql += (f"LEFT JOIN (SELECT {', '.join(f'{c} AS p{i}' for i, c in enumerate(page_columns))} {tables}) p "
                "ON 1 = 1 ")
    sql += f"WHERE g.{quote(Game._meta.pk.column)} = %s"
    if seats:
        sql += f" ORDER BY p.p{order}"
    return sql, game_fields, user_fields, seat_fields


@functools.cache
def _row_converters(vendor: str, state: bool) -> tuple[list, list, list]:
    # per vendor, as the statement: looking them up took a tenth of the call
    _sql, *fields = _game_with_seat_sql(vendor, state, False)
    return tuple(_converters(group) for group in fields)


def game_with_seat(game_id: Any, user, *, state: bool = True, waiting: bool = False,
                   seats: bool = False) -> tuple[Game | None, Seat | None]:
    """``(game, user's seat)`` of ``game_id`` (a UUID or its string; ValidationError if it is
    neither) in one statement written once (the ORM compiled its select_related query in
    ten times the time PostgreSQL ran it): ``(None, None)`` if there is no such game,
    ``(game, None)`` if ``user`` (maybe a visitor) holds no seat. The game's creator is
    loaded, and the seat's game is the game. ``state=False`` leaves the snapshot deferred
    (read on first use) and sets ``game.has_state`` (``Game.has_snapshot``) instead.
    ``waiting``: ``game.nav_waiting`` is also ``waiting_count(user)`` (None for a visitor),
    counted by the same statement (a full page shows it in its navigation). ``seats``: the
    page's seat rows are read by the same statement too, for ``page_seats(game, user)``
    (which then asks no query while the game is at the version read)."""
    pk = Game._meta.pk.to_python(game_id)
    user_id = user.pk if getattr(user, "is_authenticated", False) else None
    waiting = waiting and user_id is not None
    sql, game_fields, user_fields, seat_fields = _game_with_seat_sql(connection.vendor, state, waiting, seats)
    game_id_param = Game._meta.pk.get_db_prep_value(pk, connection)
    params = [user_id, *(_page_seats_params(user, pk) if seats else ()), game_id_param]
    if waiting:
        _sql, count_params, at = _waiting_count_sql(connection.vendor)
        params[:0] = _with_user(count_params, at, user_id)
    rows = statements.read(connection, sql, params)  # one row a seat with ``seats``, else one
    row = rows[0] if rows else None
    if row is None:
        return None, None
    ng, nu = len(game_fields), len(user_fields)
    converters = _row_converters(connection.vendor, state)
    game = Game.from_db(connection.alias, [f.attname for f in game_fields], _converted(converters[0], row[:ng]))
    game.has_state, game.nav_waiting = bool(row[ng]), row[ng + 1]
    creator = get_user_model().from_db(connection.alias, [f.attname for f in user_fields],
                                       _converted(converters[1], row[ng + 2:ng + 2 + nu]))
    Game.creator.field.set_cached_value(game, creator)
    end = ng + 2 + nu + len(seat_fields)
    if seats:
        game._page_seats = (game.version, user_id, _page_seat_rows(game, [r[end:] for r in rows]))
    seat_values = row[ng + 2 + nu:end]
    if seat_values[0] is None:  # no seat of this user's (the seat's id is never null)
        return game, None
    seat = Seat.from_db(connection.alias, [f.attname for f in seat_fields], _converted(converters[2], seat_values))
    Seat.game.field.set_cached_value(seat, game)
    return game, seat


def chat_poll_id(game: Game) -> int:
    """``chat_last_id`` of a ``game_for_poll`` row for its viewer, from its annotations: the
    players' channel for a player until the game is over, both channels otherwise."""
    channels = _read_channels(game, seated=game.seat_id is not None)
    last = {ChatChannel.PLAYERS: game.chat_players, ChatChannel.SPECTATORS: game.chat_spectators}
    return max((last[channel] or 0 for channel in channels), default=0)


def chat_reader(user, game: Game) -> ChatReader:
    """The user's read position and mute at ``game`` (an unsaved default if none is stored,
    or for a visitor)."""
    if not getattr(user, "is_authenticated", False):
        return ChatReader(game=game)
    return ChatReader.objects.filter(user=user, game=game).first() or ChatReader(user=user, game=game)


#: The ``Seat`` fields ``page_seats`` reads: what the page's seat records read
#: (``presenters.page.SeatInfo.of``, the clock); any other field is deferred.
PAGE_SEAT_FIELDS = frozenset({"id", "game", "user", "bot_level", "bot_name", "order", "colour", "awaiting",
                              "bank_seconds", "clock_started_at", "deadline", "absent", "votes_to_end",
                              "accepted"})


def _loaded(model, names) -> list:
    """``model``'s concrete fields named in ``names``, in the model's order (``from_db``'s)."""
    return [f for f in model._meta.concrete_fields if f.name in names]


def _page_seats_parts(qn) -> tuple[list[str], str, int]:
    """``page_seats``' statement in parts: its columns, its ``FROM ... WHERE`` (without an
    order) and the index of the seat's ``order`` among the columns. Parameters: players'
    channel, False, spectators' channel, False, user id, user id, game id."""
    user_model = get_user_model()
    seat_fields = _loaded(Seat, PAGE_SEAT_FIELDS)
    newest = (f"(SELECT id FROM {qn(ChatMessage._meta.db_table)} WHERE game_id = s.game_id AND channel = %s "
              "AND hidden = %s ORDER BY id DESC LIMIT 1)")
    reader = f"(SELECT {{}} FROM {qn(ChatReader._meta.db_table)} WHERE game_id = s.game_id AND user_id = %s)"
    columns = [f"s.{qn(f.column)}" for f in seat_fields]
    columns += [f"u.{qn(f.column)}" for f in _loaded(user_model, {"username"})]
    columns += [f"c.{qn(f.column)}" for f in _loaded(PlayerClock, {"id", "vacation_since"})]
    columns += [newest, newest, reader.format("last_read_id"), reader.format("muted")]
    tables = (f"FROM {qn(Seat._meta.db_table)} s "
              f"LEFT JOIN {qn(user_model._meta.db_table)} u ON u.{qn(user_model._meta.pk.column)} = s.user_id "
              f"LEFT JOIN {qn(PlayerClock._meta.db_table)} c ON c.user_id = s.user_id "
              "WHERE s.game_id = %s")
    return columns, tables, [f.name for f in seat_fields].index("order")


@functools.cache
def _page_seats_sql(vendor: str) -> str:
    # written once per database vendor: the ORM compiled this query in more time than it ran
    qn = connection.ops.quote_name
    columns, tables, _order = _page_seats_parts(qn)
    return f"SELECT {', '.join(columns)} {tables} ORDER BY s.{qn('order')}"


def _converters(fields) -> list[tuple]:
    """Per field of ``fields``: its column and the functions the ORM reads it through from
    this database (dates, booleans, uuids; none for most on PostgreSQL)."""
    return [(f.cached_col, connection.ops.get_db_converters(f.cached_col) + f.get_db_converters(connection))
            for f in fields]


def _converted(converters: list[tuple], values) -> list:
    """``values`` read through ``converters`` (``_converters``)."""
    out = []
    for (column, functions), value in zip(converters, values, strict=True):
        for convert in functions:
            value = convert(value, column, connection)
        out.append(value)
    return out


def _page_seats_params(user, game_id) -> list:
    """``_page_seats_parts``' parameters for ``user`` (maybe a visitor) and ``game_id``."""
    user_id = user.pk if getattr(user, "is_authenticated", False) else None
    return [ChatChannel.PLAYERS, False, ChatChannel.SPECTATORS, False, user_id, user_id,
            Seat._meta.get_field("game").get_db_prep_value(game_id, connection)]


def page_seats(game: Game, user) -> list[Seat]:
    """The seats of ``game`` in order, in one query written once: ``PAGE_SEAT_FIELDS`` (the
    rest deferred), each with its user (id and username) and the user's ``player_clock``
    (vacation, or none) loaded. Each row also carries what the chat region needs besides
    its messages (``page_chat_known``): ``chat_players`` / ``chat_spectators`` (id of the
    newest message not hidden in each channel, None: none) and ``chat_read`` /
    ``chat_muted`` (``user``'s ``ChatReader`` at the game, None: no row or a visitor).

    No query if ``game`` came from ``game_with_seat(..., seats=True)``, or a store read its
    rows with its writes (``hand_over_page_reads``), for the same user and ``game`` is still
    at the version read then (its rows are used, once)."""
    user_id = user.pk if getattr(user, "is_authenticated", False) else None
    read = game.__dict__.pop("_page_seats", None)
    if read is not None and read[:2] == (game.version, user_id):
        return read[2]
    return _page_seat_rows(game, statements.read(connection, _page_seats_sql(connection.vendor),
                                                 _page_seats_params(user, game.pk)))


@functools.cache
def _page_seat_columns(vendor: str) -> tuple[list, list, list]:
    # per vendor, as the statement: the seat's fields, every field read, their converters
    seat_fields = _loaded(Seat, PAGE_SEAT_FIELDS)
    fields = [*seat_fields, *_loaded(get_user_model(), {"username"}),
              *_loaded(PlayerClock, {"id", "vacation_since"})]
    return seat_fields, fields, _converters(fields)


def _page_seat_rows(game: Game, rows) -> list[Seat]:
    """The ``page_seats`` of ``game`` from rows of ``_page_seats_parts``' columns (a row
    whose seat id is null, a game without seats in ``game_with_seat``'s join, is none)."""
    user_model, db = get_user_model(), connection.alias
    seat_fields, fields, converters = _page_seat_columns(connection.vendor)
    n = len(seat_fields)
    seats = []
    for row in rows:
        if row[0] is None:
            continue
        values = _converted(converters, row[:len(fields)])
        seat = Seat.from_db(db, [f.attname for f in seat_fields], values[:n])
        Seat.game.field.set_cached_value(seat, game)
        if seat.user_id is not None:
            account = user_model.from_db(db, ["id", "username"], [seat.user_id, values[n]])
            clock_id, vacation_since = values[n + 1:n + 3]
            player_clock = None if clock_id is None else PlayerClock.from_db(
                db, ["id", "user_id", "vacation_since"], [clock_id, seat.user_id, vacation_since])
            PlayerClock.user.field.remote_field.set_cached_value(account, player_clock)
            Seat.user.field.set_cached_value(seat, account)
        seat.chat_players, seat.chat_spectators, seat.chat_read, seat.chat_muted = row[len(fields):]
        seats.append(seat)
    return seats


@dataclass(frozen=True)
class ChatKnown:
    """What ``page_seats`` read of a game's chat for its viewer: the viewer's ``reader``
    (unsaved default if none) and the newest message id of each channel (0: none)."""

    reader: ChatReader
    newest: dict[str, int]


def page_chat_known(game: Game, user, rows: list[Seat]) -> ChatKnown | None:
    """The ``ChatKnown`` of ``page_seats`` rows (None for no rows: ask the database)."""
    if not rows:
        return None
    row = rows[0]
    authenticated = getattr(user, "is_authenticated", False)
    # by ids: setting the relations (the request's lazy user, the game) cost more than the rest
    reader = ChatReader(user_id=user.pk if authenticated else None, game_id=game.pk, last_read_id=row.chat_read or 0,
                        muted=bool(row.chat_muted))
    return ChatKnown(reader=reader, newest={ChatChannel.PLAYERS: row.chat_players or 0,
                                            ChatChannel.SPECTATORS: row.chat_spectators or 0})


def _unread_by_game(user, seats: QuerySet, since: dt.datetime | None = None) -> QuerySet:
    # (game id, messages unread by user) in the players' channel of the games of ``seats``
    # (the user's seats, as ids of their games): see chat_unread_counts
    readers = ChatReader.objects.filter(user=user, game=OuterRef("game"))
    messages = (
        ChatMessage.objects.filter(
            game_id__in=seats.values("game_id"), channel=ChatChannel.PLAYERS, hidden=False,
            id__gt=Coalesce(Subquery(readers.values("last_read_id")[:1]), 0))
        .exclude(author=user).exclude(Exists(readers.filter(muted=True)))
    )
    if since is not None:
        messages = messages.filter(created_at__gte=since)
    return messages.order_by().values("game_id").annotate(n=Count("pk")).values_list("game_id", "n")


def chat_unread_counts(user, game_ids, *, since: dt.datetime | None = None) -> dict[Any, int]:
    """``{game id: messages unread by user}`` in the players' channel of the games of
    ``game_ids`` where ``user`` (a user or its id) sits: other players' messages after the
    user's read position, not hidden; a muted chat counts nothing. ``since`` also leaves out
    older messages (the digest counts only the last day's). Games with none are left out.
    One grouped query, whatever the number of games; none for no games."""
    game_ids = list(game_ids)
    if not game_ids:
        return {}
    return dict(_unread_by_game(user, Seat.objects.filter(user=user, game_id__in=game_ids), since))


#: ``chat_unread_waiting``'s counts, compiled once per process (``games.compiled``).
_UNREAD_WAITING = UserQuery(lambda user_id: _unread_by_game(user_id, seats_waiting_for(user_id).order_by()))


def chat_unread_waiting(user) -> dict[Any, int]:
    """``chat_unread_counts`` of every game waiting for ``user`` (a signed-in user;
    ``seats_waiting_for``): the home page's counts, whatever page of the list it shows; one
    query, its SQL compiled once."""
    return dict(_UNREAD_WAITING.run(user.pk))


def chat_recent_count(user, game: Game, seconds: int, now: dt.datetime | None = None) -> int:
    """How many messages ``user`` posted at ``game`` in the last ``seconds`` (the rate limit)."""
    now = now or timezone.now()
    return ChatMessage.objects.filter(game=game, author=user,
                                      created_at__gt=now - dt.timedelta(seconds=seconds)).count()


# --- Ratings (games.services.ratings) --------------------------------------------------------

#: Players on one leaderboard page.
LEADERBOARD_SIZE = 50


def rating_for(user, rules: str = "orleans"):
    """The user's ``Rating`` for ``rules``, or None before their first rated game."""
    return Rating.objects.filter(user=user, rules=rules).first()


def rating_history(user, rules: str = "orleans", limit: int = 20) -> list:
    """The user's last ``limit`` ``RatingChange`` rows for ``rules``, newest first, games loaded."""
    return list(RatingChange.objects.filter(user=user, game__rules=rules)
                .select_related("game").defer("game__state").order_by("-created_at", "-id")[:limit])


def leaderboard(rules: str = "orleans", limit: int = LEADERBOARD_SIZE) -> list:
    """The best ``limit`` ratings for ``rules`` (highest ``ordinal`` first, then most games),
    users loaded; active accounts only."""
    return list(Rating.objects.filter(rules=rules, user__is_active=True).select_related("user")
                .order_by("-ordinal", "-games", "user__username")[:limit])
