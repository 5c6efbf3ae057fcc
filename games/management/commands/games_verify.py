"""``python manage.py games_verify [GAME_ID ...] [--game ID ...] [--fix]``: replay each game's
log under the current engine and compare it with the stored snapshot
(``games.integrity.verify_game``).

Every game that has a snapshot or a log is checked (or only the given ones, as arguments or
``--game``). Each divergence is printed on one line (game id, the first move that fails or
differs, and why). With ``--fix`` each divergent game whose log replays cleanly has its
snapshot rebuilt from the log (``services.game_rebuild_snapshot``; one line each, "repaired"
or "not repaired" with the reason). The exit status is 1 if any game still does not verify,
0 otherwise.
"""
from __future__ import annotations

import uuid

from django.core.management.base import BaseCommand, CommandError

from games import services
from games.integrity import Divergence, verify_game
from games.models import Game


class Command(BaseCommand):
    help = ("Replay every game's move log (or the given games') and compare it with its snapshot; "
            "--fix rebuilds the snapshots of logs that replay cleanly.")

    def add_arguments(self, parser) -> None:
        parser.add_argument("game_ids", nargs="*", metavar="GAME_ID")
        parser.add_argument("--game", action="append", default=[], dest="games", metavar="ID",
                            help="check this game (repeatable)")
        parser.add_argument("--fix", action="store_true",
                            help="rebuild the snapshot of each divergent game whose log replays cleanly")

    def handle(self, *args, game_ids: list[str], games: list[str], fix: bool, **options) -> None:
        game_ids = [*game_ids, *games]
        rows = Game.objects.order_by("created_at", "pk")
        divergences: list[Divergence] = []  # what still does not verify
        if game_ids:
            wanted = []
            for raw in game_ids:
                try:
                    wanted.append(uuid.UUID(raw))
                except ValueError:
                    divergences.append(Divergence(raw, None, "not a game id"))
            rows = rows.filter(pk__in=wanted)
            found = {str(pk) for pk in rows.values_list("pk", flat=True)}
            divergences += [Divergence(str(pk), None, "no such game")
                            for pk in wanted if str(pk) not in found]
        for divergence in divergences:
            self.stderr.write(str(divergence))
        checked = repaired = 0
        for game in rows.iterator(chunk_size=50):
            checked += 1
            divergence = verify_game(game)
            if divergence is None:
                continue
            self.stderr.write(str(divergence))
            if fix and self._repair(game):
                repaired += 1
                continue
            divergences.append(divergence)
        fixed = f", {repaired} repaired" if fix else ""
        self.stdout.write(f"{checked} game(s) checked, {len(divergences) + repaired} divergence(s){fixed}.")
        if divergences:
            raise CommandError(f"{len(divergences)} game(s) do not verify.", returncode=1)

    def _repair(self, game: Game) -> bool:
        """Rebuild ``game``'s snapshot; True if it verifies afterwards."""
        try:
            repair = services.game_rebuild_snapshot(game_id=game.pk)
        except services.NotRepairable as exc:
            self.stderr.write(f"game {game.pk}: not repaired: {exc.message}")
            return False
        game.refresh_from_db()
        after = verify_game(game)
        if after is not None:
            self.stderr.write(f"game {game.pk}: not repaired: {after.why}")
            return False
        self.stdout.write(f"game {game.pk}: repaired: snapshot rebuilt from {repair.moves} moves "
                          f"(engine {repair.engine_version})")
        return True
