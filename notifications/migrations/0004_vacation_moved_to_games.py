"""Vacation moved to games.PlayerClock (step 2 of 2): drop the old columns once
games 0006 has copied them."""

from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ('notifications', '0003_turn_email_delay'),
        ('games', '0006_player_clock'),
    ]

    operations = [
        migrations.RemoveField(
            model_name='preferences',
            name='vacation_seconds_used',
        ),
        migrations.RemoveField(
            model_name='preferences',
            name='vacation_since',
        ),
        migrations.RemoveField(
            model_name='preferences',
            name='vacation_year',
        ),
    ]
