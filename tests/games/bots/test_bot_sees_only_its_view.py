"""The bot is given its seat's engine view and legal actions and an rng seeded from the game
id, version and seat: nothing of the state, the seed or another seat."""
import engine
from games import bots, services
from games.models import Game
from games.rules import load_game


def test_the_bot_gets_the_seats_view_legal_actions_and_its_own_rng(db, alice, monkeypatch):
    game = services.game_create(creator=alice, name="Peek", max_seats=2, options={}, bots=["random"], seed=11)
    _, state = load_game(game)
    bot = game.seats.get(bot_level="random")
    calls = []

    def recording_choose(level, view, legal_actions, rng, budget=None):
        calls.append((level, view, legal_actions, rng.random()))
        return legal_actions[0]

    monkeypatch.setattr(bots.BOT_MODULES["orleans"], "choose", recording_choose)
    services.game_bot_move(game_id=game.pk, expected_version=0)
    assert calls == [("random", engine.view(state, bot.order), engine.legal_actions(state, bot.order),
                      bots.decision_rng(game.pk, 0, bot.order).random())]


def test_the_bots_rng_is_fixed_by_game_version_and_seat():
    game = Game()
    assert bots.decision_rng(game.pk, 4, 1).random() == bots.decision_rng(game.pk, 4, 1).random()
    assert bots.decision_rng(game.pk, 4, 1).random() != bots.decision_rng(game.pk, 5, 1).random()
    assert bots.decision_rng(game.pk, 4, 1).random() != bots.decision_rng(game.pk, 4, 0).random()
