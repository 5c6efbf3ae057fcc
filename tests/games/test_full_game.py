"""A whole game of Orléans played through the site's own forms, as a browser would.

Each step reads the awaited player's decision forms from the page regions (not from the
engine), posts one of them the way htmx does, and relies on the on-commit Celery task
(eager here) to resolve simultaneous phases.
"""
import json
import random

import pytest
from django.urls import reverse

from games.models import GameStatus, Move
from tests.support.html_forms import HTMX, decision_forms


def _forms(text: str) -> tuple[list[dict], int]:
    forms = decision_forms(text)
    actions = [action for form in forms for action in form["actions"]]
    versions = {int(form["hidden"]["expected_version"]) for form in forms}
    assert len(versions) <= 1
    return actions, versions.pop() if versions else -1


def _prefer_progress(actions: list[dict], rng: random.Random) -> str:
    """Random play that mostly does something, without endless place/unplace loops."""
    forward = [a for a in actions if a["type"] != "unplace"]
    doing = [a for a in forward if a["type"] not in ("submit_plan", "pass", "bathhouse_done")]
    if doing and rng.random() < 0.85:
        return json.dumps(rng.choice(doing))
    return json.dumps(rng.choice(forward or actions))


@pytest.mark.django_db(transaction=True)
def test_two_players_finish_a_game_through_the_forms(client_for, make_game, alice, bob):
    rng = random.Random(2024)
    game = make_game(alice, bob, seats=2)
    clients = {alice.pk: client_for(alice), bob.pk: client_for(bob)}
    poll = reverse("games-poll", kwargs={"game_id": game.pk})
    act = reverse("games-act", kwargs={"game_id": game.pk})
    for _step in range(3000):
        game.refresh_from_db()
        if game.status != GameStatus.ACTIVE:
            break
        seat = game.seats.exclude(awaiting="").order_by("order").first()
        assert seat is not None, "an active game always awaits someone"
        client = clients[seat.user_id]
        regions = client.get(poll, {"v": -1})
        assert regions.status_code == 200
        actions, version = _forms(regions.text)
        assert actions and version == game.version
        chosen = _prefer_progress(actions, rng)
        response = client.post(act, {"action": chosen,
                                     "expected_version": version}, **HTMX)
        assert response.status_code == 200
        assert 'class="flash"' not in response.text, response.text[:500]
    game.refresh_from_db()
    assert game.status == GameStatus.FINISHED
    assert game.outcome and len(game.outcome["ranking"]) == 2
    assert Move.objects.filter(game=game).count() == game.version
    assert Move.objects.filter(game=game, seat=None).exists()  # phases resolved by the task
    page = clients[alice.pk].get(reverse("games-detail", kwargs={"game_id": game.pk}))
    assert "Final scores" in page.text
    profile = clients[alice.pk].get(reverse("games-profile"))
    assert [record.game for record in profile.context["finished"]] == [game]
