"""Full pages: home, lobby, new game, game detail (lobby or board), profile."""
from __future__ import annotations

import functools
import uuid

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.core.cache import caches
from django.core.paginator import Page
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.utils import dateformat
from django.utils.safestring import mark_safe
from django.utils.translation import get_language, gettext as _, ngettext, pgettext
from django.utils import timezone
from django.views.decorators.http import require_GET, require_http_methods

from games import selectors
from games.bots import label as bot_label
from games.access import get_game_for_user_or_404, invited_game_closed
from games.forms import GameCreateForm, JoinForm, PlayBotsForm
from games.errors import GameDamaged, InvalidGameName, InvalidGameOptions
from games.presenters.fingerprint import fingerprint
from games.presenters.home import waiting_rows
from games.presenters.page import game_context
from games.services import game_create
from games.spectators import note_spectator
from games.tasks import continue_bot_turn
from games.views.errors import damaged_page
from games.views.paging import CountedPaginator, OneQueryPaginator, page_number, show_pages
from games.views.regions import page_context


#: Rows per page of the home page's "Waiting for you" and of the lobby's open games.
HOME_WAITING_PER_PAGE = 25
LOBBY_OPEN_PER_PAGE = 25
#: Open tables the home page shows (newest first); past them it links to the lobby.
HOME_OPEN_SHOWN = 20
#: Finished public games the lobby lists (the most recently finished).
LOBBY_FINISHED_SHOWN = 20


@require_GET
def home(request: HttpRequest) -> HttpResponse:
    """"Waiting for you": the games awaiting the user's decision (most urgent first, with
    the decision and the time left; ``HOME_WAITING_PER_PAGE`` a page, ``?page=``), the
    rematches and invitations to answer; then open public tables with a free seat, and
    "Play against bots". The navigation's count comes from the lists shown (no query of its own).
    At most ``HOME_OPEN_SHOWN`` open tables; when there are more, a link to the lobby's list."""
    return _home(request, PlayBotsForm())


def _home(request: HttpRequest, bots_form: PlayBotsForm, status: int = 200) -> HttpResponse:
    open_games = selectors.open_tables_for(request.user, HOME_OPEN_SHOWN + 1)  # one more: are there others?
    context = {"bots_form": bots_form, "waiting": [], "invitations": [], "rematches": [],
               "open_games": open_games[:HOME_OPEN_SHOWN], "more_open_games": len(open_games) > HOME_OPEN_SHOWN}
    if request.user.is_authenticated:
        user = request.user
        # each list's SQL compiled once (games.compiled): the ORM took longer to build them than they ran
        waiting = OneQueryPaginator(selectors.seats_waiting_for(user), HOME_WAITING_PER_PAGE, page_rows=functools.partial(
            selectors.waiting_page_rows, user)).get_page(request.GET.get("page"))
        unread = selectors.chat_unread_waiting(user)
        waiting.object_list = waiting_rows(list(waiting), timezone.now(), unread)
        invitations, rematches = selectors.invitations_list(user), selectors.rematches_list(user)
        # the navigation's count is these three lists' length (selectors.waiting_count): no query of its own
        context.update(waiting=waiting, invitations=invitations, rematches=rematches,
                       nav_waiting=waiting.paginator.count + len(invitations) + len(rematches))
    return render(request, "games/home.html", context, status=status)


@login_required
@require_GET
def next_game(request: HttpRequest) -> HttpResponse:
    """The "Next game" button: ``?from=<game id>`` (the page it was pressed on) -> the next
    game waiting for the user (``selectors.next_waiting_game``), never the same one; home
    with a message when no other game waits."""
    try:
        current = uuid.UUID(request.GET.get("from") or "")
    except ValueError:
        current = None
    game_id = selectors.next_waiting_game(request.user, current)
    if game_id is None:
        messages.info(request, _("No other game is waiting for you."))
        return redirect("home")
    return redirect("games-detail", game_id=game_id)


@require_GET
def lobby(request: HttpRequest) -> HttpResponse:
    """The open public games, newest first (``LOBBY_OPEN_PER_PAGE`` a page, ``?page=``); on
    the first page also the last started public games in progress (to watch) and the last
    finished public games (with replay links), rendered once per what they show
    (``_lobby_watch``). A later page of open tables links back to them instead of showing
    the same two lists again (``watch`` None)."""
    open_games = OneQueryPaginator(selectors.games_open_public(), LOBBY_OPEN_PER_PAGE,
                                   page_rows=selectors.open_public_page_rows).get_page(request.GET.get("page"))
    watch = None
    if open_games.number == 1:
        watch = _lobby_watch(*selectors.lobby_watch_lists(LOBBY_FINISHED_SHOWN))
    return render(request, "games/lobby.html", {"open_games": open_games, "watch": watch})


def _shown_key(kind: str, shown, template: str) -> str | None:
    """A cache key of a part showing ``shown`` (display data) through ``template``: its
    ``presenters.fingerprint`` (language, time zone and the template's revision included);
    None if ``shown`` cannot be fingerprinted (the part is then rendered uncached)."""
    digest = fingerprint(kind, shown, (template,))
    return digest and f"{kind}:{digest}"


#: How long the lobby's rendered watch lists stay cached (a game starting or finishing
#: gives them a new key).
LOBBY_WATCH_SECONDS = 3600


def _lobby_watch(playing: list, finished: list) -> str:
    """The lobby's public games in progress and finished (``games/_lobby_watch.html``),
    rendered once per what it shows and kept in the "regions" cache for every viewer (public
    games only, nothing of the viewer's): keyed by the fingerprint of each game's id, name,
    start or finish and seats, in the language and time zone (the dates)."""
    shown = [playing, finished]  # selectors.WatchedGame rows: display data
    key = _shown_key("lobby-watch", shown, "games/_lobby_watch.html")
    cache = caches["regions"]
    html = cache.get(key) if key else None
    if html is None:
        html = render_to_string("games/_lobby_watch.html", {"playing_games": playing, "finished_games": finished})
        if key:
            cache.set(key, html, LOBBY_WATCH_SECONDS)
    return mark_safe(html)  # rendered by the template engine above (escaped there)


@login_required
@require_http_methods(["GET", "POST"])
def game_new(request: HttpRequest) -> HttpResponse:
    """The form to open a new game; on success the creator lands on its page."""
    form = GameCreateForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            game = game_create(
                creator=request.user,
                name=form.cleaned_data["name"],
                max_seats=form.cleaned_data["seats"],
                options=form.engine_options(),
                is_public=form.cleaned_data["is_public"],
                rated=form.cleaned_data["rated"],
                pace=form.cleaned_data["pace"],
                bots=form.bot_levels(),
                absent_bot_level=form.takeover_level(),
            )
        except InvalidGameName as exc:
            form.add_error("name", str(exc))
        except InvalidGameOptions as exc:
            form.add_error(None, exc.message)
        else:
            if game.is_active:
                messages.success(request, _("The bots took every other seat: the game has started."))
            else:
                messages.success(request, _("Your game is open. Invite players or wait for them."))
            return redirect("games-detail", game_id=game.pk)
    return render(request, "games/game_new.html", {"form": form})


@login_required
@require_http_methods(["POST"])
def play_bots(request: HttpRequest) -> HttpResponse:
    """"Play against bots" (the home page's card): a private game of the user and the chosen
    bots, started at once (no clock); the user lands on its board. A refused form is the home
    page again with its errors (400)."""
    form = PlayBotsForm(request.POST)
    if not form.is_valid():
        return _home(request, form, status=400)
    count, level = form.cleaned_data["bots"], form.cleaned_data["level"]
    name = bot_game_name(request.user, count, level, timezone.localtime())
    game = game_create(creator=request.user, name=name, max_seats=count + 1,
                       options={}, is_public=False, bots=[level] * count)
    messages.success(request, _("The game has started: the bots are ready."))
    return redirect("games-detail", game_id=game.pk)


def bot_game_name(user, count: int, level: str, started) -> str:
    """The name of a "Play against bots" game, telling it from the user's other bot games
    (lists, "Next game"): "alice vs 3 Random bots, 01 Dec 14:20". ``count`` bots of
    ``level``; ``started`` an aware datetime in the site's time zone. Worded in the active
    language (the creator's): the name is stored, and shown to everyone as written."""
    when = dateformat.format(started, pgettext("date in a bot game's name", "d M H:i"))
    return ngettext("{user} vs {count} {level} bot, {started}", "{user} vs {count} {level} bots, {started}",
                    count).format(user=user, count=count, level=bot_label(level), started=when)


def _game_page(request: HttpRequest, game_id, token: str | None) -> HttpResponse:
    try:
        # the snapshot is read only on a page cache miss (regions.page_context); the
        # navigation's count (context_processors.waiting_count) and the page's seats
        # (presenters.page.live_page) come with the game
        game, seat = get_game_for_user_or_404(game_id, request.user, token=token, state=False, waiting=True,
                                              seats=True)
    except Http404:
        if request.user.is_authenticated:
            closed = invited_game_closed(game_id, request.user, token) if token else None
            if closed is None:
                raise
            # an invite link opened after the game filled up: say so (still a 404: the
            # invitation is gone), not a bare "not found"
            return render(request, "games/invite_closed.html", {"game": closed}, status=404)
        # a game link from an email opened while logged out: log in, then come back
        # (every hidden or unknown game sends anonymous visitors to the login page alike)
        return redirect_to_login(request.get_full_path())
    if game.is_active and continue_bot_turn(game):  # eager tasks: the bots' chain goes on
        game.refresh_from_db()
    else:  # no move since the count was read
        request.nav_waiting = game.nav_waiting
    if seat is None and game.is_active:
        note_spectator(game, request.user)
    try:
        if game.is_open or not game.has_snapshot:
            context = game_context(game, seat, user=request.user)
            context["join_form"] = JoinForm(initial={"token": token or ""})
            return render(request, "games/game_lobby.html", context)
        context = page_context(request, game, seat)
    except GameDamaged as damage:
        return damaged_page(request, damage)
    return render(request, "games/game_detail.html", context)


@require_GET
def game_detail(request: HttpRequest, game_id) -> HttpResponse:
    """A game's page: its lobby while open, the board once started."""
    return _game_page(request, game_id, None)


@require_GET
def game_invite(request: HttpRequest, game_id, token: str) -> HttpResponse:
    """A private game's invite link: the game's lobby page, with a join button."""
    return _game_page(request, game_id, token)


#: Games per page of the profile's lists (in progress, finished).
PROFILE_GAMES_PER_PAGE = 20
#: How long the profile's rendered results stay cached (a finished game, a rating change or an
#: edit in the admin gives them a new key long before; an hour bounds what a renamed player shows)
PROFILE_RESULTS_SECONDS = 3600
#: How long the profile's rendered games in progress stay cached (any move in one of them
#: gives them a new key: only a viewer refreshing an unchanged list finds them).
PROFILE_PLAYING_SECONDS = 3600


@login_required
@require_GET
def profile(request: HttpRequest) -> HttpResponse:
    """The user's games in progress (whose turn; paginated, ``?playing=``), their rating and
    its history, statistics of their finished games (by player count, head-to-head: their
    record, ``PlayerStats``) and the finished games themselves, paginated (``?page=``), each
    linking to its replay. The games in progress, the record's stamp and the navigation's
    count are one query (``selectors.profile_head``); both parts are rendered once per what
    they show and kept in the "regions" cache (``_profile_parts``): the cost does not grow
    with the number of games."""
    head, in_progress = _profile_playing(request.user, request.GET.get("playing"))
    playing, results = _profile_parts(request, head, in_progress)
    return render(request, "games/profile.html", {"in_progress": in_progress, "nav_waiting": head.waiting,
                                                   "playing": playing, "results": results})


def _profile_parts(request: HttpRequest, head: selectors.ProfileHead, in_progress: Page) -> tuple[str, str]:
    """The profile's two parts, rendered, both looked up in one call to the "regions" cache:

    - the games in progress (``games/_profile_playing.html``), keyed by a digest of what it
      shows (each game's id, name, status and seats with whose turn it is, the page and the
      list's length), the other list's page number and the language;
    - the rating, record and one page (``?page=``) of finished games
      (``games/_profile_results.html``), keyed by the player's record stamp
      (``PlayerStats.stamp``: new with every finished game and rating change), the page,
      the other list's page number (its pager links keep it), the language and the time zone. A
      miss reads the rating, its history and the page's games (the page by the seats' user
      index; the count is the record's).

    Both keys carry the user's id: only this user's requests can name them. A query string
    with anything but ``page`` and ``playing`` is rendered uncached."""
    user, stats = request.user, head.stats
    finished = CountedPaginator(selectors.games_finished_for(user), PROFILE_GAMES_PER_PAGE,
                                 count=stats.finished if stats else 0).get_page(request.GET.get("page"))
    show_pages(request, page=finished, playing=in_progress)  # each part's pager links keep the other's page
    cacheable = set(request.GET) <= {"page", "playing"}
    language = get_language()
    shown = [in_progress.number, head.playing_total, finished.number,
             [(game.pk, game.name, game.status, game.rematch_of_id, game.listed_seats) for game in head.playing]]
    playing_key = cacheable and _shown_key(f"profile-playing:{user.pk}", shown, "games/_profile_playing.html")
    results_key = cacheable and stats is not None and (
        f"profile:{user.pk}:{stats.stamp.hex}:{finished.number}:{in_progress.number}:{PROFILE_GAMES_PER_PAGE}:"
        f"{language}:{timezone.get_current_timezone_name()}")
    cache = caches["regions"]
    cached = cache.get_many([key for key in (playing_key, results_key) if key])
    playing = cached.get(playing_key) if playing_key else None
    if playing is None:
        playing = render_to_string("games/_profile_playing.html",
                                   {"request": request, "in_progress": in_progress, "user": user})
        if playing_key:
            cache.set(playing_key, playing, PROFILE_PLAYING_SECONDS)
    results = cached.get(results_key) if results_key else None
    if results is None:
        finished.object_list = [selectors.finished_game_result(game, user) for game in finished]
        results = render_to_string("games/_profile_results.html", {
            "request": request, "finished": finished, "record": selectors.player_record(user, stats),
            "rating": selectors.rating_for(user), "rating_history": selectors.rating_history(user)})
        if results_key:
            cache.set(results_key, results, PROFILE_RESULTS_SECONDS)
    return mark_safe(playing), mark_safe(results)  # rendered by the template engine above (escaped there)


def _profile_playing(user, number) -> tuple[selectors.ProfileHead, Page]:
    """``selectors.profile_head`` of page ``number`` (``?playing=``, a string or None) and
    that page as ``Paginator.get_page`` gives it: the first when missing or not a number, the
    last when past the end or below 1 (then found by counting, in two more queries)."""
    wanted = page_number(number)
    head = selectors.profile_head(user, max(wanted, 1), PROFILE_GAMES_PER_PAGE)
    if wanted < 1 or (wanted > 1 and not head.playing):
        total = selectors.games_in_progress_for(user).count()
        last = max(1, -(-total // PROFILE_GAMES_PER_PAGE))
        wanted = last
        head = selectors.profile_head(user, last, PROFILE_GAMES_PER_PAGE)
    paginator = CountedPaginator([], PROFILE_GAMES_PER_PAGE, count=head.playing_total)
    return head, Page(head.playing, wanted, paginator)


@require_GET
def leaderboard(request: HttpRequest) -> HttpResponse:
    """The Orléans leaderboard: the best ratings (openskill ordinal, ``mu - 3 sigma``) of
    players with at least one rated game."""
    return render(request, "games/leaderboard.html", {"ratings": selectors.leaderboard()})
