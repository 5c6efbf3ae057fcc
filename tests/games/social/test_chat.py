"""Chat at a game: stored, escaped, length- and rate-limited; the spectators' channel kept
from the players; unread marker, mark read, mute; no email of its own; moderators hide."""
import re

import pytest
from django.contrib.admin.sites import site
from django.test import RequestFactory
from django.urls import reverse

from games.errors import ChatError
from games.models import ChatChannel, ChatMessage
from games.services import chat_mark_read, chat_mute, chat_post
from notifications.models import Notification


def page(client, game):
    return client.get(reverse("games-detail", kwargs={"game_id": game.pk})).text


def post(client, game, text):
    return client.post(reverse("games-chat", kwargs={"game_id": game.pk}), {"text": text}, HTTP_HX_REQUEST="true")


def test_a_players_message_is_stored_and_shown_escaped(client_for, started_game, alice, bob):
    response = post(client_for(alice), started_game, "<script>alert(1)</script> good luck")
    assert response.status_code == 200 and 'id="game-chat"' in response.text
    message, = ChatMessage.objects.all()
    assert (message.author, message.channel, message.text) == (alice, ChatChannel.PLAYERS,
                                                               "<script>alert(1)</script> good luck")
    shown = page(client_for(bob), started_game)
    assert "&lt;script&gt;alert(1)&lt;/script&gt; good luck" in shown
    assert "<script>alert(1)" not in shown


@pytest.mark.parametrize(("text", "refusal"), [
    ("", "Write a message first."),
    ("   \n ", "Write a message first."),
    ("x" * 501, "at most 500 characters (this one has 501)"),
    ("right\u202eto left", "cannot contain U+202E"),
])
def test_bad_text_is_refused_and_nothing_is_stored(started_game, alice, text, refusal):
    with pytest.raises(ChatError, match=re.escape(refusal)):
        chat_post(game_id=started_game.pk, user=alice, text=text)
    assert not ChatMessage.objects.exists()


def test_a_refusal_is_said_on_the_page(client_for, started_game, alice):
    response = post(client_for(alice), started_game, "x" * 501)
    assert response.status_code == 200
    assert 'id="flash"' in response.text and "at most 500 characters" in response.text


def test_line_breaks_are_kept_and_the_longest_message_is_taken(started_game, alice):
    assert chat_post(game_id=started_game.pk, user=alice, text="one\r\ntwo").text == "one\ntwo"
    assert len(chat_post(game_id=started_game.pk, user=alice, text="y" * 500).text) == 500


def test_more_than_five_messages_in_thirty_seconds_are_refused(started_game, alice, frozen_now):
    for n in range(5):
        chat_post(game_id=started_game.pk, user=alice, text=f"message {n}")
    with pytest.raises(ChatError, match="too fast"):
        chat_post(game_id=started_game.pk, user=alice, text="one more")
    assert ChatMessage.objects.count() == 5
    frozen_now.advance(seconds=31)
    chat_post(game_id=started_game.pk, user=alice, text="later")
    assert ChatMessage.objects.count() == 6


def test_a_spectator_writes_in_the_spectators_channel_which_players_do_not_see(
        client_for, started_game, alice, carol):
    chat_post(game_id=started_game.pk, user=alice, text="from a player")
    chat_post(game_id=started_game.pk, user=carol, text="play the castle!")
    assert ChatMessage.objects.get(author=carol).channel == ChatChannel.SPECTATORS
    players_page = page(client_for(alice), started_game)
    assert "from a player" in players_page and "play the castle!" not in players_page
    spectators_page = page(client_for(carol), started_game)
    assert "from a player" in spectators_page and "play the castle!" in spectators_page
    assert "Write in the spectators&#x27; chat" in spectators_page


def test_only_players_chat_at_a_private_game(make_game, alice, bob, carol):
    game = make_game(alice, bob, seats=2, is_public=False)
    with pytest.raises(ChatError, match="Only the players"):
        chat_post(game_id=game.pk, user=carol, text="hello")
    assert not ChatMessage.objects.exists()


def test_a_visitor_reads_a_public_games_chat_but_cannot_write(client, client_for, started_game, alice):
    chat_post(game_id=started_game.pk, user=alice, text="hello world")
    text = page(client, started_game)
    assert "hello world" in text and 'id="chat-form"' not in text
    response = client.post(reverse("games-chat", kwargs={"game_id": started_game.pk}), {"text": "hi"})
    assert response.status_code == 302 and "/accounts/login/" in response.url
    assert ChatMessage.objects.count() == 1


def test_unread_messages_are_marked_until_read(client_for, started_game, alice, bob):
    message = chat_post(game_id=started_game.pk, user=bob, text="your move")
    client = client_for(alice)
    assert '<span class="badge chat-unread" id="chat-unread">1 new</span>' in page(client, started_game)
    home = client.get(reverse("home"))
    assert [row.unread for row in home.context["waiting"]] == [1]
    client.post(reverse("games-chat-read", kwargs={"game_id": started_game.pk}), {"last_id": message.pk},
                HTTP_HX_REQUEST="true")
    assert 'id="chat-unread"' not in page(client, started_game)
    assert 'id="chat-unread"' not in page(client_for(bob), started_game)  # one's own messages are read


def test_marking_read_never_moves_back(started_game, alice, bob):
    first = chat_post(game_id=started_game.pk, user=bob, text="one")
    second = chat_post(game_id=started_game.pk, user=bob, text="two")
    chat_mark_read(game_id=started_game.pk, user=alice, up_to=second.pk)
    chat_mark_read(game_id=started_game.pk, user=alice, up_to=first.pk)  # an older tab
    from games.selectors import chat_unread_counts
    assert chat_unread_counts(alice, [started_game.pk]) == {}


def test_a_muted_chat_shows_no_marker_and_no_messages(client_for, started_game, alice, bob):
    chat_post(game_id=started_game.pk, user=bob, text="psst")
    client = client_for(alice)
    client.post(reverse("games-chat-mute", kwargs={"game_id": started_game.pk}), {"muted": "1"}, HTTP_HX_REQUEST="true")
    text = page(client, started_game)
    assert "You muted this chat" in text and "psst" not in text and 'id="chat-unread"' not in text
    chat_mute(game_id=started_game.pk, user=alice, muted=False)
    assert "psst" in page(client, started_game)


def test_a_message_sends_no_email_of_its_own(started_game, alice, bob, django_capture_on_commit_callbacks):
    before = Notification.objects.count()
    with django_capture_on_commit_callbacks(execute=True):
        chat_post(game_id=started_game.pk, user=alice, text="hello")
    assert Notification.objects.count() == before


def test_the_poll_sends_the_chat_when_a_message_came(client_for, started_game, alice, bob):
    client = client_for(alice)
    poll = reverse("games-poll", kwargs={"game_id": started_game.pk})
    assert client.get(poll, {"v": started_game.version, "c": 0}).status_code == 204
    message = chat_post(game_id=started_game.pk, user=bob, text="are you there?")
    response = client.get(poll, {"v": started_game.version, "c": 0})
    assert response.status_code == 200 and "are you there?" in response.text
    assert f"c={message.pk}" in response.text
    assert client.get(poll, {"v": started_game.version, "c": message.pk}).status_code == 204


def test_a_moderator_hides_a_message_from_the_admin(client_for, started_game, alice, bob, django_user_model):
    message = chat_post(game_id=started_game.pk, user=bob, text="something rude")
    moderator = django_user_model.objects.create_superuser("moderator", "mod@example.com", "pw-moderator-1")
    request = RequestFactory().post("/admin/")
    request.user = moderator
    request._messages = type("M", (), {"add": lambda *a, **k: None})()
    model_admin = site._registry[ChatMessage]
    model_admin.hide(request, ChatMessage.objects.filter(pk=message.pk))
    message.refresh_from_db()
    assert message.hidden
    assert "something rude" not in page(client_for(alice), started_game)
