"""Planning on the board in a real browser (issue 9): pick a follower of the market, the
circles the engine allows light up, click one; the plan is composed on the page (a draft
kept in the browser, never stored) and reaches the engine once, as one ``submit_plan``.
Screenshots go to test-artifacts/."""
import pytest
from django.urls import reverse

import engine
from games.models import Move
from games.services import game_submit_action
from tests.browser.conftest import CHROMIUM
from tests.support.game_driver import richer_markets, seats, state_of

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(CHROMIUM is None, reason="Debian's chromium is not installed"),
    pytest.mark.django_db(transaction=True),
]
TIMEOUT = 15_000
BOARD = "#game-mine"


def open_board(page_for, game, order: int = 0):
    page = page_for(seats(game)[order].user)
    page.goto(reverse("games-detail", kwargs={"game_id": game.pk}))
    page.wait_for_selector(f"{BOARD}[data-plan-key] button.pick")
    return page


def planned(page, place: str):
    return page.locator(f'{BOARD} [data-place="{place}"] button.plan-undo')


def plan_by_clicks(page, follower: str, place: str) -> None:
    """Click the follower in the market, then the lit circle of ``place``; wait for the
    board with it planned."""
    before = planned(page, place).count()
    page.locator(f'{BOARD} button.pick[data-pick="{follower}"]').click()
    page.locator(f'{BOARD} [data-place="{place}"] button.plan-target.lit').first.click()
    page.wait_for_function(
        f"""() => document.querySelectorAll('{BOARD} [data-place="{place}"] button.plan-undo').length > {before}
            && !document.querySelector('{BOARD}').hasAttribute('aria-busy')""", timeout=TIMEOUT)


def tab_to(page, selector: str, what: str, presses: int = 80) -> None:
    """Press Tab from where the focus is until it is on an element matching ``selector``."""
    for _ in range(presses):
        page.keyboard.press("Tab")
        if page.evaluate("(s) => document.activeElement.matches(s)", selector):
            return
    raise AssertionError(f"Tab never reached {what}")


def count_requests(page) -> list:
    seen = []
    page.on("request", lambda request: seen.append((request.method, request.url))
            if "/games/" in request.url and "/poll/" not in request.url else None)
    return seen


def test_three_followers_are_planned_by_clicking_the_board_and_sent_as_one_plan(
        page_for, started_game, screenshot):
    richer_markets(started_game)
    page = open_board(page_for, started_game)
    requests = count_requests(page)

    page.locator(f'{BOARD} button.pick[data-pick="start_boatman"]').click()
    lit = page.locator(f"{BOARD} button.plan-target.lit")
    state = state_of(started_game)
    legal = {a["space"] for a in engine.legal_actions(state, 0)
             if a["type"] == "place" and a["follower"] == "start_boatman"}
    lit_places = set(lit.evaluate_all("els => els.map(e => e.closest('[data-place]').dataset.place)"))
    assert lit_places == legal  # one lit circle per place the engine allows
    assert page.locator(f"{BOARD} button.plan-target:not(.lit):enabled").count() == 0
    screenshot(page, "plan-board-boatman-picked")

    for follower in ("start_farmer", "start_boatman", "start_trader"):
        plan_by_clicks(page, follower, "castle")
    assert planned(page, "castle").count() == 3
    assert Move.objects.filter(game=started_game).count() == 0  # composed on the page only
    assert page.locator(f"{BOARD} .plan-submit button").inner_text().endswith("(3 followers)")
    screenshot(page, "plan-board-castle-planned")

    page.locator(f"{BOARD} .plan-submit button").click()
    page.wait_for_selector(f"{BOARD}:not([data-plan-key])", state="attached", timeout=TIMEOUT)
    moves = list(Move.objects.filter(game=started_game))
    assert [m.action["type"] for m in moves] == ["submit_plan"]
    assert sorted((p["follower"], p["space"]) for p in moves[0].action["placements"]) == [
        ("start_boatman", "castle"), ("start_farmer", "castle"), ("start_trader", "castle")]
    assert sorted(state_of(started_game).data["players"][0]["plan"]) == [
        ["castle", "start_boatman"], ["castle", "start_farmer"], ["castle", "start_trader"]]
    # 6 clicks on the board + 1 submit; one read-only GET per placement and one POST
    assert [m for m, _ in requests] == ["GET", "GET", "GET", "POST"]
    # board.js forgets the sent draft once htmx has settled the answer: wait for it (bounded)
    page.wait_for_function("() => !Object.keys(localStorage).some(k => k.startsWith('orleans-plan:'))",
                           timeout=TIMEOUT)
    assert page.evaluate("() => Object.keys(localStorage).filter(k => k.startsWith('orleans-plan:')).length") == 0


def test_taking_back_a_submitted_plan_brings_it_back_as_the_draft(page_for, started_game):
    page = open_board(page_for, started_game)
    plan_by_clicks(page, "start_boatman", "castle")
    plan_by_clicks(page, "start_farmer", "castle")
    page.locator(f"{BOARD} .plan-submit button").click()
    page.wait_for_selector(f"{BOARD}:not([data-plan-key])", state="attached", timeout=TIMEOUT)
    page.locator("form.undo-decision button").click()
    page.wait_for_function(
        f"""() => document.querySelectorAll('{BOARD} [data-place="castle"] button.plan-undo').length === 2
            && !document.querySelector('{BOARD}').hasAttribute('aria-busy')""", timeout=TIMEOUT)
    assert [m.action["type"] for m in Move.objects.filter(game=started_game)] == ["submit_plan", "undo"]
    assert state_of(started_game).data["players"][0]["plan"] == []  # a draft again, not a stored plan
    assert page.locator(f"{BOARD} .plan-submit button").inner_text().endswith("(2 followers)")


def test_clicking_a_planned_follower_takes_it_back(page_for, started_game):
    page = open_board(page_for, started_game)
    plan_by_clicks(page, "start_boatman", "farmhouse")
    planned(page, "farmhouse").first.click()
    page.wait_for_function(
        f"""() => document.querySelectorAll('{BOARD} [data-place="farmhouse"] button.plan-undo').length === 0
            && !document.querySelector('{BOARD}').hasAttribute('aria-busy')""", timeout=TIMEOUT)
    assert page.locator(f'{BOARD} button.pick[data-pick="start_boatman"]').count() == 1


def test_a_follower_is_planned_with_the_keyboard_only(page_for, started_game):
    page = open_board(page_for, started_game)
    tab_to(page, "#game-mine button.pick", "the market")
    first = page.evaluate("() => document.activeElement.dataset.pick")
    page.keyboard.press("ArrowRight")
    second = page.evaluate("() => document.activeElement.dataset.pick")
    assert second and second != first
    page.keyboard.press("ArrowLeft")
    assert page.evaluate("() => document.activeElement.dataset.pick") == first

    page.keyboard.press("Enter")  # pick: the focus moves to the first lit circle
    assert page.evaluate("() => document.activeElement.matches('button.plan-target.lit')")
    page.keyboard.press("Escape")  # cancel: back on the follower, nothing lit
    assert page.evaluate("() => document.activeElement.dataset.pick") == first
    assert page.locator(f"{BOARD} button.plan-target.lit").count() == 0

    page.keyboard.press("Enter")
    lit = page.locator(f"{BOARD} button.plan-target.lit").count()
    if lit > 1:
        page.keyboard.press("ArrowRight")
    place = page.evaluate("() => document.activeElement.closest('[data-place]').dataset.place")
    page.keyboard.press("Enter")
    page.wait_for_function(
        f"""() => document.querySelectorAll('{BOARD} [data-place="{place}"] button.plan-undo').length === 1
            && !document.querySelector('{BOARD}').hasAttribute('aria-busy')""", timeout=TIMEOUT)
    assert planned(page, place).get_attribute("data-action").find(first) > 0
    # board.js moves the focus once htmx has settled the swapped region: wait for it (bounded)
    page.wait_for_function(
        "() => document.activeElement.matches('#game-mine button.pick, #game-mine .plan-submit button')",
        timeout=TIMEOUT)
    assert Move.objects.filter(game=started_game).count() == 0


def test_a_draft_survives_a_reload_and_another_players_move(settings, page_for, started_game):
    settings.GAMES_POLL_SECONDS = 1
    page = open_board(page_for, started_game)
    plan_by_clicks(page, "start_boatman", "farmhouse")
    plan_by_clicks(page, "start_craftsman", "farmhouse")

    page.reload()
    page.wait_for_function(
        f"""() => document.querySelectorAll('{BOARD} [data-place="farmhouse"] button.plan-undo').length === 2""",
        timeout=TIMEOUT)

    bob = seats(started_game)[1].user
    game_submit_action(game_id=started_game.pk, user=bob, action={"type": "submit_plan"}, expected_version=0)
    page.wait_for_selector('#game-poll[data-version="1"]', state="attached", timeout=TIMEOUT)
    assert planned(page, "farmhouse").count() == 2
    assert Move.objects.filter(game=started_game).count() == 1  # only bob's

    # the text view offers the same draft: its submit sends it as the whole plan
    page.locator(f"{BOARD} .plan-submit button").click()
    page.wait_for_selector(f"{BOARD}:not([data-plan-key])", state="attached", timeout=TIMEOUT)
    mine = Move.objects.filter(game=started_game, seat=0).get()
    assert sorted(p["follower"] for p in mine.action["placements"]) == ["start_boatman", "start_craftsman"]


def test_while_there_is_a_draft_the_text_view_edits_it(page_for, started_game):
    page = open_board(page_for, started_game)
    plan_by_clicks(page, "start_boatman", "farmhouse")
    form = page.locator('#game-actions form[data-form="place-farmhouse"]')
    form.locator("button").click()  # the text view's only Farmhouse choice now: the Craftsman
    page.wait_for_function(
        f"""() => document.querySelectorAll('{BOARD} [data-place="farmhouse"] button.plan-undo').length === 2
            && !document.querySelector('{BOARD}').hasAttribute('aria-busy')""", timeout=TIMEOUT)
    assert Move.objects.filter(game=started_game).count() == 0
    assert page.locator('#game-actions .decision-undo form').count() == 2  # the text view shows the draft
    page.locator('#game-actions form[data-form="submit_plan"] button').click()
    page.wait_for_selector(f"{BOARD}:not([data-plan-key])", state="attached", timeout=TIMEOUT)
    move = Move.objects.get(game=started_game)
    assert sorted(p["follower"] for p in move.action["placements"]) == ["start_boatman", "start_craftsman"]


def test_a_plan_sent_from_another_tab_is_not_brought_back_as_this_tabs_older_draft(page_for, started_game):
    """Only the tab that sends a plan keeps it for a take-back: another tab of the same
    browser, whose draft is older, shows an empty board after taking the plan back."""
    tab_a = open_board(page_for, started_game)
    plan_by_clicks(tab_a, "start_boatman", "castle")  # tab A's draft: one follower
    tab_a.route("**/poll/**", lambda route: route.abort())  # tab A looks away
    tab_b = tab_a.context.new_page()  # same browser: same localStorage
    tab_b.goto(reverse("games-detail", kwargs={"game_id": started_game.pk}))
    tab_b.wait_for_function(f"() => document.querySelectorAll('{BOARD} button.plan-undo').length === 1"
                            f" && !document.querySelector('{BOARD}').hasAttribute('aria-busy')", timeout=TIMEOUT)
    plan_by_clicks(tab_b, "start_farmer", "castle")
    tab_b.locator(f"{BOARD} .plan-submit button").click()
    tab_b.wait_for_selector(f"{BOARD}:not([data-plan-key])", state="attached", timeout=TIMEOUT)
    assert len(Move.objects.get(game=started_game).action["placements"]) == 2

    tab_a.unroute("**/poll/**")
    tab_a.wait_for_selector(f"{BOARD}:not([data-plan-key])", state="attached", timeout=TIMEOUT)
    tab_a.evaluate("() => { window.settled = new Promise(done => document.body.addEventListener("
                   "'htmx:afterSettle', () => done(), {once: true})); }")
    tab_a.locator("form.undo-decision button").click()
    tab_a.evaluate("() => window.settled")  # the board is back, and board.js has looked at it
    tab_a.wait_for_function(f"() => document.querySelector('{BOARD}[data-plan-key]')"
                            f" && !document.querySelector('{BOARD}').hasAttribute('aria-busy')", timeout=TIMEOUT)
    assert planned(tab_a, "castle").count() == 0
