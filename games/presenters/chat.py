"""The game page's chat region: the channels the viewer reads, their messages, the unread
marker and whether the viewer may write. Display values only; the text is escaped by the
template like any other user text."""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field

from games import selectors
from games.models import ChatMessage, Game, Seat
from games.vocabulary import chat_channel_name


@dataclass(frozen=True)
class ChatLine:
    """One message as shown: author's name, text, time, and whether it is the viewer's own
    or new to them."""

    id: int
    author: str
    text: str
    created_at: dt.datetime
    mine: bool
    new: bool


@dataclass(frozen=True)
class ChatChannelPanel:
    """One channel: ``name`` (``ChatChannel`` value), ``label`` and its latest ``lines``."""

    name: str
    label: str
    lines: list[ChatLine]


@dataclass(frozen=True)
class ChatPanel:
    """The chat region. ``channels`` the viewer reads; ``write_channel`` the one they post
    in (None: read only); ``unread`` messages of others after the read position; ``last_id``
    the newest message id (what "mark as read" and the poll send back); ``muted``."""

    channels: list[ChatChannelPanel] = field(default_factory=list)
    write_channel: str | None = None
    write_label: str = ""
    unread: int = 0
    last_id: int = 0
    muted: bool = False
    signed_in: bool = False
    max_length: int = ChatMessage.MAX_LENGTH


def chat_panel(game: Game, seat: Seat | None, user, known: selectors.ChatKnown | None = None) -> ChatPanel:
    """The ``ChatPanel`` of ``game`` for ``user`` at ``seat`` (None: a spectator or visitor).
    ``known``: the reader and newest ids already read (``selectors.page_chat_known``): no
    query for the reader, none for a channel without messages."""
    reader = known.reader if known is not None else selectors.chat_reader(user, game)
    user_id = getattr(user, "pk", None) if getattr(user, "is_authenticated", False) else None
    channels, unread, last_id = [], 0, 0
    for name in selectors.chat_read_channels(game, seat):
        empty = known is not None and not known.newest.get(name)
        lines = [ChatLine(id=m.pk, author=m.author.username, text=m.text, created_at=m.created_at,
                          mine=m.author_id == user_id,
                          new=user_id is not None and m.author_id != user_id and m.pk > reader.last_read_id)
                 for m in ([] if empty else selectors.chat_messages(game, name))]
        unread += sum(line.new for line in lines)
        last_id = max([last_id] + [line.id for line in lines])
        channels.append(ChatChannelPanel(name=name, label=chat_channel_name(name), lines=lines))
    write = selectors.chat_write_channel(game, seat, user)
    return ChatPanel(channels=channels, write_channel=write, write_label=chat_channel_name(write) if write else "",
                     unread=0 if reader.muted else unread, last_id=last_id, muted=reader.muted,
                     signed_in=user_id is not None)
