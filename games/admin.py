"""Admin for games: read-mostly; moves are append-only and never edited here.

Damaged games (a stored state the site cannot load, ``games.rules.is_damaged``) are shown
by the "Loads" column and the "Needs repair" filter; the "Verify the move log" action runs
``games.integrity.verify_game`` (as ``manage.py games_verify``) on the selected games.
"""
from django.contrib import admin, messages

from games.integrity import verify_game
from games.models import ChatMessage, Game, GameStatus, Invitation, Move, PlayerClock, Seat
from games.rules import is_damaged
from games.services.chat import chat_set_hidden
from games.services.live import touch_live
from games.services.records import records_rebuild

_STARTED = (GameStatus.ACTIVE, GameStatus.FINISHED)


class NeedsRepairFilter(admin.SimpleListFilter):
    """Started games whose state cannot be loaded. It loads every started game's state
    (nothing stores the verdict): fine for an operator's occasional look."""

    title = "needs repair"
    parameter_name = "needs_repair"

    def lookups(self, request, model_admin):
        """Only "yes": the other games are the unfiltered list."""
        return [("yes", "Yes")]

    def queryset(self, request, queryset):
        """The damaged started games of ``queryset`` when "yes" is chosen."""
        if self.value() != "yes":
            return queryset
        started = queryset.filter(status__in=_STARTED).only("pk", "name", "status", "rules",
                                                            "engine_version", "state")
        return queryset.filter(pk__in=[game.pk for game in started.iterator() if is_damaged(game)])


class SeatInline(admin.TabularInline):
    """Seats of a game."""

    model = Seat
    extra = 0
    fields = ("order", "user", "bot_level", "bot_name", "colour", "awaiting", "bank_seconds", "deadline",
              "timeouts_in_a_row", "absent", "votes_to_end", "joined_at")
    readonly_fields = ("joined_at",)


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    """Games, filterable by status."""

    list_display = ("name", "status", "creator", "is_public", "version", "loads", "created_at")
    list_filter = ("status", "is_public", NeedsRepairFilter)
    search_fields = ("name", "creator__username", "id")
    readonly_fields = ("id", "seed", "engine_version", "version", "live_version", "created_at", "started_at",
                       "finished_at")
    inlines = [SeatInline]
    actions = ["verify_log"]

    def save_related(self, request, form, formsets, change) -> None:
        """Save the seats, then recount their players' records (``PlayerStats``): a seat's
        results edited here would otherwise leave the profile's counts and cache stale."""
        super().save_related(request, form, formsets, change)
        records_rebuild(_players(Game.objects.filter(pk=form.instance.pk)))
        touch_live([form.instance.pk])  # a seat's absence or vote edited here: open pages are told

    def delete_model(self, request, obj: Game) -> None:
        """Delete the game, then recount its players' records (it may have been counted)."""
        players = _players(Game.objects.filter(pk=obj.pk))
        super().delete_model(request, obj)
        records_rebuild(players)

    def delete_queryset(self, request, queryset) -> None:
        """Delete the games, then recount their players' records."""
        players = _players(queryset)
        super().delete_queryset(request, queryset)
        records_rebuild(players)

    @admin.display(description="Loads")
    def loads(self, game: Game) -> str:
        """For a started game "yes", or "needs repair: <reason>"; blank before the start."""
        if game.status not in _STARTED:
            return ""
        reason = is_damaged(game)
        return "yes" if reason is None else f"needs repair: {reason}"

    @admin.action(description="Verify the move log (games_verify)")
    def verify_log(self, request, queryset) -> None:
        """Replay each selected game's log and report every divergence as a message."""
        found = 0
        for game in queryset:
            divergence = verify_game(game)
            if divergence is not None:
                found += 1
                self.message_user(request, str(divergence), messages.ERROR)
        self.message_user(request, f"{queryset.count()} game(s) checked, {found} divergence(s).",
                          messages.WARNING if found else messages.SUCCESS)


def _players(games) -> list[int]:
    """The user ids of the seats of ``games`` (a queryset)."""
    return list(Seat.objects.filter(game__in=games, user__isnull=False).values_list("user_id", flat=True).distinct())


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

    def save_model(self, request, obj: PlayerClock, form, change) -> None:
        """Save the vacation record; the user's games' open pages are told (their badge)."""
        super().save_model(request, obj, form, change)
        touch_live(user=obj.user)


@admin.register(ChatMessage)
class ChatMessageAdmin(admin.ModelAdmin):
    """Chat messages, for the site's moderators: hide a message (it is then shown to
    nobody) or show it again; the text itself is never edited."""

    list_display = ("created_at", "game", "channel", "author", "text", "hidden")
    list_filter = ("hidden", "channel")
    list_select_related = ("game", "author")
    search_fields = ("text", "author__username", "game__name")
    readonly_fields = ("game", "author", "channel", "text", "hidden", "created_at")  # hidden: by the actions
    actions = ["hide", "show"]

    @admin.action(description="Hide the selected messages")
    def hide(self, request, queryset) -> None:
        """Hide the selected messages from every page."""
        self.message_user(request, f"{chat_set_hidden(messages=queryset, hidden=True)} message(s) hidden.",
                          messages.SUCCESS)

    @admin.action(description="Show the selected messages again")
    def show(self, request, queryset) -> None:
        """Undo a hide."""
        self.message_user(request, f"{chat_set_hidden(messages=queryset, hidden=False)} message(s) shown again.",
                          messages.SUCCESS)

    def has_add_permission(self, request) -> bool:
        """Moderators hide messages; they never write them."""
        return False


@admin.register(Invitation)
class InvitationAdmin(admin.ModelAdmin):
    """Invitations by name and their answers."""

    list_display = ("game", "invitee", "inviter", "status", "created_at")
    list_filter = ("status",)
    list_select_related = ("game", "invitee", "inviter")
    search_fields = ("invitee__username", "inviter__username", "game__name")
