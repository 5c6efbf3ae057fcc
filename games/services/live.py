"""What a game page shows that is not a move: ``Game.live_version``.

The unchanged poll (``games.views.fragments.poll``) compares the version, the newest chat
message and ``live_version`` with the page's; anything else a page shows that can change
without a move (a vote to end, a vacation, a seat taken back from the takeover bot, a chat
message hidden or shown, a rematch asked for, accepted, declined, cancelled or expired, a
game made private, a game finished by a repair) goes through ``touch_live``, or open pages
would go on showing the old state until a reload.
"""
from __future__ import annotations

from django.db import transaction
from django.db.models import F

from games.models import Game, GameStatus


def touch_live(game_ids=(), *, user=None) -> None:
    """Once the caller's transaction commits, raise ``Game.live_version`` by one for each
    game of ``game_ids`` (primary keys; None entries are skipped) and, with ``user``, for
    each active game they sit at (their vacation shows on each). Each game is its own short
    UPDATE, in primary-key order, after the commit: no lock is added to the caller's
    transaction, so no lock order can deadlock with it; a failure is logged, not raised
    (the change itself is stored). A poll between the commit and the UPDATE answers 204
    once more: the next one tells."""
    ids = {pk for pk in game_ids if pk is not None}
    if not ids and user is None:  # e.g. a cancelled game that is no rematch: nothing shows it
        return

    def touch() -> None:
        touched = set(ids)
        if user is not None:
            touched |= set(Game.objects.filter(seats__user=user, status=GameStatus.ACTIVE)
                           .values_list("pk", flat=True))
        for pk in sorted(touched, key=str):
            Game.objects.filter(pk=pk).update(live_version=F("live_version") + 1)

    transaction.on_commit(touch, robust=True)
