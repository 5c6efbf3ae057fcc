"""The answer to the viewer's own decision or take-back (issue 14): on PostgreSQL the store
reads the page's seats and recent moves in its writes' round trip (services' ``answer_page``,
``store.read_page_with_writes``), so the answer asks no query of its own; what it shows is
what the same regions show read afresh after the commit."""
import json
import random
import re

import pytest
from django.core.cache import caches
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

import engine
from engine.simulate import choose
from games.management.commands.playtest import tasks_not_inline
from games.models import Move
from tests.support.game_driver import CASTLE_PLAN, new_started_game, play_until, seats, state_of, user_at
from tests.support.html_forms import HTMX
from tests.support.queries import statements

_TOKEN = re.compile(r'(name="csrfmiddlewaretoken" value=")[^"]*')


def _same_tokens(html: str) -> str:
    return _TOKEN.sub(r"\1token", html)


def _post(client, name, game, data):
    return client.post(reverse(name, kwargs={"game_id": game.pk}), data, **HTMX)


def _afresh(client, game) -> str:
    """Every region of ``game`` for the client's viewer, read after the commit (a poll of a
    page that has seen nothing), nothing taken from the regions cache."""
    caches["regions"].clear()
    response = client.get(reverse("games-poll", kwargs={"game_id": game.pk}), {"v": -1}, **HTMX)
    assert response.status_code == 200
    return _same_tokens(response.text)


def _decide(game, rng=None):
    """The lowest awaited seat's client and its first legal decision, or with ``rng`` one
    the engine's random player picks (a resolution due is made first, as its task would)."""
    from games import services

    game.refresh_from_db()
    state = state_of(game)
    if engine.needs_resolution(state):
        services.game_resolve(game_id=game.pk, expected_version=game.version)
        game.refresh_from_db()
        state = state_of(game)
    awaited = engine.awaiting(state)
    order = min(awaited)
    legal = engine.legal_actions(state, order)
    action = legal[0] if rng is None else choose(rng, awaited[order], legal, state.data, order)
    return order, {"action": json.dumps(action), "expected_version": game.version}


def test_the_answer_to_a_decision_on_postgresql_is_six_queries_and_reads_no_page_row_itself(
        alice, bob, carol, client_for):
    if connection.vendor != "postgresql":
        pytest.skip("only PostgreSQL runs statements together")
    game = new_started_game(alice, bob, carol, seed=21)
    play_until(game, lambda state: state.round >= 2 and state.data["phase"] == "planning")
    order, data = _decide(game)
    client = client_for(user_at(game, order))
    with tasks_not_inline(), CaptureQueriesContext(connection) as captured:
        response = _post(client, "games-act", game, data)
    assert response.status_code == 200 and f"?v={game.version + 1}" in response.text
    # session, user, the transaction's start, the lock with the seats, the writes with the
    # page's seats and recent moves, the transaction's end
    assert len(captured) == 6, [query["sql"][:80] for query in captured]
    reads = statements(captured)
    assert sum('FROM "games_seat" s LEFT JOIN' in sql for sql in reads) == 1  # page_seats', after the writes
    assert sum('FROM "games_move" WHERE' in sql for sql in reads) == 1  # recent_moves'


def test_each_answer_shows_what_its_regions_show_read_afresh_after_the_commit(alice, bob, carol, client_for):
    game = new_started_game(alice, bob, carol, seed=5)
    play_until(game, lambda state: state.round >= 2)
    clients = {order: client_for(user_at(game, order)) for order in range(3)}
    for _ in range(12):
        order, data = _decide(game)
        with tasks_not_inline():  # no task moves the game on inside the request: the answer's rows serve
            answer = _post(clients[order], "games-act", game, data)
        assert answer.status_code == 200
        assert _same_tokens(answer.text) == _afresh(clients[order], game)


def test_the_answer_to_a_take_back_shows_what_its_regions_show_read_afresh(alice, bob, client_for):
    game = play_until(new_started_game(alice, bob, seed=11),
                      lambda state: sorted(engine.awaiting(state).items()) == [(0, "plan"), (1, "plan")])
    game.refresh_from_db()
    client = client_for(seats(game)[0].user)
    plan = {"action": json.dumps({"type": "submit_plan", "placements": CASTLE_PLAN}),
            "expected_version": game.version}
    with tasks_not_inline():
        assert _post(client, "games-act", game, plan).status_code == 200
        answer = _post(client, "games-undo", game, {"expected_version": game.version + 1})
    assert answer.status_code == 200
    assert Move.objects.filter(game=game, taken_back=True).count() == 1
    assert _same_tokens(answer.text) == _afresh(client, game)


def test_the_answer_to_a_queue_change_reads_the_page_seats_with_the_game_and_shows_them_afresh(
        started_game, client_for):
    client = client_for(seats(started_game)[0].user)
    with CaptureQueriesContext(connection) as captured:
        answer = _post(client, "games-queue", started_game, {"op": "add", "entry": '{"type": "pass"}'})
    assert answer.status_code == 200 and "queue-entries" in answer.text
    assert not [sql for sql in statements(captured) if sql.startswith('SELECT s."id"')]  # no page_seats of its own
    assert _same_tokens(answer.text) == _afresh(client, started_game)


def _kept_moves_post(client, name, game, data, capture):
    """Post as the site does between requests: the transaction's on-commit work runs (the
    test's own transaction never commits), so the process keeps the recent moves it read."""
    with tasks_not_inline(), capture(execute=True), CaptureQueriesContext(connection) as captured:
        answer = _post(client, name, game, data)
    assert answer.status_code == 200
    return answer, any('"games_move"."seq" >' in sql for sql in statements(captured))


def test_answers_built_on_the_recent_moves_the_process_kept_show_what_their_regions_show_afresh(
        alice, bob, carol, client_for, django_capture_on_commit_callbacks):
    if connection.vendor != "postgresql":
        pytest.skip("only PostgreSQL reads the page with the writes")
    game = new_started_game(alice, bob, carol, seed=5)
    play_until(game, lambda state: state.round >= 2)
    clients = {order: client_for(user_at(game, order)) for order in range(3)}
    rounds, newer_only = set(), 0
    rng = random.Random(3)
    for _ in range(200):
        if len(rounds) == 2 and state_of(game).data["phase"] == "actions":  # into the next round's actions
            break
        order, data = _decide(game, rng)  # a resolution's commit is the test's: it keeps nothing
        answer, newer = _kept_moves_post(clients[order], "games-act", game, data, django_capture_on_commit_callbacks)
        newer_only += newer
        rounds.add(state_of(game).round)
        assert _same_tokens(answer.text) == _afresh(clients[order], game)
    assert newer_only >= 10 and len(rounds) >= 2  # the kept moves served, across a new round


def test_a_take_back_after_kept_recent_moves_shows_the_moves_it_marks_as_read_afresh(
        alice, bob, client_for, django_capture_on_commit_callbacks):
    if connection.vendor != "postgresql":
        pytest.skip("only PostgreSQL reads the page with the writes")
    game = play_until(new_started_game(alice, bob, seed=11),
                      lambda state: sorted(engine.awaiting(state).items()) == [(0, "plan"), (1, "plan")])
    game.refresh_from_db()
    client = client_for(seats(game)[0].user)
    version = game.version
    plan = {"action": json.dumps({"type": "submit_plan", "placements": CASTLE_PLAN})}
    _kept_moves_post(client, "games-act", game, {**plan, "expected_version": version},
                     django_capture_on_commit_callbacks)
    answer, newer = _kept_moves_post(client, "games-undo", game, {"expected_version": version + 1},
                                     django_capture_on_commit_callbacks)
    assert not newer  # the take-back marks a stored move: every recent move is read again
    assert _same_tokens(answer.text) == _afresh(client, game)
    answer, newer = _kept_moves_post(client, "games-act", game, {**plan, "expected_version": version + 2},
                                     django_capture_on_commit_callbacks)
    assert newer and _same_tokens(answer.text) == _afresh(client, game)
