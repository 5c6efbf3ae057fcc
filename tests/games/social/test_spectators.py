"""Spectators: a public game is watched by anyone signed in through the engine's spectator
view; its page lists who watched lately; the creator can make it private to its players."""
import pytest
from django.urls import reverse

import engine
from games import spectators
from games.errors import NotCreator
from games.models import Game
from games.presenters.page import game_context
from games.services import game_set_public
from tests.support.game_driver import state_of


def _page(client, game):
    return client.get(reverse("games-detail", kwargs={"game_id": game.pk}))


def _poll(client, game):
    return client.get(reverse("games-poll", kwargs={"game_id": game.pk}), {"v": -1}, HTTP_HX_REQUEST="true")


def test_a_signed_in_spectator_watches_through_the_engines_spectator_view(client_for, started_game, carol):
    response = _page(client_for(carol), started_game)
    assert response.status_code == 200 and "You are watching this game." in response.text
    assert game_context(started_game, None, user=carol)["view"] == engine.view(state_of(started_game), None)


def test_the_page_lists_the_spectators_seen_lately_but_not_the_players(client_for, started_game, alice, bob,
                                                                       carol, dave):
    _page(client_for(carol), started_game)
    _poll(client_for(dave), started_game)
    _page(client_for(bob), started_game)
    shown = _page(client_for(alice), started_game).text
    assert "Watching: carol, dave" in shown
    assert spectators.watching(started_game) == ["carol", "dave"]


def test_a_spectator_drops_off_the_list_after_five_minutes(started_game, carol, dave):
    spectators.note_spectator(started_game, carol, now=1_000.0)
    spectators.note_spectator(started_game, dave, now=1_000.0 + 200)
    assert spectators.watching(started_game, now=1_000.0 + 299) == ["carol", "dave"]
    assert spectators.watching(started_game, now=1_000.0 + spectators.WATCH_SECONDS) == ["dave"]


def test_a_spectator_is_written_again_only_after_a_minute(started_game, carol, monkeypatch):
    writes = []
    real_set = spectators.cache.set
    monkeypatch.setattr(spectators.cache, "set", lambda *a, **k: (writes.append(a[0]), real_set(*a, **k)))
    for second in (0, 10, 59, 61):
        spectators.note_spectator(started_game, carol, now=5_000.0 + second)
    assert len(writes) == 2


def test_an_anonymous_visitor_is_not_listed(client, started_game):
    assert _page(client, started_game).status_code == 200
    assert spectators.watching(started_game) == []


def test_the_creator_makes_the_game_private_and_spectators_lose_it(client_for, started_game, alice, bob, carol):
    _page(client_for(carol), started_game)
    creator = client_for(started_game.creator)
    response = creator.post(reverse("games-visibility", kwargs={"game_id": started_game.pk}), {"is_public": "0"})
    assert response.status_code == 302
    started_game.refresh_from_db()
    assert started_game.is_public is False
    assert _page(client_for(carol), started_game).status_code == 404
    players = [s.user for s in started_game.seats.all()]
    for player in players:
        page = _page(client_for(player), started_game)
        assert page.status_code == 200 and "Private: only the players see this game." in page.text
    assert spectators.watching(started_game) == []
    assert "Let anyone signed in watch" in _page(creator, started_game).text


def test_only_the_creator_changes_who_may_watch(client_for, started_game, alice, bob):
    other = next(s.user for s in started_game.seats.all() if s.user_id != started_game.creator_id)
    with pytest.raises(NotCreator):
        game_set_public(game_id=started_game.pk, user=other, is_public=False)
    response = client_for(other).post(reverse("games-visibility", kwargs={"game_id": started_game.pk}),
                                      {"is_public": "0"}, follow=True)
    assert "Only the game" in response.text
    assert Game.objects.get(pk=started_game.pk).is_public is True
    assert "Make it private to the players" not in _page(client_for(other), started_game).text


def test_a_list_is_read_from_the_cache_once_every_few_seconds_and_the_processs_own_writes_show_at_once(
        started_game, carol, dave, monkeypatch):
    clock = [100.0]
    monkeypatch.setattr(spectators.time, "monotonic", lambda: clock[0])
    reads = []
    real_get = spectators.cache.get
    monkeypatch.setattr(spectators.cache, "get", lambda *a, **k: (reads.append(a[0]), real_get(*a, **k))[1])
    assert spectators.watching(started_game) == [] and len(reads) == 1
    spectators.note_spectator(started_game, carol)  # this process's own write
    reads.clear()
    assert spectators.watching(started_game) == ["carol"] and reads == []
    # another process lists dave: seen here once READ_AGAIN_SECONDS have passed
    seen = real_get(spectators._key(started_game.pk))
    seen[str(dave.pk)] = ["dave", seen[str(carol.pk)][1]]
    spectators.cache.set(spectators._key(started_game.pk), seen, spectators.WATCH_SECONDS)
    clock[0] += spectators.READ_AGAIN_SECONDS - 0.5
    assert spectators.watching(started_game) == ["carol"] and reads == []
    clock[0] += 1
    assert spectators.watching(started_game) == ["carol", "dave"] and len(reads) == 1
