"""Games stored before events carried message ids stay sound: their recorded events (text
only) match the replay, which now also has ``msg`` and ``params``; any other difference is
still a divergence."""
from games.integrity import verify_game
from games.models import Move
from games.rules import as_recorded


def strip_ids(game) -> None:
    """Make the game's moves read as stored before message ids (rows are append-only for the
    site: the test writes them with a queryset update, as an old site version stored them)."""
    for move in Move.objects.filter(game=game):
        Move.objects.filter(pk=move.pk).update(
            events=[{k: v for k, v in e.items() if k not in ("msg", "params")} for e in move.events])


def test_a_game_recorded_without_message_ids_verifies(game_in_round_two):
    strip_ids(game_in_round_two)
    assert all("msg" not in e for m in Move.objects.filter(game=game_in_round_two) for e in m.events)
    assert verify_game(game_in_round_two) is None


def test_a_changed_text_in_an_old_event_is_still_a_divergence(game_in_round_two):
    strip_ids(game_in_round_two)
    move = Move.objects.filter(game=game_in_round_two).exclude(events=[]).order_by("seq").first()
    move.events[0]["text"] = "{player} did something else"
    Move.objects.filter(pk=move.pk).update(events=move.events)
    divergence = verify_game(game_in_round_two)
    assert divergence is not None and divergence.move == move.seq


def test_only_events_recorded_without_an_id_are_compared_without_one():
    replayed = [{"kind": "pass", "text": "t", "msg": "event.pass", "params": {}}] * 2
    recorded = [{"kind": "pass", "text": "t"}, {"kind": "pass", "text": "t", "msg": "event.other", "params": {}}]
    assert as_recorded(replayed, recorded) == [{"kind": "pass", "text": "t"}, replayed[1]]
