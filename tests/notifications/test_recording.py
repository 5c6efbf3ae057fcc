"""Which game changes record which notifications (rows written in the game transaction)."""
from types import SimpleNamespace

from django.core import mail

from games import services
from notifications.models import Notification, NotificationKind as Kind, NotificationStatus
from tests.support.preferences import right_away
from tests.support.queries import statements


def _rows(game, kind):
    return sorted(Notification.objects.filter(game=game, kind=kind)
                  .values_list("recipient__username", "version"))


def test_starting_a_game_records_one_started_email_per_player_and_no_turn_email(
        fake_engine, start_game, alice, bob):
    game = start_game(alice, bob)
    assert _rows(game, Kind.GAME_STARTED) == [("alice", 0), ("bob", 0)]
    assert _rows(game, Kind.TURN) == []
    assert sorted(m.to[0] for m in mail.outbox) == ["alice@example.com", "bob@example.com"]


def test_a_seat_still_awaited_gets_no_new_turn_email(fake_engine, start_game, pick, alice, bob):
    game = start_game(alice, bob)
    pick(game, alice)  # bob was awaited before and still is
    assert _rows(game, Kind.TURN) == []


def test_seats_that_become_awaited_get_a_turn_email(fake_engine, start_game, pick, alice, bob):
    right_away(alice, bob)
    game = start_game(alice, bob)
    mail.outbox.clear()
    pick(game, alice)
    pick(game, bob)  # completes the phase; the resolution opens the next round for both
    game.refresh_from_db()
    assert game.version == 3
    assert _rows(game, Kind.TURN) == [("alice", 3), ("bob", 3)]
    assert sorted(m.to[0] for m in mail.outbox) == ["alice@example.com", "bob@example.com"]
    assert all(m.subject.startswith("[Orléans Online] Your turn in “Loire”") for m in mail.outbox)


def test_the_turn_email_is_sent_even_with_the_game_page_open(
        fake_engine, start_game, pick, client_for, alice, bob):
    right_away(alice)
    game = start_game(alice, bob)
    page = client_for(alice)
    assert page.get(f"/games/{game.pk}/").status_code == 200
    pick(game, alice)
    assert page.get(f"/games/{game.pk}/poll/", {"v": 1}).status_code in (200, 204)
    mail.outbox.clear()
    pick(game, bob)
    assert "alice@example.com" in [m.to[0] for m in mail.outbox]


def test_finishing_a_game_records_the_result_for_every_player(
        fake_engine, start_game, pick, alice, bob):
    game = start_game(alice, bob)
    for _round in range(fake_engine.ROUNDS):
        pick(game, alice, 2)
        pick(game, bob, 1)
    game.refresh_from_db()
    assert game.is_finished
    finished = Notification.objects.filter(game=game, kind=Kind.GAME_FINISHED)
    assert {n.recipient.username for n in finished} == {"alice", "bob"}
    assert {n.status for n in finished} == {NotificationStatus.SENT}
    # the last round opened no turn: no turn email for the final version
    assert not Notification.objects.filter(game=game, kind=Kind.TURN, version=game.version)


def test_a_rolled_back_submission_records_nothing(fake_engine, start_game, alice, bob):
    game = start_game(alice, bob)
    before = Notification.objects.count()
    try:
        services.game_submit_action(game_id=game.pk, user=alice, action={"type": "pick", "n": 9},
                                    expected_version=game.version)
    except Exception:  # noqa: BLE001 - the engine refuses the action
        pass
    assert Notification.objects.count() == before


def test_a_turn_email_is_recorded_in_the_round_trip_of_the_moves_writes(
        fake_engine, start_game, pick, alice, bob):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    game = start_game(alice, bob)
    pick(game, alice)
    with CaptureQueriesContext(connection) as captured:
        pick(game, bob)  # the resolution that follows awaits both again
    game.refresh_from_db()
    assert _rows(game, Kind.TURN) == [("alice", 3), ("bob", 3)]
    # each execute's statements (a prepared one as its SQL)
    executes = [statements(SimpleNamespace(captured_queries=[query])) for query in captured.captured_queries]
    inserts = [sql for group in executes for sql in group if 'INTO "notifications_notification"' in sql]
    assert len(inserts) == 1
    if connection.vendor == "postgresql":  # in one execute with the move's writes
        assert any(inserts[0] in group and any('INTO "games_move"' in sql for sql in group) for group in executes)


def test_a_turn_email_whose_occasion_is_recorded_already_is_not_recorded_twice(
        fake_engine, start_game, pick, alice, bob):
    game = start_game(alice, bob)
    pick(game, alice)
    # as if a delivery had recorded alice's turn at version 3 already (same occasion key)
    Notification.objects.create(kind=Kind.TURN, recipient=alice, game=game, version=3, key=f"{game.id}:3")
    pick(game, bob)
    game.refresh_from_db()
    assert _rows(game, Kind.TURN) == [("alice", 3), ("bob", 3)]


def test_the_notification_insert_needs_a_row():
    import pytest

    from notifications.services import notification_insert

    with pytest.raises(ValueError):
        notification_insert([])


def test_the_notification_insert_records_what_bulk_create_records_and_skips_a_recorded_occasion(alice, bob):
    from django.db import connection

    from games.models import Game
    from games.services.locks import _run_together
    from notifications.services import notification_insert

    game = Game.objects.create(name="g", creator=alice, max_seats=2)

    def rows(version):
        return [Notification(kind=Kind.TURN, recipient=user, game=game, version=version, key=f"{game.id}:{version}")
                for user in (alice, bob)]

    Notification.objects.bulk_create(rows(1), ignore_conflicts=True)
    sql, params, prepared = notification_insert(rows(2))
    assert prepared and sql.count("%s") == len(params)
    _run_together([(sql, params, prepared)])
    _run_together([notification_insert(rows(2)[1:])])  # bob's turn at version 2 again: skipped
    fields = ["kind", "recipient_id", "game_id", "key", "data", "status", "skip_reason", "attempts", "last_error",
              "failure_reason", "claimed_until", "sent_at"]
    recorded = {version: list(Notification.objects.filter(version=version).order_by("recipient_id")
                              .values_list(*fields)) for version in (1, 2)}
    assert [row[3] for row in recorded[2]] == [f"{game.id}:2"] * 2
    assert [row[:3] + row[4:] for row in recorded[2]] == [row[:3] + row[4:] for row in recorded[1]]
    assert Notification.objects.filter(version=2, created_at__isnull=False, send_after__isnull=False).count() == 2
    assert connection.vendor != "postgresql" or "ON CONFLICT DO NOTHING" in sql
