"""Chat at a game: post a message, mark the chat read, mute it; a moderator hides a message.

A message is plain text of at most ``ChatMessage.MAX_LENGTH`` characters (line breaks
allowed, other control and invisible format characters refused), shown escaped. A user
posts at most ``GAMES_CHAT_RATE_MESSAGES`` messages per ``GAMES_CHAT_RATE_SECONDS`` in one
game. Players write in the players' channel; in a public game any other signed-in user
writes in the spectators' one (``selectors.chat_write_channel``). No message causes an email
of its own: unread messages count towards the daily digest (``notifications``).
"""
from __future__ import annotations

from django.conf import settings
from django.db import transaction
from django.db.models.functions import Greatest
from django.utils.translation import gettext

from games.errors import ChatError
from games.models import ChatMessage, ChatReader, GameStatus, Seat
from games.selectors import chat_recent_count, chat_write_channel
from games.services.live import touch_live
from games.services.locks import GameId, _lock_game
from orleans_site.text import describe_character, refused_characters


def _clean(text: str) -> str:
    """The message as stored: line breaks made ``\\n``, surrounding blanks stripped.
    Raises ``ChatError`` (empty, too long, control characters)."""
    text = str(text or "").replace("\r\n", "\n").replace("\r", "\n").strip()
    if not text:
        raise ChatError(gettext("Write a message first."))
    if len(text) > ChatMessage.MAX_LENGTH:
        raise ChatError(gettext("A chat message has at most {most} characters (this one has {length}).").format(
            most=ChatMessage.MAX_LENGTH, length=len(text)))
    found = refused_characters(text.replace("\n", ""))
    if found:
        what = ", ".join(dict.fromkeys(describe_character(c) for c in found))
        raise ChatError(gettext("A chat message cannot contain {what}.").format(what=what))
    return text


def _read_up_to(user, game, message_id: int) -> None:
    """Move the user's read position at ``game`` forward to ``message_id`` (never back)."""
    reader, created = ChatReader.objects.get_or_create(user=user, game=game,
                                                       defaults={"last_read_id": message_id})
    if not created:
        ChatReader.objects.filter(pk=reader.pk).update(last_read_id=Greatest("last_read_id", message_id))


@transaction.atomic
def chat_post(*, game_id: GameId, user, text: str) -> ChatMessage:
    """Post ``text`` at the game as ``user``, in the channel they write in; their own chat
    is then read up to it. Raises ``ChatError`` (cannot write here, a cancelled game, bad
    text, too fast), ``GameNotFound``. Nothing is stored when refused."""
    game = _lock_game(game_id)
    seat = Seat.objects.filter(game=game, user=user).first()
    channel = chat_write_channel(game, seat, user)
    if channel is None:
        raise ChatError(gettext("Only the players can chat at this game."))
    if game.status == GameStatus.CANCELLED:
        raise ChatError(gettext("This game was cancelled: its chat is closed."))
    text = _clean(text)
    if chat_recent_count(user, game, settings.GAMES_CHAT_RATE_SECONDS) >= settings.GAMES_CHAT_RATE_MESSAGES:
        raise ChatError(gettext("You are sending messages too fast: at most {messages} every {seconds} seconds. "
                                "Wait a moment.").format(messages=settings.GAMES_CHAT_RATE_MESSAGES,
                                                         seconds=settings.GAMES_CHAT_RATE_SECONDS))
    message = ChatMessage.objects.create(game=game, author=user, channel=channel, text=text)
    _read_up_to(user, game, message.pk)
    return message


@transaction.atomic
def chat_mark_read(*, game_id: GameId, user, up_to: int) -> None:
    """The user has read the game's chat up to message id ``up_to`` (what their page
    showed; a position already further on is kept). Raises ``GameNotFound``."""
    game = _lock_game(game_id)
    _read_up_to(user, game, max(0, int(up_to)))


@transaction.atomic
def chat_mute(*, game_id: GameId, user, muted: bool) -> ChatReader:
    """Mute (or unmute) the game's chat for ``user``: a muted chat is folded away, shows
    no unread marker and counts nothing towards the digest. Raises ``GameNotFound``."""
    game = _lock_game(game_id)
    reader, _ = ChatReader.objects.get_or_create(user=user, game=game)
    reader.muted = bool(muted)
    reader.save(update_fields=["muted"])
    return reader


@transaction.atomic
def chat_set_hidden(*, messages, hidden: bool) -> int:
    """A moderator hides the ``messages`` (a ``ChatMessage`` queryset) from every page, or
    shows them again (``hidden=False``); their games' open pages are told at their next
    poll (``touch_live``: hiding a message older than the newest changes no chat id).
    Returns how many messages were changed."""
    game_ids = set(messages.values_list("game_id", flat=True))
    count = messages.update(hidden=hidden)
    touch_live(game_ids)
    return count
