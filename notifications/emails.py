"""Building the email for a notification: subject, text and HTML parts, headers.

Every email is written in the recipient's language (``notifications.language.language_of``:
subject, text and HTML under ``translation.override``), names the game, says what is
awaited, gives times in the recipient's time zone and their language's date format, links
straight to the game, and carries a signed one-click unsubscribe link in the
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
from django.utils import translation
from django.utils.dateformat import format as date_format
from django.utils.html import conditional_escape, format_html, format_html_join
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext, pgettext, pgettext_lazy

from games.access import make_invite_token
from games.models import Game, Seat
from games.selectors import finished_game_result
from notifications.language import language_of
from notifications.models import Notification, NotificationKind, Preferences
from notifications.services import zone_of
from notifications.tokens import make_unsubscribe_token
from orleans_site.text import header_text, user_content_html

# What an awaited seat must do, by engine decision kind (docs/engine.md, "Decisions").
AWAITED = {
    "draw": gettext_lazy("draw your followers and plan"),
    "plan": gettext_lazy("plan where your followers go"),
    "action": gettext_lazy("choose an action or pass"),
    "torture": gettext_lazy("pay what you owe (torture)"),
    "harvest": gettext_lazy("choose the food to return (Harvest)"),
    "technology": gettext_lazy("place your technology tile"),
    "bathhouse": gettext_lazy("choose followers from the Bathhouse"),
}
#: A player's final place (games have at most five seats), in the active language.
PLACEMENTS = {1: pgettext_lazy("placement", "1st"), 2: pgettext_lazy("placement", "2nd"),
              3: pgettext_lazy("placement", "3rd"), 4: pgettext_lazy("placement", "4th"),
              5: pgettext_lazy("placement", "5th")}
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
    """What a seat awaited for decision ``kind`` must do, as a phrase in the active language."""
    if kind in AWAITED:
        return str(AWAITED[kind])
    if kind:
        return _("make a decision (%(kind)s)") % {"kind": kind}
    return _("nothing at the moment")


def local_time(moment: dt.datetime | None, prefs: Preferences) -> str:
    """``moment`` in the user's time zone and the active language's format: English
    ``"Mon 03 Mar 2025, 14:05 CET"``, Japanese ``"2025年3月3日(月) 22:05 JST"``; "" for None."""
    if moment is None:
        return ""
    local = moment.astimezone(zone_of(prefs))
    # a PHP-style format (django.utils.dateformat); day and month names follow the language
    return date_format(local, pgettext("email date and time format", "D d M Y, H:i T"))


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
    """A final place as the active language writes it ("1st", "1位"); "?" when unknown."""
    if place is None:
        return "?"
    return str(PLACEMENTS.get(place, place))


def quoted(name: str) -> str:
    """A game's name in the active language's quotation marks (“Loire”, 「Loire」)."""
    return pgettext("a game's name in quotation marks", "“%(name)s”") % {"name": name}


def quoted_html(name: str) -> str:
    """``quoted`` for HTML: bold, the name escaped and marked ``translate="no"`` (user content)."""
    marks = conditional_escape(pgettext("a game's name in quotation marks", "“%(name)s”"))
    return format_html("<strong>{}</strong>", mark_safe(marks % {"name": user_content_html(name)}))  # noqa: S308 - both parts escaped


def join_names(names: list[str], html: bool = False) -> str:
    """Player names joined with the active language's list separator (", ", "、")."""
    separator = pgettext("between names in a list", ", ")  # the site's one list separator (games_extras.join_names)
    if html:
        return format_html_join(separator, "{}", ((user_content_html(n),) for n in names))
    return separator.join(names)


def _game_names(game: Game) -> dict:
    return {"game_quoted": quoted(game.name), "game_html": quoted_html(game.name)}


def _waiting_entry(seat: Seat, prefs: Preferences) -> dict:
    return {"game": seat.game, **_game_names(seat.game), "url": game_url(seat.game),
            "awaited": awaited_text(seat.awaiting), "since": local_time(seat.awaiting_since, prefs)}


def _context(notification: Notification, prefs: Preferences) -> tuple[str, dict]:
    """The subject (without prefix) and the template context of a notification."""
    user, game, kind = notification.recipient, notification.game, notification.kind
    ctx: dict = {"user": user, "user_html": user_content_html(user.get_username()), "game": game,
                 "site_name": settings.SITE_NAME, "time_zone": prefs.time_zone,
                 "time_zone_html": user_content_html(prefs.time_zone),
                 "preferences_url": absolute_url(reverse("notifications-preferences"))}
    if game is not None:
        ctx["game_url"] = game_url(game)
        ctx.update(_game_names(game))
        ctx["players"] = [s.display_name for s in game.seats.select_related("user")]
        ctx["players_text"] = join_names(ctx["players"])
        ctx["players_html"] = join_names(ctx["players"], html=True)
        if kind != NotificationKind.INVITATION:
            ctx["mute_url"] = unsubscribe_url(user.pk, f"mute:{game.pk}")
    seat = None if game is None else Seat.objects.filter(game=game, user=user).first()
    if seat is not None:
        ctx["deadline"] = local_time(seat.deadline, prefs)
        ctx["deadline_html"] = format_html("<strong>{}</strong>", ctx["deadline"])
    if kind == NotificationKind.TURN:
        ctx.update(awaited=awaited_text(seat.awaiting),
                   since=local_time(seat.awaiting_since or notification.created_at, prefs))
        subject = _("Your turn in %(game)s: %(awaited)s") % {"game": ctx["game_quoted"], "awaited": ctx["awaited"]}
    elif kind == NotificationKind.REMINDER:
        ctx.update(awaited=awaited_text(seat.awaiting),
                   since=local_time(seat.awaiting_since or notification.created_at, prefs))
        subject = (_("Time is running out in %(game)s") if notification.data.get("deadline_warning")
                   else _("Reminder: %(game)s is waiting for you")) % {"game": ctx["game_quoted"]}
    elif kind == NotificationKind.TIMED_OUT:
        ctx.update(absent=notification.data.get("absent", False),
                   in_a_row=notification.data.get("timeouts_in_a_row", 1),
                   absent_after=settings.GAMES_ABSENT_AFTER_TIMEOUTS)
        subject = _("You were timed out in %(game)s") % {"game": ctx["game_quoted"]}
    elif kind == NotificationKind.GAME_CANCELLED:
        ctx["max_days"] = settings.GAMES_OPEN_GAME_MAX_DAYS
        subject = _("%(game)s was cancelled: it did not start in time") % {"game": ctx["game_quoted"]}
    elif kind == NotificationKind.GAME_STARTED:
        ctx.update(awaited=awaited_text(seat.awaiting) if seat else "",
                   started=local_time(game.started_at, prefs))
        subject = _("%(game)s has started") % {"game": ctx["game_quoted"]}
    elif kind == NotificationKind.GAME_FINISHED:
        result = finished_game_result(game, user)
        placement = _ordinal(result.viewer.placement if result.viewer else None)
        ctx.update(result=result, placement=placement,
                   placement_html=format_html("<strong>{}</strong>", placement),
                   finished=local_time(game.finished_at, prefs))
        subject = _("%(game)s is over: you placed %(placement)s") % {
            "game": ctx["game_quoted"], "placement": ctx["placement"]}
    elif kind == NotificationKind.INVITATION:
        inviter = notification.data.get("inviter") or _("A player")
        rematch = bool(notification.data.get("rematch"))
        # a rematch's players already hold their seats: its page is theirs to open
        link = (ctx["game_url"] if game.is_public or rematch else absolute_url(reverse(
            "games-invite", kwargs={"game_id": game.pk, "token": make_invite_token(game)})))
        ctx.update(inviter=inviter, inviter_html=user_content_html(inviter), invite_url=link,
                   rematch=rematch)
        subject = (_("%(inviter)s asks for a rematch: %(game)s") if rematch
                   else _("%(inviter)s invites you to play %(game)s")) % {
            "inviter": inviter, "game": ctx["game_quoted"]}
    else:
        ids = notification.data.get("games", [])
        seats = {str(s.game_id): s for s in Seat.objects.filter(
            user=user, game_id__in=ids).exclude(awaiting="").select_related("game")}
        ctx["entries"] = [_waiting_entry(seats[i], prefs) for i in ids if i in seats]
        unread = notification.data.get("chat", {})
        chat_games = {str(g.pk): g for g in Game.objects.filter(pk__in=list(unread)).defer("state")}
        ctx["chat"] = [{"game": chat_games[i], **_game_names(chat_games[i]), "url": game_url(chat_games[i]),
                        "count": n}
                       for i, n in unread.items() if i in chat_games]
        count = len(ctx["entries"])
        subject = (ngettext("%(count)d game waiting for you", "%(count)d games waiting for you", count)
                   % {"count": count} if count or not ctx["chat"]
                   else _("Unread chat messages in your games"))
    return subject, ctx


def build_message(notification: Notification, prefs: Preferences) -> EmailMultiAlternatives:
    """The email for ``notification`` (text and HTML parts, unsubscribe headers), in the
    recipient's language (``language_of(prefs)``) whatever language is active around it."""
    with translation.override(language_of(prefs)):
        return _build_message(notification, prefs)


def _build_message(notification: Notification, prefs: Preferences) -> EmailMultiAlternatives:
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
