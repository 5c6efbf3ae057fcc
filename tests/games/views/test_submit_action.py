"""fragments.submit_action: a decision posted by htmx (or a plain form)."""
import json

import pytest
from django.urls import reverse

from games.models import Move
from tests.support.game_driver import awaited_move
from tests.support.html_forms import HTMX
from tests.support.queries import statements


def url(game):
    return reverse("games-act", kwargs={"game_id": game.pk})


def post(client, game, action, version=0, **extra):
    data = {"action": action if isinstance(action, str) else json.dumps(action),
            "expected_version": version}
    return client.post(url(game), data, **extra)


def unchanged(game):
    before = (game.version, game.state)
    game.refresh_from_db()
    return (game.version, game.state) == before and not Move.objects.filter(game=game).exists()


def test_it_applies_the_action_and_returns_the_regions(client_for, started_game):
    seat, action = awaited_move(started_game)
    response = post(client_for(seat.user), started_game, action, **HTMX)
    assert response.status_code == 200
    started_game.refresh_from_db()
    assert started_game.version == 1
    assert Move.objects.get(game=started_game).action == action
    for region in ("game-status", "game-map", "game-boards", "game-actions", "game-log", "flash",
                   "game-poll"):
        assert f'id="{region}" hx-swap-oob="true"' in response.text
    assert "?v=1" in response.text


def test_without_htmx_it_redirects_to_the_game(client_for, started_game):
    seat, action = awaited_move(started_game)
    response = post(client_for(seat.user), started_game, action)
    assert response.status_code == 302
    assert response["Location"] == reverse("games-detail", kwargs={"game_id": started_game.pk})


def test_it_shows_a_stale_version_beside_the_form(client_for, started_game):
    seat, action = awaited_move(started_game)
    response = post(client_for(seat.user), started_game, action, version=5, **HTMX)
    assert response.status_code == 200
    assert 'id="flash" hx-swap-oob="true"' in response.text
    assert "move number (5) is not the game" in response.text
    assert 'id="game-map" hx-swap-oob="true"' in response.text  # refreshed board
    assert unchanged(started_game)


@pytest.mark.parametrize("action", [{"type": "no_such_action"}, {"type": "pick", "n": 42}])
def test_it_shows_why_an_action_is_illegal(client_for, started_game, action):
    seat, _ = awaited_move(started_game)
    response = post(client_for(seat.user), started_game, action, **HTMX)
    assert response.status_code == 200
    assert 'class="flash"' in response.text
    assert 'id="game-map"' not in response.text
    assert unchanged(started_game)


@pytest.mark.parametrize("raw", ["{not json", "[1, 2]", '{"no": "type"}', ""])
def test_it_rejects_malformed_submissions(client_for, started_game, raw):
    seat, _ = awaited_move(started_game)
    response = post(client_for(seat.user), started_game, raw, **HTMX)
    assert response.status_code == 200
    assert 'class="flash"' in response.text
    assert unchanged(started_game)


def test_it_rejects_a_missing_version(client_for, started_game):
    seat, action = awaited_move(started_game)
    response = client_for(seat.user).post(url(started_game), {"action": json.dumps(action)}, **HTMX)
    assert 'class="flash"' in response.text
    assert unchanged(started_game)


def test_without_htmx_an_error_comes_back_as_a_message(client_for, started_game):
    seat, _ = awaited_move(started_game)
    response = post(client_for(seat.user), started_game, {"type": "nope"}, follow=True)
    assert response.status_code == 200
    assert "message error" in response.text
    assert unchanged(started_game)


def test_it_refuses_a_user_without_a_seat(client_for, started_game, carol):
    _, action = awaited_move(started_game)
    assert post(client_for(carol), started_game, action, **HTMX).status_code == 403
    assert unchanged(started_game)


def test_it_requires_login(client, started_game):
    _, action = awaited_move(started_game)
    assert post(client, started_game, action).status_code == 302
    assert unchanged(started_game)


def test_it_rejects_get(client_for, started_game):
    seat, action = awaited_move(started_game)
    response = client_for(seat.user).get(url(started_game), {"action": json.dumps(action),
                                                            "expected_version": 0})
    assert response.status_code == 405
    assert unchanged(started_game)


def test_it_needs_the_csrf_token(started_game):
    from django.test import Client

    seat, action = awaited_move(started_game)
    client = Client(enforce_csrf_checks=True)
    client.force_login(seat.user)
    assert post(client, started_game, action, **HTMX).status_code == 403
    assert unchanged(started_game)


def test_a_completed_simultaneous_phase_is_resolved(
    fake_engine, client_for, started_game, django_capture_on_commit_callbacks
):
    first, second = started_game.seats.order_by("order")
    post(client_for(first.user), started_game, {"type": "pick", "n": 1}, 0, **HTMX)
    with django_capture_on_commit_callbacks(execute=True):
        response = post(client_for(second.user), started_game, {"type": "pick", "n": 2}, 1, **HTMX)
    assert response.status_code == 200
    started_game.refresh_from_db()
    assert started_game.version == 3
    assert fake_engine.from_json(started_game.state).round == 2


def test_the_answer_reads_the_game_row_once_under_its_lock(client_for, started_game):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    seat, action = awaited_move(started_game)
    client = client_for(seat.user)
    with CaptureQueriesContext(connection) as captured:
        response = post(client, started_game, action, **HTMX)
    assert response.status_code == 200
    assert "?v=1" in response.text
    reads = [sql for sql in statements(captured) if sql.startswith("SELECT") and 'FROM "games_game"' in sql]
    assert len(reads) == 1  # the lock: the answer draws the row the service wrote


@pytest.mark.django_db(transaction=True)  # commits for real: the eager resolution runs inside the request
def test_the_answer_shows_the_game_as_the_on_commit_resolution_left_it(fake_engine, client_for, started_game):
    first, second = started_game.seats.order_by("order")
    post(client_for(first.user), started_game, {"type": "pick", "n": 1}, 0, **HTMX)
    response = post(client_for(second.user), started_game, {"type": "pick", "n": 2}, 1, **HTMX)
    started_game.refresh_from_db()
    assert started_game.version == 3
    assert "?v=3" in response.text  # the resolution's version, not the decision's (2)


def test_a_user_without_a_seat_at_a_private_game_is_not_found_and_nothing_is_written(
        make_game, client_for, alice, bob, carol):
    game = make_game(alice, bob, seats=2, is_public=False)
    _, action = awaited_move(game)
    assert post(client_for(carol), game, action, **HTMX).status_code == 404
    assert unchanged(game)


@pytest.mark.parametrize("raw", ["{not json", '{"type": "pick", "n": 1}'])
def test_a_user_without_a_seat_is_refused_whatever_they_post(client_for, started_game, carol, raw):
    assert post(client_for(carol), started_game, raw, version="x", **HTMX).status_code == 403
    assert unchanged(started_game)


def test_a_game_that_does_not_exist_is_not_found(client_for, started_game, alice):
    import uuid

    seat, action = awaited_move(started_game)
    response = client_for(seat.user).post(reverse("games-act", kwargs={"game_id": uuid.uuid4()}),
                                          {"action": json.dumps(action), "expected_version": 0}, **HTMX)
    assert response.status_code == 404
    assert unchanged(started_game)


def test_a_user_without_a_seat_writes_nothing_and_the_lock_holds_the_seat_check(client_for, started_game, carol):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    _, action = awaited_move(started_game)
    client = client_for(carol)
    with CaptureQueriesContext(connection) as captured:
        assert post(client, started_game, action, **HTMX).status_code == 403
    assert not [sql for sql in statements(captured) if sql.startswith(("INSERT", "UPDATE", "DELETE"))]
    # the service's lock finds no row (the seat check is in its WHERE); then the 403 is picked.
    # SQLite (its write transaction locks the whole database) checks the seat before it: no lock read
    reads = [sql for sql in statements(captured) if 'FROM "games_game" g' in sql]
    if connection.features.has_select_for_update:
        assert "EXISTS" in reads[0]
    else:
        assert not [sql for sql in reads if "EXISTS" in sql]  # the refusal's own read (404 or 403) only
        assert not [sql for sql in statements(captured) if sql.startswith("BEGIN")]


def test_the_answer_to_a_decision_reads_no_seat_again_when_no_task_runs_inside_the_request(
        client_for, started_game):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from games.management.commands.playtest import tasks_not_inline

    seat, action = awaited_move(started_game)
    with tasks_not_inline(), CaptureQueriesContext(connection) as captured:
        response = post(client_for(seat.user), started_game, action, **HTMX)
    assert response.status_code == 200 and "?v=1" in response.text
    assert not [q["sql"] for q in captured if 'AS "game_version"' in q["sql"]]  # _after_write's re-read


def test_with_eager_tasks_the_answer_reads_the_seat_again_when_a_task_moves_the_game_on_commit(
        fake_engine, client_for, started_game):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    first, second = started_game.seats.order_by("order")
    post(client_for(first.user), started_game, {"type": "pick", "n": 1}, 0, **HTMX)
    with CaptureQueriesContext(connection) as captured:  # completes the phase: its resolution is queued
        post(client_for(second.user), started_game, {"type": "pick", "n": 2}, 1, **HTMX)
    assert [q["sql"] for q in captured if 'AS "game_version"' in q["sql"]]


@pytest.mark.parametrize("data", [{"expected_version": "0"}, {}])
def test_a_user_without_a_seat_cannot_take_back_and_is_refused_as_for_a_decision(
        make_game, client_for, started_game, alice, bob, carol, data):
    undo = reverse("games-undo", kwargs={"game_id": started_game.pk})
    assert client_for(carol).post(undo, data, **HTMX).status_code == 403
    assert unchanged(started_game)
    private = make_game(alice, bob, seats=2, is_public=False)
    undo = reverse("games-undo", kwargs={"game_id": private.pk})
    assert client_for(carol).post(undo, data, **HTMX).status_code == 404
    assert unchanged(private)
