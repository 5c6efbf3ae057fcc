"""Notification rows (an outbox) and each user's email preferences.

A ``Notification`` is written in the same transaction as the game change that caused it,
so nothing is lost if the broker is down; Celery tasks only deliver rows. The unique key
(recipient, kind, key) makes recording idempotent, and a conditional update claims a row
before sending, so a duplicate task delivery never sends twice.
"""
from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


class NotificationKind(models.TextChoices):
    """What a notification is about. Stored values are stable: never rename them."""

    TURN = "turn", _("Your turn")
    GAME_STARTED = "game_started", _("Game started")
    INVITATION = "invitation", _("Invitation")
    GAME_FINISHED = "game_finished", _("Game finished")
    DIGEST = "digest", _("Daily digest")
    REMINDER = "reminder", _("Reminder")
    TIMED_OUT = "timed_out", _("Timed out")
    GAME_CANCELLED = "game_cancelled", _("Game cancelled")


class NotificationStatus(models.TextChoices):
    """Delivery status. ``queued`` includes a retry waiting for its time."""

    QUEUED = "queued", "Queued"
    SENT = "sent", "Sent"
    FAILED = "failed", "Failed"
    SKIPPED = "skipped", "Skipped"


class Notification(models.Model):
    """One email to one user, from its recording to its delivery.

    ``key`` identifies the occasion within (recipient, kind): ``"<game id>:<version>"`` for
    game events, the user's local date for a digest. ``send_after`` holds a notification
    back (quiet hours, retry back-off); ``claimed_until`` is the lease of the worker sending
    it. ``skip_reason`` says why a skipped row was not sent (preference, mute, moved on),
    ``failure_reason`` why a failed one stopped retrying; ``last_error`` is the last
    exception raised while sending.
    """

    kind = models.CharField(max_length=20, choices=NotificationKind.choices)
    recipient = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notifications"
    )
    game = models.ForeignKey(
        "games.Game", on_delete=models.CASCADE, null=True, blank=True,
        related_name="notifications",
    )
    version = models.PositiveIntegerField(
        null=True, blank=True, help_text="game version the notification was recorded at"
    )
    key = models.CharField(max_length=80)
    data = models.JSONField(default=dict, blank=True, help_text="details for the message")
    status = models.CharField(
        max_length=10, choices=NotificationStatus.choices, default=NotificationStatus.QUEUED
    )
    skip_reason = models.CharField(max_length=80, blank=True)
    attempts = models.PositiveSmallIntegerField(default=0)
    last_error = models.TextField(blank=True)
    failure_reason = models.CharField(
        max_length=200, blank=True,
        help_text="why a failed row stopped retrying (a permanent error, or too many attempts)",
    )
    send_after = models.DateTimeField(default=timezone.now)
    claimed_until = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    sent_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["recipient", "kind", "key"], name="notification_unique_occasion"
            ),
        ]
        indexes = [
            models.Index(fields=["status", "send_after"]),
            models.Index(fields=["game", "version"]),
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} to {self.recipient} ({self.status})"


def normalize_address(email: str) -> str:
    """The form an address is stored and compared in: stripped, lower-cased."""
    return email.strip().lower()


class SuppressionReason(models.TextChoices):
    """Why no more mail goes to an address. Stored values are stable."""

    BOUNCE = "bounce", "Bouncing"
    COMPLAINT = "complaint", "Complaint (marked as spam)"


class SuppressedAddress(models.Model):
    """An address that bounces or complained: delivery skips it (``skip_reason`` says so).

    ``email`` is stored lower-cased (``normalize_address``);
    ``note`` says where the report came from (the mail server's answer, an operator).
    """

    email = models.EmailField(max_length=254, unique=True)
    reason = models.CharField(max_length=10, choices=SuppressionReason.choices)
    note = models.CharField(max_length=200, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name_plural = "suppressed addresses"

    def __str__(self) -> str:
        return f"{self.email} ({self.get_reason_display()})"

    def save(self, *args, **kwargs) -> None:
        """Store the address lower-cased (as delivery compares it), whoever writes it."""
        self.email = normalize_address(self.email)
        super().save(*args, **kwargs)


class TurnEmails(models.TextChoices):
    """How a user hears that a game waits for them."""

    IMMEDIATE = "immediate", _("An email as soon as it is my turn")
    DIGEST = "digest", _("One daily digest of every game waiting for me")
    OFF = "off", _("No turn emails")


#: Minutes a "your turn" email waits by default; none is sent if the player has played by then.
TURN_EMAIL_DELAY_DEFAULT = 15


class Preferences(models.Model):
    """A user's email preferences; created with the defaults on first use.

    Hours are whole hours (0-23) in ``time_zone``. Quiet hours run from ``quiet_start``
    up to (not including) ``quiet_end`` and may wrap past midnight; equal or unset means
    none. Emails falling in quiet hours wait until they end (they are never dropped).
    Vacation is not an email preference: it lives in ``games.models.PlayerClock``.
    """

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notification_preferences"
    )
    turn_emails = models.CharField(
        max_length=10, choices=TurnEmails.choices, default=TurnEmails.IMMEDIATE
    )
    digest_hour = models.PositiveSmallIntegerField(
        default=8, help_text=_("local hour (0-23) of the daily digest")
    )
    game_emails = models.BooleanField(
        default=True, help_text=_("emails when a game starts and when it ends")
    )
    invitation_emails = models.BooleanField(default=True)
    # 15 minutes by default: a game played live sends no email per move, and a player who
    # left gets theirs a quarter of an hour later (issue 13: 166 emails in four live games)
    turn_email_delay_minutes = models.PositiveSmallIntegerField(
        default=TURN_EMAIL_DELAY_DEFAULT, choices=[(0, _("right away")), (5, _("after 5 minutes")),
                                                   (15, _("after 15 minutes")), (60, _("after an hour"))],
        help_text=_("wait this long before a turn email and send none if I have played by then"),
    )
    quiet_start = models.PositiveSmallIntegerField(null=True, blank=True)
    quiet_end = models.PositiveSmallIntegerField(null=True, blank=True)
    time_zone = models.CharField(max_length=64, default="UTC")
    # "" = the browser's language (issue 11); codes of settings.LANGUAGES
    language = models.CharField(max_length=8, blank=True, default="",
                                choices=[("", _("The browser's language"))] + list(settings.LANGUAGES))
    last_language = models.CharField(max_length=8, blank=True, default="",
                                     help_text="the browser's language at the last sign-in")
    muted_games = models.ManyToManyField("games.Game", blank=True, related_name="+")
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name_plural = "preferences"
        constraints = [
            models.CheckConstraint(
                condition=models.Q(digest_hour__lte=23), name="preferences_digest_hour_0_23"
            ),
        ]

    def __str__(self) -> str:
        return f"Notification preferences of {self.user}"
