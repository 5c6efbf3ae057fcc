"""pages.game_detail: the lobby of an open game, the board of a started one."""
import json

from django.urls import reverse

import engine
from games.presenters.page import game_context
from games.services import game_submit_action
from tests.support.game_driver import awaited_move
from tests.support.html_forms import decision_forms, offered_actions

REGIONS = ("game-status", "game-map", "game-tracks", "game-development", "game-deeds", "game-event",
           "game-place-tiles", "game-supply", "game-boards", "game-mine", "game-actions",
           "game-players", "game-log", "flash", "game-poll")


def canonical(action):
    return json.dumps(action, sort_keys=True)


def url(game):
    return reverse("games-detail", kwargs={"game_id": game.pk})


def test_it_shows_an_open_game_with_a_join_button(client_for, make_game, alice, bob):
    game = make_game(alice)
    response = client_for(bob).get(url(game))
    assert response.status_code == 200
    assert "games/game_lobby.html" in [t.name for t in response.templates]
    assert reverse("games-join", kwargs={"game_id": game.pk}) in response.text
    assert 'id="lobby-seats"' in response.text


def test_it_shows_the_creator_start_and_cancel(client_for, make_game, alice, bob):
    game = make_game(alice, bob)
    text = client_for(alice).get(url(game)).text
    assert reverse("games-start", kwargs={"game_id": game.pk}) in text
    assert reverse("games-cancel", kwargs={"game_id": game.pk}) in text
    assert reverse("games-join", kwargs={"game_id": game.pk}) not in text


def test_it_shows_the_invite_link_of_a_private_game_to_its_players(client_for, make_game, alice):
    game = make_game(alice, is_public=False)
    response = client_for(alice).get(url(game))
    assert response.context["invite_token"]
    assert "/invite/" in response.text


def test_it_hides_a_private_game_from_outsiders(client, client_for, make_game, alice, carol):
    game = make_game(alice, is_public=False)
    assert client_for(carol).get(url(game)).status_code == 404


def test_it_sends_a_logged_out_visitor_of_a_private_game_to_log_in_and_back(client, make_game, alice):
    """A game link from an email, opened while logged out, leads to the login page."""
    game = make_game(alice, is_public=False)
    response = client.get(url(game))
    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/login/?next=") and str(game.pk) in response["Location"]


def test_it_answers_404_for_an_unknown_game(db, client_for, alice):
    response = client_for(alice).get("/games/00000000-0000-0000-0000-000000000000/")
    assert response.status_code == 404


def test_a_logged_out_visitor_cannot_tell_an_unknown_game_from_a_private_one(db, client, make_game, alice):
    private = client.get(url(make_game(alice, is_public=False)))
    unknown = client.get("/games/00000000-0000-0000-0000-000000000000/")
    assert private.status_code == unknown.status_code == 302


def test_it_renders_the_viewers_engine_view(client_for, started_game, alice):
    seat = started_game.seats.get(user=alice)
    response = client_for(alice).get(url(started_game))
    assert response.status_code == 200
    expected = engine.view(engine.from_json(started_game.state), seat.order)
    assert response.context["view"] == expected
    for region in REGIONS:
        assert f'id="{region}"' in response.text


def test_it_offers_every_legal_action_exactly_once_in_real_forms(client_for, started_game):
    seat, _ = awaited_move(started_game)
    state = engine.from_json(started_game.state)
    legal = engine.legal_actions(state, seat.order)
    response = client_for(seat.user).get(url(started_game))
    act_url = reverse("games-act", kwargs={"game_id": started_game.pk})
    assert [item["action"] for item in response.context["actions"]] == legal
    forms = decision_forms(response.text)
    offered = [a for form in forms for a in form["actions"]]
    assert sorted(map(canonical, offered)) == sorted(map(canonical, legal))
    for form in forms:
        assert form["attrs"]["method"] == "post" and form["attrs"]["action"] == act_url
        assert form["attrs"]["hx-post"] == act_url
        assert form["hidden"]["expected_version"] == "0"
        assert form["hidden"]["csrfmiddlewaretoken"]
    assert "Submit my plan" in response.text


def test_it_gives_a_spectator_no_forms(client, client_for, started_game, carol):
    for viewer in (client_for(carol), client):
        response = viewer.get(url(started_game))
        assert response.status_code == 200
        assert response.context["actions"] == []
        assert response.context["view"] == engine.view(engine.from_json(started_game.state), None)


def test_it_never_shows_another_seats_hidden_choice(fake_engine, client_for, started_game):
    first, second = started_game.seats.order_by("order")
    game_submit_action(game_id=started_game.pk, user=first.user,
                       action={"type": "pick", "n": 2}, expected_version=0)
    own = client_for(first.user).get(url(started_game)).context["view"]
    other = client_for(second.user).get(url(started_game)).context["view"]
    assert own["my_pick"] == 2
    assert other["my_pick"] is None


def test_it_never_shows_another_seats_plan(client, client_for, started_game, carol):
    """Real engine: a plan in progress is visible to its player only (RULES: hidden planning)."""
    state = engine.from_json(started_game.state)
    planner = next(s for s in started_game.seats.all()
                   if any(a["type"] == "place" for a in engine.legal_actions(state, s.order)))
    place = next(a for a in engine.legal_actions(state, planner.order) if a["type"] == "place")
    game_submit_action(game_id=started_game.pk, user=planner.user, action=place, expected_version=0)
    other = started_game.seats.exclude(pk=planner.pk).get()
    undo = {"type": "unplace", "follower": place["follower"], "space": place["space"]}

    def page(viewer):
        return viewer.get(url(started_game)).text

    own = page(client_for(planner.user))
    assert undo in offered_actions(own)
    assert "tile t-" in own and " planned" in own
    for viewer in (client_for(other.user), client_for(carol), client):
        text = page(viewer)
        assert undo not in offered_actions(text)
        assert " planned\"" not in text
    # a repeat view comes from the page cache, without a view in its context: ask the presenter
    started_game.refresh_from_db()
    assert game_context(started_game, other, user=other.user)["view"]["players"][planner.order]["plan"] is None


def test_it_never_shows_the_seed(client, client_for, started_game, alice):
    """The seed determines every future draw: it must stay on the server."""
    seed = str(started_game.seed)
    assert seed not in client_for(alice).get(url(started_game)).text
    assert seed not in client.get(url(started_game)).text


def test_it_polls_while_active(client_for, started_game, alice):
    text = client_for(alice).get(url(started_game)).text
    poll_url = reverse("games-poll", kwargs={"game_id": started_game.pk})
    assert f'hx-get="{poll_url}?v=0&amp;c=0&amp;l=0"' in text


def test_it_uses_a_bounded_number_of_queries(
    client_for, make_game, alice, bob, carol, dave, django_assert_max_num_queries
):
    game = make_game(alice, bob, carol, dave)
    client = client_for(alice)
    with django_assert_max_num_queries(12):
        assert client.get(url(game)).status_code == 200


def test_an_active_game_page_uses_a_bounded_number_of_queries(
    client_for, started_game, alice, django_assert_max_num_queries
):
    client = client_for(alice)
    for _ in range(3):
        started_game.refresh_from_db()
        seat, action = awaited_move(started_game)
        game_submit_action(game_id=started_game.pk, user=seat.user, action=action,
                           expected_version=started_game.version)
    with django_assert_max_num_queries(12):
        assert client.get(url(started_game)).status_code == 200


def test_it_rejects_post(client_for, started_game, alice):
    assert client_for(alice).post(url(started_game)).status_code == 405
