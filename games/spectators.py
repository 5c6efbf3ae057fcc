"""Who is watching a game: signed-in spectators seen on its page in the last few minutes.

Recorded cheaply in the cache (one key per game: ``{user id: [username, last seen, epoch
seconds]}``), written at most once per ``NOTE_EVERY_SECONDS`` per spectator by the game page
and its poll; a lost write (two spectators at once, a cache that is down) only drops a name
until that spectator's next poll. Players are not listed: the page shows them already.
Only usernames are kept: nothing of the game's state goes into this cache key.
"""
from __future__ import annotations

import time

from django.core.cache import cache

#: A spectator seen within this many seconds is listed as watching.
WATCH_SECONDS = 5 * 60
#: A spectator's "last seen" is written again only after this many seconds.
NOTE_EVERY_SECONDS = 60
#: At most this many spectators are kept per game (the most recently seen).
MOST_LISTED = 30


def _key(game_id) -> str:
    return f"games:watchers:{game_id}"


def note_spectator(game, user, *, now: float | None = None) -> None:
    """Record that ``user`` (signed in, no seat at ``game``) is watching ``game`` now
    (``now``: epoch seconds, for tests). Anonymous visitors are not recorded."""
    if not getattr(user, "is_authenticated", False):
        return
    now = time.time() if now is None else now
    seen = cache.get(_key(game.pk)) or {}
    last = seen.get(str(user.pk))
    if last is not None and now - last[1] < NOTE_EVERY_SECONDS:
        return
    seen = {uid: entry for uid, entry in seen.items() if now - entry[1] < WATCH_SECONDS}
    seen[str(user.pk)] = [user.get_username(), now]
    recent = sorted(seen.items(), key=lambda item: -item[1][1])[:MOST_LISTED]
    cache.set(_key(game.pk), dict(recent), WATCH_SECONDS)


def watching(game, *, now: float | None = None) -> list[str]:
    """Usernames of the spectators seen on ``game``'s page in the last ``WATCH_SECONDS``,
    alphabetical (``now``: epoch seconds, for tests)."""
    now = time.time() if now is None else now
    seen = cache.get(_key(game.pk)) or {}
    return sorted(name for name, at in seen.values() if now - at < WATCH_SECONDS)


def forget_spectators(game) -> None:
    """Drop ``game``'s list (it was made private to its players)."""
    cache.delete(_key(game.pk))
