"""pages.profile"""
from django.urls import reverse

from tests.support.game_driver import play_fake_game_to_the_end

URL = reverse("games-profile")


def test_it_requires_login(client):
    assert client.get(URL).status_code == 302


def test_it_lists_games_in_progress_with_whose_turn(client_for, make_game, started_game, alice):
    waiting = make_game(alice)
    response = client_for(alice).get(URL)
    assert list(response.context["in_progress"]) == [waiting, started_game]
    assert 'class="badge turn">you' in response.text


def test_it_lists_finished_games_with_scores_and_placement(
    fake_engine, client_for, make_game, alice, bob, carol, django_capture_on_commit_callbacks
):
    capture = django_capture_on_commit_callbacks
    older = play_fake_game_to_the_end(make_game(alice, bob, seats=2), capture, winner=bob)
    newer = play_fake_game_to_the_end(make_game(carol, alice, seats=2), capture, winner=alice)
    response = client_for(alice).get(URL)
    finished = response.context["finished"]
    assert [record.game for record in finished] == [newer, older]
    assert [record.viewer.placement for record in finished] == [1, 2]
    assert [line.seat.user for line in finished[1].results] == [bob, alice]
    assert finished[1].results[0].score == 2 * fake_engine.ROUNDS
    assert "1st" in response.text and "2nd" in response.text

