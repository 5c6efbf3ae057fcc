"""Rendering of the game page's regions, shared by the full page and the HTMX fragments.

The context comes from ``games.presenters.page.game_context``; this module renders it
region by region. Every region is a partial ``games/partials/_<name>.html`` (Jinja2 under
``templates/jinja2/``, the chat Django under ``templates/``: ``games.templating``) whose root
element has a stable id; fragment responses send them back as ``hx-swap-oob`` swaps.

A region's fingerprint (``data-region-hash`` on its root) is a hash of the data it reads
(``Region.reads``: its slice of the engine view and of the page context; for the shared
board regions ``Region.inputs``, their slice of the view, ``presenters.board.VIEW_SLICES``,
so their presenters run only if they are sent), the language, the time zone and its
template (``presenters.fingerprint``), never of its HTML: a region whose fingerprint
equals the one the page reports is neither rendered nor sent. The player boards' articles
are regions of their own inside the ``boards`` section (root ``player-board-<seat>``,
fingerprint the head of the board's ``fragment``): an answer to a page showing the section
sends only the articles that changed. An answer reads the cache once (the version's
entries, the contents, the player boards' articles) and writes once.

Caches (the ``regions`` cache: Redis in production, local memory in development): regions
built only from public information (``scope="public"``: the map, tracks, development,
deeds, event, place tiles, supply and log) are cached per game version for every viewer,
so their presenters do not even run; those and the ``"pure"`` regions (the player boards,
the players, the chat, the flash and the poll) are also cached by fingerprint, which only a
viewer whose own data has that fingerprint can ask for: no region carrying one seat's
hidden information reaches another. Cached HTML holds a placeholder for its forms' CSRF
tokens, replaced by the request's own on the way out.

The full page (``page_context``) also has a per-viewer page cache: every region but
``LIVE_REGIONS`` as rendered for this viewer at this version (``page_cache_key``: game,
version, snapshot, the viewer's seat pk and queue, the game and seat records, language,
time zone, templates), so a repeat view builds only ``presenters.page.live_page``.
"""
from __future__ import annotations

import functools
import hashlib
import re
from dataclasses import dataclass
from typing import Any, Callable

from django.core.cache import caches
from django.http import HttpRequest, HttpResponse
from django.middleware.csrf import get_token
from django.template.loader import render_to_string
from django.utils.safestring import mark_safe

from games.models import Game, Seat
from games.presenters.fingerprint import fingerprint, locale
from games.presenters.page import PLAYER_BOARD_TEMPLATES, game_context, game_page, live_page, versioned_inputs
from games.rules import check_loadable
from games.templating import render_partial, with_includes
from games.templatetags.games_extras import article_digest, article_id, player_board_articles, player_board_key
from games.vocabulary import locale_bound
from orleans_site.cache import LocalFirstRedisCache

#: How long a cached region stays (a game version, or a fingerprint: long enough for every
#: player of a slow game to look at a position, short enough to keep the cache small).
REGION_CACHE_SECONDS = 3600


def _board(context: dict, key: str):
    board = context.get("board")
    return board[key] if board else None


def _board_inputs(context: dict, key: str):
    # a shared region's slice of the view (presenters.page.LazyRegions.inputs): fingerprinted
    # before, and instead of, running its presenter
    board = context.get("board")
    if not board:
        return None
    inputs = getattr(board, "inputs", None)
    return inputs(key) if inputs is not None else board[key]


def _board_shown(context: dict, key: str):
    # a player board (``board["mine"]``) as its ``fragment`` key, the fingerprint of what its
    # article shows (presenters.page.player_board_fragment): it determines the board, and is
    # cheaper to fingerprint again than the board; the board itself if it has no such key
    shown = _board(context, key)
    fragment = shown.get("fragment") if isinstance(shown, dict) else None
    return ["fragment", fragment] if isinstance(fragment, str) and len(fragment) == 40 else shown


def _game_forms(context: dict) -> tuple:
    # what forms read of the game: not the version (an older expected_version is still
    # accepted when only other seats' independent moves came in between; ``decision_since``
    # changes exactly when it is not, games.presenters.page.stale_since)
    game = context["game"]
    return game.pk, game.is_active


def _game_status(context: dict) -> tuple:
    # what the status region reads of the game: not its version (the ``move`` region inside it)
    game = context["game"]
    return game.pk, game.get_status_display(), game.is_active


def _status(context: dict, event) -> tuple:
    # what the status region reads, the event given (its board entry, or its slice of the view)
    c = context
    return (_game_status(c), _board(c, "my_turn"), event, _board(c, "awaited"), (c.get("view") or {}).get("phase"),
            (c.get("decision") or {}).get("prompt"), c["awaited_seats"], _seat_pk(c), c.get("result"), c.get("rematch"))


def _seat_pk(context: dict):
    return context["seat"].pk if context.get("seat") else None


@dataclass(frozen=True)
class Region:
    """One region of a started game's page.

    ``name``: its partial ``games/partials/_<name>.html``; ``root_id``: the id of its root
    element; ``board_only``: shown only with a board; ``always``: sent with every answer
    (the flash and the poll element carry the message and the version); ``reads``:
    context -> the data the partial reads (JSON-able: dicts, lists, dataclasses, dates);
    ``scope``: ``"public"`` (public information only: cached per game version for every
    viewer, and by fingerprint), ``"pure"`` (its HTML depends on its data only, CSRF
    tokens aside: cached by fingerprint) or ``"viewer"`` (not proven so, e.g. forms posting
    the version: kept only in the viewer's own page entry). ``inputs``: context -> what
    ``reads`` is a function of, cheaper to get (a shared region's slice of the view, not its
    presenter's output), fingerprinted instead of ``reads``; None: ``reads`` itself.
    ``by_content``: a public or pure region's HTML is kept under its fingerprint; False for
    one made of pieces cached on their own (the player boards' articles), which only the
    same viewer's same boards would read again.
    """

    name: str
    root_id: str
    board_only: bool
    always: bool
    reads: Callable[[dict], Any]
    scope: str = "viewer"
    inputs: Callable[[dict], Any] | None = None
    by_content: bool = True


#: The regions of a started game's page, in page order.
REGIONS = (
    Region("flash", "flash", False, True, lambda c: c.get("flash"), "pure"),
    # the game's version as the move number is a region of its own inside the status (``move``):
    # the status's HTML, less that nested region, is a function of its fingerprint (as the
    # boards section's, less its articles); "viewer" scope, so never kept by its fingerprint
    # the event as its slice of the view in ``inputs``: its presenter runs only if a region shows it
    Region("status", "game-status", False, False, lambda c: _status(c, _board(c, "event")), "viewer",
           lambda c: _status(c, _board_inputs(c, "event"))),
    Region("move", "game-move", False, True, lambda c: (c["game"].pk, c["game"].version), "pure"),
    Region("decision", "game-actions", False, False, lambda c: (
        _game_forms(c), c.get("decision"), c["decision_since"], c["can_take_back"], bool(c.get("plan")),
        bool(c.get("act")), _seat_pk(c), _board(c, "awaited"))),
    Region("queue", "game-queue", True, False, lambda c: (c["game"].pk, c.get("queue"))),
    Region("map", "game-map", True, False, lambda c: (_board(c, "map"), _board(c, "names")), "public",
           lambda c: (_board_inputs(c, "map"), _board(c, "names"))),
    Region("my_board", "game-mine", True, False, lambda c: (
        _game_forms(c), _board(c, "mine"), c.get("plan"), c.get("act"), c["decision_since"]), "viewer",
           lambda c: (_game_forms(c), _board_shown(c, "mine"), c.get("plan"), c.get("act"), c["decision_since"])),
    Region("event", "game-event", True, False, lambda c: _board(c, "event"), "public",
           lambda c: _board_inputs(c, "event")),
    # each board's article is cached under its ``fragment`` key, the fingerprint of what it
    # shows (the viewer's own places shown elsewhere included), and is a region of its own
    # (``_changed_articles``): the section's fingerprint is that of its frame, the seats in
    # order, which does not determine its HTML (the articles in it): never ``by_content``
    Region("boards", "game-boards", True, False, lambda c: [b["seat"] for b in _board(c, "boards") or []], "pure",
           by_content=False),
    Region("tracks", "game-tracks", True, False, lambda c: (_board(c, "tracks"), _board(c, "names")), "public",
           lambda c: (_board_inputs(c, "tracks"), _board(c, "names"))),
    Region("development", "game-development", True, False, lambda c: _board(c, "development"), "public",
           lambda c: _board_inputs(c, "development")),
    Region("deeds", "game-deeds", True, False, lambda c: (_board(c, "deeds"), _board(c, "names")), "public",
           lambda c: (_board_inputs(c, "deeds"), _board(c, "names"))),
    Region("place_tiles", "game-place-tiles", True, False, lambda c: _board(c, "place_tiles"), "public",
           lambda c: _board_inputs(c, "place_tiles")),
    Region("supply", "game-supply", True, False, lambda c: _board(c, "supply"), "public",
           lambda c: _board_inputs(c, "supply")),
    Region("players", "game-players", False, False, lambda c: (
        c["seats"], c["seat"], c.get("start_player"), _game_forms(c), c["game"].is_public, c["game"].creator_id,
        c.get("pace"), c.get("end_vote"),
        c.get("can_vote_end"), c.get("watching")), "pure"),
    Region("log", "game-log", False, False, lambda c: (c["game"].pk, c.get("log"), c.get("log_older")), "public"),
    Region("chat", "game-chat", False, False, lambda c: (c["game"].pk, c.get("chat")), "pure"),
    Region("poll", "game-poll", False, True, lambda c: (
        c["game"].pk, c["game"].is_active, c["game"].is_finished, c["game"].version, c["game"].live_version,
        getattr(c.get("chat"), "last_id", 0), c.get("poll_seconds")), "pure"),
)
_ROOT_TAG = re.compile(r"^\s*<[a-zA-Z][\w-]*")
_ROOT_ID_ATTR = re.compile(r'\bid="[^"]+"')


def _template(region: Region) -> str:
    return f"games/partials/_{region.name}.html"


@functools.cache
def _region_templates(region: Region) -> tuple[str, ...]:
    # the partial of ``region`` and those it includes (the status the rematch, the log its
    # rounds): a deploy that changes one is a new fingerprint
    return tuple(sorted(with_includes([_template(region)])))


def data_fingerprint(region: Region, context: dict, where: str | None = None) -> str | None:
    """The full fingerprint (``presenters.fingerprint``) of the data ``region`` reads in
    ``context`` (of its ``inputs`` if it has them) and of its templates (``where``: the
    active ``locale()`` if read already); None if that data is not display data (the caller
    hashes the HTML)."""
    data = region.inputs(context) if region.inputs is not None else region.reads(context)
    return fingerprint(region.name, data, _region_templates(region), where)


def _region_key_prefix(context: dict, where: str) -> str:
    # what every public region's key of this page shares (computed once per answer)
    game = context["game"]
    names = hashlib.sha1(repr(sorted((_board(context, "names") or {}).items())).encode()).hexdigest()[:8]
    return f"region:{game.pk}:{game.version}:{context.get('state_key', '')}:{names}:{where}:"


def region_cache_key(region: Region, prefix: str) -> str | None:
    """The key of a public region of this page in the shared cache: game, version (and the
    snapshot's hash, ``presenters.page.state_key``), the players' names, language and time
    zone (for every viewer: ``prefix``, the page's ``_region_key_prefix``); None for other
    regions."""
    if region.scope != "public":
        return None
    return prefix + region.name


def _content_key(region: Region, full_digest: str) -> str:
    # content-addressed: only a viewer whose own data has this fingerprint can ask for it
    return f"region-html:{region.name}:{full_digest}"


def _with_attributes(html: str, digest: str, oob: bool) -> str:
    html = _ROOT_TAG.sub(lambda m: f'{m.group(0)} data-region-hash="{digest}"', html, count=1)
    return _out_of_band(html) if oob else html


def _out_of_band(html: str) -> str:
    # the root element swapped out of band: it replaces the page's element of its id
    return _ROOT_ID_ATTR.sub(lambda m: f'{m.group(0)} hx-swap-oob="true"', html, count=1)


#: What a form's CSRF token is stored as in a cached region; ``_with_token`` puts the
#: request's own in its place (any masked token of the session's secret is valid). User
#: text is escaped, so ``TOKEN_FIELD`` + placeholder + ``"`` can only come from a token field.
TOKEN_PLACEHOLDER = "csrf-token-of-the-request"
TOKEN_FIELD = 'name="csrfmiddlewaretoken" value="'
_TOKEN_VALUE = re.compile(r'(?<=name="csrfmiddlewaretoken" value=")[^"]*')


def without_token(html: str) -> str:
    """``html`` with every form's CSRF token replaced by ``TOKEN_PLACEHOLDER`` (to cache it)."""
    return _TOKEN_VALUE.sub(TOKEN_PLACEHOLDER, html) if TOKEN_FIELD in html else html


def _request_token(request: HttpRequest) -> str:
    # one masked token for every form of the answer (masking costs 32 random draws)
    token = getattr(request, "_region_csrf_token", None)
    if token is None:
        token = request._region_csrf_token = get_token(request)
    return token


def _with_token(request: HttpRequest, html: str) -> str:
    placeholder = f'{TOKEN_FIELD}{TOKEN_PLACEHOLDER}"'
    if placeholder not in html:
        return html
    return html.replace(placeholder, f'{TOKEN_FIELD}{_request_token(request)}"')


def _read_regions(keys: list[str], new_version: bool) -> dict:
    # the regions cache's entries of ``keys``; for the answer to a move (``new_version``) from
    # this process's copy alone if the cache keeps one (orleans_site.cache.LocalFirstRedisCache):
    # what it looks for shows the new version, rendered nowhere yet but by a race; an unchanged
    # player board only another process rendered is rendered again (about a round trip's time)
    cache = caches["regions"]
    if new_version and isinstance(cache, LocalFirstRedisCache):
        return cache.get_many(keys, local_only=True)
    return cache.get_many(keys)


def _regions_html(request: HttpRequest, context: dict, known: dict[str, str], *, oob: bool,
                  only: frozenset[str] | None = None,
                  contents: dict[str, tuple[str, str]] | None = None,
                  new_version: bool = False) -> list[tuple[str, str]]:
    """``(name, html)`` of every region of the page the client does not show already
    (``known``: root id -> fingerprint; the always-sent regions are always in), with
    ``data-region-hash`` (and ``hx-swap-oob`` if ``oob``) on each root; ``only``: these
    region names alone (None: all). ``contents``: region name -> (content key, cached
    HTML) known already (looked at before the content cache), completed with what the call
    finds or renders.

    A public region comes from the shared cache of its game version if there (its
    presenter is then never run); a public or pure region whose fingerprint was rendered
    before comes from the content cache; the rest is rendered. Cached HTML holds
    ``TOKEN_PLACEHOLDER`` for its forms' CSRF tokens, replaced by the request's on the way
    out. Nothing is stored from a page showing the viewer's draft plan into the game
    version's cache (the draft changes only the viewer's own regions, but a shared entry
    must not depend on it). ``new_version``: the answer to the viewer's own write, at a
    version it made: that version's entries are not looked for (none can be there yet but
    by a race, which only renders them twice), and the rest is looked for in this process's
    copy of the cache only (``_read_regions``); they are still stored."""
    board = context.get("board")
    shown = [r for r in REGIONS if (board or not r.board_only) and (only is None or r.name in only)]
    where = locale()  # one language and time zone for the whole answer
    prefix = _region_key_prefix(context, where) if any(r.scope == "public" for r in shown) else None
    keys = {r.name: region_cache_key(r, prefix) if prefix else None for r in shown}
    drafting = bool((context.get("plan") or {}).get("draft"))
    todo = []  # (region, full digest or None)
    for region in shown:
        # a shared region's fingerprint comes from its slice of the view: no presenter runs
        full = data_fingerprint(region, context, where)
        if full is not None and not region.always and known.get(region.root_id) == full[:12]:
            continue  # the page shows it already: neither rendered nor sent
        todo.append((region, full))
    content_keys = {r.name: _content_key(r, full) for r, full in todo
                    if full and r.scope in ("public", "pure") and r.by_content}
    contents = {} if contents is None else contents
    by_content = {key: contents[name][1] for name, key in content_keys.items()
                  if name in contents and contents[name][0] == key}
    # one cache read: the version's entries, the contents, and the player boards' articles
    wanted = [] if new_version else [keys[r.name] for r, _full in todo if keys[r.name]]
    wanted += [key for key in content_keys.values() if key not in by_content]
    # the player boards' articles: all of them in a section sent whole, else those changed
    section_sent = any(r.name == "boards" for r, _full in todo)
    articles = (_board(context, "boards") or []) if any(r.name == "boards" for r in shown) else []
    if not section_sent:
        articles = [b for b in articles if known.get(article_id(b)) != article_digest(b)]
    boards = [player_board_key(b) for b in articles]
    found = _read_regions(wanted + boards, new_version) if wanted or boards else {}
    render_context = context | {"oob": False, "player_board_html": {key: found[key] for key in boards if key in found},
                                "player_board_fresh": {}}
    parts, fresh = [], {}
    for region, full in todo:
        key = keys[region.name]
        hit = found.get(key) if key else None
        digest, html = hit if hit else (full[:12] if full else None, None)
        if html is None:
            html = by_content.get(content_keys.get(region.name)) or found.get(content_keys.get(region.name))
        if html is None:
            html = without_token(render_partial(_template(region), render_context, request))
            if digest is None:  # not display data: the HTML's own hash
                digest = hashlib.sha1(html.encode()).hexdigest()[:12]
                if not region.always and known.get(region.root_id) == digest:
                    continue
            elif region.name in content_keys:
                fresh[content_keys[region.name]] = html
        if region.name in content_keys:
            contents[region.name] = (content_keys[region.name], html)
        if key and not drafting and not hit:
            fresh[key] = (digest, html)
        parts.append((region.name, _with_token(request, _with_attributes(html, digest, oob))))
    if articles and not section_sent:
        parts += _changed_articles(articles, boards, render_context, oob=oob)
    fresh |= render_context["player_board_fresh"]
    if fresh:
        caches["regions"].set_many(fresh, REGION_CACHE_SECONDS)
    return parts


def _changed_articles(articles: list[dict], keys: list[str], render_context: dict, *,
                      oob: bool) -> list[tuple[str, str]]:
    """``(name, html)`` of the player boards' ``articles`` (board dicts; ``keys``: their
    ``player_board_key``s) as regions of their own (name: their root id), for an answer whose ``boards`` section the page shows
    already: each from ``render_context``'s ``player_board_html`` (read with the answer's
    other entries) or rendered, and then kept in its ``player_board_fresh``
    (``games_extras.player_board_articles``, as the section renders them). An article
    holds no form, so no CSRF token."""
    pieces = player_board_articles(articles, render_context.get, lambda: render_context, keys)
    return [(article_id(board), _out_of_band(piece) if oob else piece)
            for board, piece in zip(articles, pieces, strict=True)]


#: The regions a full page shows afresh for every request, even from the page cache: they
#: change without a new version (the flash, the players' clocks and watchers, the chat,
#: the poll's chat id). Every other region of a page is a function of ``page_cache_key``.
LIVE_REGIONS = frozenset({"flash", "players", "chat", "poll"})
#: The regions a full page renders: every one but the move number, which the status region
#: renders inside itself (an answer sends it apart, as the status is often left alone).
PAGE_REGIONS = frozenset(r.name for r in REGIONS) - {"move"}
#: How long a viewer's page stays in the page cache (one version; reloads and other tabs
#: soon after a move).
PAGE_SECONDS = 600
#: The game page's pieces outside the regions (``games/partials/_<name>.html``, shown as
#: ``shell.<name>``): they change only with the viewer and the game's status, so the page
#: entry keeps them too.
SHELL_PIECES = ("next_game", "history_links", "chat_form")


@functools.cache
def _page_templates() -> tuple[str, ...]:
    # every partial a region includes, at any depth: a deploy that changes one is a new page key
    todo = [_template(r) for r in REGIONS] + [f"games/partials/_{name}.html" for name in SHELL_PIECES]
    return tuple(sorted(with_includes(todo + list(PLAYER_BOARD_TEMPLATES))))


def page_cache_key(request: HttpRequest, game: Game, seat: Seat | None, live) -> str | None:
    """The page cache's key of the versioned regions of ``game``'s full page for the
    request's viewer (``seat``, None: a spectator or a visitor; ``live``: its
    ``presenters.page.live_page``): the fingerprint of ``presenters.page.versioned_inputs``
    (game, version, snapshot, the viewer's seat and queue, the game and seat records),
    the language, the time zone and the templates. None (not cached) unless the game is
    active. A seat's key holds its seat pk: no other viewer can reach its entry."""
    if not game.is_active:
        return None
    digest = fingerprint("page", versioned_inputs(game, seat, live, request.user), _page_templates())
    return f"page:{game.pk}:{game.version}:{digest}" if digest else None


@locale_bound()
def page_context(request: HttpRequest, game: Game, seat: Seat | None) -> dict:
    """The template context of a started game's full page (``games/game_detail.html``) for
    the request's viewer, with ``regions`` and ``shell`` (name -> safe HTML: the regions and
    ``SHELL_PIECES``) and ``csrf_token`` (the one every form of the answer posts).

    A repeat view at the same version (``page_cache_key``) takes every region but
    ``LIVE_REGIONS``, and the shell pieces, from the page cache and builds only ``live_page`` (no engine view, no
    presenters); its context then has the live fields, ``start_player`` and ``board``
    (True or None) only. Raises ``GameDamaged`` as ``game_context`` does. One language and
    time zone for the whole page (``locale_bound``)."""
    live = live_page(game, seat, user=request.user)
    key = page_cache_key(request, game, seat, live)
    entry = caches["regions"].get(key) if key else None
    if entry is not None:
        check_loadable(game, has_state=game.has_snapshot)  # an engine upgrade that retires the game is still seen
        context = live.context() | {"start_player": entry["start_player"], "board": entry["board"]}
        parts = [(name, _with_token(request, html)) for name, html in entry["regions"]]
        shell = entry["shell"]
        # the live regions as the entry saw them serve while their fingerprints hold
        parts += _regions_html(request, context, {}, oob=False, only=LIVE_REGIONS, contents=dict(entry["live"]))
    else:
        context = game_page(game, seat, user=request.user, live=live).context()
        contents: dict[str, tuple[str, str]] = {}
        parts = _regions_html(request, context, {}, oob=False, only=PAGE_REGIONS, contents=contents)
        shell = {name: without_token(render_to_string(f"games/partials/_{name}.html", context, request=request))
                 for name in SHELL_PIECES}
        if key and not (context.get("plan") or {}).get("draft"):
            caches["regions"].set(key, {
                "regions": [(name, without_token(html)) for name, html in parts if name not in LIVE_REGIONS],
                "live": {name: value for name, value in contents.items() if name in LIVE_REGIONS},
                "shell": shell, "start_player": context["start_player"],
                "board": True if context["board"] else None,
            }, PAGE_SECONDS)
    context["regions"] = {name: mark_safe(html) for name, html in parts}
    context["shell"] = {name: mark_safe(_with_token(request, html)) for name, html in shell.items()}
    context["csrf_token"] = _request_token(request)  # the shell's forms post the regions' token
    return context


def plan_draft(request: HttpRequest) -> str | None:
    """The page's draft plan (``plan_draft``, GET or POST; sent by ``static/js/board.js``
    with every request of the game page while its player plans), or None."""
    return request.POST.get("plan_draft") or request.GET.get("plan_draft")


#: The most fingerprints a page reports besides its regions': the player boards' articles
#: (the most seats), and room to spare.
_MOST_ARTICLES = Game.MAX_SEATS + 4


def client_region_hashes(request: HttpRequest) -> dict[str, str]:
    """The fingerprints the client says it shows: ``regions=id:hash,id:hash`` (GET or POST)."""
    raw = request.POST.get("regions") or request.GET.get("regions") or ""
    pairs = (item.split(":", 1) for item in raw.split(",")[: len(REGIONS) + _MOST_ARTICLES] if ":" in item)
    return {region_id: digest for region_id, digest in pairs}


def render_regions(
    request: HttpRequest, game: Game, seat: Seat | None, *, flash: str | None = None,
    status: int = 200, send_all: bool = False, written: bool = False, new_version: bool = False,
) -> HttpResponse:
    """The regions of a started game that changed, as out-of-band swaps.

    A region whose fingerprint equals the one the client reports (``regions`` parameter,
    sent by ``static/js/regions.js``) is neither rendered nor sent, so a half-filled form
    or a scrolled log is not replaced for nothing; ``send_all`` (or no report) sends every
    region. The regions show the viewer's draft plan if the request carries one
    (``plan_draft``). ``written``: the answer to the viewer's own write (its decision,
    take-back or queue change): the page's engine-derived parts are neither looked up nor
    kept (``presenters.page.game_page``'s ``cached``); ``new_version``: the write made the
    game's version (a move): its regions are not looked for in the cache (``_regions_html``).
    """
    with locale_bound():  # one language and time zone for the whole answer
        context = game_context(game, seat, flash=flash, plan_draft=plan_draft(request), user=request.user,
                               cached=not written)
        known = {} if send_all else client_region_hashes(request)
        parts = _regions_html(request, context, known, oob=True, new_version=new_version)
        if game.is_finished:  # the page's history links become the finished game's (replay, whole download)
            parts.append(("history_links", _out_of_band(render_to_string(
                "games/partials/_history_links.html", context, request=request))))
    return HttpResponse("".join(html for _name, html in parts), status=status)


def render_flash(request: HttpRequest, message: str) -> HttpResponse:
    """Only the flash region, as an out-of-band swap, with status 200 so htmx 2 swaps it."""
    return HttpResponse(render_partial("games/partials/_flash.html", {"flash": message, "oob": True}, request))
