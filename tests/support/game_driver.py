"""Driving a stored game through the services, with the real or the fake engine.

One ``play_until`` for every site test that needs a mid-game position, and one random
policy (the engine simulator's ``engine.simulate.choose``) for it.
"""
from __future__ import annotations

import random
from collections.abc import Callable

import engine
from engine.simulate import choose
from games import services
from games.models import Game, Move, Seat
from games.rules import engine_for

#: ``policy(state, seat, kind, legal) -> action``: the move ``seat`` makes facing a ``kind``
#: decision (``"plan"``, ``"draw"``, ``"action"``, a prompt kind…) with ``legal`` actions.
Policy = Callable[[engine.GameState, int, str, list], dict]


#: Round 1 plans of the starting followers (Castle: three followers; Village: three).
CASTLE_PLAN = [{"follower": "start_farmer", "space": "castle"}, {"follower": "start_boatman", "space": "castle"},
               {"follower": "start_trader", "space": "castle"}]
VILLAGE_PLAN = [{"follower": "start_farmer", "space": "village"}, {"follower": "start_boatman", "space": "village"},
                {"follower": "start_craftsman", "space": "village"}]
#: With ``richer_markets``: a round 1 plan that readies the Farmhouse, the Castle and the University.
THREE_PLACE_PLAN = [
    {"follower": "start_boatman", "space": "farmhouse"}, {"follower": "start_craftsman", "space": "farmhouse"},
    {"follower": "start_farmer", "space": "castle"}, {"follower": "boatman", "space": "castle"},
    {"follower": "start_trader", "space": "castle"},
    {"follower": "farmer", "space": "university"}, {"follower": "craftsman", "space": "university"},
    {"follower": "trader", "space": "university"},
]
_EXTRA = ["boatman", "farmer", "trader", "craftsman"]


def seats(game: Game) -> dict[int, Seat]:
    """``{order: seat}`` of ``game``, users loaded."""
    return {s.order: s for s in game.seats.select_related("user")}


def submit(game: Game, seat: Seat, action: dict):
    """``seat`` submits ``action`` on the current version of ``game`` (returns the moves)."""
    game.refresh_from_db()
    return services.game_submit_action(game_id=game.pk, user=seat.user, action=action,
                                       expected_version=game.version)


def both_plan_the_castle(game: Game, capture) -> None:
    """Both seats of a fresh two-seat game submit ``CASTLE_PLAN``; the reveal runs through the
    on-commit task (``capture`` is django_capture_on_commit_callbacks)."""
    with capture(execute=True):
        for seat in seats(game).values():
            submit(game, seat, {"type": "submit_plan", "placements": CASTLE_PLAN})
    game.refresh_from_db()


def richer_markets(game: Game) -> None:
    """Round 1 planning: four more followers on every market, so each seat can plan three places."""
    data = dict(game.state)
    for p in data["players"]:
        p["market"] = sorted(p["market"] + _EXTRA)
    Game.objects.filter(pk=game.pk).update(state=data)
    game.refresh_from_db()


def moves_after(game: Game, seq: int) -> list[tuple]:
    """``(seat, queued, action)`` of every move of ``game`` after move ``seq``, in order."""
    return [(m.seat, m.source == "queue", m.action) for m in Move.objects.filter(game=game, seq__gt=seq).order_by("seq")]


def state_of(game: Game) -> engine.GameState:
    """The engine state of ``game`` as stored now."""
    game.refresh_from_db()
    return engine.from_json(game.state)


def install(game: Game, state: engine.GameState) -> Game:
    """Put the engine ``state`` into ``game`` (seats' ``awaiting`` kept in step, as the
    services do) and return ``game`` refreshed."""
    Game.objects.filter(pk=game.pk).update(state=engine.to_json(state))
    awaited = engine.awaiting(state)
    for seat in game.seats.all():
        seat.awaiting = awaited.get(seat.order, "")
        seat.save(update_fields=["awaiting"])
    game.refresh_from_db()
    return game


def user_at(game: Game, order: int):
    """The user in seat ``order`` of ``game``."""
    return Seat.objects.select_related("user").get(game=game, order=order).user


def new_started_game(creator, *joiners, seed: int | None = None, **options) -> Game:
    """A game with ``creator`` and ``joiners`` filling every seat (so it starts), on ``seed``."""
    game = services.game_create(creator=creator, name="Adversarial game",
                                max_seats=1 + len(joiners), options=options)
    if seed is not None:
        Game.objects.filter(pk=game.pk).update(seed=seed)
    for user in joiners:
        services.seat_join(game_id=game.pk, user=user)
    game.refresh_from_db()
    assert game.is_active
    return game


def awaited_move(game: Game) -> tuple[Seat, dict]:
    """An awaited seat of ``game`` and its first legal action."""
    rules_engine = engine_for(game)
    state = rules_engine.from_json(game.state)
    for order in sorted(rules_engine.awaiting(state)):
        actions = rules_engine.legal_actions(state, order)
        if actions:
            return game.seats.get(order=order), actions[0]
    raise AssertionError("no seat has a legal action")


def idle_seat(game: Game) -> Seat | None:
    """A seat of ``game`` that the engine is not awaiting, if any."""
    rules_engine = engine_for(game)
    awaited = rules_engine.awaiting(rules_engine.from_json(game.state))
    return game.seats.exclude(order__in=list(awaited)).first()


def everyone_picks(game: Game, n: int = 1) -> None:
    """Fake engine: every seat of a fresh game picks ``n`` (the phase is then complete)."""
    for version, seat in enumerate(game.seats.order_by("order"), start=game.version):
        services.game_submit_action(game_id=game.pk, user=seat.user, action={"type": "pick", "n": n},
                                    expected_version=version)


def play_fake_game_to_the_end(game: Game, capture, *, winner=None) -> Game:
    """Fake engine: play every round (``winner`` picks 2, the others 1), resolving each
    phase through the on-commit task; ``capture`` is django_capture_on_commit_callbacks."""
    from tests.games.fake_engine import ROUNDS

    for _round in range(ROUNDS):
        for seat in game.seats.order_by("order"):
            game.refresh_from_db()
            with capture(execute=True):
                services.game_submit_action(game_id=game.pk, user=seat.user,
                                            action={"type": "pick", "n": 2 if seat.user == winner else 1},
                                            expected_version=game.version)
    game.refresh_from_db()
    assert game.is_finished
    return game


def random_policy(rng: random.Random) -> Policy:
    """The random but purposeful policy of the engine's simulator (``engine.simulate.choose``):
    plans that fill their spaces, mostly full draws, actions rather than passing."""
    def policy(state: engine.GameState, seat: int, kind: str, legal: list) -> dict:
        return choose(rng, kind, legal, state.data, seat)

    return policy


def play_until(game: Game, done: Callable[[engine.GameState], bool], *, seed: int = 7,
               policy: Policy | None = None, lowest_seat_first: bool = False, limit: int = 3000) -> Game:
    """Real engine: play ``game`` through the services until ``done(state)`` is true.

    Moves go through ``game_submit_action``; completed simultaneous phases are resolved with
    ``game_resolve`` (as the on-commit task would), so the game keeps a real move log.
    ``policy`` defaults to ``random_policy`` on ``random.Random(seed)``; the seat to move is
    drawn from the awaited seats with the same generator, or is the lowest awaited seat with
    ``lowest_seat_first``. Raises AssertionError if the game ends, or ``limit`` moves pass,
    before ``done``.
    """
    rng = random.Random(seed)
    policy = policy or random_policy(rng)
    for _ in range(limit):
        state = state_of(game)
        if done(state):
            return game
        assert not engine.is_over(state), "the game ended before the wanted position"
        if engine.needs_resolution(state):
            services.game_resolve(game_id=game.pk, expected_version=game.version)
            continue
        awaited = engine.awaiting(state)
        assert awaited, "an active game always awaits someone or a resolution"
        order = min(awaited) if lowest_seat_first else rng.choice(sorted(awaited))
        action = policy(state, order, awaited[order], engine.legal_actions(state, order))
        services.game_submit_action(game_id=game.pk, user=user_at(game, order), action=action,
                                    expected_version=game.version)
    raise AssertionError("the game did not reach the wanted position")


def kind_awaited(kind: str):
    """A ``done`` predicate for ``play_until``: some seat faces a ``kind`` decision."""
    return lambda state: kind in engine.awaiting(state).values()


def queue_set(*, game_id, user, entries: list[dict]) -> list[dict]:
    """Make ``entries`` the user's action queue the way the page does: clear it, then add
    each entry with ``seat_queue_change`` (each add may play the head at once on the
    player's turn). Returns the queue as stored."""
    queue = services.seat_queue_change(game_id=game_id, user=user, op="clear")
    for entry in entries:
        queue = services.seat_queue_change(game_id=game_id, user=user, op="add", entry=entry)
    return queue
