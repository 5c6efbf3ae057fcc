"""fragments.poll: ?v=<version>&c=<chat>&l=<live version> -> 204 unchanged, else the regions;
a finished game's page polls on, more slowly."""
from django.urls import reverse

from games.services import game_submit_action
from tests.support.game_driver import awaited_move, play_fake_game_to_the_end


def url(game, version):
    return reverse("games-poll", kwargs={"game_id": game.pk}) + f"?v={version}"


def test_it_returns_204_when_version_unchanged(client_for, started_game, alice):
    response = client_for(alice).get(url(started_game, 0))
    assert response.status_code == 204
    assert response.content == b""


def test_it_returns_the_regions_when_the_game_moved(client_for, started_game, carol):
    seat, action = awaited_move(started_game)
    game_submit_action(game_id=started_game.pk, user=seat.user, action=action, expected_version=0)
    response = client_for(carol).get(url(started_game, 0))
    assert response.status_code == 200
    assert 'id="game-map" hx-swap-oob="true"' in response.text
    assert "?v=1" in response.text
    assert 'id="game-history-links"' not in response.text  # sent only once the game has finished


def test_a_finished_games_page_polls_on_slowly_and_is_told_only_of_changes(
    fake_engine, client_for, started_game, alice, settings, django_capture_on_commit_callbacks
):
    play_fake_game_to_the_end(started_game, django_capture_on_commit_callbacks)
    client = client_for(alice)
    response = client.get(url(started_game, 0))
    assert response.status_code == 200
    assert "Final scores" in response.text
    element = response.text.split('id="game-poll"')[1].split(">")[0]
    assert f'hx-trigger="every {settings.GAMES_FINISHED_POLL_SECONDS}s"' in element
    assert f"?v={started_game.version}&amp;c=0&amp;l=0" in element
    assert client.get(url(started_game, started_game.version) + "&c=0&l=0").status_code == 204


def test_the_game_ending_turns_the_history_links_into_the_finished_games(
    fake_engine, client_for, started_game, alice, django_capture_on_commit_callbacks
):
    client = client_for(alice)
    play_fake_game_to_the_end(started_game, django_capture_on_commit_callbacks)
    links = client.get(url(started_game, 1)).text.split('id="game-history-links"')[1].split("</p>")[0]
    assert links.startswith(' hx-swap-oob="true"')
    assert "Replay this game" in links and "Download the game (JSON)" in links
    assert "so far" not in links


def test_it_needs_a_version(client_for, started_game, alice):
    response = client_for(alice).get(reverse("games-poll", kwargs={"game_id": started_game.pk}))
    assert response.status_code == 400


def test_it_hides_private_games_from_outsiders(client_for, make_game, alice, bob, carol):
    game = make_game(alice, bob, seats=2, is_public=False)
    assert client_for(carol).get(url(game, 0)).status_code == 404


def test_it_rejects_post(client_for, started_game, alice):
    assert client_for(alice).post(url(started_game, 0)).status_code == 405
