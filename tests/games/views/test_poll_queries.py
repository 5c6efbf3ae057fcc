"""The unchanged poll is lean: the session's user and one query of the game's row (version,
status, visibility, no state, no join), whatever the number of games; a bot game with no bot
turn left stays lean, one with a bot turn left still plays it (eager tasks)."""
import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games import services
from games.models import ChatChannel, ChatMessage, Game
from games.selectors import POLL_FIELDS, bot_turn_waiting, game_for_poll
from tests.support.queries import statements

STATE_READ = re.compile(r'"games_game"\."state"(?! IS NOT NULL)')


def poll(client, game, **params):
    with CaptureQueriesContext(connection) as queries:
        response = client.get(reverse("games-poll", kwargs={"game_id": game.pk}), params)
    return response, statements(queries)  # a prepared statement's run as its SQL


def game_queries(sqls):
    return [sql for sql in sqls if 'FROM "games_game"' in sql]


def more_games(make_game, alice, bob, count):
    for _ in range(count):
        make_game(alice, bob, seats=2)


@pytest.mark.parametrize("others", [3, 30])
def test_an_unchanged_poll_reads_the_user_and_one_game_row(make_game, client_for, started_game, alice, bob, others):
    more_games(make_game, alice, bob, others)
    response, sqls = poll(client_for(alice), started_game, v=started_game.version, c=0)
    assert response.status_code == 204
    assert len(sqls) == 3  # session, user, the game's row
    assert len(game_queries(sqls)) == 1
    assert " JOIN " not in game_queries(sqls)[0]
    assert not any(STATE_READ.search(sql) for sql in sqls)


def test_a_finished_games_unchanged_poll_is_as_lean(client_for, started_game, alice):
    Game.objects.filter(pk=started_game.pk).update(status="finished")
    response, sqls = poll(client_for(alice), started_game, v=started_game.version, c=0, l=0)
    assert response.status_code == 204
    assert len(sqls) == 3 and len(game_queries(sqls)) == 1
    assert not any(STATE_READ.search(sql) for sql in sqls)


def test_a_spectators_unchanged_poll_is_as_lean(client_for, started_game, carol):
    response, sqls = poll(client_for(carol), started_game, v=started_game.version, c=0)
    assert response.status_code == 204
    assert len(sqls) == 3 and not any(STATE_READ.search(sql) for sql in sqls)


def test_a_chat_message_the_page_does_not_show_is_sent(client_for, started_game, alice, bob):
    message = ChatMessage.objects.create(game=started_game, author=bob, channel=ChatChannel.PLAYERS, text="hi")
    client = client_for(alice)
    assert poll(client, started_game, v=started_game.version, c=0)[0].status_code == 200
    assert poll(client, started_game, v=started_game.version, c=message.pk)[0].status_code == 204


def test_a_player_is_not_sent_the_spectators_channel(client_for, started_game, alice, carol):
    ChatMessage.objects.create(game=started_game, author=carol, channel=ChatChannel.SPECTATORS, text="psst")
    assert poll(client_for(alice), started_game, v=started_game.version, c=0)[0].status_code == 204


def test_a_spectator_reads_both_channels(client_for, started_game, bob, carol, dave):
    message = ChatMessage.objects.create(game=started_game, author=carol, channel=ChatChannel.SPECTATORS,
                                         text="psst")
    client = client_for(dave)
    assert poll(client, started_game, v=started_game.version, c=0)[0].status_code == 200
    assert poll(client, started_game, v=started_game.version, c=message.pk)[0].status_code == 204


def test_a_message_hidden_by_a_moderator_is_not_sent(client_for, started_game, alice, bob):
    ChatMessage.objects.create(game=started_game, author=bob, channel=ChatChannel.PLAYERS, text="rude", hidden=True)
    assert poll(client_for(alice), started_game, v=started_game.version, c=0)[0].status_code == 204


def test_a_visitors_unchanged_poll_of_a_public_game_reads_only_its_row(client, started_game):
    response, sqls = poll(client, started_game, v=started_game.version, c=0)
    assert response.status_code == 204
    assert len(sqls) == 1 and len(game_queries(sqls)) == 1


def test_a_poll_of_no_such_game_gets_404(client_for, alice):
    response, _ = poll(client_for(alice), Game(), v=0, c=0)
    assert response.status_code == 404


def test_a_game_without_a_snapshot_says_so_without_reading_the_state(client_for, started_game, alice):
    Game.objects.filter(pk=started_game.pk).update(state=None)
    response, sqls = poll(client_for(alice), started_game, v=started_game.version, c=0)
    assert response.status_code == 286
    assert "needs repair" in response.text
    assert not any(STATE_READ.search(sql) for sql in sqls)


def test_an_outsider_of_a_private_game_gets_404_without_the_state(make_game, client_for, alice, bob, carol):
    game = make_game(alice, bob, seats=2, is_public=False)
    response, _ = poll(client_for(carol), game, v=game.version, c=0)
    assert response.status_code == 404


def test_a_game_this_site_cannot_load_still_says_so(client_for, started_game, alice):
    Game.objects.filter(pk=started_game.pk).update(engine_version="0.0-retired")
    response, sqls = poll(client_for(alice), started_game, v=started_game.version, c=0)
    assert response.status_code == 286
    assert "needs repair" in response.text
    assert not any(STATE_READ.search(sql) for sql in sqls)


@pytest.mark.django_db(transaction=True)
def test_a_bot_game_without_a_bot_turn_left_polls_lean(settings, client_for, alice):
    # the bots' chain ends when no bot is awaited, never by a slow machine's clock nor by its
    # length (the bot's choices follow the game's random id: some games take over 25 moves)
    settings.GAMES_BOT_CHAIN_MS, settings.GAMES_BOT_CHAIN_MOVES = 60_000, 10_000
    game = services.game_create(creator=alice, name="Bots", max_seats=2, options={}, bots=["random"], seed=5)
    game.refresh_from_db()
    assert not bot_turn_waiting(game)
    response, sqls = poll(client_for(alice), game, v=game.version, c=0)
    assert response.status_code == 204
    assert not any(STATE_READ.search(sql) for sql in sqls)


@pytest.mark.django_db(transaction=True)
def test_a_bot_turn_left_is_still_played_by_the_poll(settings, client_for, alice):
    settings.GAMES_BOT_CHAIN_MOVES = 1
    settings.GAMES_BOT_CHAIN_MS = 60_000
    game = services.game_create(creator=alice, name="Bound", max_seats=4, options={}, bots=["random"] * 3, seed=3)
    game.refresh_from_db()
    assert bot_turn_waiting(game)
    response, _ = poll(client_for(alice), game, v=game.version, c=0)
    assert response.status_code == 200
    assert Game.objects.get(pk=game.pk).version > game.version


@pytest.mark.parametrize(("has_bots", "absent_bot_level"), [(False, "random"), (True, "")])
def test_the_poll_reads_each_field_of_the_game_as_stored(started_game, alice, has_bots, absent_bot_level):
    # from_db takes values in the model's field order: a mix-up would swap these two
    Game.objects.filter(pk=started_game.pk).update(has_bots=has_bots, absent_bot_level=absent_bot_level)
    stored = Game.objects.get(pk=started_game.pk)
    row = game_for_poll(started_game.pk, alice)
    for name in POLL_FIELDS:
        assert getattr(row, name) == getattr(stored, name), name
