"""Migrations games 0006 / notifications 0004: vacation data moves from the notification
preferences to ``games.PlayerClock`` and nothing is lost (and back, when unapplied)."""
from __future__ import annotations

import datetime as dt


BEFORE = [("games", "0005_action_queue_note"), ("notifications", "0003_turn_email_delay")]
AFTER = [("games", "0006_player_clock"), ("notifications", "0004_vacation_moved_to_games")]
SINCE = dt.datetime(2026, 3, 1, 12, 0, tzinfo=dt.timezone.utc)


def _users(apps, *names):
    User = apps.get_model("auth", "User")
    return [User.objects.create(username=name) for name in names]


def test_vacation_data_is_copied_to_player_clocks(migrator):
    apps = migrator(BEFORE)
    Preferences = apps.get_model("notifications", "Preferences")
    away, back, never = _users(apps, "away", "back", "never")
    Preferences.objects.create(user=away, vacation_since=SINCE, vacation_year=2026, vacation_seconds_used=3600)
    Preferences.objects.create(user=back, vacation_year=2026, vacation_seconds_used=2 * 86400)
    Preferences.objects.create(user=never, digest_hour=9)

    apps = migrator(AFTER)
    clocks = {c.user.username: c for c in apps.get_model("games", "PlayerClock").objects.select_related("user")}
    assert set(clocks) == {"away", "back"}  # no vacation data: a clock is made on first use
    assert (clocks["away"].vacation_since, clocks["away"].vacation_year,
            clocks["away"].vacation_seconds_used) == (SINCE, 2026, 3600)
    assert (clocks["back"].vacation_since, clocks["back"].vacation_seconds_used) == (None, 2 * 86400)
    assert apps.get_model("notifications", "Preferences").objects.get(user__username="never").digest_hour == 9


def test_unapplying_the_move_copies_vacations_back_to_the_preferences(migrator):
    apps = migrator(AFTER)
    (away,) = _users(apps, "away")
    apps.get_model("notifications", "Preferences").objects.create(user=away)
    apps.get_model("games", "PlayerClock").objects.create(
        user=away, vacation_since=SINCE, vacation_year=2026, vacation_seconds_used=60)

    apps = migrator(BEFORE)
    prefs = apps.get_model("notifications", "Preferences").objects.get(user__username="away")
    assert (prefs.vacation_since, prefs.vacation_year, prefs.vacation_seconds_used) == (SINCE, 2026, 60)
