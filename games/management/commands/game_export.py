"""``python manage.py game_export GAME_ID [--seat N] [--output FILE]``: a game as one JSON
document (``docs/export-format.md``).

A finished game is exported whole (``games.history.finished_export``); a game in progress
only as one seat sees it (``--seat N``, ``games.history.seat_export``). Written to stdout,
or to ``FILE``. Exit status 1 with the reason when the export is not available.
"""
from __future__ import annotations

import json
import uuid

from django.core.management.base import BaseCommand, CommandError

from games.errors import ServiceError
from games.history import finished_export, seat_export
from games.models import Game, GameStatus, Seat


class Command(BaseCommand):
    help = "Export a finished game (or a seat's view of a game in progress) as a JSON document."

    def add_arguments(self, parser) -> None:
        parser.add_argument("game_id")
        parser.add_argument("--seat", type=int, default=None, help="a game in progress: this seat's export")
        parser.add_argument("--output", default=None, help="write the document to this file")

    def handle(self, *args, game_id: str, seat: int | None, output: str | None, **options) -> None:
        game = Game.objects.filter(pk=game_id).first() if _is_uuid(game_id) else None
        if game is None:
            raise CommandError(f"No game {game_id}.", returncode=1)
        try:
            if game.status == GameStatus.FINISHED and seat is None:
                document = finished_export(game)
            else:
                document = seat_export(game, Seat.objects.filter(game=game, order=seat).first()
                                       if seat is not None else None)
        except ServiceError as exc:
            raise CommandError(exc.message, returncode=1) from exc
        text = json.dumps(document, indent=1, sort_keys=True, ensure_ascii=False) + "\n"
        if output:
            with open(output, "w", encoding="utf-8") as handle:
                handle.write(text)
            self.stdout.write(f"Game {game.pk} written to {output}.")
        else:
            self.stdout.write(text, ending="")


def _is_uuid(value: str) -> bool:
    try:
        uuid.UUID(value)
    except ValueError:
        return False
    return True
