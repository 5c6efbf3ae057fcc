"""Each seat keeps its line of the finished game's outcome (placement, won, final score):
copied when the outcome is stored (a finishing move, an import, the vote to end) and, by
migration games 0014, for the games finished before."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from games import services
from games.models import Seat
from games.selectors import seat_results
from tests.history.fixture_games import load
from tests.support.game_driver import play_fake_game_to_the_end

BEFORE = [("games", "0013_ratings")]
AFTER = [("games", "0014_seat_results_and_list_indexes")]
OUTCOME = json.loads((Path(__file__).resolve().parent.parent / "fixtures" / "games" / "3p-default.json")
                     .read_text())["outcome"]


def stored(game) -> dict:
    return {seat.order: (seat.placement, seat.won, seat.final_score) for seat in Seat.objects.filter(game=game)}


def test_the_results_read_the_ranking_the_winners_and_the_scores():
    results = seat_results(OUTCOME)
    places = {entry["seat"]: entry["place"] for entry in OUTCOME["ranking"]}
    assert sorted(results) == [0, 1, 2]
    for seat, (placement, won, score) in results.items():
        assert placement == places[seat]
        assert won == (seat in OUTCOME["winners"])
        assert score == OUTCOME["scores"][seat]


def test_an_outcome_without_a_ranking_names_no_seat():
    assert seat_results(None) == {} and seat_results({"ended_early": True}) == {}


@pytest.mark.django_db
def test_an_imported_game_keeps_each_seats_result():
    game = services.game_import(document=load("3p-default"))
    assert stored(game) == seat_results(game.outcome)


def test_a_game_played_to_the_end_keeps_each_seats_result(
        fake_engine, started_game, django_capture_on_commit_callbacks):
    play_fake_game_to_the_end(started_game, django_capture_on_commit_callbacks)
    started_game.refresh_from_db()
    assert stored(started_game) == seat_results(started_game.outcome)
    assert any(won for _place, won, _score in stored(started_game).values())


def test_the_migration_copies_the_results_of_games_finished_before(migrator):
    apps = migrator(BEFORE)
    user = apps.get_model("auth", "User").objects.create(username="old")
    Game, OldSeat = apps.get_model("games", "Game"), apps.get_model("games", "Seat")
    finished = Game.objects.create(name="Done", creator=user, status="finished", outcome=OUTCOME, max_seats=3)
    playing = Game.objects.create(name="Playing", creator=user, status="active", max_seats=3)
    for game in (finished, playing):
        for order in range(3):
            OldSeat.objects.create(game=game, user=user if order == 0 else None, bot_level="" if order == 0 else "random",
                                   bot_name=f"Bot {order}", order=order)

    apps = migrator(AFTER)
    seats = apps.get_model("games", "Seat").objects
    copied = {s.order: (s.placement, s.won, s.final_score) for s in seats.filter(game_id=finished.pk)}
    assert copied == seat_results(OUTCOME)
    assert set(seats.filter(game_id=playing.pk).values_list("placement", "won", "final_score")) == {(None, False, None)}
