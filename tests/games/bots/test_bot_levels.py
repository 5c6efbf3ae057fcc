"""The site lists the engine's bot levels as they are (a level added to engine.bots shows up),
labels them from a dict with a fallback, and names bot seats."""
import engine.bots
from games import bots
from games.forms import GameCreateForm, PlayBotsForm


def test_levels_are_read_from_the_engine_each_time(monkeypatch):
    monkeypatch.setattr(engine.bots, "LEVELS", ("random", "greedy", "strong", "clever_one"))
    assert bots.level_choices() == [("random", "Random"), ("greedy", "Greedy"), ("strong", "Strong"),
                                    ("clever_one", "Clever one")]
    assert [c for c, _ in PlayBotsForm().fields["level"].choices][-1] == "clever_one"
    assert "bots_clever_one" in GameCreateForm().fields


def test_the_takeover_bot_is_greedy_when_there_is_one_else_the_strongest(monkeypatch):
    monkeypatch.setattr(engine.bots, "LEVELS", ("random", "greedy", "strong"))
    assert bots.default_takeover_level() == "greedy"
    monkeypatch.setattr(engine.bots, "LEVELS", ("random",))
    assert bots.default_takeover_level() == "random"


def test_rules_without_bots_offer_the_random_bot():
    assert bots.levels("fake") == ("random",)


def test_bot_seats_are_named_by_level_and_number():
    assert bots.seat_name("greedy", 2) == "Bot (Greedy) 2"
