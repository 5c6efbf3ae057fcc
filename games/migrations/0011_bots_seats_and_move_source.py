"""Bots (issue #10): bot seats (``Seat.bot_level``/``bot_name``, ``user`` null for a bot),
the absent-player takeover (``Game.absent_bot_level``), the ``Game.has_bots`` flag, and one
``Move.source`` field in place of the ``timed_out`` / ``queued`` flags (a data migration
copies them: timed out -> timeout, queued -> queue, no seat -> system, else player)."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


def flags_to_source(apps, schema_editor):
    """Copy the old flags into ``source``."""
    Move = apps.get_model("games", "Move")
    Move.objects.filter(seat__isnull=True).update(source="system")
    Move.objects.filter(queued=True).update(source="queue")
    Move.objects.filter(timed_out=True).update(source="timeout")


def source_to_flags(apps, schema_editor):
    """Back to the flags (a bot's or system move becomes a plain one)."""
    Move = apps.get_model("games", "Move")
    Move.objects.filter(source="queue").update(queued=True)
    Move.objects.filter(source="timeout").update(timed_out=True)


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0010_social'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name='game',
            name='absent_bot_level',
            field=models.CharField(blank=True, help_text='level (engine.bots.LEVELS) of the bot that plays for an absent player; blank: none', max_length=20),
        ),
        migrations.AddField(
            model_name='game',
            name='has_bots',
            field=models.BooleanField(default=False, help_text='a bot holds a seat or played for an absent player (keep it unrated)'),
        ),
        migrations.AddField(
            model_name='move',
            name='source',
            field=models.CharField(choices=[('player', 'Player'), ('queue', 'Action queue'), ('timeout', 'Timeout'), ('bot', 'Bot'), ('system', 'System')], default='player', max_length=10),
        ),
        migrations.RunPython(flags_to_source, source_to_flags),
        migrations.RemoveField(
            model_name='move',
            name='queued',
        ),
        migrations.RemoveField(
            model_name='move',
            name='timed_out',
        ),
        migrations.AddField(
            model_name='seat',
            name='bot_level',
            field=models.CharField(blank=True, help_text='level (engine.bots.LEVELS) of the bot in this seat; blank: a human', max_length=20),
        ),
        migrations.AddField(
            model_name='seat',
            name='bot_name',
            field=models.CharField(blank=True, help_text='a bot seat\'s name, e.g. "Bot (Greedy) 1"', max_length=40),
        ),
        migrations.AlterField(
            model_name='seat',
            name='user',
            field=models.ForeignKey(blank=True, help_text='the player; null for a bot seat', null=True, on_delete=django.db.models.deletion.PROTECT, related_name='seats', to=settings.AUTH_USER_MODEL),
        ),
        migrations.AddConstraint(
            model_name='seat',
            constraint=models.CheckConstraint(condition=models.Q(models.Q(('user__isnull', True), models.Q(('bot_level', ''), _negated=True)), models.Q(('user__isnull', False), ('bot_level', '')), _connector='OR'), name='seat_user_or_bot'),
        ),
    ]
