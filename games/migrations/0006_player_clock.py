"""Vacation moves from notifications.Preferences to games.PlayerClock (step 1 of 2).

Creates the table and copies every user's vacation data from the preferences rows; the
notifications migration 0004 drops the old columns only after this has run. Reversible:
going back copies the data into the preferences again.
"""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


VACATION_FIELDS = ("vacation_since", "vacation_year", "vacation_seconds_used")


def copy_vacations_from_preferences(apps, schema_editor):
    """One PlayerClock per user whose preferences hold any vacation data (others get one
    with the defaults on first use)."""
    Preferences = apps.get_model("notifications", "Preferences")
    PlayerClock = apps.get_model("games", "PlayerClock")
    rows = (Preferences.objects.filter(vacation_since__isnull=False)
            | Preferences.objects.exclude(vacation_year=0)
            | Preferences.objects.exclude(vacation_seconds_used=0))
    PlayerClock.objects.bulk_create(
        [PlayerClock(user_id=prefs.user_id, **{f: getattr(prefs, f) for f in VACATION_FIELDS})
         for prefs in rows.distinct()],
        ignore_conflicts=True,
    )


def copy_vacations_to_preferences(apps, schema_editor):
    """Reverse: write each PlayerClock's vacation data back into the user's preferences."""
    Preferences = apps.get_model("notifications", "Preferences")
    PlayerClock = apps.get_model("games", "PlayerClock")
    for player_clock in PlayerClock.objects.all():
        Preferences.objects.update_or_create(
            user_id=player_clock.user_id,
            defaults={f: getattr(player_clock, f) for f in VACATION_FIELDS},
        )


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0005_action_queue_note'),
        ('notifications', '0003_turn_email_delay'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name='PlayerClock',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('vacation_since', models.DateTimeField(blank=True, help_text='when the current vacation started; null if none', null=True)),
                ('vacation_year', models.PositiveSmallIntegerField(default=0, help_text='calendar year that vacation_seconds_used counts')),
                ('vacation_seconds_used', models.PositiveIntegerField(default=0, help_text='vacation used in vacation_year by finished vacations, seconds')),
                ('user', models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, related_name='player_clock', to=settings.AUTH_USER_MODEL)),
            ],
        ),
        migrations.RunPython(copy_vacations_from_preferences, copy_vacations_to_preferences),
    ]
