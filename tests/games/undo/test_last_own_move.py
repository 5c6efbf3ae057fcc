"""The move a take-back would take back (``services.undo.last_own_move``): the seat's
newest move that is neither a take-back nor taken back, however many take-backs came after."""
from games.models import Move, MoveSource
from games.rules import load_game
from games.services.undo import last_own_move


def _moves(game, rows):
    start = game.version
    Move.objects.bulk_create([Move(game=game, seq=start + n, seat=seat, action=action, events=[],
                                   source=MoveSource.PLAYER, taken_back=taken_back)
                              for n, (seat, action, taken_back) in enumerate(rows, start=1)])
    return start


def test_the_decision_behind_many_take_backs_is_found(started_game):
    rules_engine, _state = load_game(started_game)
    undo = dict(rules_engine.UNDO)
    rows = [(0, {"type": "pass"}, False)]
    for _ in range(20):  # decided and taken back twenty times: more than a page of take-backs
        rows += [(0, {"type": "pass"}, True), (0, undo, False)]
    start = _moves(started_game, rows + [(1, {"type": "pass"}, False)])
    found = last_own_move(started_game, rules_engine, 0)
    assert (found.seq, found.action) == (start + 1, {"type": "pass"})


def test_only_take_backs_leave_nothing_to_take_back(started_game):
    rules_engine, _state = load_game(started_game)
    _moves(started_game, [(0, dict(rules_engine.UNDO), False)] * 9)
    assert last_own_move(started_game, rules_engine, 0) is None
