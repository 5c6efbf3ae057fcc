"""The "Waiting for you" list: its order (deadline, then the longest wait), the next-game
jump, and the navigation's count."""
import datetime as dt

from django.urls import reverse
from django.utils import timezone

from games import selectors
from games.models import Seat


def _wait(game, user, *, deadline=None, since=None):
    Seat.objects.filter(game=game, user=user).update(awaiting="plan", deadline=deadline, awaiting_since=since)


def _three_waiting_games(make_game, alice, bob):
    """Three started games awaiting alice: one without a clock that has waited 3 days, one
    due in 2 hours, one due in 1 hour; returns them as (no clock, later, sooner)."""
    now = timezone.now()
    games = [make_game(alice, bob, seats=2) for _ in range(3)]
    _wait(games[0], alice, since=now - dt.timedelta(days=3))
    _wait(games[1], alice, deadline=now + dt.timedelta(hours=2), since=now - dt.timedelta(minutes=5))
    _wait(games[2], alice, deadline=now + dt.timedelta(hours=1), since=now - dt.timedelta(minutes=1))
    return games


def test_games_are_sorted_by_deadline_then_by_the_longest_wait(make_game, alice, bob):
    no_clock, later, sooner = _three_waiting_games(make_game, alice, bob)
    now = timezone.now()
    short_wait, long_wait = make_game(alice, bob, seats=2), make_game(alice, bob, seats=2)
    _wait(short_wait, alice, since=now - dt.timedelta(hours=1))
    _wait(long_wait, alice, since=now - dt.timedelta(days=5))
    order = [seat.game_id for seat in selectors.seats_waiting_for(alice)]
    assert order == [sooner.pk, later.pk, long_wait.pk, no_clock.pk, short_wait.pk]


def test_a_game_not_awaiting_the_user_is_not_listed(make_game, alice, bob):
    game = make_game(alice, bob, seats=2)
    Seat.objects.filter(game=game, user=alice).update(awaiting="")
    assert list(selectors.seats_waiting_for(alice)) == []
    assert [s.game_id for s in selectors.seats_waiting_for(bob)] == [game.pk]


def test_next_game_skips_the_current_one_and_wraps_round(make_game, alice, bob):
    no_clock, later, sooner = _three_waiting_games(make_game, alice, bob)
    assert selectors.next_waiting_game(alice, sooner.pk) == str(later.pk)
    assert selectors.next_waiting_game(alice, later.pk) == str(no_clock.pk)
    assert selectors.next_waiting_game(alice, no_clock.pk) == str(sooner.pk)


def test_next_game_from_elsewhere_is_the_most_urgent(make_game, alice, bob):
    _no_clock, _later, sooner = _three_waiting_games(make_game, alice, bob)
    assert selectors.next_waiting_game(alice) == str(sooner.pk)


def test_next_game_is_none_when_only_the_current_game_waits(make_game, alice, bob):
    game = make_game(alice, bob, seats=2)
    assert selectors.next_waiting_game(alice, game.pk) is None


def test_the_next_game_button_jumps_to_the_next_waiting_game(client_for, make_game, alice, bob):
    _no_clock, later, sooner = _three_waiting_games(make_game, alice, bob)
    client = client_for(alice)
    page = client.get(reverse("games-detail", kwargs={"game_id": sooner.pk})).text
    assert f'{reverse("games-next")}?from={sooner.pk}' in page
    response = client.get(reverse("games-next"), {"from": str(sooner.pk)})
    assert response.status_code == 302
    assert response.url == reverse("games-detail", kwargs={"game_id": later.pk})


def test_the_next_game_button_says_so_when_nothing_else_waits(client_for, started_game, alice):
    response = client_for(alice).get(reverse("games-next"), {"from": str(started_game.pk)}, follow=True)
    assert response.redirect_chain == [(reverse("home"), 302)]
    assert "No other game is waiting for you." in response.text


def test_the_next_game_button_ignores_a_malformed_game_id(client_for, started_game, alice):
    response = client_for(alice).get(reverse("games-next"), {"from": "not-a-uuid"})
    assert response.url == reverse("games-detail", kwargs={"game_id": started_game.pk})


def test_the_navigation_counts_games_and_invitations_waiting(client_for, make_game, alice, bob, carol):
    from games.services import invitation_create

    make_game(alice, bob, seats=2)
    open_game = make_game(carol, seats=3)
    invitation_create(game_id=open_game.pk, inviter=carol, invitee=alice)
    assert selectors.waiting_count(alice) == 2
    page = client_for(alice).get(reverse("games-lobby")).text
    assert '<span class="badge turn" id="nav-waiting-count">2</span>' in page
    assert 'id="nav-waiting-count"' not in client_for(carol).get(reverse("games-lobby")).text


def test_the_navigation_count_drops_right_after_the_users_decision_in_another_game(client_for, alice, bob):
    from games.rules import engine_for
    from games.services import game_submit_action
    from tests.support.game_driver import new_started_game

    here, there = new_started_game(alice, bob, seed=21), new_started_game(alice, bob, seed=22)
    client, page = client_for(alice), reverse("games-detail", kwargs={"game_id": here.pk})
    assert '<span class="badge turn" id="nav-waiting-count">2</span>' in client.get(page).text
    rules_engine, order = engine_for(there), Seat.objects.get(game=there, user=alice).order
    while order in rules_engine.awaiting(state := rules_engine.from_json(there.state)):  # a plan: a few steps
        game_submit_action(game_id=there.pk, user=alice, action=rules_engine.legal_actions(state, order)[-1],
                           expected_version=there.version)
        there.refresh_from_db()
    assert '<span class="badge turn" id="nav-waiting-count">1</span>' in client.get(page).text
