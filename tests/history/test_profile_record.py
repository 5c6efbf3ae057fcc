"""The profile's record of finished games: played, won, win rate, mean and best score, mean
score parts, by player count; head-to-head against each opponent; every finished game with
its placing, score and replay link, paginated."""
from __future__ import annotations

import pytest
from django.urls import reverse

from games import selectors, services
from games.models import Seat
from games.services.records import records_rebuild
from tests.history.fixture_games import load

pytestmark = pytest.mark.django_db


def seat_users(game, *users) -> None:
    """Give the imported ``game``'s seats to ``users`` in seat order (a shortcut to a finished
    game of real players), their records and the placeholders' recounted as an operator
    would after moving seats by hand (``records_rebuild``)."""
    placeholders = list(Seat.objects.filter(game=game).values_list("user_id", flat=True))
    for order, user in enumerate(users):
        Seat.objects.filter(game=game, order=order).update(user=user)
    records_rebuild([*placeholders, *(user.pk for user in users)])


@pytest.fixture
def three_games(alice, bob, carol, dave):
    games = {}
    for name, users in (("2p-default", (alice, bob)), ("3p-default", (alice, bob, carol)),
                        ("4p-default", (alice, bob, carol, dave))):
        games[name] = services.game_import(document=load(name))
        seat_users(games[name], *users)
    return games


def test_the_record_counts_wins_scores_and_parts_by_player_count(three_games, alice):
    record = selectors.player_record(alice)
    outcomes = {name: game.outcome for name, game in three_games.items()}
    mine = {name: outcome["scores"][0] for name, outcome in outcomes.items()}  # alice is seat 0
    won = sum(0 in outcome["winners"] for outcome in outcomes.values())
    assert (record.overall.played, record.overall.won) == (3, won)
    assert record.overall.win_rate == pytest.approx(won / 3)
    assert record.overall.mean == pytest.approx(sum(s["total"] for s in mine.values()) / 3)
    assert record.overall.best == max(s["total"] for s in mine.values())
    assert record.overall.mean_parts["coins"] == pytest.approx(sum(s["coins"] for s in mine.values()) / 3)
    assert record.overall.mean_parts["level"] == pytest.approx(sum(s["level"] for s in mine.values()) / 3)
    assert sorted(record.by_players) == [2, 3, 4]
    assert record.by_players[4].played == 1 and record.by_players[4].best == mine["4p-default"]["total"]


def test_head_to_head_counts_who_placed_ahead(three_games, alice):
    record = selectors.player_record(alice)
    rivals = {h.opponent: h for h in record.head_to_head}
    assert (rivals["bob"].games, rivals["carol"].games, rivals["dave"].games) == (3, 2, 1)
    ahead = 0
    for game in three_games.values():
        places = {r["seat"]: r["place"] for r in game.outcome["ranking"]}
        ahead += places[0] < places[1]
    assert rivals["bob"].ahead == ahead
    assert rivals["bob"].ahead + rivals["bob"].behind + rivals["bob"].level == 3
    assert record.head_to_head[0].opponent == "bob"  # most games together first


def test_the_profile_shows_the_record_and_links_each_game_to_its_replay(three_games, client_for, alice):
    html = client_for(alice).get(reverse("games-profile")).content.decode()
    assert 'id="player-stats"' in html and 'id="head-to-head"' in html
    for game in three_games.values():
        assert reverse("games-replay", kwargs={"game_id": game.pk}) + "?step=0" in html
    assert "All games" in html and "4 players" in html


def test_the_finished_games_are_paginated(alice, bob, client_for, settings):
    from games.views import pages

    for _ in range(3):
        seat_users(services.game_import(document=load("2p-default")), alice, bob)
    pages.PROFILE_GAMES_PER_PAGE, saved = 2, pages.PROFILE_GAMES_PER_PAGE
    try:
        first = client_for(alice).get(reverse("games-profile"))
        second = client_for(alice).get(reverse("games-profile") + "?page=2")
    finally:
        pages.PROFILE_GAMES_PER_PAGE = saved
    assert len(first.context["finished"].object_list) == 2 and "Page 1 of 2" in first.content.decode()
    assert len(second.context["finished"].object_list) == 1
    assert first.context["record"].overall.played == 3  # the record counts every page


def test_a_player_without_finished_games_has_an_empty_record(alice, client_for):
    record = selectors.player_record(alice)
    assert (record.overall.played, record.overall.win_rate, record.overall.mean) == (0, 0.0, None)
    assert "once you have finished a game" in client_for(alice).get(reverse("games-profile")).content.decode()
