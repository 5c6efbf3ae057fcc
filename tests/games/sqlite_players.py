"""Several games played at once from threads on a SQLite *file* database, as ``make run``
serves them (run by test_sqlite_concurrency.py in a child process with its own settings).

Usage: ``python -m tests.games.sqlite_players RESULT.json`` with ``DATABASE_URL`` pointing
at a fresh SQLite file. Writes ``{"moves": int, "errors": [str, ...]}``.
"""
from __future__ import annotations

import json
import os
import random
import sys
import threading

GAMES = 3
MOVES_PER_GAME = 40


def _play(game_id, seed: int, barrier: threading.Barrier, moves: list, errors: list) -> None:
    import engine
    from django.db import connection
    from engine.simulate import choose
    from games import services
    from games.models import Game

    rng = random.Random(seed)
    try:
        barrier.wait()
        for _ in range(MOVES_PER_GAME):
            game = Game.objects.get(pk=game_id)
            state = engine.from_json(game.state)
            if engine.is_over(state):
                return
            if engine.needs_resolution(state):
                services.game_resolve(game_id=game_id, expected_version=game.version)
                continue
            awaited = engine.awaiting(state)
            order = rng.choice(sorted(awaited))
            action = choose(rng, awaited[order], engine.legal_actions(state, order), state.data, order)
            services.game_submit_action(game_id=game_id, user=game.seats.get(order=order).user,
                                        action=action, expected_version=game.version)
            moves.append(1)
    except Exception as exc:  # noqa: BLE001 - reported to the test
        errors.append(f"{type(exc).__name__}: {exc}")
    finally:
        connection.close()


def main(result_path: str) -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "orleans_site.settings")
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from games import services
    from games.access import make_invite_token

    call_command("migrate", verbosity=0)
    users = [get_user_model().objects.create_user(username=f"p{i}", password="x") for i in range(2 * GAMES)]
    games = []
    for i in range(GAMES):
        game = services.game_create(creator=users[2 * i], name=f"Game {i}", max_seats=2, options={})
        services.seat_join(game_id=game.pk, user=users[2 * i + 1], invite_token=make_invite_token(game))
        games.append(game.pk)
    barrier, moves, errors = threading.Barrier(GAMES), [], []
    threads = [threading.Thread(target=_play, args=(pk, seed, barrier, moves, errors))
               for seed, pk in enumerate(games)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    with open(result_path, "w") as out:
        json.dump({"moves": len(moves), "errors": errors}, out)


if __name__ == "__main__":
    main(sys.argv[1])
