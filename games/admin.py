"""Admin for games: read-mostly; moves are append-only and never edited here."""
from django.contrib import admin

from games.models import Game, Move, PlayerClock, Seat


class SeatInline(admin.TabularInline):
    """Seats of a game."""

    model = Seat
    extra = 0
    fields = ("order", "user", "colour", "awaiting", "bank_seconds", "deadline",
              "timeouts_in_a_row", "absent", "votes_to_end", "joined_at")
    readonly_fields = ("joined_at",)


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    """Games, filterable by status."""

    list_display = ("name", "status", "creator", "is_public", "version", "created_at")
    list_filter = ("status", "is_public")
    search_fields = ("name", "creator__username", "id")
    readonly_fields = ("id", "seed", "engine_version", "version", "created_at", "started_at",
                       "finished_at")
    inlines = [SeatInline]


@admin.register(Move)
class MoveAdmin(admin.ModelAdmin):
    """The move log, read-only."""

    list_display = ("game", "seq", "seat", "created_at")
    list_select_related = ("game",)
    readonly_fields = ("game", "seq", "seat", "action", "events", "created_at")

    def has_change_permission(self, request, obj=None) -> bool:
        """Moves are append-only."""
        return False


@admin.register(PlayerClock)
class PlayerClockAdmin(admin.ModelAdmin):
    """Each user's vacation (stops all of their game clocks)."""

    list_display = ("user", "vacation_since", "vacation_year", "vacation_seconds_used")
    search_fields = ("user__username",)
