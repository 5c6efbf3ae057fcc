"""games.services.vacation_start / vacation_stop: clocks stop while a player is on
vacation (no timeouts), days used are counted, others see a marker; the preferences page."""
import datetime as dt

import pytest
from django.urls import reverse

from games import clock
from games.models import Move, PlayerClock, Seat
from games.services import (
    VacationError, vacation_days_left, vacation_start, vacation_stop,
)
from games.tasks import enforce_deadlines_task
from games.selectors import player_clock_for


def alice_seat(game, alice):
    return Seat.objects.get(game=game, user=alice)


def test_vacation_stops_the_clock_and_no_timeout_happens(fake_engine, clocked_game, frozen_now,
                                                        alice, bob):
    game = clocked_game(alice, bob)
    frozen_now.advance(hours=10)
    vacation_start(user=alice)
    seat = alice_seat(game, alice)
    assert (seat.bank_seconds, seat.clock_started_at, seat.deadline) == (14 * 3600, None, None)
    frozen_now.advance(days=5)
    enforce_deadlines_task()
    assert not Move.objects.filter(game=game, seat=seat.order, source="timeout").exists()
    vacation_stop(user=alice)
    seat = alice_seat(game, alice)
    assert seat.deadline == frozen_now.now + dt.timedelta(hours=14)
    assert clock.remaining(seat, frozen_now.now) == 14 * 3600


def test_days_used_are_counted(fake_engine, clocked_game, frozen_now, settings, alice, bob):
    settings.GAMES_VACATION_DAYS_PER_YEAR = 21
    vacation_start(user=alice)
    frozen_now.advance(days=3)
    assert vacation_days_left(player_clock_for(alice), frozen_now.now) == 18
    vacation_stop(user=alice)
    frozen_now.advance(days=1)
    prefs = player_clock_for(alice)
    assert prefs.vacation_seconds_used == 3 * 86400
    assert vacation_days_left(prefs, frozen_now.now) == 18


def test_no_vacation_without_days_left(frozen_now, settings, alice):
    settings.GAMES_VACATION_DAYS_PER_YEAR = 1
    vacation_start(user=alice)
    frozen_now.advance(days=2)
    vacation_stop(user=alice)
    with pytest.raises(VacationError):
        vacation_start(user=alice)


def test_the_sweep_ends_a_vacation_that_used_up_the_year(fake_engine, clocked_game, frozen_now,
                                                         settings, alice, bob):
    settings.GAMES_VACATION_DAYS_PER_YEAR = 2
    game = clocked_game(alice, bob)
    vacation_start(user=alice)
    frozen_now.advance(days=2, minutes=1)
    enforce_deadlines_task()
    assert player_clock_for(alice).vacation_since is None
    assert alice_seat(game, alice).deadline == frozen_now.now + dt.timedelta(hours=24)


def test_a_seat_awaited_during_vacation_does_not_start_its_clock(fake_engine, clocked_game,
                                                                 frozen_now, alice, bob):
    vacation_start(user=alice)
    game = clocked_game(alice, bob)
    assert alice_seat(game, alice).deadline is None
    assert Seat.objects.get(game=game, user=bob).deadline is not None


def test_the_game_page_shows_the_vacation_marker_and_the_clocks(
        fake_engine, clocked_game, frozen_now, client_for, alice, bob):
    game = clocked_game(alice, bob)
    vacation_start(user=alice)
    frozen_now.advance(hours=1)
    page = client_for(bob).get(reverse("games-detail", kwargs={"game_id": game.pk})).text
    assert "on vacation" in page
    assert "23 h 0 min</span> left" in page  # bob's clock (the span counts down in the browser)
    assert "clock stopped" in page  # alice's


def test_the_preferences_page_starts_and_stops_the_vacation(client_for, frozen_now, alice):
    client = client_for(alice)
    url = reverse("notifications-preferences")
    assert "<strong>21</strong> vacation days" in client.get(url).text and "Start my vacation" in client.get(url).text
    client.post(reverse("notifications-vacation"), {"action": "start"})
    assert player_clock_for(alice).vacation_since == frozen_now.now
    assert "You are on vacation" in client.get(url).text
    client.post(reverse("notifications-vacation"), {"action": "stop"})
    assert player_clock_for(alice).vacation_since is None


def test_the_vacation_card_posts_to_the_games_app(client_for, frozen_now, alice):
    client = client_for(alice)
    page = client.get(reverse("notifications-preferences")).text
    assert f'action="{reverse("games-vacation")}"' in page
    client.post(reverse("games-vacation"), {"action": "start"})
    assert player_clock_for(alice).vacation_since == frozen_now.now


def test_opening_the_vacation_address_leads_to_the_preferences_page_and_changes_nothing(client_for, alice):
    response = client_for(alice).get("/vacation/")
    assert response.status_code == 302 and response["Location"] == "/notifications/preferences/"
    assert not PlayerClock.objects.filter(user=alice).exists()


def test_a_short_vacation_still_reads_whole_days_on_the_preferences_page(client_for, frozen_now, alice):
    vacation_start(user=alice)
    frozen_now.advance(minutes=1)
    vacation_stop(user=alice)
    page = client_for(alice).get("/notifications/preferences/").text
    assert "<strong>21</strong> vacation days" in page and "21.0" not in page
