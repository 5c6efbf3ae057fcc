"""Players planning at the same time do not make each other's pages stale
(games.services._only_others_moved_independently); any other move in between does (a queued
move included), and with sequential followers an old page cannot draw out of turn."""

import pytest

import engine
from games import services
from games.models import Move
from tests.support.game_driver import THREE_PLACE_PLAN, moves_after, play_until, richer_markets, seats, submit, queue_set


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


# --- other moves in between ---------------------------------------------------------------


def test_a_queued_move_in_between_makes_an_old_page_stale(make_game, alice, bob, django_capture_on_commit_callbacks):
    game = make_game(alice, bob, seats=2)
    richer_markets(game)
    by = seats(game)
    queue_set(game_id=game.pk, user=by[1].user, entries=[{"type": "activate", "space": "university"}])
    with django_capture_on_commit_callbacks(execute=True):
        for seat in by.values():
            submit(game, seat, {"type": "submit_plan", "placements": THREE_PLACE_PLAN})
    game.refresh_from_db()
    seen = game.version
    submit(game, by[0], {"type": "activate", "space": "castle"})  # bob's queued University follows
    assert moves_after(game, seen + 1) == [(1, True, {"type": "activate", "space": "university"})]
    with pytest.raises(services.StaleVersion):
        services.game_submit_action(game_id=game.pk, user=by[0].user, expected_version=seen + 1,
                                    action={"type": "activate", "space": "farmhouse"})


def test_sequential_followers_an_old_page_cannot_draw_out_of_turn(make_game, alice, bob, carol):
    game = make_game(alice, bob, carol, seats=3, simultaneous_followers=False)

    def drawing(state):
        return state.round == 2 and "draw" in engine.awaiting(state).values()

    game = play_until(game, drawing, seed=5)
    state = engine.from_json(game.state)
    first = next(o for o, k in engine.awaiting(state).items() if k == "draw")
    waiting = [o for o in range(3) if o != first and state.data["players"][o]["stage"] == "draw"]
    assert waiting
    seen = game.version
    for order in waiting:  # not their turn to draw yet: refused by the engine, nothing stored
        with pytest.raises(engine.RulesError):
            services.game_submit_action(game_id=game.pk, user=game.seats.get(order=order).user,
                                        expected_version=seen, action={"type": "draw", "count": 0})
    first_draw = next(a for a in engine.legal_actions(state, first) if a["type"] == "draw")
    services.game_submit_action(game_id=game.pk, user=game.seats.get(order=first).user,
                                expected_version=seen, action=first_draw)
    game.refresh_from_db()
    after = engine.from_json(game.state)
    later = next(o for o in waiting if engine.awaiting(after).get(o) == "draw")
    later_user = game.seats.get(order=later).user
    move = engine.legal_actions(after, later)[0]
    # its page is older than the first seat's draw: accepted (a draw never depends on another's), once
    services.game_submit_action(game_id=game.pk, user=later_user, expected_version=seen, action=move)
    with pytest.raises(services.StaleVersion):
        services.game_submit_action(game_id=game.pk, user=later_user, expected_version=seen, action=move)
