"""The board's clickable targets outside planning are exactly the engine's legal actions
(issue 9): in sampled positions of every decision kind played on the board (action,
technology tile, Bathhouse), every form on ``#game-mine`` posts one legal action, every legal
action has one (the ending ones through the text view's own form), and what a choice lights
up (route, good, deeds, place tile) is what its action names. For the other kinds (draw,
plan, torture, harvest) the board offers no such target."""
import json

import pytest
from django.urls import reverse

import engine
from games.presenters.act_board import BOARD_KINDS
from tests.support.act_board import act_board, sampled_positions
from tests.support.game_driver import install, seats
from tests.support.html_forms import decision_forms


POSITIONS = sampled_positions()



def canon(action: dict) -> str:
    return json.dumps(action, sort_keys=True)


def page_of(client, game) -> str:
    response = client.get(reverse("games-detail", kwargs={"game_id": game.pk}))
    assert response.status_code == 200
    return response.content.decode()


def assert_board_offers_exactly(text: str, state, seat: int, kind: str) -> None:
    board = act_board(text)
    assert board.found
    legal = engine.legal_actions(state, seat)
    if kind not in BOARD_KINDS:
        assert board.kind is None and not board.targets  # (planning: tests/games/views/test_plan_board_targets.py)
        return
    assert board.kind == kind
    forms = {f["attrs"].get("id"): f["actions"] for f in decision_forms(text)}
    offered = [canon(action) for _place, action, _attrs in board.targets]
    offered += [canon(a) for form_id in board.ends for a in forms[form_id]]
    assert sorted(offered) == sorted(canon(a) for a in legal)  # each legal action once, nothing else
    for place, action, attrs in board.targets:
        assert place == action.get("space")  # on the card of the place it uses
        assert attrs.get("data-route") == action.get("route")
        assert attrs.get("data-good") == action.get("good")
        assert attrs.get("data-place-tile") == action.get("place_tile")
        deeds = sorted({d["deed"] for d in action.get("deeds") or []})
        assert (attrs.get("data-deeds") or "").split() == deeds
    # a card opens a choice list exactly when the engine gives its place several actions
    per_place: dict = {}
    for _place, action, _attrs in board.targets:
        if action["type"] != "place_technology":
            per_place[action["space"]] = per_place.get(action["space"], 0) + 1
    assert sorted(board.openers) == sorted(p for p, n in per_place.items() if n > 1)


@pytest.mark.parametrize("kind", sorted(POSITIONS))
def test_the_board_offers_exactly_the_engines_actions(kind, started_game, client_for):
    game = started_game
    clients = {order: client_for(seat.user) for order, seat in seats(game).items()}
    for state, seat in POSITIONS[kind]:
        install(game, state)
        assert_board_offers_exactly(page_of(clients[seat], game), state, seat, kind)
        other = 1 - seat  # the other seat's board never offers this seat's targets
        other_kind = engine.awaiting(state).get(other)
        assert_board_offers_exactly(page_of(clients[other], game), state, other, other_kind)


def test_every_board_kind_was_sampled():
    assert {"action", "technology"} <= set(POSITIONS)
    assert all(len(POSITIONS[k]) >= 2 for k in ("action", "technology"))
    actions = [a for state, seat in POSITIONS["action"] for a in engine.legal_actions(state, seat)]
    for field in ("route", "recruit", "deeds"):
        assert sum(field in a for a in actions) > 2


def test_the_boards_cards_are_rendered_once_for_every_version_and_post_the_pages_version(started_game, monkeypatch):
    # a card is memoised without the page's version (templating.VERSION_SLOT), which the
    # board writes in: the same board at the next version renders no card again
    from django.test import RequestFactory

    from games.presenters.page import game_context
    from tests.support.memo import at_versions, fresh_renders

    state, seat = POSITIONS["action"][0]
    install(started_game, state)
    started_game.refresh_from_db()
    user = seats(started_game)[seat].user
    request = RequestFactory().get("/")
    request.user = user
    context = game_context(started_game, started_game.seats.get(order=seat), user=user)
    assert context["act"] and context["act"]["cards"]
    rendered = fresh_renders(monkeypatch)
    v = started_game.version
    shown = at_versions("games/partials/_my_board.html", context, request, (v, v + 7))
    assert all("expected-version" not in html and act_board(html).targets for html, _posted in shown.values())
    cards = [name for name in rendered if name == "games/partials/_act_card.html"]
    assert len(cards) == len(context["act"]["cards"])  # once each, at the first version only
    assert {version: posted for version, (_html, posted) in shown.items()} == {v: {str(v)}, v + 7: {str(v + 7)}}
