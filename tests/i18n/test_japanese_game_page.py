"""The game page and the replay in Japanese (issue 11): a seat facing every kind of decision,
a spectator, a finished game and its replay, each rendered for a browser asking for Japanese,
leave no English word outside user content (``tests.support.japanese.english_left``); the
same pages for an English browser stay English."""
from __future__ import annotations


import pytest
from django.urls import reverse

from games import services
from games.models import Game
from tests.history.fixture_games import load
from tests.support import engine_states as H
from tests.support.act_board import sampled_positions
from tests.support.game_driver import install
from tests.support.japanese import english_left

#: Keyboard keys the help texts name (as printed on the keys), and the place tile stacks'
#: Roman numerals (as printed on the tiles).
KEYS = {"Tab", "Enter", "Escape", "Shift", "PageUp", "PageDown", "Home", "End", "II", "III"}
#: A game name without Latin words: the game's name is user content, shown as it was typed.
GAME_NAME = "木曜の対局"


def japanese(client, url: str) -> str:
    response = client.get(url, HTTP_ACCEPT_LANGUAGE="ja")
    assert response.status_code == 200
    assert '<html lang="ja">' in response.text
    return response.text


def game_url(game) -> str:
    return reverse("games-detail", kwargs={"game_id": game.pk})


def names(game) -> set[str]:
    """The seats' names (usernames, bot names): user content a page may show as it is."""
    return {s.display_name for s in game.seats.select_related("user")}


def left_on(text: str, game, *others: str) -> list[str]:
    """English words left on the whole page ``text`` (navigation and footer included), apart
    from the seats' names, ``others`` (more usernames) and key names."""
    return english_left(text, allowed=names(game) | set(others) | KEYS)


@pytest.fixture
def game(started_game):
    Game.objects.filter(pk=started_game.pk).update(name=GAME_NAME)
    started_game.refresh_from_db()
    return started_game


def torture_state():
    """Seat 0 owes 7 coins of Taxes and can pay with stations, followers, steps, goods and
    a place tile with a technology tile on it (RULES §10.1)."""
    state, _ = H.run_event("taxes", {0: {"coins": 0, "goods": {"wool": 4, "grain": 3}, "stations_left": 2,
                                         "tracks": {"farmer": 2}, "bag": {"knight": 1}, "development": 3,
                                         "places": ["cellar"], "technology": {"cellar": "scholar"}}}, round=2)
    return state


def positions():
    """``(label, state, seat)`` of every decision kind the sampled games reach (draw, plan,
    action with route/recruit/deed choices, technology, harvest...), and a torture debt."""
    found = [(f"{kind}-{n}", state, seat) for kind, states in sorted(sampled_positions().items())
             for n, (state, seat) in enumerate(states[:2] if kind != "action" else states)]
    return found + [("torture", torture_state(), 0)]


@pytest.mark.parametrize("label,state,seat", positions(), ids=lambda v: v if isinstance(v, str) else "")
def test_a_seat_sees_its_decision_in_japanese(client_for, game, label, state, seat):
    install(game, state)
    user = game.seats.get(order=seat).user
    text = japanese(client_for(user), game_url(game))
    assert left_on(text, game) == []


def test_the_kinds_of_decision_sampled_cover_the_board_and_the_prompts():
    kinds = {label.split("-")[0] for label, _state, _seat in positions()}
    # every decision kind the engine awaits (the census and the other events need none)
    assert kinds == {"draw", "plan", "action", "torture", "harvest", "technology", "bathhouse"}


def test_a_spectator_sees_the_game_in_japanese(client_for, game, carol):
    install(game, H.action_state())
    text = japanese(client_for(carol), game_url(game))
    assert "このゲームを観戦しています" in text
    assert left_on(text, game, carol.username) == []  # the watching list names the spectator


def test_the_same_page_for_an_english_browser_stays_english(client_for, game):
    install(game, H.action_state())
    text = client_for(game.seats.get(order=0).user).get(game_url(game), HTTP_ACCEPT_LANGUAGE="en").text
    assert "Your turn" in text and "あなたの手番" not in text


@pytest.fixture
def finished_game(db):
    """A finished two-seat game (a fixture game, imported without its recorded events, so
    its log is replayed with today's message ids), renamed without Latin words."""
    document = load("2p-default")
    for entry in document["log"]:
        entry.pop("events", None)
    finished = services.game_import(document=document)
    Game.objects.filter(pk=finished.pk).update(name=GAME_NAME)
    finished.refresh_from_db()
    return finished


def test_a_finished_game_shows_its_scores_in_japanese(client_for, finished_game, carol):
    text = japanese(client_for(carol), game_url(finished_game))
    assert "最終得点" in text
    assert left_on(text, finished_game) == []


@pytest.mark.parametrize("step", [0, 1, 40, None])
def test_the_replay_is_in_japanese(client_for, finished_game, carol, step):
    url = reverse("games-replay", kwargs={"game_id": finished_game.pk})
    text = japanese(client_for(carol), url if step is None else f"{url}?step={step}")
    assert "リプレイ" in text
    assert left_on(text, finished_game) == []


def test_a_replay_step_is_cached_per_language(client_for, finished_game, carol):
    url = reverse("games-replay", kwargs={"game_id": finished_game.pk}) + "?step=1"
    client = client_for(carol)
    japanese(client, url)
    english = client.get(url, HTTP_ACCEPT_LANGUAGE="en").text
    assert "Log up to this step" in english and "この手までのログ" not in english
