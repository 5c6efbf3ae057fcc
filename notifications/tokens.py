"""Signed one-click unsubscribe tokens: who, and which single preference to change.

A token never expires (old emails keep working) and is bound to the user id and to one
preference, so it cannot be replayed to change anything else.
"""
from __future__ import annotations

import uuid

from django.core import signing
from django.utils.translation import gettext

UNSUBSCRIBE_SALT = "notifications.unsubscribe"
# What an unsubscribe token may switch off; "mute:<game id>" mutes one game.
PREFERENCES = ("turn_emails", "game_emails", "invitation_emails")


class BadToken(Exception):
    """The token is forged, damaged, or names nothing that can be switched off."""


def make_unsubscribe_token(user_id: int, what: str) -> str:
    """A URL-safe token that switches off ``what`` for the user ``user_id``."""
    return signing.dumps({"u": user_id, "w": what}, salt=UNSUBSCRIBE_SALT, compress=True)


def read_unsubscribe_token(token: str) -> tuple[int, str]:
    """``(user id, what)`` from a token made by :func:`make_unsubscribe_token`.

    Raises ``BadToken`` for a bad signature or an unknown preference.
    """
    try:
        payload = signing.loads(token, salt=UNSUBSCRIBE_SALT)
        user_id, what = int(payload["u"]), str(payload["w"])
    except (signing.BadSignature, KeyError, TypeError, ValueError) as exc:
        raise BadToken(gettext("This unsubscribe link is not valid.")) from exc
    if what not in PREFERENCES:
        prefix, _, game_id = what.partition(":")
        try:
            valid = prefix == "mute" and uuid.UUID(game_id)
        except ValueError:
            valid = False
        if not valid:
            raise BadToken(gettext("This unsubscribe link is not valid."))
    return user_id, what
