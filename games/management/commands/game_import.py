"""``python manage.py game_import FILE [--private]``: create a finished, read-only game from
an export document (``docs/export-format.md``, ``services.game_import``).

The document's log is replayed under this site's engine first; a document that does not
replay to its outcome is refused with the reason (exit status 1) and nothing is created.
Prints the new game's id.
"""
from __future__ import annotations

import json

from django.core.management.base import BaseCommand, CommandError

from games import services


class Command(BaseCommand):
    help = "Import a finished game from its JSON export (it must replay to its outcome)."

    def add_arguments(self, parser) -> None:
        parser.add_argument("file")
        parser.add_argument("--private", action="store_true", help="only its (placeholder) players may see it")

    def handle(self, *args, file: str, private: bool, **options) -> None:
        try:
            with open(file, encoding="utf-8") as handle:
                document = json.load(handle)
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise CommandError(f"Cannot read {file}: {exc}", returncode=1) from exc
        try:
            game = services.game_import(document=document, is_public=not private)
        except services.ImportRefused as exc:
            raise CommandError(exc.message, returncode=1) from exc
        self.stdout.write(f"Imported game {game.pk} ({game.version} moves).")
