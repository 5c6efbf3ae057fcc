"""``python manage.py games_records [USERNAME ...]``: recount players' records of finished
games (``PlayerStats``: the profile's statistics, head-to-head and count) from their seats'
stored results, every player's when no name is given (``services.records.records_rebuild``).

The services keep the records as games finish; this is for seats or results changed by hand
(the admin, SQL). Exit status 1 when a name is unknown.
"""
from __future__ import annotations

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from games.services.records import records_rebuild


class Command(BaseCommand):
    help = "Recount players' records of finished games (all players' without names)."

    def add_arguments(self, parser) -> None:
        """``USERNAME ...``: the players to recount (none: every player)."""
        parser.add_argument("usernames", nargs="*")

    def handle(self, *args, usernames: list[str], **options) -> None:
        """Recount the named players' records (everyone's without names) and say how many;
        CommandError (exit 1) naming the unknown usernames, recounting nothing."""
        user_ids = None
        if usernames:
            found = dict(get_user_model().objects.filter(username__in=usernames).values_list("username", "pk"))
            missing = sorted(set(usernames) - set(found))
            if missing:
                raise CommandError(f"No user {', '.join(missing)}.", returncode=1)
            user_ids = list(found.values())
        self.stdout.write(f"{records_rebuild(user_ids)} record(s) recounted.")
