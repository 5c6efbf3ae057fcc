"""Region fingerprints are taken from the data each region reads (games.views.regions):
the same fingerprint always renders the same HTML, public regions are the same for every
viewer, regions the page shows are not even rendered, and a page served from the region
caches is the page rendered afresh."""
import pickle
import re

import pytest
from django.conf import settings
from django.middleware.csrf import _unmask_cipher_token
from django.contrib.auth.models import AnonymousUser
from django.core.cache import caches
from django.core.cache.backends.locmem import LocMemCache
from django.test import RequestFactory
from django.urls import reverse

from games import templating
from games.presenters.page import game_context
from games.templating import render_partial
from games.views import regions
from tests.support.game_driver import new_started_game, play_until
from tests.support.html_forms import HTMX
from tests.support.queries import statements

#: What a region's HTML may differ by for the same data: the per-render CSRF mask and the
#: version the forms were rendered at (left out of the fingerprint on purpose).
VOLATILE = re.compile(r'(?<=name="csrfmiddlewaretoken" value=")[^"]+|(?<=name="expected_version" value=")\d+'
                      r'|(?<="X-CSRFToken": ")[^"]+')
REGION = re.compile(r'<\w+ data-region-hash="([0-9a-f]+)" id="([\w-]+)"')
#: The move number's region inside the status's HTML.
MOVE = re.compile(r'<span id="game-move"[^>]*>[^<]*</span>')


@pytest.fixture
def three_players(alice, bob, carol, dave):
    game = new_started_game(alice, bob, carol, seed=17)
    return game, {0: alice, 1: bob, 2: carol, None: dave}


def local_entries() -> dict:
    """The regions cache's entries (key -> pickled value) where it is the local-memory cache
    (the test settings'); a test reading them is skipped on another backend (CACHE_URL)."""
    cache = caches["regions"]
    if not isinstance(cache, LocMemCache):
        pytest.skip("reads the entries of the local-memory cache")
    return cache._cache


def positions(game, stops=(4, 9, 15, 24, 33, 45)):
    """The game at several points of its first rounds (planning, reveal, actions)."""
    for version in stops:
        play_until(game, lambda state, v=version: (game.refresh_from_db(), game.version >= v)[1], seed=9)
        game.refresh_from_db()
        yield game


def rendered(game, viewer_order, user) -> dict[str, tuple[str, str]]:
    """Region name -> (data fingerprint, HTML rendered afresh without the volatile parts)."""
    seat = game.seats.get(order=viewer_order) if viewer_order is not None else None
    request = RequestFactory().get("/")
    request.user = user or AnonymousUser()
    context = game_context(game, seat, user=request.user)
    out = {}
    caches["regions"].clear()  # each article rendered afresh: its fingerprint is what is checked
    for region in regions.REGIONS:
        if region.board_only and not context.get("board"):
            continue
        html = render_partial(f"games/partials/_{region.name}.html", context | {"oob": False}, request)
        if region.name == "status":  # the move number inside it is a region of its own (_move.html)
            html = MOVE.sub('<span id="game-move"></span>', html)
        if region.name == "boards":  # each article is a region of its own: the section keeps its frame
            for article in ARTICLE.finditer(html):
                out[article["id"]] = (article["digest"], article[0])
            html = ARTICLE.sub(lambda article: article["id"], html)
        out[region.name] = (regions.data_fingerprint(region, context), VOLATILE.sub("", html))
    return out


#: A player board's article in the ``boards`` section, with its fingerprint.
ARTICLE = re.compile(r'<article data-region-hash="(?P<digest>[0-9a-f]+)" id="(?P<id>player-board-\d+)".*?</article>',
                     re.S)


def test_the_same_fingerprint_always_renders_the_same_html(three_players):
    game, users = three_players
    seen: dict[tuple[str, str], str] = {}
    distinct: dict[str, set] = {}
    for _ in positions(game):
        for order, user in users.items():
            for name, (digest, html) in rendered(game, order, user).items():
                assert digest is not None, f"{name}'s data cannot be fingerprinted"
                assert seen.setdefault((name, digest), html) == html, f"{name}: one fingerprint, two renderings"
                distinct.setdefault(name, set()).add(digest)
    # the check had something to compare: the regions that change did change
    changed = {name for name, digests in distinct.items() if len(digests) > 1}
    assert {"status", "decision", "boards", "player-board-0", "log", "players", "supply"} <= changed, changed


def test_public_regions_are_the_same_for_every_seat_and_a_spectator(three_players):
    game, users = three_players
    public = [r.name for r in regions.REGIONS if r.scope == "public"]
    for _ in positions(game, stops=(6, 20, 40)):
        pages = [rendered(game, order, user) for order, user in users.items()]
        for name in public:
            assert len({page[name] for page in pages}) == 1, f"{name} differs between viewers"


def test_a_page_served_from_caches_other_viewers_filled_is_the_page_rendered_afresh(three_players, client_for):
    game, users = three_players
    url = reverse("games-detail", kwargs={"game_id": game.pk})
    clients = {order: client_for(user) for order, user in users.items()}
    clients[None].get(url)  # listed as watching from now on, on every page compared
    for _ in positions(game, stops=(8, 30)):
        for order, client in clients.items():
            caches["regions"].clear()
            fresh = VOLATILE.sub("", client.get(url).text)
            for other, other_client in clients.items():
                if other != order:
                    other_client.get(url)
            assert VOLATILE.sub("", client.get(url).text) == fresh, f"viewer {order!r}"


def test_no_cached_region_holds_a_form_token_only_its_placeholder(three_players, client_for):
    game, users = three_players
    pages = []
    for _ in positions(game, stops=(8, 30)):
        for user in users.values():
            client = client_for(user)
            for _twice in range(2):  # rendered, then from the caches
                pages.append((client, client.get(reverse("games-detail", kwargs={"game_id": game.pk})).text))
    stored = " ".join(str(pickle.loads(value)) for value in local_entries().values())
    assert stored, "the page filled the region caches"
    tokens = set(re.findall(r'name="csrfmiddlewaretoken" value="([^"]*)"', stored))
    assert tokens == {regions.TOKEN_PLACEHOLDER}, "cached forms hold the placeholder, never a token"
    for client, text in pages:
        served = set(re.findall(r'name="csrfmiddlewaretoken" value="([^"]*)"', text))
        assert served and regions.TOKEN_PLACEHOLDER not in text
        secret = client.cookies[settings.CSRF_COOKIE_NAME].value
        assert all(_unmask_cipher_token(token) == secret for token in served), "every form posts the session's token"


def test_regions_the_page_shows_are_neither_rendered_nor_sent(three_players, client_for, monkeypatch):
    game, users = three_players
    client = client_for(users[0])
    first = client.get(reverse("games-detail", kwargs={"game_id": game.pk})).text
    page = client.get(reverse("games-detail", kwargs={"game_id": game.pk})).text  # from the page cache
    assert REGION.findall(page) == REGION.findall(first)
    shown = ",".join(f"{region_id}:{digest}" for digest, region_id in REGION.findall(page))
    caches["regions"].clear()  # nothing comes from a cache: what is skipped is skipped
    templates = []
    monkeypatch.setattr(regions, "render_partial",
                        lambda name, *a, **k: templates.append(name) or render_partial(name, *a, **k))
    response = client.get(reverse("games-poll", kwargs={"game_id": game.pk}), {"v": -1, "regions": shown}, **HTMX)
    assert {region_id for _digest, region_id in REGION.findall(response.text)} == {"flash", "game-move", "game-poll"}
    assert templates == ["games/partials/_flash.html", "games/partials/_move.html", "games/partials/_poll.html"]


def test_a_shared_region_the_page_shows_runs_no_presenter_after_a_move(three_players, client_for, monkeypatch):
    # its fingerprint comes from its slice of the view (presenters.board.VIEW_SLICES)
    from games.presenters import board

    game, users = three_players
    client = client_for(users[0])
    page = client.get(reverse("games-detail", kwargs={"game_id": game.pk})).text
    shown = ",".join(f"{region_id}:{digest}" for digest, region_id in REGION.findall(page))
    play_until(game, lambda state, v=game.version + 1: (game.refresh_from_db(), game.version >= v)[1], seed=9)
    caches["regions"].clear()  # a new version: nothing of it is cached
    ran = []
    for name in ("map_context", "tracks_context", "development_context", "deeds_context",
                 "place_tiles_context", "supply_context"):
        real = getattr(board, name)
        monkeypatch.setattr(board, name, lambda *a, real=real, name=name: ran.append(name) or real(*a))
    response = client.get(reverse("games-poll", kwargs={"game_id": game.pk}), {"v": -1, "regions": shown}, **HTMX)
    sent = {region_id for _digest, region_id in REGION.findall(response.text)}
    assert "game-map" not in sent and "map_context" not in ran
    assert {name.removesuffix("_context").replace("_", "-") for name in ran} == \
        {region_id.removeprefix("game-") for region_id in sent} & {"tracks", "development", "deeds", "place-tiles",
                                                                  "supply"}


def test_a_snapshot_rewritten_at_the_same_version_is_shown_afresh(three_players, client_for):
    """A snapshot edited in place, then its repair (the service rewrites it without a new
    version): each write is a new stamp (``Game.state_stamp``), so no cache serves the
    page of the snapshot before it."""
    from games.models import Game
    from games.services import game_rebuild_snapshot

    game, users = three_players
    url = reverse("games-detail", kwargs={"game_id": game.pk})
    client = client_for(users[None])
    before = client.get(url).text
    state = dict(game.state)
    state["players"] = [dict(p) for p in state["players"]]
    state["players"][1]["coins"] += 17
    Game.objects.filter(pk=game.pk).update(state=state)
    after = client.get(url).text
    coins = re.compile(r'<article [^>]*class="[^"]*player-board[^"]*" data-seat="1".*?<dt>Coins</dt><dd>(\d+)</dd>', re.S)
    assert int(coins.search(after).group(1)) == int(coins.search(before).group(1)) + 17
    game_rebuild_snapshot(game_id=game.pk)
    assert coins.search(client.get(url).text).group(1) == coins.search(before).group(1)


def test_a_page_served_from_the_page_cache_does_not_read_the_snapshot(three_players, client_for):
    """A repeat view is keyed by the snapshot's stamp: no query reads the ``state`` column."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    game, users = three_players
    url = reverse("games-detail", kwargs={"game_id": game.pk})
    client = client_for(users[0])
    client.get(url)
    with CaptureQueriesContext(connection) as captured:
        assert client.get(url).status_code == 200
    assert not [sql for sql in statements(captured) if re.search(r'"state"(?! IS NOT NULL)', sql)]


def test_each_viewers_page_entry_is_served_to_that_viewer_alone(three_players, client, client_for):
    """The page cache holds each seat's private data under a key of its own: with every
    viewer's entry marked, each viewer (three seats, a spectator, a visitor) is served its
    own mark and no one else's."""
    game, users = three_players
    url = reverse("games-detail", kwargs={"game_id": game.pk})
    viewers = [client_for(user) for user in users.values()] + [client]
    for _ in positions(game, stops=(8, 30)):
        caches["regions"].clear()
        for viewer in viewers:
            viewer.get(url)
        store = local_entries()
        keys = [key for key in store if ":page:" in key]
        assert len(keys) == len(viewers), "one page entry per viewer"
        for n, key in enumerate(keys):
            entry = pickle.loads(store[key])
            (name, html), *rest = entry["regions"]
            entry["regions"] = [(name, html.replace("</section>", f"PAGE-ENTRY-{n}-MARK</section>", 1)), *rest]
            store[key] = pickle.dumps(entry)
        served = [set(re.findall(r"PAGE-ENTRY-\d+-MARK", viewer.get(url).text)) for viewer in viewers]
        assert all(len(marks) == 1 for marks in served), served
        assert len(set().union(*served)) == len(viewers), "two viewers were served the same entry"


def test_a_repeat_view_at_the_same_version_shows_what_changed_without_a_version(three_players, client_for):
    """The chat, who watches and a player's vacation change without a new version: a page
    served from the page cache shows them all the same."""
    from games.services import chat_post, vacation_start

    game, users = three_players
    url = reverse("games-detail", kwargs={"game_id": game.pk})
    seat, spectator = client_for(users[0]), client_for(users[None])
    first = seat.get(url).text
    assert "Nobody else is watching." in first and "on vacation" not in first
    chat_post(game_id=game.pk, user=users[1], text="a message after the page was cached")
    spectator.get(url)
    vacation_start(user=users[2])
    again = seat.get(url).text
    assert f'data-version="{game.version}"' in again  # the same version, from the page cache
    assert "a message after the page was cached" in again
    assert 'id="game-watching">Watching: dave</p>' in again
    assert "on vacation" in again


def test_a_running_clocks_text_does_not_change_the_page_key(three_players):
    """The remaining time is shown only by the live players region: a clock ticking on (a
    new text every minute) keeps the page's entry, the clock's stored fields key it."""
    from dataclasses import replace

    from games.presenters.page import live_page, versioned_inputs

    game, users = three_players
    seat = game.seats.get(order=0)
    live = live_page(game, seat, user=users[0])
    ticked = replace(live, seats=[replace(s, clock_left="4 min") for s in live.seats])
    later = replace(live, seats=[replace(s, clock_left="3 min") for s in live.seats])
    assert versioned_inputs(game, seat, ticked, users[0]) == versioned_inputs(game, seat, later, users[0])
    assert versioned_inputs(game, seat, ticked, users[0]) != versioned_inputs(game, seat, live, users[0])


def test_the_page_key_covers_every_partial_a_region_includes_django_or_jinja():
    found = templating.INCLUDES.findall('{% include "games/a.html" %}{% pure_include "games/b.html" place=p %}'
                                     '{{ pure_include("games/c.html", place=place) }}'
                                     '{% from "games/d.html" import m %}{% import "games/e.html" as e %}')
    assert found == ["games/a.html", "games/b.html", "games/c.html", "games/d.html", "games/e.html"]
    # the decision panel's forms are reached only through the Jinja2 panel's macro import
    assert {"games/partials/_decision_form.html", "games/partials/_act_card.html"} <= set(regions._page_templates())


def test_a_region_fingerprint_covers_the_partials_it_includes():
    by_name = {r.name: r for r in regions.REGIONS}
    assert regions._region_templates(by_name["status"]) == (
        "games/partials/_move.html", "games/partials/_rematch.html", "games/partials/_status.html")
    assert set(regions._region_templates(by_name["log"])) == {
        "games/partials/_log.html", "games/partials/_log_round.html", "games/partials/_log_older.html"}
    assert regions._region_templates(by_name["poll"]) == ("games/partials/_poll.html",)
    assert regions._region_templates(by_name["tracks"]) == (
        "games/partials/_track_row.html", "games/partials/_tracks.html")
    assert regions._region_templates(by_name["map"]) == (
        "games/partials/_map.html", "games/partials/_map_routes.html", "games/partials/_map_town.html")


def _rows(board: dict, path: tuple) -> list:
    for key in path:
        board = board[key]
    return board


def _with_rows(board: dict, path: tuple, rows: list) -> dict:
    return board | {path[0]: rows if len(path) == 1 else _with_rows(board[path[0]], path[1:], rows)}


@pytest.mark.parametrize("region, path, partial, change", [
    # each change returns whether it applied to the row it was given (dict.update returns None)
    ("tracks", ("tracks",), "_track_row.html", lambda item: not item.update(supply=item["supply"] - 1)),
    ("deeds", ("deeds",), "_deed_card.html", lambda item: not item.update(citizen_left=not item["citizen_left"])),
    ("development", ("development",), "_development_level.html",
     lambda item: bool(item["markers"]) and not item.update(markers=[])),
    ("map", ("map", "towns"), "_map_town.html", lambda item: bool(item["merchants"]) and not item.update(
        merchants=[m | {"x": m["x"] + 1} for m in item["merchants"]])),
    ("map", ("map", "routes"), "_map_routes.html", lambda item: bool(item["goods"]) and not item.update(
        goods=[g | {"x": g["x"] + 1} for g in item["goods"]])),  # a good moved: the routes, not the towns
])
def test_a_public_region_renders_again_only_the_rows_that_changed(three_players, monkeypatch, region, path, partial,
                                                                   change):
    # each track's row, deed's card, development level and town of the map is memoised on its
    # own (pure_include): a move that changes one of them renders that one alone, and the
    # region reads as rendered whole
    from tests.support.memo import rendered_again, served_and_fresh

    game, users = three_players
    request = RequestFactory().get("/")
    request.user = users[0]
    context = game_context(game, game.seats.get(order=0), user=users[0])
    board = context["board"].complete()  # every lazy region computed, as a plain dict

    def render(shown_board):
        return render_partial(f"games/partials/_{region}.html", context | {"board": shown_board}, request)

    before = render(board)
    rows = [dict(item) for item in _rows(board, path)]
    assert any(change(item) for item in rows)  # the first row the change applies to is changed
    changed_board = _with_rows(board, path, rows)
    after, rendered_rows = rendered_again(monkeypatch, render, board, changed_board)  # every row once, then
    assert rendered_rows == [f"games/partials/{partial}"]
    assert after != before and len(after.splitlines()) == len(before.splitlines())
    # what the memo serves is what a fresh render gives, in each language and with other names
    names = {order: f"{name} the second" for order, name in board["names"].items()}
    for served, fresh in served_and_fresh(monkeypatch, render, [changed_board, changed_board | {"names": names}]):
        assert served == fresh
    assert served[0] == after


@pytest.mark.parametrize("change, piece", [
    # a planning step (the figures), a good gained, the start player changing (the badges), a
    # public draw (another player's market)
    (lambda b: b | {"plan_size": b["plan_size"] + 1}, "_player_board_stats.html"),
    (lambda b: b | {"goods": [g | {"count": g["count"] + 1} for g in b["goods"]]}, "_player_board_goods.html"),
    (lambda b: b | {"is_start": not b["is_start"]}, "_player_board_head.html"),
    (lambda b: b | {"market": None, "drawn": [{"tile": "farmer", "count": 2}]}, "_player_board_market.html"),
])
def test_a_player_board_renders_again_only_the_piece_a_move_changed(three_players, monkeypatch, change, piece):
    # an article's heading, figures, goods and market are each memoised on the values they
    # are given (pure_include), as its place cards are: a move renders the changed one alone,
    # and the article reads as rendered whole, in each language and with other names
    from tests.support.memo import rendered_again, served_and_fresh

    game, users = three_players
    request = RequestFactory().get("/")
    request.user = users[0]
    context = game_context(game, game.seats.get(order=0), user=users[0])
    board = next(b for b in context["board"].complete()["boards"] if not b["is_viewer"])
    values = context | {"oob": False}

    def render(shown_board):
        return render_partial("games/partials/_player_board.html", values | {"b": shown_board}, request)

    before = render(board)
    after, rendered_pieces = rendered_again(monkeypatch, render, board, change(board))  # every piece once, then
    assert rendered_pieces == [f"games/partials/{piece}"]
    assert after != before
    for served, fresh in served_and_fresh(monkeypatch, render, [change(board), change(board) | {"name": "Someone else"}]):
        assert served == fresh
    assert served[0] == after


def test_each_piece_of_a_player_board_reads_only_the_values_it_is_given(three_players, monkeypatch):
    # a piece reading a value its pure_include call leaves out would show it as empty, and
    # its memo would not change with it; the values given are the presenter's board's own
    from jinja2 import meta

    from games.presenters.fingerprint import templates_revision
    from games.presenters.page import PLAYER_BOARD_TEMPLATES
    from games.templating import _env, template_source

    game, users = three_players
    board = game_context(game, game.seats.get(order=0), user=users[0])["board"].complete()["boards"][0]
    article = template_source("games/partials/_player_board.html")
    calls = re.findall(r'pure_include\("games/partials/(_player_board_\w+\.html)", b=\{([^}]*)\}', article)
    assert {name for name, _given in calls} == {
        "_player_board_head.html", "_player_board_stats.html", "_player_board_goods.html",
        "_player_board_market.html"}
    for name, given in calls:
        source = template_source(f"games/partials/{name}")
        # nothing but the given board and the environment's globals (``_``, ``follower``, ...)
        assert meta.find_undeclared_variables(_env().parse(source)) - set(_env().globals) == {"b"}, name
        read = {a or b for a, b in re.findall(r"\bb\.(\w+)|\bb\[\"(\w+)\"\]", source)}
        keys = re.findall(r'"(\w+)": b\.(\w+)', given)
        assert all(key == value and key in board for key, value in keys), name
        assert read and read <= {key for key, _value in keys}, name
    # the article's cache key covers every partial it renders (a deploy that changes one is a new key)
    assert {f"games/partials/{name}" for name, _given in calls} <= templating.with_includes(PLAYER_BOARD_TEMPLATES)
    revision = templates_revision.__wrapped__(*PLAYER_BOARD_TEMPLATES)
    monkeypatch.setattr(templating, "template_source", lambda name, real=template_source: real(name) + (
        "<!-- changed -->" if name.endswith("_player_board_stats.html") else ""))
    assert templates_revision.__wrapped__(*PLAYER_BOARD_TEMPLATES) != revision


def test_the_player_boards_region_is_kept_as_its_articles_not_whole(three_players, client_for):
    # its articles are cached one by one (player_board_key): the whole region under its
    # fingerprint would be a second copy only the same viewer's same boards could read
    game, users = three_players
    caches["regions"].clear()
    page = client_for(users[0]).get(reverse("games-detail", kwargs={"game_id": game.pk})).text
    assert 'id="game-boards"' in page
    keys = list(local_entries())
    assert any("player-board" in key for key in keys)
    assert not any("region-html:boards:" in key for key in keys)
    assert any("region-html:players:" in key for key in keys)  # other pure regions still are


def test_decision_forms_are_rendered_once_for_every_version_and_post_the_pages_version(three_players, monkeypatch):
    # a form is memoised without the page's version (templating.VERSION_SLOT), which the
    # decision region writes in: the same choices at the next version are not rendered again
    from tests.support.memo import at_versions, fresh_renders

    game, users = three_players
    request = RequestFactory().get("/")
    request.user = users[0]
    context = game_context(game, game.seats.get(order=0), user=users[0])
    assert context["decision"]["forms"]
    rendered = fresh_renders(monkeypatch)
    v = game.version
    shown = at_versions("games/partials/_decision.html", context, request, (v, v + 7))
    assert all("expected-version" not in html for html, _posted in shown.values())
    assert rendered and all(name == "games/partials/_decision_form.html" for name in rendered)
    assert len(rendered) == len(context["decision"]["forms"])  # once each, at the first version only
    assert {version: posted for version, (_html, posted) in shown.items()} == {v: {str(v)}, v + 7: {str(v + 7)}}


def test_a_spectators_plan_draft_parameter_makes_no_cache_entry_of_its_own(three_players, client, client_for):
    """Only a seat plans: the ``plan_draft`` of a spectator's or a visitor's request is
    ignored, so random values cannot fill the shared cache with copies of the same parts."""
    game, users = three_players
    play_until(game, lambda state: (game.refresh_from_db(), game.version >= 4)[1], seed=9)
    game.refresh_from_db()
    poll = reverse("games-poll", kwargs={"game_id": game.pk}) + "?v=0"
    for viewer in (client, client_for(users[None])):
        viewer.get(poll)
        before = {key for key in local_entries() if "page-parts" in key}
        for n in range(5):
            assert viewer.get(poll + f'&plan_draft=[{{"n":{n}}}]').status_code == 200
        assert {key for key in local_entries() if "page-parts" in key} == before
