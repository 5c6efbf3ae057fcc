"""services.game_rematch / rematch_accept / rematch_decline"""
import pytest
from django.core import mail

from games.errors import NotEnoughPlayers, NotSeated, RematchError, WrongStatus
from games.models import Game, GameStatus, Seat
from games.services import game_rematch, game_start, rematch_accept, rematch_decline, seat_leave
from tests.support.game_driver import play_fake_game_to_the_end


@pytest.fixture
def finished(fake_engine, make_game, alice, bob, carol, django_capture_on_commit_callbacks):
    """A finished three-player fake game on the "fast" pace, private."""
    game = make_game(alice, bob, carol, seats=3, is_public=False)
    Game.objects.filter(pk=game.pk).update(clock_initial_seconds=86400, clock_increment_seconds=21600,
                                           clock_cap_seconds=172800)
    game.refresh_from_db()
    return play_fake_game_to_the_end(game, django_capture_on_commit_callbacks)


def _order(game):
    return [seat.user.username for seat in game.seats.select_related("user").order_by("order")]


def test_a_rematch_has_the_same_players_options_and_pace_with_seats_rotated(finished, bob):
    before = _order(finished)
    rematch = game_rematch(game_id=finished.pk, user=bob)
    assert (rematch.status, rematch.rematch_of_id, rematch.creator) == (GameStatus.OPEN, finished.pk, bob)
    assert _order(rematch) == before[1:] + before[:1]
    assert (rematch.options, rematch.rules, rematch.is_public, rematch.max_seats) == (
        finished.options, finished.rules, False, 3)
    assert (rematch.clock_initial_seconds, rematch.clock_increment_seconds, rematch.clock_cap_seconds) == (
        86400, 21600, 172800)
    assert rematch.name == "Test game (rematch)"
    assert {s.user.username: s.accepted for s in rematch.seats.select_related("user")} == {
        "alice": False, "bob": True, "carol": False}


def test_it_starts_when_every_other_player_accepts_keeping_the_rotated_order(finished, alice, bob, carol):
    rotated = _order(finished)[1:] + _order(finished)[:1]
    rematch = game_rematch(game_id=finished.pk, user=bob)
    assert rematch_accept(game_id=rematch.pk, user=alice).status == GameStatus.OPEN
    started = rematch_accept(game_id=rematch.pk, user=carol)
    assert started.status == GameStatus.ACTIVE and started.state is not None
    assert _order(started) == rotated
    assert set(started.seats.values_list("colour", flat=True)) == {"red", "blue", "green"}


def test_the_other_players_are_emailed_once(finished, alice, bob, carol, django_capture_on_commit_callbacks):
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        rematch = game_rematch(game_id=finished.pk, user=bob)
    with django_capture_on_commit_callbacks(execute=True):
        game_rematch(game_id=finished.pk, user=bob)
    assert sorted(m.to[0] for m in mail.outbox) == [alice.email, carol.email]
    assert all(m.subject == "[Orléans Online] bob asks for a rematch: “Test game (rematch)”" for m in mail.outbox)
    assert f"/games/{rematch.pk}/" in mail.outbox[0].body and "/invite/" not in mail.outbox[0].body


def test_asking_when_another_player_asked_accepts_that_rematch(finished, alice, bob):
    first = game_rematch(game_id=finished.pk, user=bob)
    again = game_rematch(game_id=finished.pk, user=alice)
    assert again.pk == first.pk
    assert Seat.objects.get(game=first, user=alice).accepted
    assert Game.objects.filter(rematch_of=finished).count() == 1


def test_a_decline_cancels_it_and_a_new_rematch_can_be_asked_for(finished, alice, bob):
    first = game_rematch(game_id=finished.pk, user=bob)
    assert rematch_decline(game_id=first.pk, user=alice).status == GameStatus.CANCELLED
    with pytest.raises(RematchError, match="no longer waiting"):
        rematch_accept(game_id=first.pk, user=alice)
    second = game_rematch(game_id=finished.pk, user=alice)
    assert second.pk != first.pk and second.rematch_of_id == finished.pk


def test_a_rematch_cannot_start_early_nor_be_left(finished, alice, bob):
    rematch = game_rematch(game_id=finished.pk, user=bob)
    with pytest.raises(NotEnoughPlayers, match="every player has accepted"):
        game_start(game_id=rematch.pk, user=bob)
    with pytest.raises(WrongStatus, match="decline it"):
        seat_leave(game_id=rematch.pk, user=alice)
    assert Game.objects.get(pk=rematch.pk).status == GameStatus.OPEN


def test_only_a_player_of_a_finished_game_asks(finished, make_game, alice, bob, dave):
    with pytest.raises(RematchError, match="Only a player"):
        game_rematch(game_id=finished.pk, user=dave)
    active = make_game(alice, bob, seats=2)
    with pytest.raises(RematchError, match="once the game is over"):
        game_rematch(game_id=active.pk, user=alice)
    rematch = game_rematch(game_id=finished.pk, user=bob)
    with pytest.raises(NotSeated):
        rematch_accept(game_id=rematch.pk, user=dave)
    assert Game.objects.filter(rematch_of__isnull=False).count() == 1
