"""The fixture games (tests/fixtures/games/, complete games of every player count played
through the services) still replay, move for move and event for event, to their stored
outcome under the current engine, and ``games_verify`` passes on them once imported: a rules
change that would break stored games fails the build."""
from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import call_command

import engine
from games import services
from tests.history.fixture_games import fixture_names, load


def test_there_are_several_complete_fixture_games_of_each_player_count():
    counts = {}
    for name in fixture_names():
        players = load(name)["options"]["players"]
        counts[players] = counts.get(players, 0) + 1
    assert counts == {2: 3, 3: 3, 4: 3}


@pytest.mark.parametrize("name", fixture_names())
def test_a_fixture_game_replays_to_its_stored_outcome_under_this_engine(name):
    document = load(name)
    assert engine.loads_version(document["engine_version"]), "add it to engine.COMPATIBLE_VERSIONS or repair"
    log = [(entry["seat"], entry["action"]) for entry in document["log"]]
    steps = engine.replay_steps(document["options"], document["seed"], log)
    next(steps)  # the position after setup
    for entry, step in zip(document["log"], steps, strict=True):
        # recorded before events had message ids: the replay adds only "msg" and "params"
        recorded = [{k: v for k, v in e.items() if k not in ("msg", "params")} for e in step.events]
        assert recorded == entry["events"], f"{name}: move #{entry['seq']} has other events"
        assert all(e["msg"] in engine.messages.CATALOG for e in step.events)
    assert engine.is_over(step.state)
    assert engine.outcome(step.state) == document["outcome"]


@pytest.mark.django_db
def test_games_verify_passes_on_the_imported_fixture_games():
    for name in fixture_names():
        services.game_import(document=load(name))
    out = StringIO()
    call_command("games_verify", stdout=out, stderr=StringIO())
    assert f"{len(fixture_names())} game(s) checked, 0 divergence(s)." in out.getvalue()
