"""Admin for notifications: the outbox (read-mostly) and users' preferences."""
from django.contrib import admin, messages
from django.utils import timezone

from notifications.models import Notification, NotificationStatus, Preferences, SuppressedAddress


@admin.register(Notification)
class NotificationAdmin(admin.ModelAdmin):
    """Every notification with its delivery status and, when it was not sent, why."""

    list_display = ("kind", "recipient", "game", "version", "status", "reason", "attempts",
                    "created_at", "sent_at")
    list_filter = ("status", "kind")
    search_fields = ("recipient__username", "recipient__email", "game__name", "failure_reason")
    readonly_fields = ("created_at", "sent_at", "claimed_until", "failure_reason", "skip_reason",
                       "last_error", "attempts")
    actions = ["send_again"]

    @admin.display(description="reason")
    def reason(self, obj: Notification) -> str:
        """Why a failed or skipped row was not sent (empty otherwise)."""
        return obj.failure_reason or obj.skip_reason

    @admin.action(description="Send the selected failed notifications again")
    def send_again(self, request, queryset) -> None:
        """Queue failed rows again from scratch (after the cause was fixed); the beat sweep
        delivers them within a minute."""
        count = queryset.filter(status=NotificationStatus.FAILED).update(
            status=NotificationStatus.QUEUED, attempts=0, failure_reason="", claimed_until=None,
            send_after=timezone.now())
        self.message_user(request, f"{count} notification(s) queued again.", messages.SUCCESS)


@admin.register(Preferences)
class PreferencesAdmin(admin.ModelAdmin):
    """Users' email preferences."""

    list_display = ("user", "turn_emails", "digest_hour", "time_zone", "game_emails")
    list_filter = ("turn_emails",)
    search_fields = ("user__username", "user__email")


@admin.register(SuppressedAddress)
class SuppressedAddressAdmin(admin.ModelAdmin):
    """Addresses that bounce or complained; deleting a row lets mail go to it again."""

    list_display = ("email", "reason", "note", "created_at")
    list_filter = ("reason",)
    search_fields = ("email", "note")
