"""PostgreSQL keeps ``Game.state`` out of line without compression (``STORAGE EXTERNAL``): a
snapshot (a few kB of ``jsonb``) was compressed with pglz on every store and decompressed on
every read, which cost more than writing and reading it whole (issue 14: a decision's
store and lock). Only the storage changes; other databases have nothing to change. Rows
get the new storage as they are written."""

from django.db import migrations


def _state_storage(storage: str):
    def run(apps, schema_editor):
        if schema_editor.connection.vendor != "postgresql":
            return
        Game = apps.get_model("games", "Game")
        quote = schema_editor.quote_name
        schema_editor.execute(f"ALTER TABLE {quote(Game._meta.db_table)} ALTER COLUMN "
                              f"{quote(Game._meta.get_field('state').column)} SET STORAGE {storage}")
    return run


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0019_game_state_stamp'),
    ]

    operations = [
        migrations.RunPython(_state_storage("EXTERNAL"), _state_storage("EXTENDED")),
    ]
