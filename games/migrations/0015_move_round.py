"""Each move's log round (``Move.round``), so the game page loads only the current and
previous rounds; existing moves get theirs from their events, as ``Move.rounds_of``."""
from django.db import migrations, models


def fill_rounds(apps, schema_editor):
    Move = apps.get_model("games", "Move")
    game_ids = Move.objects.values_list("game_id", flat=True).distinct()
    for game_id in game_ids.iterator():
        current, changed = 1, []
        for move in Move.objects.filter(game_id=game_id).order_by("seq").only("pk", "events", "round"):
            for event in move.events or []:
                if isinstance(event, dict) and event.get("kind") == "round" \
                        and isinstance(event.get("round"), int) and 0 < event["round"] < 32768:
                    current = event["round"]
            if move.round != current:
                move.round = current
                changed.append(move)
        Move.objects.bulk_update(changed, ["round"], batch_size=500)


class Migration(migrations.Migration):

    dependencies = [
        ("games", "0014_seat_results_and_list_indexes"),
    ]

    operations = [
        migrations.AddField(
            model_name="move",
            name="round",
            field=models.PositiveSmallIntegerField(
                default=1,
                help_text="the log's round at the end of the move (its last round event, else the previous move's)"),
        ),
        migrations.RunPython(fill_rounds, migrations.RunPython.noop),
        migrations.AddIndex(
            model_name="move",
            index=models.Index(fields=["game", "round"], name="move_game_round"),
        ),
    ]
