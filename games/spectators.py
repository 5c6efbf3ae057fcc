"""Who is watching a game: signed-in spectators seen on its page in the last few minutes.

Recorded cheaply in the cache (one key per game: ``{user id: [username, last seen, epoch
seconds]}``), written at most once per ``NOTE_EVERY_SECONDS`` per spectator by the game page
and its poll; a lost write (two spectators at once, a cache that is down) only drops a name
until that spectator's next poll. Players are not listed: the page shows them already.
Only usernames are kept: nothing of the game's state goes into this cache key.

A process reads a game's list from the cache at most once per ``READ_AGAIN_SECONDS`` (a
move's answer and every page view show it; the list itself moves by the minute), and
keeps what it writes: its own spectators are listed at once.
"""
from __future__ import annotations

import time

from django.core.cache import cache

from games.vocabulary import remember

#: A spectator seen within this many seconds is listed as watching.
WATCH_SECONDS = 5 * 60
#: A spectator's "last seen" is written again only after this many seconds.
NOTE_EVERY_SECONDS = 60
#: At most this many spectators are kept per game (the most recently seen).
MOST_LISTED = 30
#: A game's list read from the cache serves this process's pages for this many seconds.
READ_AGAIN_SECONDS = 5
#: Lists read or written lately: cache key -> (``time.monotonic()`` of the read, the list);
#: per process, bounded (``_READ_MOST`` games).
_read: dict[str, tuple[float, dict]] = {}
_READ_MOST = 1024


def _seen(key: str) -> dict:
    # the game's list as this process read or wrote it last, if lately, else from the cache
    kept = _read.get(key)
    now = time.monotonic()
    if kept is not None and now - kept[0] < READ_AGAIN_SECONDS:
        return kept[1]
    return remember(_read, key, (now, cache.get(key) or {}), _READ_MOST)[1]


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
    recent = dict(sorted(seen.items(), key=lambda item: -item[1][1])[:MOST_LISTED])
    cache.set(_key(game.pk), recent, WATCH_SECONDS)
    remember(_read, _key(game.pk), (time.monotonic(), recent), _READ_MOST)


def watching(game, *, now: float | None = None) -> list[str]:
    """Usernames of the spectators seen on ``game``'s page in the last ``WATCH_SECONDS``,
    alphabetical (``now``: epoch seconds, for tests)."""
    now = time.time() if now is None else now
    seen = _seen(_key(game.pk))
    return sorted(name for name, at in seen.values() if now - at < WATCH_SECONDS)


def forget_spectators(game) -> None:
    """Drop ``game``'s list (it was made private to its players)."""
    cache.delete(_key(game.pk))
    _read.pop(_key(game.pk), None)
