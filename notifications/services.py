"""The write path for notifications: record rows, deliver one, invitations, digests, opt-outs.

Recording happens inside the game service's transaction (under the game row lock), so a
notification exists exactly when the change that caused it was committed. Delivery is
separate and idempotent: :func:`notification_deliver` claims the row with a conditional
update, so two deliveries of the same task, or a task racing the beat sweep, send once.
"""
from __future__ import annotations

import datetime as dt
import logging
import smtplib
from collections.abc import Iterable
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from django.conf import settings
from django.core.mail import BadHeaderError
from django.db import DatabaseError, connection, transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.html import conditional_escape
from django.utils.safestring import mark_safe
from django.utils.translation import gettext, gettext_lazy

from games import clock
from games.models import Game, GameStatus, Seat
from games.selectors import chat_unread_counts, users_on_vacation
from games.statements import insert_rows
from notifications.models import (
    Notification, NotificationKind, NotificationStatus, Preferences, SuppressedAddress,
    SuppressionReason, TurnEmails, normalize_address,
)
from orleans_site.text import user_content_html

logger = logging.getLogger(__name__)

# A worker holds a claimed row this long; after that a sweep may try it again.
CLAIM_LEASE = dt.timedelta(minutes=5)
# Attempts before a notification is marked failed, and the wait before each retry.
MAX_ATTEMPTS = 5
RETRY_DELAYS = (dt.timedelta(minutes=1), dt.timedelta(minutes=5), dt.timedelta(minutes=30),
                dt.timedelta(hours=2))


def preferences_for(user) -> Preferences:
    """The user's preferences, created with the defaults if they have none yet."""
    prefs, _ = Preferences.objects.get_or_create(user=user)
    return prefs


def zone_of(prefs: Preferences) -> ZoneInfo:
    """The preferences' time zone (UTC if the stored name is unknown)."""
    try:
        return ZoneInfo(prefs.time_zone)
    except (ZoneInfoNotFoundError, ValueError):
        return ZoneInfo("UTC")


def quiet_hours_end(prefs: Preferences, when: dt.datetime) -> dt.datetime | None:
    """If ``when`` falls in the user's quiet hours, the moment they end; else None.

    Quiet hours are whole local hours [``quiet_start``, ``quiet_end``), wrapping past
    midnight when start > end.
    """
    start, end = prefs.quiet_start, prefs.quiet_end
    if start is None or end is None or start == end:
        return None
    local = when.astimezone(zone_of(prefs))
    hour = local.hour
    inside = start <= hour < end if start < end else (hour >= start or hour < end)
    if not inside:
        return None
    ends = dt.datetime.combine(local.date(), dt.time(end), tzinfo=local.tzinfo)
    if ends <= local:
        ends = dt.datetime.combine(local.date() + dt.timedelta(days=1), dt.time(end),
                                   tzinfo=local.tzinfo)
    return ends


def game_key(game: Game) -> str:
    """The occasion key of a game event: ``"<game id>:<version>"``."""
    return f"{game.id}:{game.version}"


def record_game_notifications(
    *, game: Game, newly_awaited: Iterable[Seat] = (), started: bool = False,
    finished: bool = False,
) -> bool:
    """Record the notifications a committed game change causes; True if any were new.

    Called by ``games.services`` under the game row lock, after the version was bumped.
    ``newly_awaited`` seats (awaited now, not before) get a turn email, except when the
    game just ``started``: then every seat gets one game-started email that says what is
    awaited. When the game ``finished`` every seat gets the result. Preferences are applied
    at delivery, so the rows also record what was held back and why.
    """
    if started or finished:
        kind = NotificationKind.GAME_STARTED if started else NotificationKind.GAME_FINISHED
        rows = [Notification(kind=kind, recipient_id=seat.user_id, game=game,
                             version=game.version, key=game_key(game))
                for seat in Seat.objects.filter(game=game, user__isnull=False)]
    else:
        rows = turn_notification_rows(game=game, newly_awaited=newly_awaited)
    if not rows:
        return False
    Notification.objects.bulk_create(rows, ignore_conflicts=True)
    return True


def turn_notification_rows(*, game: Game, newly_awaited: Iterable[Seat]) -> list[Notification]:
    """The turn emails a change of ``game`` that neither starts nor finishes it causes
    (unsaved rows, ``record_game_notifications``' for it): one for each of the
    ``newly_awaited`` seats a player holds (a bot's gets none), at the game's version."""
    key = game_key(game)
    return [Notification(kind=NotificationKind.TURN, recipient_id=seat.user_id, game=game, version=game.version,
                         key=key) for seat in newly_awaited if seat.user_id is not None]


def notification_insert(rows: list[Notification]) -> tuple[str, list, bool]:
    """The INSERT of ``rows`` (unsaved ``Notification``s, at least one) that skips a row
    whose occasion is recorded already, as ``bulk_create(rows, ignore_conflicts=True)``
    writes it (``games.statements.insert_rows``: its SQL, parameters and prepared flag), for
    a caller that runs it with other statements in one round trip
    (``games.services.store``). Raises ``ValueError`` for no rows."""
    return insert_rows(rows, ignore_conflicts=True)


def cancel_game_notifications(*, game: Game, version: int, reason: str) -> int:
    """Skip the turn emails recorded at ``version`` of ``game`` that are still queued
    (``reason``: the ``skip_reason``, e.g. the move was taken back); returns how many.
    Called by ``games.services`` under the game row lock; one already sent stays sent."""
    return Notification.objects.filter(
        game=game, version=version, kind=NotificationKind.TURN, status=NotificationStatus.QUEUED,
    ).update(status=NotificationStatus.SKIPPED, skip_reason=reason[:80], claimed_until=None)


def record_timed_out(*, game: Game, seat: Seat, moves: int) -> None:
    """Record the "you were timed out" email for ``seat`` (under the game row lock, after
    the timeout's moves). Keyed by the game version, so it is recorded once per timeout."""
    Notification.objects.bulk_create([Notification(
        kind=NotificationKind.TIMED_OUT, recipient_id=seat.user_id, game=game,
        version=game.version, key=game_key(game),
        data={"moves": moves, "timeouts_in_a_row": seat.timeouts_in_a_row,
              "absent": seat.absent},
    )], ignore_conflicts=True)


def record_game_cancelled(*, game: Game) -> Notification:
    """Record the email telling the creator that their unstarted game was cancelled."""
    notification, _ = Notification.objects.get_or_create(
        recipient_id=game.creator_id, kind=NotificationKind.GAME_CANCELLED, key=str(game.id),
        defaults={"game": game, "version": game.version},
    )
    return notification


#: Seats given their next reminder time per UPDATE by the reminder sweep.
REMINDER_UPDATE_BATCH = 100


def reminder_key(seat: Seat, number: int) -> str:
    """The occasion key of reminder ``number`` (1, 2, ...) of a seat's current wait:
    ``"<game id>:<seat order>:<wait start, epoch seconds>:<number>"``."""
    return f"{seat.game_id}:{seat.order}:{int(seat.awaiting_since.timestamp())}:{number}"


def _save_next_reminders(seats: list[Seat]) -> None:
    """Store each seat's ``next_reminder_at``: on PostgreSQL in one UPDATE from two arrays
    (Django's ``bulk_update`` builds a CASE per row, seconds for thousands of seats), else
    ``bulk_update`` in batches."""
    if connection.vendor != "postgresql":
        Seat.objects.bulk_update(seats, ["next_reminder_at"], batch_size=REMINDER_UPDATE_BATCH)
        return
    with connection.cursor() as cursor:
        cursor.execute(
            f'UPDATE {Seat._meta.db_table} SET next_reminder_at = v.at '  # noqa: S608 - the table name is ours
            'FROM unnest(%s::bigint[], %s::timestamptz[]) AS v(id, at) '
            f'WHERE {Seat._meta.db_table}.id = v.id',
            [[seat.pk for seat in seats], [seat.next_reminder_at for seat in seats]])


def reminders_record(*, now: dt.datetime | None = None) -> list[int]:
    """Record the reminders due now; returns the ids of the rows recorded by this call.

    An awaited player gets reminder *n* once *n* reminder intervals
    (``games.clock.reminder_interval``: seconds) have passed since the wait started, one
    per interval, and one deadline warning (number 0) once their clock has at most
    ``GAMES_DEADLINE_WARNING_HOURS`` left: the key (game, seat, wait, n) makes recording
    idempotent. Nothing is recorded for a player on vacation (their next sweep after it
    ends records it), in their quiet hours (the sweep after them does), or with turn
    emails off.

    Proportional to the work due (issue 14): only seats whose ``Seat.next_reminder_at``
    has come are read (an indexed range), each is given its next time
    (``games.clock.next_reminder_at``), and rows recorded by an earlier run are not
    returned again, so a re-run finds nothing and publishes nothing. A constant number
    of queries whatever the number of seats.
    """
    now = now or timezone.now()
    due = list(Seat.objects.filter(next_reminder_at__lte=now).select_related("game").defer("game__state"))
    if not due:
        return []
    seats = [seat for seat in due if seat.game.status == GameStatus.ACTIVE and seat.awaiting
             and seat.awaiting_since is not None and seat.user_id is not None]
    awaited = {seat.pk for seat in seats}
    user_ids = {seat.user_id for seat in seats}
    prefs = {p.user_id: p for p in Preferences.objects.filter(user_id__in=user_ids)}
    on_vacation = users_on_vacation(user_ids) if user_ids else set()
    rows = []
    warn_before = dt.timedelta(hours=settings.GAMES_DEADLINE_WARNING_HOURS)
    for seat in due:
        if seat.pk not in awaited:
            seat.next_reminder_at = None  # the wait or the game is over: not looked at again
            continue
        seat.next_reminder_at = clock.next_reminder_at(seat, seat.game, now, visited=True)
        user_prefs = prefs.get(seat.user_id) or Preferences(user_id=seat.user_id)
        quiet_end = quiet_hours_end(user_prefs, now)
        if quiet_end is not None:
            seat.next_reminder_at = min(seat.next_reminder_at, quiet_end)
        if seat.user_id in on_vacation or user_prefs.turn_emails == TurnEmails.OFF \
                or quiet_end is not None:
            continue
        number = int((now - seat.awaiting_since).total_seconds()) // clock.reminder_interval(seat.game)
        # the deadline warning: once per wait, when the clock has little time left
        warn = seat.deadline is not None and now < seat.deadline <= now + warn_before
        for n in ([number] if number >= 1 else []) + ([0] if warn else []):
            rows.append(Notification(
                kind=NotificationKind.REMINDER, recipient_id=seat.user_id, game=seat.game,
                version=seat.game.version, key=reminder_key(seat, n), send_after=now,
                data={"number": n, "since": seat.awaiting_since.isoformat(), "deadline_warning": n == 0}))
    _save_next_reminders(due)
    if not rows:
        return []
    # (recipient, kind, key) is the unique index: these two reads use it
    mine = {"kind": NotificationKind.REMINDER, "recipient_id__in": {row.recipient_id for row in rows}}
    recorded = set(Notification.objects.filter(**mine, key__in=[row.key for row in rows])
                   .values_list("recipient_id", "key"))
    rows = [row for row in rows if (row.recipient_id, row.key) not in recorded]
    if not rows:
        return []
    Notification.objects.bulk_create(rows, ignore_conflicts=True)
    return list(Notification.objects.filter(
        **mine, status=NotificationStatus.QUEUED, key__in=[row.key for row in rows]).values_list("pk", flat=True))


def record_invitation(*, game: Game, inviter, invitee, rematch: bool = False) -> tuple[Notification, bool]:
    """Record the email inviting ``invitee`` to ``game`` (by ``inviter``; ``rematch``: to
    accept a rematch). Called by ``games.services`` through its outbox, in its transaction;
    the outbox delivers it on commit. One per (invitee, game): returns the row and whether
    it is new."""
    return Notification.objects.get_or_create(
        recipient=invitee, kind=NotificationKind.INVITATION, key=str(game.id),
        defaults={"game": game, "version": game.version,
                  "data": {"inviter": inviter.get_username(), "rematch": rematch}},
    )


def _claim(notification_id: int, now: dt.datetime) -> bool:
    """Take the lease on a due, queued row; False if another delivery holds or sent it."""
    free = Q(claimed_until__isnull=True) | Q(claimed_until__lt=now)
    return bool(
        Notification.objects.filter(
            free, pk=notification_id, status=NotificationStatus.QUEUED, send_after__lte=now
        ).update(claimed_until=now + CLAIM_LEASE)
    )


def _skip_reason(notification: Notification, prefs: Preferences) -> str:
    """Why this notification must not be sent now (empty: send it)."""
    kind, game = notification.kind, notification.game
    if not notification.recipient.email:
        return "no email address"
    suppressed = SuppressedAddress.objects.filter(
        email=normalize_address(notification.recipient.email)).first()
    if suppressed is not None:
        return f"address suppressed: {suppressed.get_reason_display().lower()}"[:80]
    if game is not None and kind != NotificationKind.INVITATION \
            and prefs.muted_games.filter(pk=game.pk).exists():
        return "game muted"
    if kind == NotificationKind.TURN:
        if prefs.turn_emails != TurnEmails.IMMEDIATE:
            return f"turn emails: {prefs.turn_emails}"
        if game.status != GameStatus.ACTIVE:
            return "game no longer active"
        if not Seat.objects.filter(game=game, user=notification.recipient).exclude(
                awaiting="").exists():
            return "no longer awaited"
        if Notification.objects.filter(
                kind=kind, recipient=notification.recipient, game=game,
                version__gt=notification.version).exists():
            return "superseded by a later turn"
    elif kind in (NotificationKind.GAME_STARTED, NotificationKind.GAME_FINISHED):
        if not prefs.game_emails:
            return "game emails off"
    elif kind == NotificationKind.INVITATION:
        if not prefs.invitation_emails:
            return "invitation emails off"
        if game is None or game.status != GameStatus.OPEN:
            return "game no longer open"
    elif kind == NotificationKind.DIGEST:
        if prefs.turn_emails != TurnEmails.DIGEST:
            return f"turn emails: {prefs.turn_emails}"
    elif kind == NotificationKind.REMINDER:
        if prefs.turn_emails == TurnEmails.OFF:
            return "turn emails: off"
        if users_on_vacation([notification.recipient_id]):
            return "on vacation"
        if game.status != GameStatus.ACTIVE:
            return "game no longer active"
        since = Seat.objects.filter(game=game, user=notification.recipient).exclude(
            awaiting="").values_list("awaiting_since", flat=True).first()
        if since is None or since.isoformat() != notification.data.get("since"):
            return "no longer awaited"
    elif kind == NotificationKind.GAME_CANCELLED:
        if not prefs.game_emails:
            return "game emails off"
    return ""


def address_suppress(*, email: str, reason: str = SuppressionReason.BOUNCE,
                     note: str = "") -> SuppressedAddress:
    """Send no more mail to ``email`` (a ``SuppressionReason`` value: bounce, complaint).

    Idempotent: marking an address again updates its reason and note. Queued rows for the
    address are skipped when they come due. Raises ``ValueError`` for an unknown reason.
    """
    if reason not in SuppressionReason.values:
        raise ValueError(f"unknown suppression reason {reason!r}")
    row, _ = SuppressedAddress.objects.update_or_create(
        email=normalize_address(email), defaults={"reason": reason, "note": note[:200]})
    return row


def address_unsuppress(*, email: str) -> bool:
    """Let mail go to ``email`` again; False if it was not suppressed."""
    deleted, _ = SuppressedAddress.objects.filter(email=normalize_address(email)).delete()
    return bool(deleted)


def _short(exc: BaseException) -> str:
    """``"ExceptionName: message"`` on one line."""
    return " ".join(f"{type(exc).__name__}: {exc}".split())


def _smtp_code(code) -> int:
    try:
        return int(code)
    except (TypeError, ValueError):
        return 0


def permanent_failure(exc: BaseException) -> str | None:
    """Why sending failed for good (a retry cannot help), or None for a transient failure.

    Transient: the connection (``OSError``: refused, reset, timed out, the server hung up),
    the database, and SMTP 4xx answers (greylisting, mailbox busy). Permanent: SMTP 5xx
    answers about the recipient or the message (``SMTPRecipientsRefused``,
    ``SMTPDataError``), and any error while building the message (an invalid address, a
    header with a line break, a template error, a row that cannot be read): the same row
    would fail the same way.
    Authentication and sender refusals are the operator's to fix, so they stay transient
    (and become permanent after ``MAX_ATTEMPTS`` like every other).
    """
    if isinstance(exc, smtplib.SMTPRecipientsRefused):
        codes = [_smtp_code(answer[0]) for answer in exc.recipients.values()] or [550]
        if all(code >= 500 for code in codes):
            return f"recipient refused: {_short(exc)}"
        return None
    if isinstance(exc, (smtplib.SMTPAuthenticationError, smtplib.SMTPSenderRefused)):
        return None
    if isinstance(exc, smtplib.SMTPResponseException):
        return f"refused by the mail server: {_short(exc)}" if _smtp_code(exc.smtp_code) >= 500 else None
    if isinstance(exc, (OSError, DatabaseError)):
        return None
    if isinstance(exc, BadHeaderError):
        return f"bad header: {_short(exc)}"
    return f"cannot prepare the message: {_short(exc)}"


def _finish(notification_id: int, **fields) -> None:
    """Store the delivery's result and release the lease."""
    Notification.objects.filter(pk=notification_id).update(claimed_until=None, **fields)


def notification_deliver(*, notification_id: int, now: dt.datetime | None = None) -> str:
    """Send one notification if it is due and still wanted; idempotent.

    Returns what happened: ``"sent"``, ``"skipped"`` (preferences, mute, or the game moved
    on), ``"deferred"`` (quiet hours: ``send_after`` is moved to their end), ``"retry"``
    (a transient failure; tried again later), ``"failed"`` (a permanent failure, see
    :func:`permanent_failure`, or ``MAX_ATTEMPTS`` transient ones: ``failure_reason`` says
    which) or
    ``"not claimed"`` (already sent, not due, or another delivery holds it).
    """
    now = now or timezone.now()
    if not _claim(notification_id, now):
        return "not claimed"
    try:
        return _deliver_claimed(notification_id, now)
    except Exception as exc:  # noqa: BLE001 - every failure is recorded; only transient ones retried
        return _failed_attempt(notification_id, now, exc)


def _deliver_claimed(notification_id: int, now: dt.datetime) -> str:
    """The part of :func:`notification_deliver` after the claim; raises whatever deciding,
    building or sending the email raises (the caller records it)."""
    from notifications.emails import build_message

    notification = Notification.objects.select_related("recipient", "game").get(
        pk=notification_id
    )
    prefs = preferences_for(notification.recipient)
    reason = _skip_reason(notification, prefs)
    if reason:
        _finish(notification_id, status=NotificationStatus.SKIPPED, skip_reason=reason)
        return "skipped"
    if notification.kind == NotificationKind.TURN and prefs.turn_email_delay_minutes:
        # the player's grace period: sent only if they still have not played by then
        # (the "no longer awaited" skip above decides when the delayed row comes due)
        after = notification.created_at + dt.timedelta(minutes=prefs.turn_email_delay_minutes)
        if now < after:
            _finish(notification_id, send_after=after)
            return "deferred"
    if notification.kind != NotificationKind.DIGEST:
        ends = quiet_hours_end(prefs, now)
        if ends is not None:
            _finish(notification_id, send_after=ends)
            return "deferred"
    build_message(notification, prefs).send(fail_silently=False)
    _finish(notification_id, status=NotificationStatus.SENT, attempts=notification.attempts + 1,
            sent_at=timezone.now())
    return "sent"


def _failed_attempt(notification_id: int, now: dt.datetime, exc: Exception) -> str:
    """Record a failed attempt of a claimed row: ``"failed"`` for a permanent failure (or
    the ``MAX_ATTEMPTS``-th), else ``"retry"`` after the next ``RETRY_DELAYS`` wait. A hard
    SMTP refusal of the recipient also suppresses the address (a bounce)."""
    attempts, email = Notification.objects.filter(pk=notification_id).values_list(
        "attempts", "recipient__email").get()
    attempts += 1
    permanent = permanent_failure(exc)
    if permanent is None and attempts >= MAX_ATTEMPTS:
        permanent = f"gave up after {attempts} attempts: {_short(exc)}"
    if permanent is not None:
        logger.error("notification %s failed for good: %s", notification_id, permanent)
        if isinstance(exc, smtplib.SMTPRecipientsRefused) and email:
            address_suppress(email=email, note=permanent)
        _finish(notification_id, status=NotificationStatus.FAILED, attempts=attempts,
                last_error=repr(exc), failure_reason=permanent[:200])
        return "failed"
    logger.warning("notification %s: attempt %s failed: %s", notification_id, attempts, exc)
    delay = RETRY_DELAYS[min(attempts, len(RETRY_DELAYS)) - 1]
    _finish(notification_id, attempts=attempts, last_error=repr(exc), send_after=now + delay)
    return "retry"


def due_notification_ids(*, now: dt.datetime | None = None, limit: int = 500) -> list[int]:
    """Queued notifications that are due and not held by a live lease, oldest first."""
    now = now or timezone.now()
    return list(
        Notification.objects.filter(status=NotificationStatus.QUEUED, send_after__lte=now)
        .filter(Q(claimed_until__isnull=True) | Q(claimed_until__lt=now))
        .order_by("send_after", "pk")
        .values_list("pk", flat=True)[:limit]
    )


def digests_record(*, now: dt.datetime | None = None) -> list[int]:
    """Record today's digest for every digest user whose local digest hour is now.

    A digest lists every active game waiting for the user (muted games left out), oldest
    wait first, and the chat messages they have not read in their active games over the last
    day (``games.selectors.chat_unread_counts``: a chat message never has an email of its
    own); users with nothing waiting and nothing unread get none. The key is the user's local date, so
    sweeps repeated within the hour record one digest a day. Returns the new rows' ids.
    """
    now = now or timezone.now()
    due: dict[int, str] = {}
    for prefs in Preferences.objects.filter(turn_emails=TurnEmails.DIGEST).only(
            "user_id", "digest_hour", "time_zone"):
        local = now.astimezone(zone_of(prefs))
        if local.hour == prefs.digest_hour:
            due[prefs.user_id] = local.date().isoformat()
    if not due:
        return []
    done = set(
        Notification.objects.filter(kind=NotificationKind.DIGEST, recipient_id__in=due)
        .filter(key__in=set(due.values())).values_list("recipient_id", "key")
    )
    muted = set(
        Preferences.muted_games.through.objects.filter(preferences__user_id__in=due)
        .values_list("preferences__user_id", "game_id")
    )
    waiting: dict[int, list[str]] = {}
    for user_id, game_id in (
        Seat.objects.filter(user_id__in=due, game__status=GameStatus.ACTIVE)
        .exclude(awaiting="").order_by("awaiting_since", "pk")
        .values_list("user_id", "game_id")
    ):
        if (user_id, due[user_id]) not in done and (user_id, game_id) not in muted:
            waiting.setdefault(user_id, []).append(str(game_id))
    chat: dict[int, dict[str, int]] = {}
    for user_id in due:
        if (user_id, due[user_id]) in done:
            continue
        active = Seat.objects.filter(user_id=user_id, game__status=GameStatus.ACTIVE).values_list("game_id", flat=True)
        unread = chat_unread_counts(user_id, [g for g in active if (user_id, g) not in muted],
                                    since=now - dt.timedelta(days=1))
        if unread:
            chat[user_id] = {str(game_id): count for game_id, count in unread.items()}
    rows = [Notification(kind=NotificationKind.DIGEST, recipient_id=user_id, key=due[user_id],
                         data={"games": waiting.get(user_id, []), "chat": chat.get(user_id, {})},
                         send_after=now)
            for user_id in sorted(set(waiting) | set(chat))]
    Notification.objects.bulk_create(rows, ignore_conflicts=True)
    return list(
        Notification.objects.filter(
            kind=NotificationKind.DIGEST, recipient_id__in=set(waiting) | set(chat),
            status=NotificationStatus.QUEUED, key__in=set(due.values()),
        ).values_list("pk", flat=True)
    )


UNSUBSCRIBED = {
    "turn_emails": gettext_lazy("turn emails"),
    "game_emails": gettext_lazy("emails when a game starts or ends"),
    "invitation_emails": gettext_lazy("invitation emails"),
}


def unsubscribe_describe(what: str, *, html: bool = False) -> str:
    """A short description, in the active language, of what an unsubscribe token switches
    off; ``html``: the game's name (user content) escaped and marked ``translate="no"``."""
    if what.startswith("mute:"):
        game = Game.objects.filter(pk=what.split(":", 1)[1]).first()
        if game is None:
            return gettext("emails about this game")
        if html:
            sentence = conditional_escape(gettext("emails about the game “%(game)s”"))
            return mark_safe(sentence % {"game": user_content_html(game.name)})  # noqa: S308 - both parts escaped
        return gettext("emails about the game “%(game)s”") % {"game": game.name}
    return str(UNSUBSCRIBED[what])


@transaction.atomic
def unsubscribe(*, user_id: int, what: str) -> bool:
    """Switch off the one preference ``what`` (from a signed token) for ``user_id``.

    ``turn_emails`` becomes off; ``game_emails`` and ``invitation_emails`` become false;
    ``mute:<game id>`` mutes that game. Nothing else changes. Returns False if the user or
    game no longer exists. Idempotent.
    """
    prefs = Preferences.objects.filter(user_id=user_id).select_for_update().first()
    if prefs is None:
        from django.contrib.auth import get_user_model

        user = get_user_model().objects.filter(pk=user_id).first()
        if user is None:
            return False
        prefs = preferences_for(user)
    if what.startswith("mute:"):
        game = Game.objects.filter(pk=what.split(":", 1)[1]).first()
        if game is None:
            return False
        prefs.muted_games.add(game)
        return True
    setattr(prefs, what, TurnEmails.OFF if what == "turn_emails" else False)
    prefs.save(update_fields=[what, "updated_at"])
    return True
