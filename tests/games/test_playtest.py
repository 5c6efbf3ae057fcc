"""``manage.py playtest``: a whole random game through the services (SQLite test DB)."""
from io import StringIO

import pytest
from django.core.management import call_command

import engine
from games.management.commands.playtest import percentile
from games.models import Game, GameStatus, Move

@pytest.mark.django_db
def test_it_plays_a_two_player_game_to_the_end_and_prints_figures():
    out = StringIO()
    call_command("playtest", players=2, seed=7, stdout=out)
    game = Game.objects.get()
    text = out.getvalue()
    assert game.status == GameStatus.FINISHED and game.seed == 7
    assert game.seats.count() == 2
    # The stored log replays to the stored snapshot: every move went through the services.
    log = [(m.seat, None if m.seat is None else m.action) for m in Move.objects.filter(game=game)]
    assert len(log) == game.version
    replayed = engine.replay(engine.GameOptions.from_dict(game.options), game.seed, log)
    assert replayed == engine.from_json(game.state)
    for entry in game.outcome["ranking"]:
        assert f"{entry['place']}. " in text and str(entry["total"]) in text
    assert "ms per submission: median " in text and "p95 " in text
    assert "ms per resolution: median " in text


@pytest.mark.django_db
def test_it_is_reproducible_from_the_seed():
    call_command("playtest", players=2, seed=3, stdout=StringIO())
    call_command("playtest", players=2, seed=3, stdout=StringIO())
    first, second = Game.objects.order_by("created_at")
    assert first.version == second.version and first.outcome == second.outcome


def test_percentile_uses_the_nearest_rank():
    values = [float(v) for v in range(1, 101)]
    assert percentile(values, 50) == 50.0
    assert percentile(values, 95) == 95.0
    assert percentile([4.0], 95) == 4.0
