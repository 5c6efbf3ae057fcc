"""A whole round for two players played only by clicking the board (issue 9): planning by
follower -> circle, a Village choice opened on its card, a Ship move by clicking a route on
the map, passing; after each submit the focus lands on the next decision. Screenshots go
to test-artifacts/."""
import json

import pytest
from django.urls import reverse

import engine
from games.models import Game, Move
from tests.browser.conftest import CHROMIUM
from tests.browser.test_plan_on_the_board import BOARD, TIMEOUT, plan_by_clicks, tab_to
from tests.support import engine_states as H
from tests.support.game_driver import install, richer_markets, seats, state_of

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(CHROMIUM is None, reason="Debian's chromium is not installed"),
    pytest.mark.django_db(transaction=True),
]


def give_knight(game, order: int) -> None:
    """Round 1 planning: one Knight more on seat ``order``'s market (the Ship needs one)."""
    data = dict(game.state)
    data["players"][order]["market"] = sorted(data["players"][order]["market"] + ["knight"])
    Game.objects.filter(pk=game.pk).update(state=data)
    game.refresh_from_db()


def version(page) -> int:
    return int(page.locator("#game-poll").get_attribute("data-version"))


def wait_version_above(page, before: int) -> None:
    page.wait_for_function(f"() => Number(document.querySelector('#game-poll').dataset.version) > {before}",
                           timeout=TIMEOUT)


def wait_my_turn(page) -> None:
    page.wait_for_selector(f"{BOARD}.act-board [data-act-target]", timeout=TIMEOUT)


def open_page(page_for, user, game, dialogs=None):
    page = page_for(user)

    def accept(dialog):
        if dialogs is not None:
            dialogs.append(dialog.message)
        dialog.accept()

    page.on("dialog", accept)
    page.goto(reverse("games-detail", kwargs={"game_id": game.pk}))
    return page


def point_on_route(page, route: str, at: float = 0.3) -> tuple[float, float]:
    """Screen coordinates of the point ``at`` of the way along the route's drawn path
    (away from its goods, which sit half way)."""
    return tuple(page.evaluate(
        """([route, at]) => { const p = document.querySelector(`#game-map path.route[data-route="${route}"]`);
             const pt = p.getPointAtLength(p.getTotalLength() * at).matrixTransform(p.getScreenCTM());
             return [pt.x, pt.y]; }""", [route, at]))


def test_a_whole_round_is_played_by_clicking_the_board(settings, page_for, started_game, screenshot):
    settings.GAMES_POLL_SECONDS = 1
    game = started_game
    richer_markets(game)  # a second place each, so that passing is a decision (not forced)
    give_knight(game, 1)
    alice, bob = seats(game)[0].user, seats(game)[1].user
    dialogs: list = []
    pa, pb = open_page(page_for, alice, game, dialogs), open_page(page_for, bob, game, dialogs)
    for page in (pa, pb):
        page.wait_for_selector(f"{BOARD}[data-plan-key] button.pick", timeout=TIMEOUT)

    # planning: follower -> circle, then the one submit
    for follower in ("start_farmer", "start_boatman", "start_craftsman"):
        plan_by_clicks(pa, follower, "village")
    for follower in ("farmer", "boatman", "start_trader"):
        plan_by_clicks(pa, follower, "castle")
    for follower in ("start_farmer", "start_boatman", "knight"):
        plan_by_clicks(pb, follower, "ship")
    for follower in ("boatman", "craftsman"):
        plan_by_clicks(pb, follower, "farmhouse")
    pa.locator(f"{BOARD} .plan-submit button").click()
    pa.wait_for_selector(f"{BOARD}:not([data-plan-key])", state="attached", timeout=TIMEOUT)
    # the focus lands on the status line saying whom the game waits for
    pa.wait_for_function("() => document.activeElement && document.activeElement.id === 'game-status'",
                         timeout=TIMEOUT)
    pb.locator(f"{BOARD} .plan-submit button").click()
    pb.wait_for_selector(f"{BOARD}:not([data-plan-key])", state="attached", timeout=TIMEOUT)
    assert [m.action["type"] for m in Move.objects.filter(game=game).order_by("seq")][:2] == [
        "submit_plan", "submit_plan"]

    # alice's turn: the Village opens its three recruits on its card
    wait_my_turn(pa)
    village = pa.locator(f'{BOARD} [data-place="village"]')
    village.locator("button.use-place").click()
    choices = village.locator("button.act-choice")
    assert choices.count() == len([a for a in engine.legal_actions(state_of(game), 0)
                                   if a.get("space") == "village"])
    boatman = village.locator("button.act-choice", has_text="Recruit a Boatman")
    assert "track step 1: 2 coins" in boatman.inner_text()  # what it gives
    screenshot(pa, "act-board-village-open")
    before = version(pa)
    boatman.click()
    wait_version_above(pa, before)
    village_move = Move.objects.filter(game=game).order_by("-seq").first()
    assert village_move.seat == 0 and village_move.action == {"type": "activate", "space": "village",
                                                              "recruit": "boatman"}
    # the next decision is bob's: alice's focus goes to the status line
    pa.wait_for_function("() => document.activeElement && document.activeElement.id === 'game-status'",
                         timeout=TIMEOUT)

    # bob's turn: the Ship's routes light up on the map; a click on a route moves him
    wait_my_turn(pb)
    pb.locator(f'{BOARD} [data-place="ship"] button.use-place').click()
    lit = pb.locator("#game-map path.route.act-lit")
    legal = [a for a in engine.legal_actions(state_of(game), 1) if a.get("space") == "ship"]
    assert sorted(set(lit.evaluate_all("els => els.map(e => e.dataset.route)"))) == sorted({a["route"] for a in legal})
    screenshot(pb, "act-board-ship-routes-lit")
    route = legal[0]["route"]
    before = version(pb)
    pb.mouse.click(*point_on_route(pb, route))
    if len([a for a in legal if a["route"] == route]) > 1:  # several goods: pick one in the list
        pb.locator(f'{BOARD} button.act-choice.match').first.click()
    wait_version_above(pb, before)
    ship_move = Move.objects.filter(game=game).order_by("-seq").first()
    assert ship_move.seat == 1 and ship_move.action["space"] == "ship" and ship_move.action["route"] == route
    town = engine.content.ROUTES[route]
    merchant = state_of(game).data["players"][1]["merchant"]
    assert merchant in (town.a, town.b) and merchant != "orleans"

    # both pass from the board (each still has a place ready: the board asks first, as the
    # text view does, and the dialog is accepted); the round ends and round 2 begins
    for page, order in ((pa, 0), (pb, 1)):
        wait_my_turn(page)
        before = version(page)
        assert page.locator(f'{BOARD} [data-place="{"castle" if order == 0 else "farmhouse"}"] button.use-place').count()
        page.locator(f"{BOARD} button[data-end='pass']").click()
        wait_version_above(page, before)
    assert dialogs == ["You still have actions ready. Pass for the rest of the round anyway?"] * 2
    pa.wait_for_function("() => document.querySelector('#game-status .round strong').textContent === '2'",
                         timeout=TIMEOUT)
    # bob's pass ended the round: his next decision (drawing followers) has the focus
    assert engine.awaiting(state_of(game)).get(1) == "draw"
    pb.wait_for_function("() => document.activeElement && document.activeElement.closest('#game-actions form.decision')",
                         timeout=TIMEOUT)
    types = [(m.seat, m.action["type"] if m.action else None) for m in Move.objects.filter(game=game).order_by("seq")]
    assert (0, "pass") in types and (1, "pass") in types
    assert state_of(game).data["round"] == 2


def test_a_place_with_a_choice_is_used_with_the_keyboard_only(page_for, started_game):
    """Tab reaches the board's places; Enter opens a place's choices (the focus on the first),
    the arrow keys move between them, Escape closes them (the focus back on the place),
    Enter on a choice sends it; the map's lit routes are keyboard targets too."""
    state = H.action_state({"spaces": {"village": ["farmer", "boatman", "craftsman"],
                                       "ship": ["farmer", "boatman", "knight"]}, "merchant": "orleans"})
    game = install(started_game, state)
    page = open_page(page_for, seats(game)[0].user, game)
    wait_my_turn(page)
    tab_to(page, "#game-mine button.use-place", "the board's places")
    while page.evaluate("() => document.activeElement.closest('[data-place]').dataset.place") != "village":
        page.keyboard.press("ArrowRight")
    page.keyboard.press("Enter")  # opens the Village's recruits, the focus on the first
    assert page.evaluate("() => document.activeElement.matches('#act-village button.act-choice')")
    first = page.evaluate("() => document.activeElement.textContent")
    page.keyboard.press("ArrowDown")
    assert page.evaluate("() => document.activeElement.textContent") != first
    page.keyboard.press("Escape")  # closed, the focus back on the Village
    assert page.locator("#act-village").is_hidden()
    assert page.evaluate("() => document.activeElement.closest('[data-place]').dataset.place") == "village"

    # the Ship: its routes are keyboard targets on the map
    while page.evaluate("() => document.activeElement.closest('[data-place]').dataset.place") != "ship":
        page.keyboard.press("ArrowRight")
    page.keyboard.press("Enter")
    lit = page.locator("#game-map path.route.act-lit")
    assert lit.count() == len({a["route"] for a in engine.legal_actions(state, 0) if a.get("space") == "ship"})
    lit.first.focus()
    page.keyboard.press("ArrowRight")  # to the next lit thing on the map
    assert page.evaluate("() => document.activeElement.classList.contains('act-lit')")
    page.keyboard.press("Escape")
    assert lit.count() == 0

    # Enter on a Village choice sends it
    while page.evaluate("() => document.activeElement.closest('[data-place]').dataset.place") != "village":
        page.keyboard.press("ArrowLeft")
    page.keyboard.press("Enter")
    choice = page.evaluate("() => document.activeElement.closest('form').querySelector('[name=action]').value")
    before = version(page)
    page.keyboard.press("Enter")
    wait_version_above(page, before)
    move = Move.objects.filter(game=game).order_by("-seq").first()
    assert move.seat == 0 and move.action == json.loads(choice)
