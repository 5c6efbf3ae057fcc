"""The game page's requests cost as many queries at move 200 as at move 10 (issue 14): the
log is read for the current and previous rounds only, staleness from the recent moves."""
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.support.game_driver import new_started_game, play_until, state_of
from tests.support.html_forms import HTMX


def planning_from(version):
    """``play_until``'s predicate: a round's planning, every seat still to plan, at ``version`` or later."""
    def done(state):
        data = state.data
        return data["phase"] == "planning" and not any(p["plan"] for p in data["players"]) and \
            data["round"] >= 2 and done.game.version >= version
    return done


def queries(client, url, params=None, **headers) -> int:
    with CaptureQueriesContext(connection) as captured:
        response = client.get(url, params or {}, **headers)
    assert response.status_code == 200
    return len(captured)


def counts(game, clients) -> dict:
    game.refresh_from_db()
    kwargs = {"game_id": game.pk}
    page, poll = reverse("games-detail", kwargs=kwargs), reverse("games-poll", kwargs=kwargs)
    round_before = state_of(game).data["round"] - 2
    for client in clients.values():
        client.get(page)  # the spectator list and the caches as a returning viewer finds them
    return {
        "seat page": queries(clients["seat"], page),
        "spectator page": queries(clients["spectator"], page),
        "regions of a poll": queries(clients["seat"], poll, {"v": -1}, **HTMX),
        "plan preview": queries(clients["seat"], reverse("games-plan", kwargs=kwargs), **HTMX),
        "an older log round": queries(clients["spectator"], reverse(
            "games-log-round", kwargs={"game_id": game.pk, "round": max(1, round_before)})),
    }


def test_every_request_of_the_page_costs_the_same_queries_at_move_200_as_at_move_10(
        alice, bob, carol, dave, client_for):
    game = new_started_game(alice, bob, carol, seed=21)
    clients = {"seat": client_for(alice), "spectator": client_for(dave)}
    early_done = planning_from(10)
    early_done.game = game
    play_until(game, lambda state: (game.refresh_from_db(), early_done(state))[1], seed=3)
    early = counts(game, clients)
    late_done = planning_from(200)
    late_done.game = game
    play_until(game, lambda state: (game.refresh_from_db(), late_done(state))[1], seed=3)
    assert game.moves.count() >= 200
    late = counts(game, clients)
    assert late == early
    # a page: session, user, game and the viewer's seat, the navigation's count and the seats
    # with the chat's reader and newest ids in one query without the snapshot
    # (games.access.game_and_seat; no message query for an empty channel); its versioned
    # regions from the page cache
    assert early == {"seat page": 3, "spectator page": 3, "regions of a poll": 5, "plan preview": 4,
                     "an older log round": 6}


def test_a_game_page_shows_the_navigations_waiting_count_read_with_its_game(alice, bob, carol, client_for):
    from games import selectors

    first = new_started_game(alice, bob, seed=21)
    new_started_game(alice, carol, seed=22)
    count = selectors.waiting_count(alice)
    assert count == 2
    url = reverse("games-detail", kwargs={"game_id": first.pk})
    badge = '<span class="badge turn" id="nav-waiting-count">{}</span>'
    assert badge.format(count) in client_for(alice).get(url).text
    assert badge.format(1) in client_for(carol).get(url).text  # a spectator here, awaited at her own game


def test_the_navigations_waiting_count_is_one_query(alice, bob, django_assert_num_queries):
    from games import selectors

    new_started_game(alice, bob, seed=21)
    with django_assert_num_queries(1):
        count = selectors.waiting_count(alice)
    assert count == len(selectors.seats_waiting_for(alice)) == 1  # the start awaits every seat
