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


def test_an_open_rematch_in_progress_reads_as_waiting_for_answers_not_for_players(client_for, make_game, alice, bob):
    from games.models import Game, GameStatus

    finished, table = make_game(alice, bob, seats=2), make_game(alice)
    rematch = make_game(alice, bob, seats=2)
    Game.objects.filter(pk=finished.pk).update(status=GameStatus.FINISHED)
    Game.objects.filter(pk=rematch.pk).update(rematch_of=finished, status=GameStatus.OPEN)
    section = client_for(alice).get(URL).text.split('id="games-in-progress"')[1]

    def row_of(game):
        start = section.index(reverse("games-detail", kwargs={"game_id": game.pk}))
        return section[start:section.index("</tr>", start)]

    assert "Rematch: waiting for answers" in row_of(rematch) and "Waiting for players" not in row_of(rematch)
    assert "Waiting for players" in row_of(table)


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



def _without_tokens(html: str) -> str:
    import re

    return re.sub(r'"X-CSRFToken": "[^"]*"|name="csrfmiddlewaretoken" value="[^"]*"', "", html)


def test_the_cached_results_are_the_page_rendered_afresh_and_each_players_own(client_for, alice, bob, carol):
    from django.core.cache import caches

    from tests.support.many_games import finished_games

    finished_games([alice, bob], 2)
    finished_games([alice, carol], 1, start=2)
    fresh = {user: _without_tokens(client_for(user).get(URL).text) for user in (alice, bob)}
    cached = {user: _without_tokens(client_for(user).get(URL).text) for user in (alice, bob)}
    assert cached == fresh
    caches["regions"].clear()
    assert _without_tokens(client_for(bob).get(URL).text) == fresh[bob] != fresh[alice]
    assert "carol" not in fresh[bob] and "carol" in fresh[alice]


def test_a_game_finishing_shows_on_a_profile_shown_before(client_for, alice, bob):
    from tests.support.many_games import finished_games

    finished_games([alice, bob], 1)
    client = client_for(alice)
    assert "Page 1 of 2" not in client.get(URL + "?page=1").text
    finished_games([alice, bob], 20, start=1)
    assert "Page 1 of 2" in client.get(URL + "?page=1").text


def test_whose_turn_changing_in_a_game_shows_on_a_profile_shown_before(client_for, alice, bob):
    from games.models import Seat
    from tests.support.many_games import waiting_games

    game = waiting_games([alice, bob], 1)[0]
    client = client_for(alice)
    assert 'class="badge turn">you' in client.get(URL).text
    Seat.objects.filter(game=game, user=alice).update(awaiting="")
    Seat.objects.filter(game=game, user=bob).update(awaiting="plan")
    html = client.get(URL).text
    assert 'class="badge turn">you' not in html
    assert '<span class="badge "><span translate="no">bob</span></span>' in html


def test_the_cached_games_in_progress_are_each_players_own(client_for, alice, bob):
    from tests.support.many_games import waiting_games

    waiting_games([alice, bob], 1)
    for _ in range(2):  # rendered, then from the cache
        assert 'class="badge turn">you' in client_for(alice).get(URL).text
        assert 'class="badge turn">you' not in client_for(bob).get(URL).text
