"""Small helpers for site tests that work with the real or the fake engine."""
from __future__ import annotations

import engine
from games.models import Game, Seat
from games.rules import engine_for


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
    from games.services import game_submit_action

    for version, seat in enumerate(game.seats.order_by("order"), start=game.version):
        game_submit_action(game_id=game.pk, user=seat.user, action={"type": "pick", "n": n},
                           expected_version=version)


def play_fake_game_to_the_end(game: Game, capture, *, winner=None) -> Game:
    """Fake engine: play every round (``winner`` picks 2, the others 1), resolving each
    phase through the on-commit task; ``capture`` is django_capture_on_commit_callbacks."""
    from games.services import game_submit_action
    from tests.games.fake_engine import ROUNDS

    for _round in range(ROUNDS):
        for seat in game.seats.order_by("order"):
            game.refresh_from_db()
            with capture(execute=True):
                game_submit_action(game_id=game.pk, user=seat.user,
                                   action={"type": "pick", "n": 2 if seat.user == winner else 1},
                                   expected_version=game.version)
    game.refresh_from_db()
    assert game.is_finished
    return game


def play_until(game: Game, done, *, seed: int = 7, limit: int = 3000) -> Game:
    """Real engine: play purposeful random moves through the services until ``done(state)``.

    Moves go through ``game_submit_action``; completed simultaneous phases are resolved with
    ``game_resolve`` (as the on-commit task would), so the game keeps a real move log.
    """
    import random

    from engine.simulate import choose
    from games.services import game_resolve, game_submit_action

    rng = random.Random(seed)
    for _ in range(limit):
        game.refresh_from_db()
        state = engine.from_json(game.state)
        if done(state) or engine.is_over(state):
            return game
        if engine.needs_resolution(state):
            game_resolve(game_id=game.pk, expected_version=game.version)
            continue
        awaited = engine.awaiting(state)
        order = rng.choice(sorted(awaited))
        action = choose(rng, awaited[order], engine.legal_actions(state, order), state.data, order)
        game_submit_action(game_id=game.pk, user=game.seats.get(order=order).user, action=action,
                           expected_version=game.version)
    raise AssertionError("the game did not reach the wanted position")


def kind_awaited(kind: str):
    """A ``done`` predicate for ``play_until``: some seat faces a ``kind`` decision."""
    return lambda state: kind in engine.awaiting(state).values()


class _FormParser:
    """Collects the decision forms of a page: per form its attributes and action choices."""

    def __init__(self, text: str) -> None:
        from html.parser import HTMLParser

        self.forms: list[dict] = []
        forms = self.forms
        state = {"form": None, "select": False}

        class Parser(HTMLParser):
            def handle_starttag(self, tag, attrs):
                a = dict(attrs)
                if tag == "form":
                    state["form"] = {"attrs": a, "actions": [], "hidden": {}}
                    forms.append(state["form"])
                form = state["form"]
                if form is None:
                    return
                if tag == "input" and a.get("name") == "action":
                    form["actions"].append(a.get("value"))
                elif tag == "input" and a.get("type") == "hidden":
                    form["hidden"][a.get("name")] = a.get("value")
                elif tag == "select" and a.get("name") == "action":
                    state["select"] = True
                elif tag == "option" and state["select"]:
                    form["actions"].append(a.get("value"))

            def handle_endtag(self, tag):
                if tag == "select":
                    state["select"] = False
                elif tag == "form":
                    state["form"] = None

        Parser().feed(text)


def decision_forms(text: str) -> list[dict]:
    """The forms of ``text`` that post a decision: ``{"attrs", "actions", "hidden"}`` each,
    with ``actions`` decoded from JSON (every choice the form offers)."""
    import json

    forms = [f for f in _FormParser(text).forms if f["actions"]]
    for form in forms:
        form["actions"] = [json.loads(raw) for raw in form["actions"]]
    return forms


def offered_actions(text: str) -> list[dict]:
    """Every action any decision form of ``text`` offers, in page order."""
    return [action for form in decision_forms(text) for action in form["actions"]]


def queue_set(*, game_id, user, entries: list[dict]) -> list[dict]:
    """Make ``entries`` the user's action queue the way the page does: clear it, then add
    each entry with ``seat_queue_change`` (each add may play the head at once on the
    player's turn). Returns the queue as stored."""
    from games.services import seat_queue_change

    queue = seat_queue_change(game_id=game_id, user=user, op="clear")
    for entry in entries:
        queue = seat_queue_change(game_id=game_id, user=user, op="add", entry=entry)
    return queue
