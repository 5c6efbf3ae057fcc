"""A write's commit awaited while its answer renders (``orleans_site.postgresql.base``, issue
14): inside ``commit_awaited_later`` a transaction's COMMIT is sent and its reply awaited at
the block's end, or before the connection's next use, with the transaction's on-commit
hooks after it; a COMMIT the server refuses raises there and runs no hook. Outside the
block, and on SQLite, a commit is Django's. These tests commit for real."""
import json

import psycopg
import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.db import IntegrityError, connection, transaction
from django.urls import reverse

import engine
from games.management.commands.playtest import tasks_not_inline
from games.models import Move
from games.services import play
from games.views import fragments
from orleans_site.postgresql.base import commit_awaited_later
from tests.support.game_driver import new_started_game, play_until, state_of, user_at
from tests.support.html_forms import HTMX

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def postgresql():
    if connection.vendor != "postgresql":
        pytest.skip("the site's own backend is PostgreSQL's")


def _seen_elsewhere(username: str) -> bool:
    """Whether another session (another process) sees the user ``username``: committed."""
    with psycopg.connect(**connection.get_connection_params()) as other:
        return other.execute("SELECT 1 FROM auth_user WHERE username = %s", [username]).fetchone() is not None


def _write(username: str, ran: list) -> None:
    with transaction.atomic():
        get_user_model().objects.create(username=username)
        transaction.on_commit(lambda: ran.append(username))


def test_the_commit_is_sent_and_awaited_at_the_blocks_end_with_its_hooks_after_it(postgresql):
    ran = []
    with commit_awaited_later():
        _write("dora", ran)
        assert connection.commit_pending and ran == []
    assert not connection.commit_pending
    assert ran == ["dora"] and _seen_elsewhere("dora")


def test_a_query_before_the_blocks_end_waits_for_the_commit_and_its_hooks_first(postgresql):
    ran = []
    with commit_awaited_later():
        _write("dora", ran)
        assert get_user_model().objects.filter(username="dora").exists()
        assert not connection.commit_pending and ran == ["dora"]
        _write("emil", ran)  # a second write in the block: its commit is sent in turn
        assert connection.commit_pending and ran == ["dora"]
    assert ran == ["dora", "emil"] and _seen_elsewhere("emil")


def _refused(username: str, ran: list) -> None:
    """A write whose COMMIT the server refuses: Django's foreign keys are checked then."""
    with transaction.atomic():
        get_user_model().objects.create(username=username)
        with connection.cursor() as cursor:
            cursor.execute("INSERT INTO auth_user_groups (user_id, group_id) VALUES (%s, %s)", [-1, -1])
        transaction.on_commit(lambda: ran.append(username))


def test_a_commit_the_server_refuses_raises_at_the_blocks_end_and_runs_no_hook(postgresql):
    ran = []
    with pytest.raises(IntegrityError) as refused:
        with commit_awaited_later():
            _refused("dora", ran)
            assert connection.commit_pending  # sent: the server has not answered yet
    assert refused.value.__cause__.diag.constraint_name.startswith("auth_user_groups_user_id")  # the server's own
    assert ran == [] and not _seen_elsewhere("dora")
    assert not connection.commit_pending and connection.connection.autocommit
    assert get_user_model().objects.count() == 0  # the connection serves the next query


@pytest.mark.parametrize("awaited_by", ["a handler of database errors", "a health check", "closing the connection"])
def test_a_refusal_let_pass_by_whatever_awaited_it_is_raised_again_at_the_blocks_end(postgresql, awaited_by):
    ran = []
    with pytest.raises(IntegrityError):
        with commit_awaited_later():
            _refused("dora", ran)
            if awaited_by == "a handler of database errors":
                try:  # "create unless it is there": its transaction awaits the COMMIT first
                    with transaction.atomic():
                        Group.objects.create(name="players")
                except IntegrityError:
                    pass
            elif awaited_by == "a health check":
                connection.health_check_done = False
                connection.close_if_health_check_failed()
            else:
                connection.close()
    assert ran == [] and not _seen_elsewhere("dora")


def test_a_hook_that_writes_commits_as_django_does_and_the_query_that_awaited_it_runs(postgresql):
    def hook():
        with transaction.atomic():
            Group.objects.create(name="from the hook")

    with commit_awaited_later():
        with transaction.atomic():
            get_user_model().objects.create(username="dora")
            transaction.on_commit(hook)
        assert get_user_model().objects.count() == 1  # awaits: the hook runs, its commit awaited at once
        assert not connection.commit_pending
        with transaction.atomic():
            get_user_model().objects.create(username="emil")
    assert Group.objects.filter(name="from the hook").exists() and _seen_elsewhere("emil")


def test_a_server_side_cursor_and_a_query_wrapper_in_the_window_work(postgresql):
    seen = []

    def wrapper(execute, sql, params, many, context):
        seen.append(sql)
        return execute(sql, params, many, context)

    with commit_awaited_later():
        with connection.execute_wrapper(wrapper):
            _write("dora", [])
        assert [user.username for user in get_user_model().objects.all().iterator()] == ["dora"]
    assert connection.execute_wrappers == [] and seen


def test_outside_the_block_a_commit_is_awaited_at_once(postgresql):
    ran = []
    _write("dora", ran)
    assert not connection.commit_pending and ran == ["dora"] and _seen_elsewhere("dora")


def test_on_sqlite_the_block_changes_nothing():
    if connection.vendor != "sqlite":
        pytest.skip("the embedded default's database")
    ran = []
    with commit_awaited_later():
        _write("dora", ran)
        assert ran == ["dora"]  # committed and its hooks run at the transaction's end


def _decision(game) -> tuple[int, dict]:
    game.refresh_from_db()
    state = state_of(game)
    awaited = engine.awaiting(state)
    order = min(awaited)
    action = engine.legal_actions(state, order)[0]
    return order, {"action": json.dumps(action), "expected_version": game.version}


def test_a_decisions_answer_renders_while_its_commit_is_on_its_way_and_shows_the_stored_move(
        postgresql, alice, bob, client_for, monkeypatch):
    game = play_until(new_started_game(alice, bob, seed=11),
                      lambda state: sorted(engine.awaiting(state).items()) == [(0, "plan"), (1, "plan")])
    pending = []
    render = fragments.render_regions

    def recording(*args, **kwargs):
        pending.append(connection.commit_pending)
        return render(*args, **kwargs)

    monkeypatch.setattr(fragments, "render_regions", recording)
    order, data = _decision(game)
    client = client_for(user_at(game, order))
    with tasks_not_inline():  # tasks published, not run inside the request: nothing to wait for
        answer = client.post(reverse("games-act", kwargs={"game_id": game.pk}), data, **HTMX)
    assert answer.status_code == 200 and f"?v={game.version + 1}" in answer.text
    assert pending == [True] and not connection.commit_pending
    game.refresh_from_db()
    assert game.version == data["expected_version"] + 1
    with tasks_not_inline():  # the take-back's answer too
        answer = client.post(reverse("games-undo", kwargs={"game_id": game.pk}),
                             {"expected_version": game.version}, **HTMX)
    assert answer.status_code == 200 and pending == [True, True]
    assert Move.objects.filter(game=game, taken_back=True).count() == 1
    # tasks run inside the request (the embedded default): their moves belong in the answer,
    # so the commit is awaited before it renders
    order, data = _decision(game)
    answer = client_for(user_at(game, order)).post(reverse("games-act", kwargs={"game_id": game.pk}), data, **HTMX)
    assert answer.status_code == 200 and pending == [True, True, False]


def test_a_decision_whose_commit_is_refused_is_answered_with_an_error_and_stores_nothing(
        postgresql, alice, bob, client_for, monkeypatch):
    game = play_until(new_started_game(alice, bob, seed=11),
                      lambda state: sorted(engine.awaiting(state).items()) == [(0, "plan"), (1, "plan")])
    moves = Move.objects.filter(game=game).count()
    store = play._play_move

    def refused(*args, **kwargs):
        move = store(*args, **kwargs)
        with connection.cursor() as cursor:  # checked at the COMMIT, after the answer rendered
            cursor.execute("INSERT INTO auth_user_groups (user_id, group_id) VALUES (%s, %s)", [-1, -1])
        return move

    monkeypatch.setattr(play, "_play_move", refused)
    order, data = _decision(game)
    client = client_for(user_at(game, order))
    client.raise_request_exception = False
    url = reverse("games-act", kwargs={"game_id": game.pk})
    with tasks_not_inline():
        assert client.post(url, data, **HTMX).status_code == 500  # htmx shows the failure (site.js)
    game.refresh_from_db()
    assert game.version == data["expected_version"] and Move.objects.filter(game=game).count() == moves
    monkeypatch.setattr(play, "_play_move", store)
    with tasks_not_inline():
        assert client.post(url, data, **HTMX).status_code == 200  # the same decision, stored this time
