"""``python manage.py games_verify [GAME_ID ...]``: replay each game's log and compare it
with the stored snapshot (``games.integrity.verify_game``).

Every game that has a snapshot or a log is checked (or only the given ones). Each
divergence is printed on one line (game id, the first move that fails or differs, and
why); the exit status is 1 if there is any, 0 when every game verifies.
"""
from __future__ import annotations

import uuid

from django.core.management.base import BaseCommand, CommandError

from games.integrity import Divergence, verify_game
from games.models import Game


class Command(BaseCommand):
    help = "Replay every game's move log (or the given games') and compare it with its snapshot."

    def add_arguments(self, parser) -> None:
        parser.add_argument("game_ids", nargs="*", metavar="GAME_ID")

    def handle(self, *args, game_ids: list[str], **options) -> None:
        games = Game.objects.order_by("created_at", "pk")
        divergences: list[Divergence] = []
        if game_ids:
            wanted = []
            for raw in game_ids:
                try:
                    wanted.append(uuid.UUID(raw))
                except ValueError:
                    divergences.append(Divergence(raw, None, "not a game id"))
            games = games.filter(pk__in=wanted)
            found = {str(pk) for pk in games.values_list("pk", flat=True)}
            divergences += [Divergence(str(pk), None, "no such game")
                            for pk in wanted if str(pk) not in found]
        checked = 0
        for game in games.iterator(chunk_size=50):
            checked += 1
            divergence = verify_game(game)
            if divergence is not None:
                divergences.append(divergence)
        for divergence in divergences:
            self.stderr.write(str(divergence))
        self.stdout.write(f"{checked} game(s) checked, {len(divergences)} divergence(s).")
        if divergences:
            raise CommandError(f"{len(divergences)} game(s) do not verify.", returncode=1)
