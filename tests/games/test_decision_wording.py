"""The wording of decisions and status lines (issue 9 clarity fixes): draw counts, what the
other player is waiting for, the pace with the options."""
from django.urls import reverse

import engine
from games import clock, services
from games.presenters.decisions import KIND_PROMPTS, WAITING_FOR, decision_forms
from games.templatetags.games_extras import pace_label

ME = {"bag_size": 1, "market_size": 5, "market_capacity": 8, "draw_count": 4}


def draw(n: int) -> dict:
    return {"action": {"type": "draw", "count": n}, "label": f"Draw {n} follower{'s' if n != 1 else ''}"}


def test_a_lone_draw_names_itself_once():
    form = decision_forms(engine, "draw", [draw(0)], ME)[0]
    assert form.button_label == "Draw 0 followers"


def test_the_draw_hint_says_how_many_may_be_drawn_now_and_why():
    form = decision_forms(engine, "draw", [draw(0), draw(1)], ME)[0]
    assert form.hint == ("You may draw up to 1 follower now: draw count 4 (Knight track), 1 in your bag, "
                         "3 free market spaces.")


def test_other_seats_are_waited_for_in_the_third_person(started_game, client_for):
    seats = {s.order: s for s in started_game.seats.select_related("user")}
    services.game_submit_action(game_id=started_game.pk, user=seats[0].user, action={"type": "submit_plan"},
                                expected_version=0)
    text = client_for(seats[0].user).get(reverse("games-detail", kwargs={"game_id": started_game.pk})).text
    started_game.refresh_from_db()
    assert engine.awaiting(engine.from_json(started_game.state)) == {1: "plan"}
    assert f"<strong>{seats[1].user.username}</strong> ({WAITING_FOR['plan']})" in text
    assert f"<strong>{seats[1].user.username}</strong> ({KIND_PROMPTS['plan']})" not in text


def test_the_pace_is_shown_with_the_options_and_in_the_lobby(make_game, alice, client_for):
    game = make_game(alice, seats=2)
    for url in (reverse("games-detail", kwargs={"game_id": game.pk}), reverse("games-lobby")):
        text = client_for(alice).get(url).text
        assert pace_label(clock.pace_of(game)) in text


def test_a_clock_pace_says_its_cap():
    assert pace_label(clock.PACES["normal"]) == "Normal: 3 days, +1 day per decision, at most 6 d 0 h"
    assert pace_label(clock.PACES["none"]) == clock.PACES["none"].label
