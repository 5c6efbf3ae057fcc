"""Rematch on the pages: the button after the end, the answer from the home page."""
from django.urls import reverse

from games.models import Game, GameStatus
from tests.support.game_driver import play_fake_game_to_the_end


def _finished(make_game, alice, bob, capture):
    return play_fake_game_to_the_end(make_game(alice, bob, seats=2), capture)


def test_a_finished_games_players_get_a_rematch_button(
        fake_engine, client_for, make_game, alice, bob, carol, django_capture_on_commit_callbacks):
    game = _finished(make_game, alice, bob, django_capture_on_commit_callbacks)
    url = reverse("games-detail", kwargs={"game_id": game.pk})
    assert 'id="rematch-button"' in client_for(alice).get(url).text
    assert 'id="rematch-button"' not in client_for(carol).get(url).text  # a spectator


def test_the_rematch_is_answered_from_the_home_page_and_starts(
        fake_engine, client_for, make_game, alice, bob, django_capture_on_commit_callbacks):
    game = _finished(make_game, alice, bob, django_capture_on_commit_callbacks)
    response = client_for(alice).post(reverse("games-rematch", kwargs={"game_id": game.pk}))
    rematch = Game.objects.get(rematch_of=game)
    assert response.url == reverse("games-detail", kwargs={"game_id": rematch.pk})
    bob_client = client_for(bob)
    home = bob_client.get(reverse("home"))
    assert [seat.game for seat in home.context["rematches"]] == [rematch]
    accept = reverse("games-rematch-accept", kwargs={"game_id": rematch.pk})
    assert accept in home.text and "alice asks for a rematch" in home.text
    response = bob_client.post(accept, follow=True)
    assert "Everyone accepted: the rematch has started." in response.text
    rematch.refresh_from_db()
    assert rematch.status == GameStatus.ACTIVE
    assert "Go to the rematch" in client_for(alice).get(reverse("games-detail", kwargs={"game_id": game.pk})).text


def test_the_rematch_lobby_says_who_has_not_accepted(
        fake_engine, client_for, make_game, alice, bob, django_capture_on_commit_callbacks):
    game = _finished(make_game, alice, bob, django_capture_on_commit_callbacks)
    client_for(alice).post(reverse("games-rematch", kwargs={"game_id": game.pk}))
    rematch = Game.objects.get(rematch_of=game)
    page = client_for(bob).get(reverse("games-detail", kwargs={"game_id": rematch.pk})).text
    assert "Waiting for: bob." in page and "Accept the rematch" in page
    assert "Invite link" not in page
    declined = client_for(bob).post(reverse("games-rematch-decline", kwargs={"game_id": rematch.pk}), follow=True)
    assert "You declined the rematch." in declined.text
    assert Game.objects.get(pk=rematch.pk).status == GameStatus.CANCELLED
