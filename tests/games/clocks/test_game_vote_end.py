"""games.services.game_vote_end: with a seat absent, the present players may end the game
together; it is then finished and scored as it stands (real engine scoring)."""
import pytest
from django.core import mail
from django.urls import reverse

import engine

from games.models import GameStatus, Seat
from games.selectors import finished_game_result
from games.services import NoAbsentPlayer, NotSeated, game_submit_action, game_vote_end
from games.tasks import enforce_deadlines_task


@pytest.fixture
def carol_absent(settings, clocked_game, frozen_now, alice, bob, carol,
                 django_capture_on_commit_callbacks):
    """A three-player game in which carol timed out once, with absence after one timeout."""
    settings.GAMES_ABSENT_AFTER_TIMEOUTS = 1
    game = clocked_game(alice, bob, carol)
    for user in (alice, bob):
        game.refresh_from_db()
        game_submit_action(game_id=game.pk, user=user, action={"type": "submit_plan"},
                           expected_version=game.version)
    frozen_now.advance(days=2)
    with django_capture_on_commit_callbacks(execute=True):
        assert enforce_deadlines_task() == 1
    assert Seat.objects.get(game=game, user=carol).absent
    return game


def vote(client, game):
    return client.post(reverse("games-vote-end", kwargs={"game_id": game.pk}))


def test_everyone_present_agreeing_ends_the_game_scored_as_it_stands(
        carol_absent, client_for, alice, bob, carol, django_capture_on_commit_callbacks):
    game = carol_absent
    page = client_for(alice).get(reverse("games-detail", kwargs={"game_id": game.pk})).text
    assert "absent" in page and "Vote to end the game" in page
    assert vote(client_for(alice), game).status_code == 302
    game.refresh_from_db()
    assert game.status == GameStatus.ACTIVE
    assert "1 of 2 present players agree" in client_for(bob).get(
        reverse("games-detail", kwargs={"game_id": game.pk})).text
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        vote(client_for(bob), game)
    game.refresh_from_db()
    assert game.status == GameStatus.FINISHED and game.finished_at is not None
    assert game.outcome["ended_early"] is True
    assert game.outcome == engine.score(engine.from_json(game.state))  # the engine's score as it stands
    result = finished_game_result(game)
    assert sorted(r.placement for r in result.results)[0] == 1
    assert all(r.score is not None for r in result.results)
    assert set(Seat.objects.filter(game=game).values_list("awaiting", flat=True)) == {""}
    assert {m.to[0] for m in mail.outbox} == {"alice@example.com", "bob@example.com",
                                              "carol@example.com"}
    assert "Final scores" in client_for(carol).get(
        reverse("games-detail", kwargs={"game_id": game.pk})).text


def test_voting_twice_counts_once(carol_absent, alice):
    assert game_vote_end(game_id=carol_absent.pk, user=alice) is False
    assert game_vote_end(game_id=carol_absent.pk, user=alice) is False
    assert Seat.objects.filter(game=carol_absent, votes_to_end=True).count() == 1


def test_the_absent_player_and_outsiders_cannot_vote(carol_absent, carol, dave):
    with pytest.raises(NoAbsentPlayer):
        game_vote_end(game_id=carol_absent.pk, user=carol)
    with pytest.raises(NotSeated):
        game_vote_end(game_id=carol_absent.pk, user=dave)


def test_no_vote_without_an_absent_player(clocked_game, alice, bob):
    game = clocked_game(alice, bob)
    with pytest.raises(NoAbsentPlayer):
        game_vote_end(game_id=game.pk, user=alice)


def test_when_the_absent_player_comes_back_the_votes_are_dropped(carol_absent, alice, carol):
    game = carol_absent
    game_vote_end(game_id=game.pk, user=alice)
    game.refresh_from_db()
    seat = Seat.objects.get(game=game, user=carol)
    assert seat.awaiting == "plan"  # round 2: the others' empty plans made everyone pass
    game_submit_action(game_id=game.pk, user=carol, action={"type": "submit_plan"},
                       expected_version=game.version)
    assert not Seat.objects.filter(game=game, absent=True).exists()
    assert not Seat.objects.filter(game=game, votes_to_end=True).exists()


def test_a_game_ended_by_vote_gives_each_seat_its_result(carol_absent, alice, bob):
    from games.selectors import seat_results

    game_vote_end(game_id=carol_absent.pk, user=alice)
    assert game_vote_end(game_id=carol_absent.pk, user=bob)
    carol_absent.refresh_from_db()
    stored = {s.order: (s.placement, s.won, s.final_score) for s in Seat.objects.filter(game=carol_absent)}
    assert stored == seat_results(carol_absent.outcome) and len(stored) == 3


def test_a_game_ended_by_vote_counts_in_every_players_record(
        carol_absent, client_for, alice, bob, carol, django_capture_on_commit_callbacks):
    from games.selectors import player_record

    with django_capture_on_commit_callbacks(execute=True):
        vote(client_for(alice), carol_absent)
        vote(client_for(bob), carol_absent)
    for user in (alice, bob, carol):
        record = player_record(user)
        assert (record.finished, record.by_players[3].played) == (1, 1)
        assert {h.opponent for h in record.head_to_head} == {"alice", "bob", "carol"} - {user.username}
