"""A game whose stored state cannot be loaded (unknown schema, another engine major version,
unknown rules, a snapshot that is not a state) is a damaged game (``games.errors.GameDamaged``,
``games.rules.load_game``): its pages answer the repair page (503, the site's layout) and
its htmx requests the repair sentence in ``#flash``, never a 500; the sweeps and tasks skip
it and go on with the other games; the operators are told once per game and hour."""
import json
import logging

import pytest
from django.core import mail
from django.urls import reverse

from games import rules
from games.access import make_invite_token
from games.errors import GAME_NEEDS_REPAIR, GameDamaged
from games.models import Game, Move, Seat
from games.services import game_submit_action
from games.tasks import enforce_deadlines_task, resolve_game_task, resolve_stalled_games_task
from notifications.tasks import send_reminders_task
from tests.support.game_driver import awaited_move, everyone_picks, submit

HTMX = {"HTTP_HX_REQUEST": "true"}
#: The repair sentence as the templates escape it.
SENTENCE = GAME_NEEDS_REPAIR.replace("'", "&#x27;")


def unknown_schema(game: Game) -> Game:
    """Store ``game``'s (real engine) state with a schema this engine does not know."""
    Game.objects.filter(pk=game.pk).update(state={**game.state, "schema": 99})
    game.refresh_from_db()
    return game


def other_engine_version(game: Game) -> Game:
    """Pin ``game`` to another major version of its engine."""
    Game.objects.filter(pk=game.pk).update(engine_version="99.0.0")
    game.refresh_from_db()
    return game


def broken_snapshot(game: Game) -> Game:
    """A snapshot edited by hand: a key its engine needs is gone."""
    state = dict(game.state)
    del state["scores" if "scores" in state else "players"]
    Game.objects.filter(pk=game.pk).update(state=state)
    game.refresh_from_db()
    return game


def page(client, game):
    return client.get(reverse("games-detail", kwargs={"game_id": game.pk}))


def poll(client, game, version):
    return client.get(reverse("games-poll", kwargs={"game_id": game.pk}) + f"?v={version}", **HTMX)


def repair_reports(caplog) -> list[logging.LogRecord]:
    return [r for r in caplog.records if r.name == "games.damaged" and r.levelno == logging.ERROR]


def assert_repair_page(response) -> None:
    assert response.status_code == 503
    text = response.content.decode()
    assert SENTENCE in text
    assert "<main" in text and "Orléans Online" in text  # the site's layout
    assert "Test game" in text
    assert "SchemaError" not in text and "version" not in text.split("<main", 1)[1]


@pytest.fixture
def real_game(started_game):
    """A started two-player game of the real engine (alice and bob)."""
    assert started_game.rules == "orleans"
    return started_game


# --- pages ---------------------------------------------------------------------------------


def test_an_unknown_schema_shows_the_repair_page_to_a_player_and_a_spectator(
        real_game, client_for, alice, carol, caplog):
    unknown_schema(real_game)
    assert_repair_page(page(client_for(alice), real_game))
    assert_repair_page(page(client_for(carol), real_game))
    # the 503 is not an ERROR of django.request on every view (mailed to ADMINS)
    assert not [r for r in caplog.records if r.name == "django.request" and r.levelno >= logging.ERROR]


def test_another_engine_major_version_shows_the_repair_page(real_game, client_for, alice, carol):
    other_engine_version(real_game)
    assert_repair_page(page(client_for(alice), real_game))
    assert_repair_page(page(client_for(carol), real_game))


def test_rules_the_site_does_not_know_show_the_repair_page(real_game, client_for, bob):
    Game.objects.filter(pk=real_game.pk).update(rules="chess")
    assert_repair_page(page(client_for(bob), real_game))


def test_a_snapshot_the_engine_chokes_on_shows_the_repair_page(real_game, client_for, bob):
    broken_snapshot(real_game)
    assert_repair_page(page(client_for(bob), real_game))


def test_the_invite_link_of_a_damaged_game_shows_the_repair_page(make_game, client_for, alice, bob):
    game = unknown_schema(make_game(alice, bob, seats=2, is_public=False))
    url = reverse("games-invite", kwargs={"game_id": game.pk, "token": make_invite_token(game)})
    assert_repair_page(client_for(alice).get(url))


def test_the_lists_that_show_a_damaged_game_still_answer(real_game, client_for, alice, carol):
    unknown_schema(real_game)
    client = client_for(alice)
    for name in ("home", "games-profile", "games-lobby"):
        assert client.get(reverse(name)).status_code == 200
    assert "Test game" in client.get(reverse("games-profile")).content.decode()
    assert client_for(carol).get(reverse("home")).status_code == 200


def test_a_healthy_game_of_the_same_players_is_not_affected(real_game, make_game, client_for,
                                                            alice, bob):
    other = make_game(alice, bob, seats=2)
    unknown_schema(real_game)
    assert page(client_for(alice), other).status_code == 200


# --- htmx fragments and form posts ------------------------------------------------------------


def test_the_poll_shows_the_sentence_in_flash_and_stops(real_game, client_for, alice, carol):
    seat, action = awaited_move(real_game)
    submit(real_game, seat, action)  # a move first: a page of version 0 is out of date
    unknown_schema(real_game)
    for user in (alice, carol):
        response = poll(client_for(user), real_game, 0)
        assert response.status_code == 286  # htmx swaps it and polls no more
        assert 'id="flash" hx-swap-oob="true"' in response.text
        assert SENTENCE in response.text


def test_the_poll_of_an_unchanged_game_sees_another_engine_version(real_game, client_for, alice):
    other_engine_version(real_game)
    response = poll(client_for(alice), real_game, real_game.version)
    assert response.status_code == 286
    assert SENTENCE in response.text


def test_a_submit_shows_the_sentence_and_records_nothing(real_game, client_for):
    seat, action = awaited_move(real_game)
    unknown_schema(real_game)
    url = reverse("games-act", kwargs={"game_id": real_game.pk})
    data = {"action": json.dumps(action), "expected_version": real_game.version}
    client = client_for(seat.user)
    response = client.post(url, data, **HTMX)
    assert response.status_code == 200
    assert response.text.startswith('<div id="flash" hx-swap-oob="true"')
    assert SENTENCE in response.text
    assert_repair_page(client.post(url, data))  # without htmx: the page itself
    assert not Move.objects.filter(game=real_game).exists()


def test_a_queue_change_shows_the_sentence(real_game, client_for, alice):
    other_engine_version(real_game)
    response = client_for(alice).post(reverse("games-queue", kwargs={"game_id": real_game.pk}),
                                      {"op": "clear"}, **HTMX)
    assert response.status_code == 200
    assert SENTENCE in response.text


def test_a_vote_to_end_that_would_load_the_game_shows_the_repair_page(real_game, client_for, alice, bob):
    Seat.objects.filter(game=real_game, user=bob).update(absent=True)
    broken_snapshot(real_game)
    response = client_for(alice).post(reverse("games-vote-end", kwargs={"game_id": real_game.pk}))
    assert_repair_page(response)
    real_game.refresh_from_db()
    assert real_game.is_active and not Seat.objects.get(game=real_game, user=alice).votes_to_end


# --- the loader and the report ------------------------------------------------------------------


def test_every_loading_failure_is_one_error_carrying_the_reason(real_game):
    unknown_schema(real_game)
    with pytest.raises(GameDamaged) as caught:
        rules.load_game(real_game)
    assert caught.value.game_id == real_game.pk
    assert caught.value.message == GAME_NEEDS_REPAIR
    assert caught.value.reason.startswith("the stored snapshot cannot be loaded (SchemaError:")
    other_engine_version(real_game)
    with pytest.raises(GameDamaged, match="played with orleans rules version 99.0.0"):
        rules.load_game(real_game)
    assert rules.is_damaged(real_game).startswith("cannot be loaded: This game was played with")


def test_a_healthy_game_loads(real_game):
    rules_engine, state = rules.load_game(real_game)
    assert rules_engine.to_json(state) == real_game.state
    assert rules.is_damaged(real_game) is None


def test_the_operators_are_told_once_per_game(real_game, make_game, client_for, alice, bob, caplog):
    other = make_game(alice, bob, seats=2)
    unknown_schema(real_game)
    other_engine_version(other)
    client = client_for(alice)
    page(client, real_game)
    page(client, real_game)
    poll(client, real_game, real_game.version + 1)
    reports = repair_reports(caplog)
    assert len(reports) == 1
    assert str(real_game.pk) in reports[0].getMessage() and "SchemaError" in reports[0].getMessage()
    page(client, other)
    assert [str(other.pk) in r.getMessage() for r in repair_reports(caplog)] == [False, True]


def test_the_report_is_mailed_to_the_admins(real_game, client_for, alice, settings):
    settings.ADMINS = [("ops", "ops@example.org")]
    unknown_schema(real_game)
    mail.outbox.clear()
    page(client_for(alice), real_game)
    page(client_for(alice), real_game)
    assert [m.to for m in mail.outbox] == [["ops@example.org"]]
    assert str(real_game.pk) in mail.outbox[0].subject + mail.outbox[0].body


# --- tasks and sweeps ---------------------------------------------------------------------------


def test_the_resolve_task_skips_a_damaged_game(fake_engine, started_game, caplog):
    everyone_picks(started_game)
    broken_snapshot(started_game)
    assert resolve_game_task(str(started_game.pk), started_game.version) is False
    assert resolve_game_task(str(started_game.pk), started_game.version) is False
    assert len(repair_reports(caplog)) == 1


def test_the_stalled_game_sweep_skips_a_damaged_game_and_resolves_the_others(
        fake_engine, make_game, alice, bob, carol, dave, caplog):
    damaged, healthy = make_game(alice, bob, seats=2), make_game(carol, dave, seats=2)
    everyone_picks(damaged)  # outside a commit: the on-commit task never ran; both stalled
    everyone_picks(healthy)
    damaged.refresh_from_db()
    broken_snapshot(damaged)
    assert resolve_stalled_games_task() == 1
    assert resolve_stalled_games_task() == 0
    assert Move.objects.filter(game=healthy, seat=None).count() == 1
    assert not Move.objects.filter(game=damaged, seat=None).exists()
    assert len(repair_reports(caplog)) == 1


def test_the_deadline_sweep_skips_a_damaged_game_and_times_out_the_others(
        fake_engine, clocked_game, frozen_now, alice, bob, carol, dave, caplog,
        django_capture_on_commit_callbacks):
    damaged, healthy = clocked_game(alice, bob), clocked_game(carol, dave)
    for game, user in ((damaged, bob), (healthy, dave)):
        game_submit_action(game_id=game.pk, user=user, action={"type": "pick", "n": 2},
                           expected_version=0)
    frozen_now.advance(hours=24, seconds=1)
    damaged.refresh_from_db()
    Game.objects.filter(pk=damaged.pk).update(engine_version="fake-2")  # another major version
    with django_capture_on_commit_callbacks(execute=True):
        assert enforce_deadlines_task() == 1
        assert enforce_deadlines_task() == 0
    assert Move.objects.filter(game=healthy, source="timeout").count() == 1
    assert not Move.objects.filter(game=damaged, source="timeout").exists()
    assert len(repair_reports(caplog)) == 1
    assert not [r for r in caplog.records if r.name == "games.tasks"]  # no traceback per sweep


def test_the_reminder_sweep_goes_on_with_a_damaged_game(fake_engine, clocked_game, frozen_now,
                                                        alice, bob, carol, dave):
    damaged, _healthy = clocked_game(alice, bob), clocked_game(carol, dave)
    broken_snapshot(damaged)
    mail.outbox.clear()
    frozen_now.advance(hours=6)
    assert send_reminders_task() >= 2  # the reminders do not read the game's state
    assert {"carol@example.com", "dave@example.com"} <= {m.to[0] for m in mail.outbox}


# --- admin ---------------------------------------------------------------------------------------


def test_the_admin_lists_and_filters_damaged_games_and_verifies_them(real_game, make_game, alice,
                                                                     bob, admin_client):
    healthy = make_game(alice, bob, seats=2)
    Game.objects.filter(pk=healthy.pk).update(name="Healthy game")
    unknown_schema(real_game)
    url = reverse("admin:games_game_changelist")
    listed = admin_client.get(url).content.decode()
    assert "needs repair: the stored snapshot cannot be loaded (SchemaError:" in listed
    filtered = admin_client.get(url + "?needs_repair=yes").content.decode()
    assert "Test game" in filtered and "Healthy game" not in filtered
    response = admin_client.post(url, {"action": "verify_log", "_selected_action": [real_game.pk]},
                                 follow=True)
    shown = [str(m) for m in response.context["messages"]]
    assert any(f"game {real_game.pk}: snapshot: the stored snapshot cannot be loaded" in m for m in shown)
    assert "1 game(s) checked, 1 divergence(s)." in shown
