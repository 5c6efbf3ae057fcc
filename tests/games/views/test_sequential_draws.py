"""With sequential followers, other players' draws of the round are shown; markets stay hidden."""
import engine
from games import services


def test_a_later_seat_sees_what_the_earlier_seat_drew(make_game, client_for, alice, bob):
    game = make_game(alice, bob, seats=2, simultaneous_followers=False)
    by_order = {s.order: s for s in game.seats.select_related("user")}
    # round 1 (empty bags): both use the Farmhouse, so their followers go back to the bags
    farmhouse = [{"follower": "start_boatman", "space": "farmhouse"},
                 {"follower": "start_craftsman", "space": "farmhouse"}]

    def act(order, action):
        game.refresh_from_db()
        services.game_submit_action(game_id=game.pk, user=by_order[order].user,
                                    expected_version=game.version, action=action)

    for order in (0, 1):
        act(order, {"type": "submit_plan", "placements": farmhouse})
    game.refresh_from_db()
    services.game_resolve(game_id=game.pk, expected_version=game.version)
    for _ in range(2):
        game.refresh_from_db()
        (turn,) = engine.awaiting(engine.from_json(game.state))
        act(turn, {"type": "activate", "space": "farmhouse"})
    game.refresh_from_db()
    state = engine.from_json(game.state)
    assert state.round == 2
    awaited = engine.awaiting(state)
    first = next(order for order, kind in awaited.items() if kind == "draw")
    act(first, {"type": "draw", "count": 2})
    game.refresh_from_db()
    other = by_order[1 - first].user
    view = engine.view(engine.from_json(game.state), 1 - first)["players"][first]
    assert len(view["drawn"]) == 2 and view["market"] is None
    page = client_for(other).get(f"/games/{game.pk}/").text
    assert "Drew this round:" in page
