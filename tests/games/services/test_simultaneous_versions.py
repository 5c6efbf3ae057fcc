"""Players planning at the same time do not make each other's pages stale
(games.services._only_others_moved_independently)."""

import pytest

import engine
from games import services
from games.models import Move


def seats(game):
    return {s.order: s for s in game.seats.select_related("user")}


def place(game, seat, expected_version, follower="start_farmer", space="castle"):
    return services.game_submit_action(
        game_id=game.pk, user=seat.user, expected_version=expected_version,
        action={"type": "place", "follower": follower, "space": space},
    )


def test_it_accepts_a_plan_step_made_on_a_page_older_than_another_seats_plan_steps(started_game):
    by_order = seats(started_game)
    seen = started_game.version
    place(started_game, by_order[0], seen)
    place(started_game, by_order[0], seen + 1, follower="start_boatman")
    place(started_game, by_order[1], seen)  # bob's page still shows version `seen`
    started_game.refresh_from_db()
    assert started_game.version == seen + 3
    plan = engine.view(engine.from_json(started_game.state), 1)["players"][1]["plan"]
    assert plan == [["castle", "start_farmer"]]


def test_it_still_refuses_a_page_older_than_the_seats_own_move(started_game):
    by_order = seats(started_game)
    seen = started_game.version
    place(started_game, by_order[0], seen)
    with pytest.raises(services.StaleVersion):
        place(started_game, by_order[0], seen, follower="start_boatman")
    assert Move.objects.filter(game=started_game).count() == 1


def test_it_refuses_a_page_older_than_a_resolution(started_game, django_capture_on_commit_callbacks):
    by_order = seats(started_game)
    seen = started_game.version
    with django_capture_on_commit_callbacks(execute=True):
        for order, seat in by_order.items():
            services.game_submit_action(game_id=started_game.pk, user=seat.user, action={
                "type": "submit_plan", "placements": [{"follower": "start_boatman", "space": "farmhouse"},
                                                      {"follower": "start_craftsman", "space": "farmhouse"}]},
                expected_version=seen + order)
    started_game.refresh_from_db()
    assert Move.objects.filter(game=started_game, seat__isnull=True).count() == 1  # the reveal
    with pytest.raises(services.StaleVersion):
        services.game_submit_action(game_id=started_game.pk, user=by_order[1].user, action={"type": "pass"},
                                    expected_version=seen + 1)


def test_an_accepted_old_page_is_still_checked_against_the_current_state(started_game):
    by_order = seats(started_game)
    seen = started_game.version
    place(started_game, by_order[0], seen)
    with pytest.raises(engine.IllegalAction):
        place(started_game, by_order[1], seen, follower="knight")
    started_game.refresh_from_db()
    assert started_game.version == seen + 1
