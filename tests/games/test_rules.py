"""games.rules: the site reaches a rules engine only through the registry, keyed by
``Game.rules`` and pinned by ``Game.engine_version``."""
from __future__ import annotations

import json
from unittest import mock

import pytest

import engine
from games import rules
from games.errors import EngineVersionMismatch, GameDamaged, UnknownRules
from games.models import Game
from games.services import game_submit_action
from tests.games import fake_engine as fake

def protocol_names(protocol) -> list[str]:
    return sorted(set(protocol.__annotations__) | {name for name in vars(protocol) if not name.startswith("_")})


PROTOCOL = protocol_names(rules.RulesEngine)
QUEUE_PROTOCOL = protocol_names(rules.QueueRules)


@pytest.mark.parametrize("rules_engine", [engine, fake], ids=["orleans", "fake"])
def test_the_real_engine_and_the_fake_offer_everything_the_site_calls(rules_engine):
    assert [name for name in PROTOCOL if not hasattr(rules_engine, name)] == []
    assert [name for name in QUEUE_PROTOCOL if not hasattr(rules_engine.queue, name)] == []
    state = rules_engine.new_game(rules_engine.GameOptions.from_dict({"players": 2}), 1)
    # a timeout stops where either changes (games.services.play.game_timeout, via game_part)
    assert isinstance(state.round, int) and isinstance(state.phase, str)
    assert rules_engine.game_part(state) == (state.round, state.phase)
    assert rules_engine.score(state)["ended_early"] is True


@pytest.mark.parametrize("rules_engine", [engine, fake], ids=["orleans", "fake"])
def test_every_refusal_carries_a_player_sentence_apart_from_the_developer_text(rules_engine):
    state = rules_engine.new_game(rules_engine.GameOptions.from_dict({"players": 2}), 1)
    with pytest.raises(rules_engine.RulesError) as refused:
        rules_engine.apply(state, 0, {"type": "pick", "n": 42} if rules_engine is fake else {"type": "pass"})
    assert rules.player_message(refused.value) == refused.value.message
    assert refused.value.message and refused.value.message != str(refused.value)
    assert "seat 0" not in refused.value.message.lower() and "{" not in refused.value.message


def test_a_new_game_plays_the_orleans_rules_at_the_engine_version(started_game):
    assert (started_game.rules, started_game.engine_version) == ("orleans", engine.ENGINE_VERSION)
    assert rules.engine_for(started_game) is engine


def test_the_fake_is_registered_as_its_own_rules_for_the_test(fake_engine, started_game):
    assert (started_game.rules, started_game.engine_version) == ("fake", fake.ENGINE_VERSION)
    assert rules.engine_for(started_game) is fake


def test_unregistering_the_fake_gives_new_games_the_orleans_rules_again():
    rules.register("fake", fake, default=True)
    rules.unregister("fake")
    assert rules.default_rules() == "orleans" and "fake" not in rules.REGISTRY


def test_a_state_of_another_major_engine_version_is_refused(started_game):
    Game.objects.filter(pk=started_game.pk).update(engine_version="0.9.0")
    started_game.refresh_from_db()
    with pytest.raises(EngineVersionMismatch, match="version 0.9.0"):
        rules.engine_for(started_game)
    # the services load games through rules.load_game: the mismatch is a damaged game
    with pytest.raises(GameDamaged, match="version 0.9.0") as caught:
        game_submit_action(game_id=started_game.pk, user=started_game.creator,
                           action={"type": "pass"}, expected_version=started_game.version)
    assert isinstance(caught.value.__cause__, EngineVersionMismatch)


def test_a_state_of_a_version_in_the_engines_compatibility_table_is_played(started_game):
    for version in engine.COMPATIBLE_VERSIONS:
        Game.objects.filter(pk=started_game.pk).update(engine_version=version)
        started_game.refresh_from_db()
        assert rules.engine_for(started_game) is engine


def test_a_state_of_the_same_major_version_missing_from_the_table_is_refused(started_game):
    Game.objects.filter(pk=started_game.pk).update(engine_version=f"{rules.major(engine.ENGINE_VERSION)}.99.0")
    started_game.refresh_from_db()
    with pytest.raises(EngineVersionMismatch, match=r"version 1\.99\.0"):
        rules.engine_for(started_game)


def test_a_game_of_rules_the_site_does_not_know_is_refused(started_game):
    started_game.rules = "chess"
    with pytest.raises(UnknownRules, match="chess"):
        rules.engine_for(started_game)


def test_a_snapshot_read_once_is_loaded_again_without_parsing_it(started_game):
    """``load_game`` keeps what it parsed of a row read from the database (rules.keep_loaded):
    the next read of a row with that snapshot (the next request) loads it as it is."""
    rules.load_game(started_game)
    with mock.patch.object(engine, "from_json", wraps=engine.from_json) as parse:
        _, first = rules.load_game(Game.objects.get(pk=started_game.pk))
        _, again = rules.load_game(Game.objects.get(pk=started_game.pk))
    assert parse.call_count == 0 and again is first


def test_a_stores_snapshot_is_loaded_without_a_parse_as_the_database_row_would_load(started_game):
    """A store keeps its snapshot's load (rules.stored_forms, then keep_loaded): the
    page drawn after the move, and the next request's read of the row, parse nothing, and
    load exactly what parsing the row gives, key order included."""
    awaited = engine.awaiting(rules.load_game(started_game)[1])
    seat = min(awaited)
    user = started_game.seats.get(order=seat).user
    action = next(a for a in engine.legal_actions(rules.load_game(started_game)[1], seat))
    move = game_submit_action(game_id=started_game.pk, user=user, action=action,
                              expected_version=started_game.version)
    with mock.patch.object(engine, "from_json", wraps=engine.from_json) as parse:
        _, answered = rules.load_game(move.game)  # the page drawn after the move
        _, next_request = rules.load_game(Game.objects.get(pk=started_game.pk))
    assert parse.call_count == 0 and next_request is answered
    assert json.dumps(answered.data) == json.dumps(engine.from_json(Game.objects.get(pk=started_game.pk).state).data)


def test_a_snapshot_changed_in_memory_under_its_old_stamp_is_parsed_again(started_game):
    rules.load_game(started_game)  # kept under the row's stamp
    changed = Game.objects.get(pk=started_game.pk)
    changed.state = {**changed.state, "round": changed.state["round"] + 1}  # state_stamp not updated
    assert rules.load_game(changed)[1].data["round"] == started_game.state["round"] + 1
