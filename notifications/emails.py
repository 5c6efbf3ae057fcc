"""Building the email for a notification: subject, text and HTML parts, headers.

Every email names the game, says what is awaited, gives times in the recipient's time
zone, links straight to the game, and carries a signed one-click unsubscribe link in the
body and in the ``List-Unsubscribe`` / ``List-Unsubscribe-Post`` headers (RFC 8058), with
a ``mailto:`` alternative.
"""
from __future__ import annotations

import datetime as dt
from urllib.parse import quote

from django.conf import settings
from django.core.mail import EmailMultiAlternatives
from django.template.loader import render_to_string
from django.urls import reverse

from games.access import make_invite_token
from games.models import Game, Seat
from games.selectors import finished_game_result
from notifications.models import Notification, NotificationKind, Preferences
from notifications.services import zone_of
from notifications.tokens import make_unsubscribe_token
from orleans_site.text import header_text

# What an awaited seat must do, by engine decision kind (docs/engine.md, "Decisions").
AWAITED = {
    "draw": "draw your followers and plan",
    "plan": "plan where your followers go",
    "action": "choose an action or pass",
    "torture": "pay what you owe (torture)",
    "harvest": "choose the food to return (Harvest)",
    "technology": "place your technology tile",
    "bathhouse": "choose followers from the Bathhouse",
}
# The one preference each kind's unsubscribe link switches off.
UNSUBSCRIBE_WHAT = {
    NotificationKind.TURN: "turn_emails",
    NotificationKind.DIGEST: "turn_emails",
    NotificationKind.GAME_STARTED: "game_emails",
    NotificationKind.GAME_FINISHED: "game_emails",
    NotificationKind.INVITATION: "invitation_emails",
    NotificationKind.REMINDER: "turn_emails",
    NotificationKind.TIMED_OUT: "game_emails",
    NotificationKind.GAME_CANCELLED: "game_emails",
}


def absolute_url(path: str) -> str:
    """``path`` on the public site (``settings.SITE_URL``)."""
    return settings.SITE_URL.rstrip("/") + path


def awaited_text(kind: str) -> str:
    """What a seat awaited for decision ``kind`` must do, as a phrase."""
    return AWAITED.get(kind, f"make a decision ({kind})" if kind else "nothing at the moment")


def local_time(moment: dt.datetime | None, prefs: Preferences) -> str:
    """``moment`` in the user's time zone, e.g. ``"Mon 03 Mar 2025, 14:05 CET"``."""
    if moment is None:
        return ""
    local = moment.astimezone(zone_of(prefs))
    return f"{local:%a %d %b %Y, %H:%M} {local.tzname()}"


def game_url(game: Game) -> str:
    """The absolute link to a game's page."""
    return absolute_url(reverse("games-detail", kwargs={"game_id": game.pk}))


def unsubscribe_url(user_id: int, what: str) -> str:
    """The absolute one-click link that switches off ``what`` for the user."""
    token = make_unsubscribe_token(user_id, what)
    return absolute_url(reverse("notifications-unsubscribe", kwargs={"token": token}))


def list_unsubscribe(url: str) -> str:
    """The ``List-Unsubscribe`` value (RFC 2369, RFC 8058): the one-click https ``url``,
    then a ``mailto:`` of ``NOTIFICATIONS_UNSUBSCRIBE_EMAIL`` whose subject carries the same
    signed token (its last path part), for mail clients that only mail."""
    token = url.rstrip("/").rsplit("/", 1)[-1]
    mailto = f"mailto:{settings.NOTIFICATIONS_UNSUBSCRIBE_EMAIL}?subject={quote('unsubscribe ' + token)}"
    return f"<{url}>, <{mailto}>"


def _ordinal(place: int | None) -> str:
    if place is None:
        return "?"
    suffix = "th" if 10 <= place % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(place % 10, "th")
    return f"{place}{suffix}"


def _waiting_entry(seat: Seat, prefs: Preferences) -> dict:
    return {"game": seat.game, "url": game_url(seat.game), "awaited": awaited_text(seat.awaiting),
            "since": local_time(seat.awaiting_since, prefs)}


def _context(notification: Notification, prefs: Preferences) -> tuple[str, dict]:
    """The subject (without prefix) and the template context of a notification."""
    user, game, kind = notification.recipient, notification.game, notification.kind
    ctx: dict = {"user": user, "game": game, "site_name": settings.SITE_NAME,
                 "time_zone": prefs.time_zone,
                 "preferences_url": absolute_url(reverse("notifications-preferences"))}
    if game is not None:
        ctx["game_url"] = game_url(game)
        ctx["players"] = [s.display_name for s in game.seats.select_related("user")]
        if kind != NotificationKind.INVITATION:
            ctx["mute_url"] = unsubscribe_url(user.pk, f"mute:{game.pk}")
    seat = None if game is None else Seat.objects.filter(game=game, user=user).first()
    if seat is not None:
        ctx["deadline"] = local_time(seat.deadline, prefs)
    if kind == NotificationKind.TURN:
        ctx.update(awaited=awaited_text(seat.awaiting),
                   since=local_time(seat.awaiting_since or notification.created_at, prefs))
        subject = f"Your turn in “{game.name}”: {ctx['awaited']}"
    elif kind == NotificationKind.REMINDER:
        ctx.update(awaited=awaited_text(seat.awaiting),
                   since=local_time(seat.awaiting_since or notification.created_at, prefs))
        subject = (f"Time is running out in “{game.name}”" if notification.data.get("deadline_warning")
                   else f"Reminder: “{game.name}” is waiting for you")
    elif kind == NotificationKind.TIMED_OUT:
        ctx.update(absent=notification.data.get("absent", False),
                   in_a_row=notification.data.get("timeouts_in_a_row", 1),
                   absent_after=settings.GAMES_ABSENT_AFTER_TIMEOUTS)
        subject = f"You were timed out in “{game.name}”"
    elif kind == NotificationKind.GAME_CANCELLED:
        ctx["max_days"] = settings.GAMES_OPEN_GAME_MAX_DAYS
        subject = f"“{game.name}” was cancelled: it did not start in time"
    elif kind == NotificationKind.GAME_STARTED:
        ctx.update(awaited=awaited_text(seat.awaiting) if seat else "",
                   started=local_time(game.started_at, prefs))
        subject = f"“{game.name}” has started"
    elif kind == NotificationKind.GAME_FINISHED:
        result = finished_game_result(game, user)
        place = result.viewer.placement if result.viewer else None
        ctx.update(result=result, placement=_ordinal(place),
                   finished=local_time(game.finished_at, prefs))
        subject = f"“{game.name}” is over: you placed {_ordinal(place)}"
    elif kind == NotificationKind.INVITATION:
        inviter = notification.data.get("inviter", "A player")
        rematch = bool(notification.data.get("rematch"))
        # a rematch's players already hold their seats: its page is theirs to open
        link = (ctx["game_url"] if game.is_public or rematch else absolute_url(reverse(
            "games-invite", kwargs={"game_id": game.pk, "token": make_invite_token(game)})))
        ctx.update(inviter=inviter, invite_url=link, rematch=rematch)
        subject = (f"{inviter} asks for a rematch: “{game.name}”" if rematch
                   else f"{inviter} invites you to play “{game.name}”")
    else:
        ids = notification.data.get("games", [])
        seats = {str(s.game_id): s for s in Seat.objects.filter(
            user=user, game_id__in=ids).exclude(awaiting="").select_related("game")}
        ctx["entries"] = [_waiting_entry(seats[i], prefs) for i in ids if i in seats]
        unread = notification.data.get("chat", {})
        chat_games = {str(g.pk): g for g in Game.objects.filter(pk__in=list(unread)).defer("state")}
        ctx["chat"] = [{"game": chat_games[i], "url": game_url(chat_games[i]), "count": n}
                       for i, n in unread.items() if i in chat_games]
        count = len(ctx["entries"])
        subject = (f"{count} game{'s' if count != 1 else ''} waiting for you" if count or not ctx["chat"]
                   else "Unread chat messages in your games")
    return subject, ctx


def build_message(notification: Notification, prefs: Preferences) -> EmailMultiAlternatives:
    """The email for ``notification`` (text and HTML parts, unsubscribe headers)."""
    subject, ctx = _context(notification, prefs)
    what = UNSUBSCRIBE_WHAT[notification.kind]
    ctx["unsubscribe_url"] = unsubscribe_url(notification.recipient_id, what)
    from notifications.services import unsubscribe_describe

    ctx["unsubscribe_what"] = unsubscribe_describe(what)
    template = f"notifications/email/{notification.kind}"
    message = EmailMultiAlternatives(
        # flattened here too: a name stored before validation may hold a line break
        subject=header_text(settings.NOTIFICATIONS_SUBJECT_PREFIX + subject),
        body=render_to_string(f"{template}.txt", ctx),
        to=[notification.recipient.email],
        headers={
            "List-Unsubscribe": list_unsubscribe(ctx["unsubscribe_url"]),
            "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
            "Auto-Submitted": "auto-generated",
        },
    )
    message.attach_alternative(render_to_string(f"{template}.html", ctx), "text/html")
    return message
