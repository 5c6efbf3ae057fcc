"""The preferences and unsubscribe pages in Japanese, their English unchanged (issue 11).

Only the page's own content is checked: the navigation (templates/base.html) and the
vacation card (templates/games/_vacation_card.html) belong to the site pages' translation.
"""
import re

from django.test import Client

from notifications.models import Preferences
from notifications.tokens import make_unsubscribe_token
from tests.support.japanese import english_left

JA = {"HTTP_ACCEPT_LANGUAGE": "ja"}
PREFERENCES = "/notifications/preferences/"


def _content(html: str) -> str:
    """The ``<main>`` of a page without the vacation card."""
    main = html[html.index("<main"):html.index("</main>")]
    return re.sub(r'<form[^>]*id="vacation".*?</form>', "", main, flags=re.S)


def test_the_preferences_page_is_japanese_with_the_muted_games_marked_as_names(
        client_for, make_game, alice, bob):
    make_game(alice, bob, seats=2)
    page = client_for(alice).get(PREFERENCES, **JA)
    assert page.status_code == 200
    assert english_left(_content(page.text)) == []
    assert "<h1>メールの設定</h1>" in page.text and "<title>メールの設定" in page.text
    assert '<span translate="no">Test game</span>' in page.text
    assert "手番が来たらすぐにメールを受け取る" in page.text  # a model choice's label


def test_the_preferences_page_without_games_is_japanese(client_for, alice):
    page = client_for(alice).get(PREFERENCES, **JA)
    assert "進行中のゲームはありません。" in page.text
    assert english_left(_content(page.text)) == []


def test_a_refused_preferences_form_explains_in_japanese(client_for, alice):
    form = {"turn_emails": "digest", "digest_hour": "8", "quiet_start": "22", "quiet_end": "",
            "time_zone": "UTC", "turn_email_delay_minutes": "0"}
    page = client_for(alice).post(PREFERENCES, form, **JA)
    assert page.status_code == 200
    assert "通知しない時間帯は開始と終了の両方を指定するか" in page.text
    assert english_left(_content(page.text)) == []


def test_saved_preferences_are_confirmed_in_the_chosen_language(client_for, alice):
    form = {"turn_emails": "off", "digest_hour": "8", "time_zone": "UTC",
            "turn_email_delay_minutes": "0", "language": "ja"}
    page = client_for(alice).post(PREFERENCES, form, follow=True)
    assert Preferences.objects.get(user=alice).language == "ja"
    assert "メールの設定を保存しました。" in page.text


def test_the_unsubscribe_page_is_japanese_before_and_after_the_click(alice):
    url = f"/notifications/unsubscribe/{make_unsubscribe_token(alice.pk, 'turn_emails')}/"
    before = Client().get(url, **JA)
    assert "手番のメールを停止しますか？" in before.text
    assert english_left(_content(before.text)) == []
    after = Client().post(url, **JA)
    assert "完了しました：今後手番のメールは届きません。" in after.text
    assert english_left(_content(after.text)) == []


def test_a_game_mute_link_names_the_game_as_a_name_in_japanese(make_game, alice, bob):
    game = make_game(alice, bob, seats=2)
    page = Client().get(f"/notifications/unsubscribe/{make_unsubscribe_token(alice.pk, f'mute:{game.pk}')}/", **JA)
    assert 'ゲーム「<span translate="no">Test game</span>」に関するメール' in page.text
    assert english_left(_content(page.text)) == []


def test_a_bad_unsubscribe_link_is_refused_in_japanese(db):
    page = Client().get("/notifications/unsubscribe/not-a-token/", **JA)
    assert page.status_code == 403
    assert "この配信停止リンクは無効です。" in page.text
    assert english_left(_content(page.text)) == []


def test_the_same_pages_stay_english_for_an_english_browser(client_for, alice):
    page = client_for(alice).get(PREFERENCES, HTTP_ACCEPT_LANGUAGE="en")
    assert "<h1>Email preferences</h1>" in page.text and "An email as soon as it is my turn" in page.text
    url = f"/notifications/unsubscribe/{make_unsubscribe_token(alice.pk, 'game_emails')}/"
    assert "Stop emails when a game starts or ends?" in Client().get(url, HTTP_ACCEPT_LANGUAGE="en").text
