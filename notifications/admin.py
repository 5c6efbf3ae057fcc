"""Admin for notifications: the outbox (read-mostly) and users' preferences."""
from django.contrib import admin

from notifications.models import Notification, Preferences


@admin.register(Notification)
class NotificationAdmin(admin.ModelAdmin):
    """Every notification with its delivery status."""

    list_display = ("kind", "recipient", "game", "version", "status", "attempts", "created_at",
                    "sent_at")
    list_filter = ("status", "kind")
    search_fields = ("recipient__username", "recipient__email", "game__name")
    readonly_fields = ("created_at", "sent_at", "claimed_until")


@admin.register(Preferences)
class PreferencesAdmin(admin.ModelAdmin):
    """Users' email preferences."""

    list_display = ("user", "turn_emails", "digest_hour", "time_zone", "game_emails")
    list_filter = ("turn_emails",)
    search_fields = ("user__username", "user__email")
