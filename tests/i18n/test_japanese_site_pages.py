"""The site's pages other than the game board, in Japanese (issue 11): home, lobby, new game,
a game's lobby, profile, leaderboard, the invite-closed and repair pages, the error pages and
the account pages, for a visitor and for a signed-in player. Each page rendered for a browser
asking for Japanese shows no English outside user content (``translate="no"``) and the
allow-list (``tests.support.japanese.english_left``); the same pages in English stay English.
"""
import datetime as dt
import logging
import re

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from games import services
from games.access import make_invite_token
from games.models import Game, Invitation, Rating
from games.services import vacation_start
from games.services.rematch import rematch_name
from tests.conftest import PASSWORD
from tests.support.game_driver import play_fake_game_to_the_end
from tests.support.japanese import english_left

JA = {"HTTP_ACCEPT_LANGUAGE": "ja"}
#: Usernames of the test personas: user content, shown as written.
NAMES = {"alice", "bob", "carol", "dave"}
#: The test games' names are Japanese, so the page's own words are all that is checked.
OPEN_NAME, STARTED_NAME = "のんびり卓", "週末の卓"


def japanese(response, allowed=()) -> list[str]:
    """The English words left on a page answered in Japanese (the page must say it is Japanese)."""
    assert '<html lang="ja">' in response.text, response.text[:300]
    return english_left(response.text, allowed=NAMES | set(allowed))


def open_game(creator, *joiners, name=OPEN_NAME, **kwargs) -> Game:
    game = services.game_create(creator=creator, name=name, max_seats=4, options={}, **kwargs)
    for user in joiners:
        services.seat_join(game_id=game.pk, user=user, invite_token=make_invite_token(game))
    game.refresh_from_db()
    return game


@pytest.fixture
def finished_game(fake_engine, alice, bob, django_capture_on_commit_callbacks):
    """A fake-engine game between alice and bob that bob won (rated: its rating changes are
    stored), and the Orléans ratings such a game leaves (the leaderboard's rules)."""
    game = services.game_create(creator=alice, name="決着の卓", max_seats=2, options={})
    services.seat_join(game_id=game.pk, user=bob, invite_token=make_invite_token(game))
    game.refresh_from_db()
    game = play_fake_game_to_the_end(game, django_capture_on_commit_callbacks, winner=bob)
    for user, mu in ((bob, 27.6), (alice, 22.4)):
        sigma = 8.0
        Rating.objects.create(user=user, rules="orleans", mu=mu, sigma=sigma, ordinal=mu - 3 * sigma, games=1)
    return game


@pytest.fixture
def a_busy_home(alice, bob, carol):
    """alice is awaited at a started game, is invited to carol's open game, and carol's open
    game is listed."""
    started = services.game_create(creator=bob, name=STARTED_NAME, max_seats=2, options={}, pace="fast")
    services.seat_join(game_id=started.pk, user=alice, invite_token=make_invite_token(started))
    carols = open_game(carol)
    Invitation.objects.create(game=carols, inviter=carol, invitee=alice)
    return started


def test_the_home_page_for_a_visitor_is_japanese(client, alice):
    open_game(alice)
    response = client.get(reverse("home"), **JA)
    assert "ブラウザで、じっくりオルレアンを" in response.text
    assert japanese(response) == []


def test_the_home_page_of_a_player_with_games_invitations_and_open_tables_is_japanese(
        client_for, alice, a_busy_home):
    response = client_for(alice).get(reverse("home"), **JA)
    assert response.context["waiting"] and response.context["invitations"] and response.context["open_games"]
    assert "あなたを待っています" in response.text and "さんから招待が届いています" in response.text
    assert "たった今" in response.text  # "just now": the games were made a moment ago
    assert japanese(response) == []


def test_a_rematch_to_answer_on_the_home_page_is_japanese(client_for, finished_game, alice, bob):
    with translation.override("ja"):  # bob asks in Japanese: the rematch is named in Japanese
        services.game_rematch(game_id=finished_game.pk, user=bob)
    response = client_for(alice).get(reverse("home"), **JA)
    assert response.context["rematches"] and "再戦を申し込んでいます" in response.text
    assert japanese(response) == []


def test_the_lobby_with_open_and_finished_games_is_japanese(client, finished_game, alice):
    open_game(alice, pace="normal")
    response = client.get(reverse("games-lobby"), **JA)
    assert response.context["open_games"] and response.context["finished_games"]
    finished = finished_game.finished_at
    assert f"{finished.year}年{finished.month}月{finished.day}日" in response.text
    assert japanese(response) == []


def test_the_new_game_form_is_japanese(client_for, alice):
    response = client_for(alice).get(reverse("games-new"), **JA)
    assert "ゲームを作成する" in response.text
    assert japanese(response) == []


def test_a_refused_new_game_form_explains_itself_in_japanese(client_for, alice):
    response = client_for(alice).post(reverse("games-new"), {
        "name": "改行\nあり", "seats": 3, "bots_random": 3, "pace": "none",
        "place_tile_market": "normal", "event_strength": "phased", "hourglass_order": "abc"}, **JA)
    assert response.status_code == 200 and not Game.objects.exists()
    assert "名前に改行は使えません" in response.text
    assert "3席のゲームに入れるボットは最大2体です" in response.text
    assert japanese(response) == []


def test_an_open_games_lobby_is_japanese_for_its_creator_a_player_a_visitor_and_a_passer_by(
        client_for, alice, bob, carol):
    game = open_game(alice, bob, pace="slow")
    url = reverse("games-detail", kwargs={"game_id": game.pk})
    for client in (client_for(alice), client_for(bob), client_for(carol), Client()):
        response = client.get(url, **JA)
        assert response.status_code == 200
        assert japanese(response) == [], client


def test_a_rematchs_lobby_is_japanese(client_for, finished_game, alice, bob):
    with translation.override("ja"):
        rematch = services.game_rematch(game_id=finished_game.pk, user=bob)
    response = client_for(alice).get(reverse("games-detail", kwargs={"game_id": rematch.pk}), **JA)
    assert "再戦です" in response.text and rematch.name == "決着の卓（再戦）"
    assert japanese(response) == []


def test_a_cancelled_games_page_is_japanese(client_for, alice):
    game = open_game(alice)
    services.game_cancel(game_id=game.pk, user=alice)
    response = client_for(alice).get(reverse("games-detail", kwargs={"game_id": game.pk}), **JA)
    assert "このゲームは中止されました。" in response.text
    assert japanese(response) == []


def test_the_profile_with_a_rating_records_and_finished_games_is_japanese(client_for, finished_game, alice):
    open_game(alice)
    response = client_for(alice).get(reverse("games-profile"), **JA)
    assert response.context["rating"] and response.context["finished"].object_list
    assert "2人中2位" in response.text
    assert re.search(r"\(-?\d+\)、2位", response.text)  # the players and scores joined as Japanese joins a list
    assert not re.search(r"\(-?\d+\), ", response.text)
    assert japanese(response) == []


def test_the_page_links_of_a_long_list_are_japanese(client_for, alice, bob, monkeypatch):
    monkeypatch.setattr("games.views.pages.PROFILE_GAMES_PER_PAGE", 1)
    open_game(alice)
    open_game(bob, alice, name="二つ目の卓")
    response = client_for(alice).get(reverse("games-profile"), **JA)
    assert 'aria-label="進行中のゲームのページ"' in response.text and "2ページ中1ページ目" in response.text
    assert japanese(response) == []


def test_an_empty_profile_is_japanese(client_for, carol):
    assert japanese(client_for(carol).get(reverse("games-profile"), **JA)) == []


def test_the_leaderboard_is_japanese(client, finished_game):
    response = client.get(reverse("games-leaderboard"), **JA)
    assert response.context["ratings"]
    assert japanese(response, allowed={"openskill", "Plackett-Luce"}) == []  # the rating model's names


def test_a_closed_invite_link_is_japanese(client_for, alice, bob, carol, dave):
    game = open_game(alice, is_public=False)
    token = make_invite_token(game)
    for user in (bob, carol):
        services.seat_join(game_id=game.pk, user=user, invite_token=token)
    services.seat_join(game_id=game.pk, user=dave, invite_token=token)  # full: it starts
    outsider = get_user_model_user("eve")
    response = client_for(outsider).get(reverse("games-invite", kwargs={"game_id": game.pk, "token": token}), **JA)
    assert response.status_code == 404 and "このゲームは満席です" in response.text
    assert japanese(response, allowed={"eve"}) == []


def get_user_model_user(name):
    from django.contrib.auth import get_user_model

    return get_user_model().objects.create_user(username=name, email=f"{name}@example.com", password=PASSWORD)


def test_the_repair_page_is_japanese(client_for, alice, bob):
    game = services.game_create(creator=alice, name=STARTED_NAME, max_seats=2, options={})
    services.seat_join(game_id=game.pk, user=bob, invite_token=make_invite_token(game))
    Game.objects.filter(pk=game.pk).update(engine_version="99.0.0")
    response = client_for(alice).get(reverse("games-detail", kwargs={"game_id": game.pk}), **JA)
    assert response.status_code == 503 and "このゲームは修復が必要です" in response.text
    assert japanese(response) == []


def test_the_404_page_is_japanese(client):
    response = client.get("/no-such-page/", **JA)
    assert response.status_code == 404 and "ここには何もありません" in response.text
    assert japanese(response) == []


def test_the_403_page_is_japanese(client_for, bob):
    response = client_for(bob).get("/admin/login/", **JA)
    assert response.status_code == 403 and "このアカウントは管理画面を使えません" in response.text
    assert japanese(response) == []


@pytest.mark.urls("tests.site.boom_urls")
@pytest.mark.django_db
def test_the_500_page_is_japanese(caplog):
    with caplog.at_level(logging.CRITICAL, logger="django.request"):
        response = Client(raise_request_exception=False).get("/boom/", **JA)
    assert response.status_code == 500 and "サイト側でエラーが発生しました" in response.text
    assert japanese(response) == []


def test_the_page_expired_page_is_japanese(alice):
    strict = Client(enforce_csrf_checks=True)
    strict.force_login(alice)
    response = strict.post(reverse("games-new"), {"name": "古いフォーム"}, **JA)
    assert response.status_code == 403 and "このページは期限切れです" in response.text
    assert japanese(response) == []


def test_the_flash_messages_after_a_lobby_action_are_japanese(client_for, alice, bob):
    game = open_game(alice)
    client = client_for(bob)
    response = client.post(reverse("games-join", kwargs={"game_id": game.pk}), **JA, follow=True)
    assert "ゲームに参加しました。" in response.text
    assert japanese(response) == []
    response = client.post(reverse("games-leave", kwargs={"game_id": game.pk}), **JA, follow=True)
    assert "ゲームから退出しました。" in response.text
    assert japanese(response) == []


def test_a_refusal_of_the_lobby_reads_in_japanese(client_for, alice):
    game = open_game(alice)
    response = client_for(alice).post(reverse("games-leave", kwargs={"game_id": game.pk}), **JA, follow=True)
    assert "退出ではなく中止してください" in response.text
    assert japanese(response) == []


def test_play_against_bots_names_the_game_in_the_creators_language(client_for, alice, frozen_now):
    response = client_for(alice).post(reverse("games-play-bots"), {"bots": 2, "level": "random"}, **JA, follow=True)
    game = Game.objects.get()
    assert game.name.startswith("alice 対 ") and game.name.endswith("体、3月6日 12:00")
    assert "ゲームが始まりました。ボットの準備はできています。" in response.text


def test_play_against_bots_in_english_keeps_the_english_name(client_for, alice, frozen_now):
    client_for(alice).post(reverse("games-play-bots"), {"bots": 2, "level": "random"},
                           HTTP_ACCEPT_LANGUAGE="en")
    assert Game.objects.get().name == "alice vs 2 Random bots, 06 Mar 12:00"


def test_a_rematch_asked_for_in_japanese_is_named_in_japanese_and_once(client_for, finished_game, bob):
    client_for(bob).post(reverse("games-rematch", kwargs={"game_id": finished_game.pk}), **JA)
    rematch = Game.objects.get(rematch_of=finished_game)
    assert rematch.name == "決着の卓（再戦）"
    with translation.override("ja"):  # marked once, in either language
        assert rematch_name(rematch.name) == rematch.name
        assert rematch_name("Friendly (rematch)") == "Friendly (rematch)"


def test_the_vacation_card_on_the_preferences_page_is_japanese_while_on_vacation(client_for, alice, frozen_now):
    vacation_start(user=alice)
    response = client_for(alice).get(reverse("notifications-preferences"), **JA)
    card = response.text.split('id="vacation"')[1].split("</form>")[0]
    assert "2030年3月6日(水) 12:00" in card and "休暇中です" in card
    assert english_left(card, allowed={"UTC"}) == []


@pytest.mark.parametrize("url", [
    reverse("account_login"), reverse("account_signup"), reverse("account_reset_password"),
    reverse("account_reset_password_done"), reverse("account_email_verification_sent"),
    reverse("account_confirm_email", kwargs={"key": "no-such-key"}),
    reverse("account_reset_password_from_key", kwargs={"uidb36": "x", "key": "no-such-key"}),
])
def test_the_account_pages_for_a_visitor_are_japanese(client, db, url):
    response = client.get(url, **JA, follow=True)
    assert response.status_code == 200
    assert japanese(response) == [], url


@pytest.mark.parametrize("url_name", ["account_email", "account_change_password", "account_logout"])
def test_the_account_pages_of_a_player_are_japanese(client_for, alice, url_name):
    response = client_for(alice).get(reverse(url_name), **JA)
    assert response.status_code == 200
    assert japanese(response, allowed={"alice@example.com"}) == [], url_name


def test_a_failed_login_explains_itself_in_japanese(client, db):
    response = client.post(reverse("account_login"), {"login": "nobody@example.com", "password": "wrong"}, **JA)
    assert response.status_code == 200
    assert japanese(response) == []


def test_the_same_pages_in_english_stay_english(client_for, alice, bob, a_busy_home):
    open_game(bob, pace="normal")
    client = client_for(alice)
    home = client.get(reverse("home"), HTTP_ACCEPT_LANGUAGE="en")
    assert '<html lang="en-gb">' in home.text
    assert "Waiting for you" in home.text and "carol invites you" in home.text and "just now" in home.text
    assert "Fast: 24 hours, +6 hours per decision, at most 2 d 0 h" not in home.text  # a started game
    assert "Normal: 3 days, +1 day per decision, at most 6 d 0 h" in client.get(
        reverse("games-lobby"), HTTP_ACCEPT_LANGUAGE="en").text
    new = client.get(reverse("games-new"), HTTP_ACCEPT_LANGUAGE="en").text
    assert "Open the game" in new and "4 players" in new and "Optional." in new
    assert "Games in progress" in client.get(reverse("games-profile"), HTTP_ACCEPT_LANGUAGE="en").text


def test_a_waiting_games_deadline_is_a_japanese_date(client_for, alice, frozen_now, a_busy_home):
    row = client_for(alice).get(reverse("home"), **JA).context["waiting"][0]
    assert row.clock_running and row.deadline == frozen_now.now + dt.timedelta(hours=24)
    page = client_for(alice).get(reverse("home"), **JA).text
    assert "期限 3月7日(木) 12:00 UTC" in page and "1日0時間" in page


def test_the_lists_pager_and_the_link_to_more_open_tables_read_as_pages_in_japanese(client_for, alice, bob):
    from games.views import pages
    from tests.support.many_games import open_games

    open_games([bob], max(pages.HOME_OPEN_SHOWN, pages.LOBBY_OPEN_PER_PAGE) + 1)
    client = client_for(alice)
    home, lobby = client.get(reverse("home"), **JA), client.get(reverse("games-lobby"), **JA)
    assert "ロビーでほかの募集中のテーブルを見る" in home.text
    assert "次のページ" in lobby.text and "古い順" not in lobby.text
    assert "前のページ" in client.get(reverse("games-lobby"), {"page": 2}, **JA).text
    assert japanese(home) == japanese(lobby) == []
