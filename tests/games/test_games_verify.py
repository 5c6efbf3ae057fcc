"""``manage.py games_verify``: every game's move log replays to its stored snapshot, and
each divergence (illegal move in the log, snapshot edited by hand, unknown schema, version)
is printed with the game and the move; the exit status is 1 on any. With ``--fix`` a
snapshot that no longer matches a log which replays cleanly is rebuilt from the log (and
re-pinned to this engine's version); a log that does not replay is never "repaired"."""
from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from django.urls import reverse

import engine
from games import services
from games.errors import GAME_NEEDS_REPAIR
from games.integrity import first_difference, verify_game
from games.models import Game, Move, state_digest
from tests.support.game_driver import (
    everyone_picks, new_started_game, play_fake_game_to_the_end, play_until,
)


def verify(*game_ids) -> tuple[int, str, str]:
    """Run the command; (exit status, stdout, stderr)."""
    out, err = StringIO(), StringIO()
    try:
        call_command("games_verify", *map(str, game_ids), stdout=out, stderr=err)
    except CommandError as exc:
        return exc.returncode, out.getvalue(), err.getvalue()
    return 0, out.getvalue(), err.getvalue()


@pytest.fixture
def real_game(game_in_round_two):
    """A real-engine game played into round 2 (draws, plans, a resolution, actions)."""
    return game_in_round_two


@pytest.fixture
def fake_game(fake_engine, make_game, alice, bob):
    """A fake-engine game after one complete round (two picks and a resolve step)."""
    game = make_game(alice, bob, seats=2)
    everyone_picks(game)
    game.refresh_from_db()
    services.game_resolve(game_id=game.pk, expected_version=game.version)
    game.refresh_from_db()
    assert game.version == 3
    return game


def test_a_clean_real_game_verifies(real_game):
    assert real_game.version > 10
    status, out, err = verify()
    assert (status, err) == (0, "")
    assert "1 game(s) checked, 0 divergence(s)." in out


def test_an_illegal_move_injected_into_the_log_is_found_and_named(fake_game):
    Move.objects.filter(game=fake_game, seq=2).update(action={"type": "pick", "n": 3})
    status, out, err = verify()
    assert status == 1
    assert err.startswith(f"game {fake_game.pk}: move #2: the engine refuses it (seat 1, action "
                          '{"n": 3, "type": "pick"}): IllegalAction: ')
    assert err.strip().endswith("is not allowed: pick 1 or 2.") and err.count("\n") == 1
    assert "1 divergence(s)" in out


def test_an_illegal_move_in_a_real_game_log_is_found(real_game):
    Move.objects.filter(game=real_game, seq=4).update(action={"type": "no_such_action"})
    status, _, err = verify(real_game.pk)
    assert status == 1
    assert f"game {real_game.pk}: move #4: the engine refuses it" in err
    assert "no_such_action" in err


def test_a_snapshot_edited_by_hand_is_found(fake_game):
    state = {**fake_game.state, "scores": [99, 2]}
    Game.objects.filter(pk=fake_game.pk).update(state=state)
    status, _, err = verify(fake_game.pk)
    assert status == 1
    assert err.strip() == (f"game {fake_game.pk}: snapshot: differs from the replayed log at "
                           "state.scores[0]: stored 99, replayed 1")


def test_a_real_snapshot_edited_by_hand_is_found(real_game):
    state = real_game.state
    state["players"][0]["coins"] += 10
    Game.objects.filter(pk=real_game.pk).update(state=state)
    status, _, err = verify()
    assert status == 1 and "differs from the replayed log at state.players[0].coins" in err


def test_a_stored_state_with_an_unknown_schema_is_reported_not_raised(real_game):
    Game.objects.filter(pk=real_game.pk).update(state={**real_game.state, "schema": 99})
    status, _, err = verify()
    assert status == 1
    assert f"game {real_game.pk}: snapshot: the stored snapshot cannot be loaded (SchemaError:" in err
    assert "Traceback" not in err


def test_a_version_that_does_not_match_the_log_is_found(fake_game):
    Game.objects.filter(pk=fake_game.pk).update(version=4)
    status, _, err = verify()
    assert status == 1 and "version 4 but 3 logged moves" in err


def test_a_missing_move_is_found(fake_game):
    Move.objects.filter(game=fake_game, seq=2).delete()
    status, _, err = verify()
    assert status == 1 and "move #3: the log skips from move #1 to #3" in err


def test_a_game_of_another_engine_version_is_reported(fake_game):
    Game.objects.filter(pk=fake_game.pk).update(engine_version="9.0.0")
    status, _, err = verify()
    assert status == 1 and "cannot be loaded: This game was played with" in err


def test_only_the_named_games_are_checked_and_unknown_ids_are_reported(fake_game, make_game,
                                                                         alice, bob):
    other = make_game(alice, bob, seats=2)
    Game.objects.filter(pk=other.pk).update(version=9)  # damaged, but not asked about
    status, out, err = verify(fake_game.pk)
    assert (status, err) == (0, "") and "1 game(s) checked" in out
    status, _, err = verify(fake_game.pk, "00000000-0000-0000-0000-000000000000", "nope")
    assert status == 1
    assert "game 00000000-0000-0000-0000-000000000000: snapshot: no such game" in err
    assert "game nope: snapshot: not a game id" in err


def test_open_games_without_a_snapshot_verify(alice):
    services.game_create(creator=alice, name="Waiting", max_seats=3, options={})
    assert verify()[0] == 0



def test_first_difference_names_the_path_of_the_first_change():
    assert first_difference({"a": [1, {"b": 2}]}, {"a": [1, {"b": 2}]}) is None
    assert first_difference({"a": [1, {"b": 2}]}, {"a": [1, {"b": 3}]}) == "state.a[1].b: stored 2, replayed 3"
    assert first_difference({"a": [1]}, {"a": [1, 2]}) == "state.a: stored 1 items, replayed 2"
    assert first_difference({}, {"x": 1}) == "state.x: missing from the stored snapshot"


def test_a_finished_game_verifies_and_an_edited_result_is_found(fake_engine, make_game, alice, bob,
                                                                 django_capture_on_commit_callbacks):
    game = play_fake_game_to_the_end(make_game(alice, bob, seats=2), django_capture_on_commit_callbacks,
                                     winner=bob)
    assert verify(game.pk)[0] == 0
    outcome = game.outcome
    outcome["winners"] = [0 if outcome["winners"] == [1] else 1]
    Game.objects.filter(pk=game.pk).update(outcome=outcome)
    status, _, err = verify(game.pk)
    assert status == 1 and "the stored result differs from the replayed one at outcome.winners[0]" in err


def test_an_over_game_whose_status_says_active_is_found(fake_engine, make_game, alice, bob,
                                                        django_capture_on_commit_callbacks):
    game = play_fake_game_to_the_end(make_game(alice, bob, seats=2), django_capture_on_commit_callbacks)
    Game.objects.filter(pk=game.pk).update(status="active")
    status, _, err = verify(game.pk)
    assert status == 1 and "the replayed game is over but its status is active" in err


# --- --fix: snapshots rebuilt from logs that replay cleanly (services.game_rebuild_snapshot) ---


def test_fix_rebuilds_a_snapshot_edited_by_hand(real_game):
    good = real_game.state
    edited = {**good, "players": [{**good["players"][0], "coins": 99}, *good["players"][1:]]}
    Game.objects.filter(pk=real_game.pk).update(state=edited)
    status, out, err = verify("--game", real_game.pk, "--fix")
    assert status == 0
    assert "differs from the replayed log at state.players[0].coins: stored 99" in err
    assert f"game {real_game.pk}: repaired: snapshot rebuilt from {real_game.version} moves" in out
    assert "1 divergence(s), 1 repaired." in out
    real_game.refresh_from_db()
    assert real_game.state == good and verify_game(real_game) is None
    assert real_game.state_stamp == state_digest(good) != state_digest(edited)  # the page caches' new key


def test_without_fix_nothing_is_rewritten(real_game):
    Game.objects.filter(pk=real_game.pk).update(version=real_game.version + 3)
    assert verify(real_game.pk)[0] == 1
    assert Game.objects.get(pk=real_game.pk).version == real_game.version + 3


def test_fix_repins_a_game_of_an_incompatible_version_whose_log_replays(real_game, client_for, alice):
    Game.objects.filter(pk=real_game.pk).update(engine_version="1.99.0")
    response = client_for(alice).get(reverse("games-detail", kwargs={"game_id": real_game.pk}))
    assert response.status_code == 503
    assert GAME_NEEDS_REPAIR.split(":")[0] in response.content.decode()
    status, out, _ = verify("--fix")
    assert status == 0 and "repaired" in out
    real_game.refresh_from_db()
    assert real_game.engine_version == engine.ENGINE_VERSION
    assert client_for(alice).get(reverse("games-detail", kwargs={"game_id": real_game.pk})).status_code == 200


def test_fix_refuses_a_log_that_does_not_replay_and_changes_nothing(real_game):
    Move.objects.filter(game=real_game, seq=4).update(action={"type": "no_such_action"})
    before = Game.objects.get(pk=real_game.pk).state
    status, out, err = verify("--fix")
    assert status == 1
    assert f"game {real_game.pk}: not repaired: the engine refuses it" in err
    assert "0 repaired" in out
    assert Game.objects.get(pk=real_game.pk).state == before


def test_a_replayed_game_that_is_over_is_finished_by_the_repair(alice, bob):
    game = new_started_game(alice, bob, seed=5)
    play_until(game, lambda state: engine.is_over(state))
    game.refresh_from_db()
    outcome = game.outcome
    Game.objects.filter(pk=game.pk).update(status="active", outcome=None, finished_at=None)
    repair = services.game_rebuild_snapshot(game_id=game.pk)
    game.refresh_from_db()
    assert (repair.moves, game.status, game.outcome) == (game.version, "finished", outcome)
    assert game.finished_at is not None


def test_an_open_game_is_not_repairable(alice):
    game = services.game_create(creator=alice, name="Waiting", max_seats=3, options={})
    with pytest.raises(services.NotRepairable, match="nothing played"):
        services.game_rebuild_snapshot(game_id=game.pk)
