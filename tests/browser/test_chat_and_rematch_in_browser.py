"""Two players chat at the table, finish the game, and play a rematch (issue 13), in
Debian's chromium; skipped where it is absent. The fake engine's short game is played to
its end by the test helper; chat, rematch and acceptance go through the pages."""
import re

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from games.models import ChatMessage, ChatReader, Game, GameStatus
from tests.browser.conftest import CHROMIUM
from tests.support.game_driver import play_fake_game_to_the_end

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(CHROMIUM is None, reason="Debian's chromium is not installed"),
    pytest.mark.django_db(transaction=True),
]
WAIT = 15_000  # ms: bounded waits on conditions, never a fixed sleep


def _say(page, text):
    page.fill("#chat-text", text)
    page.click("#chat-form button[type=submit]")


def test_two_players_chat_finish_and_play_a_rematch(
        fake_engine, settings, page_for, make_game, alice, bob, django_capture_on_commit_callbacks):
    settings.GAMES_POLL_SECONDS = settings.GAMES_FINISHED_POLL_SECONDS = 1
    game = make_game(alice, bob, seats=2)
    order = [s.user.username for s in game.seats.select_related("user").order_by("order")]
    url = reverse("games-detail", kwargs={"game_id": game.pk})
    alice_page, bob_page = page_for(alice), page_for(bob)
    alice_page.goto(url)
    bob_page.goto(url)

    _say(alice_page, "Good luck! <b>no markup</b>")
    expect(alice_page.locator("#game-chat")).to_contain_text("Good luck! <b>no markup</b>", timeout=WAIT)
    expect(alice_page.locator("#chat-text")).to_have_value("", timeout=WAIT)  # the form was emptied
    # bob's page gets it with the poll, marked as new
    expect(bob_page.locator("#game-chat .chat-line.new")).to_contain_text("Good luck!", timeout=WAIT)
    expect(bob_page.locator("#chat-unread")).to_have_text("1 new", timeout=WAIT)
    _say(bob_page, "Thanks, you too")
    expect(bob_page.locator("#chat-unread")).to_have_count(0, timeout=WAIT)  # posting reads the chat
    expect(alice_page.locator("#game-chat")).to_contain_text("Thanks, you too", timeout=WAIT)
    assert ChatMessage.objects.filter(game=game).count() == 2

    play_fake_game_to_the_end(game, django_capture_on_commit_callbacks, winner=bob)
    alice_page.reload()
    expect(alice_page.locator("#game-result")).to_be_visible(timeout=WAIT)
    # bob's page, never reloaded, shows the end, then (polling on) the rematch alice asks for
    expect(bob_page.locator("#game-result")).to_be_visible(timeout=WAIT)
    expect(bob_page.locator("#game-history-links")).to_contain_text("Replay this game", timeout=WAIT)
    alice_page.click("#rematch-button")
    expect(bob_page.locator("#rematch")).to_contain_text("A rematch is asked for", timeout=WAIT)
    rematch = Game.objects.get(rematch_of=game)
    expect(alice_page).to_have_url(re.compile(f"/games/{rematch.pk}/$"), timeout=WAIT)
    expect(alice_page.locator("#lobby-actions")).to_contain_text("Waiting for: bob.", timeout=WAIT)

    bob_page.goto(reverse("home"))
    expect(bob_page.locator("#nav-waiting-count")).to_have_text("1", timeout=WAIT)
    bob_page.locator("ul.rematches").get_by_role("button", name="Accept").click()
    expect(bob_page).to_have_url(re.compile(f"/games/{rematch.pk}/$"), timeout=WAIT)
    expect(bob_page.locator(".messages")).to_contain_text("the rematch has started", timeout=WAIT)
    rematch.refresh_from_db()
    assert rematch.status == GameStatus.ACTIVE
    assert [s.user.username for s in rematch.seats.select_related("user").order_by("order")] == order[1:] + order[:1]
    # the rematch has its own chat, empty
    expect(bob_page.locator("#game-chat")).to_contain_text("No messages yet.", timeout=WAIT)


def test_a_long_chat_opens_on_the_first_unread_message_then_follows_the_newest(page_for, make_game, alice, bob):
    game = make_game(alice, bob, seats=2)
    said = ChatMessage.objects.bulk_create([ChatMessage(game=game, author=bob, text=f"message {n}") for n in range(30)])
    ChatReader.objects.create(user=alice, game=game, last_read_id=said[19].pk)  # read up to message 19
    page = page_for(alice)
    page.goto(reverse("games-detail", kwargs={"game_id": game.pk}))
    expect(page.locator("#game-chat .chat-line.new").first).to_contain_text("message 20", timeout=WAIT)
    # the list's box (it scrolls) shows the first unread message at its top
    page.wait_for_function(FIRST_UNREAD_AT_TOP, timeout=WAIT)
    _say(page, "my reply")  # posting reads the chat: nothing unread, the newest shows
    expect(page.locator("#game-chat .chat-line").last).to_contain_text("my reply", timeout=WAIT)
    page.wait_for_function(SCROLLED_TO_END, timeout=WAIT)


FIRST_UNREAD_AT_TOP = """() => {
  const list = document.querySelector("#game-chat .chat-messages");
  const unread = list.querySelector(".chat-line.new");
  return list.scrollTop > 0 && Math.abs(unread.getBoundingClientRect().top - list.getBoundingClientRect().top) < 2;
}"""
SCROLLED_TO_END = """() => {
  const list = document.querySelector("#game-chat .chat-messages");
  return list.scrollHeight > list.clientHeight + 100 && list.scrollTop + list.clientHeight >= list.scrollHeight - 2;
}"""
