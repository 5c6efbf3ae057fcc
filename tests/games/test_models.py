"""games.models: constraints and the append-only log."""
import pytest
from django.db import IntegrityError

from django.db.models import F

from games.models import Game, GameStatus, Move, Seat, canonical_json, state_digest, text_digest


def test_status_values_are_stable():
    assert [s.value for s in GameStatus] == ["open", "active", "finished", "cancelled"]


def test_the_status_label_is_the_choice_label_in_the_active_language():
    from django.utils import translation

    status = Game._meta.get_field("status")
    with translation.override("ja"):
        assert Game(status="active").get_status_display() == "対局中"
    for language in ("en", "ja"):
        with translation.override(language):
            for value in (*GameStatus.values, "", None, "unknown"):  # a value no choice has: itself
                game = Game(status=value)
                assert game.get_status_display() == game._get_FIELD_display(status)  # Django's own


def test_moves_are_append_only(started_game):
    move = Move.objects.create(game=started_game, seq=1, seat=0, action={"type": "x"})
    move.events = [{"text": "forged"}]
    with pytest.raises(ValueError):
        move.save()


def test_seq_is_unique_per_game(started_game):
    Move.objects.create(game=started_game, seq=1, seat=0, action={"type": "x"})
    with pytest.raises(IntegrityError):
        Move.objects.create(game=started_game, seq=1, seat=1, action={"type": "y"})


def test_a_user_has_one_seat_per_game(make_game, alice):
    game = make_game(alice)
    with pytest.raises(IntegrityError):
        Seat.objects.create(game=game, user=alice, order=1)


def test_every_write_of_a_snapshot_writes_its_stamp(started_game):
    first = started_game.state_stamp
    assert first and first == state_digest(started_game.state)
    started_game.state = {**started_game.state, "edited": 1}
    started_game.save(update_fields=["state"])
    assert Game.objects.get(pk=started_game.pk).state_stamp == state_digest(started_game.state) != first
    Game.objects.filter(pk=started_game.pk).update(state={"by": "update"})
    assert Game.objects.get(pk=started_game.pk).state_stamp == state_digest({"by": "update"})
    started_game.state = {"by": "bulk_update"}
    Game.objects.bulk_update([started_game], ["state"])
    assert Game.objects.get(pk=started_game.pk).state_stamp == state_digest({"by": "bulk_update"})


def test_a_snapshot_written_by_an_expression_has_no_stamp(started_game):
    Game.objects.filter(pk=started_game.pk).update(state=F("outcome"))
    assert Game.objects.get(pk=started_game.pk).state_stamp == ""


def test_bulk_created_games_have_their_stamps(alice):
    games = Game.objects.bulk_create([Game(name="a", creator=alice, state={"n": 1}), Game(name="b", creator=alice)])
    assert [g.state_stamp for g in Game.objects.filter(pk__in=[g.pk for g in games]).order_by("name")] == [
        state_digest({"n": 1}), ""]


def test_the_stamp_does_not_depend_on_key_order():
    assert state_digest({"a": 1, "b": [1, {"c": 2, "d": 3}]}) == state_digest({"b": [1, {"d": 3, "c": 2}], "a": 1})


def test_a_stored_move_writes_the_snapshot_and_its_stamp_as_a_save_would(fake_engine, started_game):
    from games.services import game_submit_action
    from tests.support.game_driver import awaited_move

    seat, action = awaited_move(started_game)
    move = game_submit_action(game_id=started_game.pk, user=seat.user, action=action, expected_version=0)
    stored = Game.objects.get(pk=started_game.pk)
    assert stored.state == move.game.state  # the same value, whatever the text it was written as
    assert stored.state_stamp == move.game.state_stamp == state_digest(stored.state)


@pytest.mark.django_db
def test_on_postgresql_the_snapshot_is_stored_whole_without_compression():
    from django.db import connection

    if connection.vendor != "postgresql":
        pytest.skip("a PostgreSQL storage setting (migration 0020)")
    with connection.cursor() as cursor:
        cursor.execute("SELECT attstorage FROM pg_attribute WHERE attrelid = %s::regclass AND attname = %s",
                       [Game._meta.db_table, Game._meta.get_field("state").column])
        assert cursor.fetchone() == ("e",)


def _json_dumps_canonical(state) -> str:
    import json

    return json.dumps(state, sort_keys=True, separators=(",", ":"))


def test_the_canonical_json_of_states_along_a_random_game_is_the_sorted_json_dumps_text():
    import random

    import engine
    from engine.simulate import choose

    rng, state = random.Random(5), engine.new_game(engine.GameOptions(players=3), seed=5)
    for _ in range(120):
        data = engine.to_json(state)
        assert canonical_json(data) == _json_dumps_canonical(data)
        awaited = engine.awaiting(state)
        if engine.needs_resolution(state):
            state, _events = engine.resolve(state)
            continue
        if not awaited:
            break
        seat = min(awaited)
        state, _events = engine.apply(state, seat, choose(rng, awaited[seat], engine.legal_actions(state, seat),
                                                          state.data, seat))


@pytest.mark.parametrize("value", [
    {"name": "Jérôme", "プレイヤー": 1},  # json.dumps escapes non-ASCII text
    {"big": 2**70},  # beyond orjson's 64 bits
    {"1": [1, 2], "b": {"z": None, "a": True}},
    {"del": "a\x7fb", "tab": "a\tb", "quote": '"'},  # DEL: json.dumps escapes it, orjson does not
])
def test_the_canonical_json_of_any_snapshot_is_the_sorted_json_dumps_text(value):
    assert canonical_json(value) == _json_dumps_canonical(value)
    assert state_digest(value) == text_digest(_json_dumps_canonical(value))


def test_the_canonical_json_refuses_what_json_dumps_refuses():
    import datetime

    with pytest.raises(TypeError):
        canonical_json({"at": datetime.date(2026, 12, 3)})
