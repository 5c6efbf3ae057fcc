"""Seat.next_reminder_at (issue 14): the reminder sweep reads only the seats due."""
from django.db import migrations, models
from django.db.models import F


def seats_awaited_now_are_due(apps, schema_editor):
    """Every awaited player's seat is looked at by the first sweep, which schedules it."""
    Seat = apps.get_model("games", "Seat")
    Seat.objects.filter(awaiting_since__isnull=False, user__isnull=False).exclude(awaiting="").update(
        next_reminder_at=F("awaiting_since"))


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0016_seat_action_queue_note_message'),
    ]

    operations = [
        migrations.AddField(
            model_name='seat',
            name='next_reminder_at',
            field=models.DateTimeField(blank=True, db_index=True, help_text="when the reminder sweep looks at this awaited player's seat next (games.clock.next_reminder_at); null when not awaited or a bot", null=True),
        ),
        migrations.RunPython(seats_awaited_now_are_due, migrations.RunPython.noop),
    ]
