"""Each player's record of finished games (``PlayerStats``) is kept in the transaction that
stores a game's results: a game played to its end, ended by vote, imported or repaired counts
once, the record equals a recount from the seats, and a finished game or a rating change gives
it a new stamp. Migration games 0018 fills it (and the seats' ``finished_at``) for the games
finished before."""
from __future__ import annotations

import pytest
from django.urls import reverse

from games import selectors, services
from games.models import Game, PlayerStats, RatingChange, Seat
from games.records import SEAT_COLUMNS, records_from_seats
from games.services.records import records_rebuild
from tests.history.fixture_games import load
from tests.support.game_driver import play_fake_game_to_the_end
from tests.support.many_games import finished_games

pytestmark = pytest.mark.django_db

BEFORE = [("games", "0017_seat_next_reminder_at")]
AFTER = [("games", "0018_player_stats_and_seat_finished_at")]


def stored(user) -> dict:
    stats = PlayerStats.objects.get(user=user)
    return {"finished": stats.finished, "by_players": stats.by_players, "rivals": stats.rivals}


def recount(user) -> dict:
    rows = Seat.objects.filter(game__status="finished").values(*SEAT_COLUMNS)
    return records_from_seats(rows, {user.pk}).get(user.pk, {"finished": 0, "by_players": {}, "rivals": {}})


def test_a_game_played_to_the_end_counts_once_in_each_players_record(
        fake_engine, make_game, alice, bob, django_capture_on_commit_callbacks):
    play_fake_game_to_the_end(make_game(alice, bob, seats=2), django_capture_on_commit_callbacks, winner=bob)
    for user in (alice, bob):
        assert stored(user) == recount(user)
    record = selectors.player_record(bob)
    assert (record.overall.played, record.overall.won, record.finished) == (1, 1, 1)
    assert record.overall.best == 2 * fake_engine.ROUNDS
    (rival,) = record.head_to_head
    assert (rival.opponent, rival.games, rival.ahead, rival.behind) == ("alice", 1, 1, 0)
    assert selectors.player_record(alice).head_to_head[0].behind == 1


def test_an_imported_game_counts_for_its_players():
    game = services.game_import(document=load("3p-default"))
    for seat in Seat.objects.filter(game=game).select_related("user"):
        assert stored(seat.user) == recount(seat.user)
        record = selectors.player_record(seat.user)
        assert record.by_players[3].played == 1 and record.overall.won == int(seat.won)
        assert sum(h.games for h in record.head_to_head) == 2


def test_repairing_a_finished_game_does_not_count_it_twice(
        fake_engine, make_game, alice, bob, django_capture_on_commit_callbacks):
    game = play_fake_game_to_the_end(make_game(alice, bob, seats=2), django_capture_on_commit_callbacks)
    before = stored(alice)
    services.game_rebuild_snapshot(game_id=game.pk)
    assert stored(alice) == before == recount(alice)
    assert before["finished"] == 1


def test_a_finished_game_and_a_rating_change_give_the_record_a_new_stamp(alice, bob):
    finished_games([alice, bob], 1)
    first = PlayerStats.objects.get(user=alice).stamp
    finished_games([alice, bob], 1, start=1)
    second = PlayerStats.objects.get(user=alice).stamp
    assert first != second and PlayerStats.objects.get(user=alice).finished == 2
    game = Game.objects.filter(seats__user=alice).first()
    Game.objects.filter(pk=game.pk).update(rated=True)
    RatingChange.objects.filter(game=game).delete()
    assert services.game_rate(game_id=game.pk)
    assert PlayerStats.objects.get(user=alice).stamp != second


def test_a_rebuild_recounts_seats_moved_by_hand(alice, bob, carol):
    game, = finished_games([alice, bob], 1)
    Seat.objects.filter(game=game, user=bob).update(user=carol)
    records_rebuild([bob.pk, carol.pk])
    assert stored(bob)["finished"] == 0 and stored(carol) == recount(carol)
    assert selectors.player_record(alice).head_to_head[0].opponent == "bob"  # alice's own row is not rebuilt
    records_rebuild()
    assert selectors.player_record(alice).head_to_head[0].opponent == "carol"


def test_the_migration_dates_the_finished_seats_and_counts_the_games_finished_before(migrator):
    apps = migrator(BEFORE)
    User = apps.get_model("auth", "User")
    Game, OldSeat = apps.get_model("games", "Game"), apps.get_model("games", "Seat")
    ann, ben = User.objects.create(username="ann"), User.objects.create(username="ben")
    finished = Game.objects.create(name="Done", creator=ann, status="finished", max_seats=3)
    playing = Game.objects.create(name="Playing", creator=ann, status="active", max_seats=2)
    OldSeat.objects.create(game=finished, user=ann, order=0, placement=1, won=True, final_score={"total": 30})
    OldSeat.objects.create(game=finished, user=ben, order=1, placement=2, final_score={"total": 20})
    OldSeat.objects.create(game=finished, bot_level="random", bot_name="Bot 1", order=2, placement=3)
    OldSeat.objects.create(game=playing, user=ben, order=0)
    OldSeat.objects.create(game=playing, user=ann, order=1)

    apps = migrator(AFTER)
    seats = apps.get_model("games", "Seat").objects
    assert set(seats.filter(game_id=finished.pk).values_list("finished_at", flat=True)) == {finished.created_at}
    assert set(seats.filter(game_id=playing.pk).values_list("finished_at", flat=True)) == {None}
    rows = {row.user_id: row for row in apps.get_model("games", "PlayerStats").objects.all()}
    assert sorted(rows) == sorted([ann.pk, ben.pk])
    assert rows[ann.pk].finished == 1
    assert rows[ann.pk].by_players["3"]["won"] == 1 and rows[ann.pk].by_players["3"]["best"] == 30
    assert rows[ann.pk].rivals == {f"u{ben.pk}": {"games": 1, "ahead": 1, "behind": 0, "level": 0},
                                   "bBot 1": {"games": 1, "ahead": 1, "behind": 0, "level": 0}}


def test_the_command_recounts_the_named_players_or_everyone_dating_undated_seats(alice, bob, carol):
    from io import StringIO

    from django.core.management import CommandError, call_command

    game, = finished_games([alice, bob], 1)
    Seat.objects.filter(game=game, user=bob).update(user=carol)
    out = StringIO()
    call_command("games_records", "bob", "carol", stdout=out)
    assert "2 record(s) recounted." in out.getvalue() and stored(carol) == recount(carol)
    Seat.objects.filter(game=game).update(finished_at=None)  # results written by hand
    call_command("games_records", stdout=out)
    assert stored(alice) == recount(alice) and stored(bob)["finished"] == 0
    assert list(selectors.games_finished_for(alice)) == [game]
    with pytest.raises(CommandError, match="No user nobody"):
        call_command("games_records", "nobody")


def test_deleting_a_finished_game_in_the_admin_takes_it_out_of_its_players_records(admin_client, alice, bob):
    kept, gone = finished_games([alice, bob], 2)
    records_rebuild()
    assert stored(alice)["finished"] == 2
    response = admin_client.post(reverse("admin:games_game_delete", args=[gone.pk]), {"post": "yes"})
    assert response.status_code == 302
    for user in (alice, bob):
        assert stored(user) == recount(user) and stored(user)["finished"] == 1
