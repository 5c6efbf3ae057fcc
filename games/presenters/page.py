"""The game page's context: the page selector and the presenters it combines.

Everything shown derives from the viewer's ``engine.view``; ``game_page`` builds the
``GamePage`` that the full page and every HTMX fragment render (``game_context`` is its
template context, ``games.views.regions``). A ``GamePage`` holds display values only: the
game and its seats as small read-only records (``GameInfo``, ``SeatInfo``), never the
``Game`` row with its full ``state`` (seed, bags, plans) nor any seat's action queue (the
viewer's own queue is shown through ``queue``).
"""
from __future__ import annotations

import datetime as dt
import functools
import hashlib
import json
import uuid
from pathlib import Path
from dataclasses import dataclass, field, fields, replace
from collections.abc import Callable
from typing import Any

from django.apps import apps
from django.conf import settings
from django.core.cache import caches
from django.core.exceptions import ObjectDoesNotExist
from django.utils import timezone, translation

from games import bots, clock, rules, selectors, spectators
from games.access import make_invite_token
from games.models import Game, Seat, state_digest
from games.presenters import act_board, board, planning
from games.presenters.chat import ChatPanel, chat_panel
from games.presenters.decisions import decision_context
from games.presenters.fingerprint import fingerprint, locale, modules_source
from games.vocabulary import decision_prompt, decision_waiting
from games.presenters.queue import queue_context
from games.services.play import STALE_WINDOW, moved_independently
from games.services.queue import ACTION_QUEUE_LIMIT
from games.services.undo import take_back_refusal


class LazyRegions(dict):
    """A dict some of whose keys are computed on first read (``board["map"]``, ``board.map``
    in a template): a region served from the cache (``games.views.regions``) costs nothing
    to present. ``lazy``: key -> function of no argument giving the value."""

    def __init__(self, eager: dict, lazy: dict, inputs: dict | None = None) -> None:
        super().__init__(eager)
        self._lazy = lazy
        self._inputs = inputs or {}

    def inputs(self, key: str):
        """What the lazy ``key`` is a function of (JSON-able, for its fingerprint) without
        computing it: ``inputs[key]()`` if given, else the value itself."""
        make = self._inputs.get(key)
        return make() if make is not None else self[key]

    def __missing__(self, key):
        if key not in self._lazy:
            raise KeyError(key)
        value = self[key] = self._lazy[key]()
        return value

    def __contains__(self, key) -> bool:
        return super().__contains__(key) or key in self._lazy

    def get(self, key, default=None):
        """``dict.get``, computing a lazy key."""
        return self[key] if key in self else default

    def complete(self) -> dict:
        """Every key computed, as a plain dict."""
        return {key: self[key] for key in [*dict.keys(self), *self._lazy]}

    def eager(self) -> dict:
        """The keys given (and those computed so far) as a plain dict."""
        return {key: value for key, value in self.items() if key not in self._lazy}

    def __reduce__(self):
        return dict, (self.complete(),)  # pickled (cached) as the plain dict


def board_context(rules, view: dict, names: dict[int, str], eager: dict | None = None, *,
                  places_shown: bool = False) -> dict:
    """Display-ready board regions, all derived from the viewer's ``view`` by the game's
    engine ``rules`` (``games.rules.engine_for``). The shared regions' contexts (map,
    tracks, development, deeds, event, place tiles, supply) are computed when first read
    (``LazyRegions``). ``eager``: the other keys as computed before (``LazyRegions.eager``
    of a board of the same view), not computed again. ``LazyRegions.inputs`` of a shared
    region is its slice of the view (``board.VIEW_SLICES``) with the engine's version and
    the presenters' sources. ``places_shown``: the viewer's own places are shown on the
    decision board instead (``player_board_fragment``)."""
    lazy = {name: (lambda make=make: make(rules, view)) for name, make in (
        ("map", board.map_context), ("tracks", board.tracks_context), ("development", board.development_context),
        ("deeds", board.deeds_context), ("event", board.event_context), ("place_tiles", board.place_tiles_context),
        ("supply", board.supply_context))}
    revision = inputs_revision(rules)
    inputs = {name: (lambda make=make: (revision, make(view))) for name, make in board.VIEW_SLICES.items()}
    if eager is not None:
        return LazyRegions(eager, lazy, inputs)
    boards = board.player_boards(rules, view, names, fragment=player_board_fragment(revision, places_shown))
    viewer = view.get("seat")
    awaited = [{"seat": s, "name": names.get(s) or board.seat_label(s), "colour": board.seat_colour(s),
                "kind": view["players"][s].get("awaiting"),
                "prompt": (decision_prompt if s == viewer else decision_waiting)(view["players"][s].get("awaiting"))}
               for s in view.get("awaiting", [])]
    return LazyRegions({
        "boards": boards,
        "mine": next((b for b in boards if b["is_viewer"]), None),
        "awaited": awaited,
        "my_turn": viewer is not None and viewer in view.get("awaiting", []),
        "names": names,
    }, lazy, inputs)


def inputs_revision(rules) -> tuple[str, str]:
    """What a piece keyed by its inputs (a shared region's slice of the view, a player
    board's) is keyed with besides them: the engine's version and ``presenters_revision``."""
    return getattr(rules, "ENGINE_VERSION", ""), presenters_revision(rules)


@functools.cache
def presenters_revision(rules) -> str:
    """A hash of what the texts of the regions keyed by their inputs come from: the sources
    of the modules their presenters run (board, map geometry, messages, vocabulary), the
    files of the rules engine ``rules`` (a package: its sources and data, its texts among
    them) and the site's compiled catalogues of its languages: a deploy that changes one
    never serves a region or a player board's article cached under its inputs' fingerprint
    by the old code."""
    from games import messages, vocabulary
    from games.presenters import map_geometry

    sources = modules_source(board, map_geometry, messages, vocabulary)
    return hashlib.sha1(sources + _package_files(rules) + _catalogues()).hexdigest()[:8]


def _package_files(rules) -> bytes:
    # the source and data files of the engine's package (none for an engine that is no package)
    path = getattr(rules, "__file__", None)
    if not path or Path(path).name != "__init__.py":
        return b""
    root = Path(path).parent
    return b"".join(f.read_bytes() for f in sorted(root.rglob("*")) if f.suffix in (".py", ".json"))


def _catalogues() -> bytes:
    # the compiled catalogues (.mo) of the site's languages, in the project's locale folders
    # and its own apps' (those under BASE_DIR: installed packages' words are not the regions')
    roots = [Path(p) for p in settings.LOCALE_PATHS]
    roots += [Path(app.path) / "locale" for app in apps.get_app_configs()
              if Path(app.path).is_relative_to(settings.BASE_DIR)]
    found = []
    for root in roots:
        for code, _name in settings.LANGUAGES:
            found += sorted((root / translation.to_locale(code) / "LC_MESSAGES").glob("*.mo"))
    return b"".join(path.read_bytes() for path in found)


#: The templates a player board's article is rendered by (``_boards.html``'s fragment cache),
#: with the partials they include (``fingerprint.templates_revision`` follows them): the
#: section renders its articles through the ``player_boards`` global, not an include.
PLAYER_BOARD_TEMPLATES = ("games/partials/_boards.html", "games/partials/_player_board.html")


def player_board_fragment(revision: tuple, places_shown: bool) -> Callable[[tuple, bool], str]:
    """The ``fragment`` key function of ``board.player_boards`` (``(inputs, is_viewer) ->
    key``): the fingerprint of what a player board's article shows, from what its board
    is built of (``inputs`` and ``revision``, the game's ``inputs_revision``) and whether
    the viewer's own places are shown on the decision board instead (``places_shown``);
    ``_boards.html`` caches each article under it, so a move re-renders only the boards it
    changed."""
    where = locale()

    def fragment(inputs: tuple, is_viewer: bool) -> str:
        return fingerprint("player-board", (revision, inputs, places_shown and is_viewer),
                           PLAYER_BOARD_TEMPLATES, where) or uuid.uuid4().hex  # never shared if not

    return fragment


def _on_vacation(seat: Seat) -> bool:
    if seat.user is None:  # a bot seat
        return False
    try:
        return seat.user.player_clock.vacation_since is not None
    except ObjectDoesNotExist:  # never been on vacation
        return False


@dataclass(frozen=True)
class UserInfo:
    """A player as the page names them: id and username only."""

    pk: int
    username: str


@dataclass(frozen=True)
class GameInfo:
    """What a game page shows of the ``Game`` row (the attribute names templates read).

    No ``state``, ``seed`` or ``outcome``: the page shows the game through the engine's
    view only. ``get_status_display`` is the status's label, as on the model.
    """

    pk: uuid.UUID
    name: str
    status_label: str
    version: int
    max_seats: int
    is_public: bool
    options: dict
    creator: UserInfo
    is_open: bool
    is_active: bool
    is_finished: bool = False
    live_version: int = 0

    @property
    def creator_id(self) -> int:
        """The creator's user id (as ``Game.creator_id``)."""
        return self.creator.pk

    def get_status_display(self) -> str:
        """The status's label ("Active"), as ``Game.get_status_display``."""
        return self.status_label

    @classmethod
    def of(cls, game: Game) -> "GameInfo":
        """The display record of ``game``."""
        return cls(
            pk=game.pk, name=game.name, status_label=game.get_status_display(), version=game.version,
            max_seats=game.max_seats, is_public=game.is_public, options=dict(game.options or {}),
            creator=UserInfo(game.creator_id, game.creator.username),
            is_open=game.is_open, is_active=game.is_active, is_finished=game.is_finished,
            live_version=game.live_version,
        )


@dataclass(frozen=True)
class SeatInfo:
    """What a game page shows of a ``Seat``: who sits there and their clock; no action
    queue or queue note (the viewer's own queue is the page's ``queue``).

    ``name`` is the player's username or the bot seat's name; ``user`` is None for a bot
    seat (``is_bot``); ``bot_playing`` is the level label of the bot that plays the seat
    now (a bot seat's, or the takeover bot's while its player is absent), "" if none.
    ``clock_left`` is the remaining bank as text (None without a clock or once the game is
    not active); ``on_vacation`` whether the player is on vacation.
    """

    pk: int
    order: int
    colour: str
    user: UserInfo | None
    name: str
    is_bot: bool
    bot_playing: str
    awaiting: str
    deadline: dt.datetime | None
    absent: bool
    votes_to_end: bool
    clock_left: str | None = None
    on_vacation: bool = False
    accepted: bool = True

    @property
    def user_id(self) -> int | None:
        """The player's user id (as ``Seat.user_id``; None for a bot seat)."""
        return self.user.pk if self.user else None

    @classmethod
    def of(cls, seat: Seat, *, clock_left: str | None = None, on_vacation: bool = False,
           game: Game | None = None) -> "SeatInfo":
        """The display record of ``seat`` (its user loaded; ``game``: its game, for the
        takeover bot)."""
        level = bots.playing_level(game or seat.game, seat)
        return cls(pk=seat.pk, order=seat.order, colour=seat.colour,
                   user=UserInfo(seat.user_id, seat.user.username) if seat.user else None,
                   name=seat.display_name, is_bot=seat.is_bot, bot_playing=bots.label(level) if level else "",
                   awaiting=seat.awaiting, deadline=seat.deadline, absent=seat.absent,
                   votes_to_end=seat.votes_to_end, clock_left=clock_left, on_vacation=on_vacation,
                   accepted=seat.accepted)


@dataclass(frozen=True)
class ResultLine:
    """One player's line of a finished game's scores (``selectors.PlayerResult`` with the
    seat as a ``SeatInfo``); ``bot_moves``: how many of the seat's moves a bot made."""

    seat: SeatInfo
    score: Any
    placement: int | None
    breakdown: dict | None
    bot_moves: int = 0


@dataclass(frozen=True)
class GameResult:
    """A finished game's scores in placement order, and the viewer's own line (or None)."""

    results: list[ResultLine]
    viewer: ResultLine | None


def _result(game: Game, viewer: Seat | None, seats: dict[int, SeatInfo]) -> GameResult:
    finished = selectors.finished_game_result(game, viewer.user if viewer else None)
    by_bot = selectors.bot_move_counts(game)

    def line(r) -> ResultLine:
        return ResultLine(seats[r.seat.pk], r.score, r.placement, r.breakdown, by_bot.get(r.seat.order, 0))

    return GameResult(results=[line(r) for r in finished.results],
                      viewer=line(finished.viewer) if finished.viewer else None)


def seat_infos(game: Game, seats: list[Seat]) -> list[SeatInfo]:
    """Every seat of ``game`` as the page shows it, with ``clock_left`` and ``on_vacation``."""
    now = timezone.now()
    running = clock.has_clock(game) and game.is_active
    return [SeatInfo.of(s, clock_left=clock.format_duration(clock.remaining(s, now))
                        if running and not s.is_bot else None,
                        on_vacation=_on_vacation(s), game=game) for s in seats]


def seat_clocks(game: Game, seats: list[SeatInfo], viewer: SeatInfo | None) -> dict:
    """The game's pace, the end-of-game vote when a seat is absent, and whether the viewer
    may vote to end the game."""
    present = [s for s in seats if not s.absent and not s.is_bot]  # the players who vote
    absent = game.is_active and any(s.absent for s in seats)
    return {
        "pace": clock.pace_of(game),
        "end_vote": {"agree": sum(s.votes_to_end for s in present), "of": len(present)}
        if absent else None,
        "can_vote_end": absent and viewer is not None and not viewer.absent,
    }


def stale_since(moves: list, seat: Seat | None, rules_engine: rules.RulesEngine, older=lambda: ()) -> int:
    """The last move after which a page's forms would be refused as stale for ``seat``: a
    resolution, a move of its own, or any move that is not an independent simultaneous step
    (``services.moved_independently``), or, once that is more than ``STALE_WINDOW`` moves
    back (``services.play``: older forms are refused whatever came in between), a move
    half a window on at a time. Part of the decision region, so the region (and its
    ``expected_version``) is sent again exactly when older forms would be refused.

    ``moves``: the recent moves, oldest first (``selectors.recent_moves``: a round always
    has a resolution, so the answer is among them); ``older``: the moves before them, as
    a callable returning them newest first, called only if the answer is not among ``moves``."""
    order = seat.order if seat is not None else None

    def newest_first():
        yield from reversed(moves)
        yield from older()  # only asked for if no move of ``moves`` answers

    since = next((move.seq for move in newest_first()
                  if not moved_independently(rules_engine, move.seat, move.action, order)), 0)
    latest = moves[-1].seq if moves else 0
    if latest - since > STALE_WINDOW:  # older than the services accept: on, half a window at a time
        step = STALE_WINDOW // 2
        since += step * -(-(latest - since - STALE_WINDOW) // step)
    return since


#: Rules name (``Game.rules``) -> the presenter of its board regions. Rules without one
#: show the page without the board (status, decisions, players, log).
BOARDS = {"orleans": board_context}


@dataclass(frozen=True)
class RematchInfo:
    """A rematch as a game page shows it. On the finished game: ``pk``, ``is_open`` and
    whether the viewer ``accepted`` the rematch asked for (``waiting_for``: names still to
    accept). On the rematch's own lobby page: ``of_name``, the finished game's name."""

    pk: uuid.UUID | None = None
    is_open: bool = False
    accepted: bool = False
    waiting_for: tuple[str, ...] = ()
    of_name: str = ""


def rematch_info(game: Game, seat: Seat | None) -> RematchInfo | None:
    """The ``RematchInfo`` of a finished game (its rematch, if asked for) or of an open
    rematch; None for other games."""
    if game.is_finished:
        rematch = selectors.rematch_of_game(game)
        if rematch is None:
            return None
        seats = list(rematch.seats.select_related("user"))
        viewer = next((s for s in seats if seat is not None and s.user_id == seat.user_id), None)
        return RematchInfo(pk=rematch.pk, is_open=rematch.is_open, accepted=bool(viewer and viewer.accepted),
                           waiting_for=tuple(s.display_name for s in seats if not s.accepted))
    if game.is_open and game.rematch_of_id is not None:
        return RematchInfo(pk=game.pk, is_open=True, of_name=game.rematch_of.name,
                           waiting_for=tuple(s.display_name for s in game.seats.select_related("user")
                                             if not s.accepted))
    return None


@dataclass
class GamePage:
    """Everything a game page (and each of its HTMX regions) shows, for one viewer.

    ``game``/``seat``/``seats`` are display records (``GameInfo``, ``SeatInfo``); ``view``
    and ``actions`` the viewer's ``engine.view`` and legal actions (with the viewer's draft
    plan applied while it plans, ``planning.apply_draft``); ``board``, ``decision``,
    ``plan`` (the planning board, while the viewer plans), ``act`` (the board's
    targets for the other decisions played on it, ``act_board.act_context``), ``queue`` (the viewer's own
    queue panel), ``log`` the presenters' contexts; ``log`` holds the current and previous
    rounds only, ``log_older`` the round before them (0: none; ``views.log`` sends it). Fields a page of an open or cancelled
    game has no use for stay at their defaults. ``state_key`` identifies the stored snapshot
    for the region caches (``state_key``; never rendered).
    """

    game: GameInfo
    seat: SeatInfo | None
    seats: list[SeatInfo]
    flash: str | None = None
    poll_seconds: int = 0
    free_seats: int = 0
    invite_token: str | None = None
    view: dict | None = None
    actions: list[dict] = field(default_factory=list)
    awaited_seats: list[SeatInfo] = field(default_factory=list)
    pace: Any = None
    end_vote: dict | None = None
    can_vote_end: bool = False
    board: dict | None = None
    decision: dict | None = None
    plan: dict | None = None
    act: dict | None = None
    queue: dict | None = None
    log: list = field(default_factory=list)
    log_older: int = 0
    decision_since: int = 0
    start_player: int | None = None
    result: GameResult | None = None
    chat: ChatPanel | None = None
    rematch: RematchInfo | None = None
    can_take_back: bool = False
    watching: list[str] = field(default_factory=list)
    state_key: str = ""

    def context(self) -> dict:
        """The template context: one key per field (nested records kept as they are)."""
        return {f.name: getattr(self, f.name) for f in fields(self)}


#: How long a viewer's engine-derived page parts stay cached (``_parts_key``: one version;
#: they serve the polls and reloads soon after a move, and are large).
PARTS_SECONDS = 600
#: The ``Seat`` fields the viewer's queue panel reads (part of ``_parts_key``).
_QUEUE_FIELDS = [f.attname for f in Seat._meta.concrete_fields if f.name.startswith("action_queue")]


def _parts_key(game: Game, seat: Seat | None, names: dict[int, str], plan_draft: str | None) -> str:
    """The cache key of the viewer's ``_engine_parts``: everything they are computed from
    (the game's version and status, its rules, the viewer's seat and own queue, the names,
    the draft plan, language and time zone, and the snapshot itself). A seat's key is its own: its hidden
    information is never served to another seat; every spectator shares one."""
    who = ["spectator"] if seat is None else [seat.order, [getattr(seat, f) for f in _QUEUE_FIELDS]]
    raw = json.dumps([str(game.pk), game.version, game.status, game.rules, game.engine_version, state_key(game),
                      who, sorted(names.items()), plan_draft or "", locale()], default=str)
    return "page-parts:" + hashlib.sha1(raw.encode()).hexdigest()


def versioned_inputs(game: Game, seat: Seat | None, live: GamePage, user) -> list:
    """What the engine-derived part of ``game``'s page for the viewer's ``seat`` (None: a
    spectator, or a visitor when ``user`` is not signed in) is a function of, besides the
    language, time zone and templates: the game's version, status, rules and snapshot
    (``state_key``), the viewer's seat, user and own queue, and the game and seat records
    of ``live`` (its ``live_page``: names, clocks, absences). JSON-able, for a cache key."""
    if seat is None:
        who = ["spectator" if getattr(user, "is_authenticated", False) else "visitor"]
    else:
        who = [seat.pk, seat.user_id, seat.order, [getattr(seat, f) for f in _QUEUE_FIELDS]]
    # the clock's text changes every minute; only the live players region shows it (its
    # stored fields stay in the key): keyed by whether there is one
    seats = [replace(s, clock_left=s.clock_left is not None) for s in live.seats]
    return [str(game.pk), game.version, game.status, game.rules, game.engine_version, state_key(game), who,
            live.game, seats]


def state_key(game: Game) -> str:
    """A key of the game's stored snapshot, for cache keys only (never shown): its
    ``Game.state_stamp`` (no need to read the snapshot), else a hash of the snapshot itself.
    A snapshot rewritten at the same version (a repair) is a new key."""
    if game.state_stamp:
        return game.state_stamp
    cached = getattr(game, "_state_key", None)
    if cached is None or cached[0] is not game.state:
        cached = game._state_key = game.state, state_digest(game.state)  # the stamp's own digest
    return cached[1]


def _engine_parts(game: Game, seat: Seat | None, rules_engine, names: dict[int, str],
                  plan_draft: str | None) -> dict:
    """What a ``GamePage`` takes from the game's state, its log and the viewer's queue (a
    function of ``_parts_key``'s inputs): ``view``, ``actions``, ``board`` (the eager part
    of ``board_context``), ``decision``, ``plan``, ``act``, ``queue``, ``can_take_back``,
    ``log``, ``log_older``, ``decision_since``, ``start_player``."""
    state = selectors.game_state(game)
    board_for = BOARDS.get(game.rules)
    planning_now = board_for is not None and seat is not None and game.is_active \
        and rules_engine.awaiting(state).get(seat.order) == "plan"
    draft: list[dict] = []
    out: dict[str, Any] = {"plan": None, "act": None}
    out["can_take_back"] = seat is not None and not take_back_refusal(game, rules_engine, state, seat.order)
    if planning_now:
        state, draft = planning.apply_draft(rules_engine, state, seat.order, planning.parse_draft(plan_draft))
    view = out["view"] = selectors.game_view_for_seat(game, state, seat)
    actions = out["actions"] = selectors.legal_actions_for_seat(game, state, seat)
    if draft:  # the text view's submit sends the plan the page shows, as the board's does
        for item in actions:
            if item["action"]["type"] == "submit_plan":
                item["action"] = planning.whole_plan(view, seat.order)
    out["decision"] = decision_context(rules_engine, view, actions)
    if planning_now:
        out["plan"] = planning.plan_context(
            rules_engine, state, seat.order, view, actions,
            key=f"{game.pk}:{seat.order}:{view['round']}", draft=draft, sent=plan_draft or "")
    elif board_for is not None and game.is_active:
        out["act"] = act_board.act_context(rules_engine, view, actions, out["decision"]["kind"])
    # with a plan or act board the viewer's own places are on the decision board
    board_now = board_for(rules_engine, view, names, places_shown=bool(out["plan"] or out["act"])) \
        if board_for else None
    out["board"] = board_now.eager() if board_now else None
    out["queue"] = (queue_context(rules_engine, view, seat, limit=ACTION_QUEUE_LIMIT,
                                  options=selectors.queue_options_for_seat(game, state, seat))
                    if board_now else None)
    moves = selectors.recent_moves(game)  # the current and previous rounds only
    shown_from = moves[0].round if moves else 1
    out["log"] = [r for r in selectors.move_log(moves, names, first_round=selectors.first_log_round(moves),
                                                keep_lines=True)
                  if r.round >= shown_from]
    out["log_older"] = shown_from - 1 if moves and moves[0].seq > 1 else 0
    out["decision_since"] = stale_since(
        moves, seat, rules_engine,
        older=lambda: selectors.moves_before(game, moves[0].seq)[:STALE_WINDOW] if moves else ())
    out["start_player"] = view.get("start_player")
    return out


def live_page(game: Game, seat: Seat | None, *, flash: str | None = None, user=None) -> GamePage:
    """The part of ``game``'s ``GamePage`` for the viewer's ``seat`` (None: a spectator) that
    can change without a new version: the game and seat records, the clocks and the vote,
    who is watching, the chat (for ``user``: the request's, maybe a visitor; None leaves it
    out); an open game's whole page. ``game_page`` adds the engine-derived fields; a page
    served from ``games.views.regions``' page cache shows this part alone afresh."""
    rows = selectors.page_seats(game, user)
    seats = seat_infos(game, rows)
    viewer = next((s for s in seats if seat is not None and s.pk == seat.pk), None)
    poll_seconds = settings.GAMES_FINISHED_POLL_SECONDS if game.is_finished else settings.GAMES_POLL_SECONDS
    page = GamePage(game=GameInfo.of(game), seat=viewer, seats=seats, flash=flash, poll_seconds=poll_seconds)
    if game.is_open:
        page.pace = clock.pace_of(game)  # shown with the options in the lobby
        page.free_seats = game.max_seats - len(seats)
        page.invite_token = make_invite_token(game) if seat is not None and game.rematch_of_id is None else None
        page.rematch = rematch_info(game, seat)
        return page
    if not game.has_snapshot:  # cancelled before start
        return page
    page.awaited_seats = [s for s in seats if s.awaiting]
    clocks = seat_clocks(game, seats, viewer)
    page.pace, page.end_vote, page.can_vote_end = clocks["pace"], clocks["end_vote"], clocks["can_vote_end"]
    page.watching = spectators.watching(game) if game.is_public else []
    if user is not None:
        page.chat = chat_panel(game, seat, user, selectors.page_chat_known(game, user, rows))
    return page


def game_page(game: Game, seat: Seat | None, *, flash: str | None = None,
              plan_draft: str | None = None, user=None, live: GamePage | None = None,
              cached: bool = True) -> GamePage:
    """The ``GamePage`` of ``game`` for the viewer's ``seat`` (None: a spectator).

    Reads the game's state only to ask its engine (``engine_for(game)``) for the viewer's
    view and legal actions; reads only the viewer's own action queue. ``plan_draft`` is the
    page's draft plan (the ``plan_draft`` parameter, ``planning.parse_draft``): while the
    engine awaits the viewer's plan it is applied to the viewer's state before the view and
    the legal actions are asked for, and never stored. ``user`` (the request's, maybe a
    visitor) gets the chat region (``presenters.chat``); None leaves it out. ``live``: the
    ``live_page`` of the same arguments if already built (it is completed in place).
    ``cached``: the engine-derived parts are looked up in and kept in the regions cache
    (``_parts_key``); False for the answer to the viewer's own write (a version or queue no
    page has seen yet: the lookup would miss, and the entry would serve only a reload at
    that version by the same viewer, for a pickling and a round trip on every submit).
    """
    page = live if live is not None else live_page(game, seat, flash=flash, user=user)
    if game.is_open or game.state is None:
        return page
    if seat is None:
        plan_draft = None  # only a seat plans: a visitor's parameter must not make cache entries of its own
    names = {s.order: s.name for s in page.seats}
    rules_engine = rules.check_loadable(game)
    key = _parts_key(game, seat, names, plan_draft) if cached else None
    parts = caches["regions"].get(key) if key else None
    if parts is None:
        parts = _engine_parts(game, seat, rules_engine, names, plan_draft)
        if key:
            caches["regions"].set(key, parts, PARTS_SECONDS)
    for name, value in parts.items():
        if name != "board":
            setattr(page, name, value)
    board_for = BOARDS.get(game.rules)
    if board_for is not None and parts["board"] is not None:
        page.board = board_for(rules_engine, page.view, names, eager=parts["board"])
    page.state_key = state_key(game)
    if game.is_finished:
        page.result = _result(game, seat, {s.pk: s for s in page.seats})
        page.rematch = rematch_info(game, seat)
    return page


def game_context(game: Game, seat: Seat | None, *, flash: str | None = None,
                 plan_draft: str | None = None, user=None, cached: bool = True) -> dict:
    """Template context for a game page (``game_page(...).context()``; ``plan_draft``: the
    page's draft plan; ``cached`` as ``game_page``'s): everything derives from the engine's
    view; no raw state and no other seat's queue."""
    return game_page(game, seat, flash=flash, plan_draft=plan_draft, user=user, cached=cached).context()
