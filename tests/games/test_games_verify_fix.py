"""``manage.py games_verify --fix`` and ``services.game_rebuild_snapshot``: a snapshot that
no longer matches a log which replays cleanly is rebuilt from the log (and re-pinned to this
engine's version); a log that does not replay is never "repaired"; a game pinned to an engine
version outside the engine's compatibility table shows the repair page, not a 500."""
from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from django.urls import reverse

import engine
from games import services
from games.errors import GAME_NEEDS_REPAIR
from games.integrity import verify_game
from games.models import Game, Move
from tests.support.game_driver import new_started_game, play_until


def verify(*args) -> tuple[int, str, str]:
    """Run the command; (exit status, stdout, stderr)."""
    out, err = StringIO(), StringIO()
    try:
        call_command("games_verify", *map(str, args), stdout=out, stderr=err)
    except CommandError as exc:
        return exc.returncode, out.getvalue(), err.getvalue()
    return 0, out.getvalue(), err.getvalue()


@pytest.fixture
def real_game(alice, bob):
    game = new_started_game(alice, bob, seed=11)
    play_until(game, lambda state: state.round >= 2)
    game.refresh_from_db()
    return game


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
