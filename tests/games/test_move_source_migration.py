"""Migration games 0011: the ``timed_out`` / ``queued`` flags become ``Move.source`` (and back,
when unapplied)."""
from __future__ import annotations


BEFORE = [("games", "0010_social")]
AFTER = [("games", "0011_bots_seats_and_move_source")]


def _game(apps):
    user = apps.get_model("auth", "User").objects.create(username="old")
    return apps.get_model("games", "Game").objects.create(name="Old", creator=user)


def test_the_flags_become_sources(migrator):
    apps = migrator(BEFORE)
    game = _game(apps)
    Move = apps.get_model("games", "Move")
    for seq, seat, flags in [(1, 0, {}), (2, 1, {"queued": True}), (3, 0, {"timed_out": True}), (4, None, {})]:
        Move.objects.create(game=game, seq=seq, seat=seat, action={"type": "x"}, **flags)

    apps = migrator(AFTER)
    sources = list(apps.get_model("games", "Move").objects.order_by("seq").values_list("source", flat=True))
    assert sources == ["player", "queue", "timeout", "system"]


def test_unapplying_copies_the_sources_back_to_the_flags(migrator):
    apps = migrator(AFTER)
    game = _game(apps)
    Move = apps.get_model("games", "Move")
    for seq, source in enumerate(["player", "queue", "timeout", "bot"], start=1):
        Move.objects.create(game=game, seq=seq, seat=0, action={"type": "x"}, source=source)

    apps = migrator(BEFORE)
    flags = list(apps.get_model("games", "Move").objects.order_by("seq").values_list("queued", "timed_out"))
    assert flags == [(False, False), (True, False), (False, True), (False, False)]
