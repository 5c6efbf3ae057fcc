"""Persistence for games: fields and tiny properties only.

The rules live in ``engine``; the only code that writes these rows is ``games.services``.
A game is stored as its engine snapshot (``Game.state``) guarded by ``Game.version``,
plus the append-only log of ``Move`` rows that produced it (``Move.seq`` runs 1..version).
"""
from __future__ import annotations

import hashlib
import json
import secrets
import uuid

import orjson

from django.conf import settings
from django.db import models
from django.db.models import F
from django.utils.translation import gettext_lazy, pgettext_lazy

from games.vocabulary import bot_display_name


def new_seed() -> int:
    """A fresh random seed that fits a signed 64-bit column."""
    return secrets.randbits(62)


class GameStatus(models.TextChoices):
    """Lifecycle of a game. The stored values are stable: never rename them."""

    OPEN = "open", pgettext_lazy("game status", "Waiting for players")
    ACTIVE = "active", pgettext_lazy("game status", "In progress")
    FINISHED = "finished", pgettext_lazy("game status", "Finished")
    CANCELLED = "cancelled", pgettext_lazy("game status", "Cancelled")


#: Status value -> its lazy label (``Game.get_status_display``).
_STATUS_LABELS = {status.value: status.label for status in GameStatus}
#: Status value -> why a game in it takes no move (``Game.not_playing_reason``); none for ACTIVE.
_NOT_PLAYING = {GameStatus.OPEN: gettext_lazy("This game has not started yet."),
                GameStatus.FINISHED: gettext_lazy("This game is over."),
                GameStatus.CANCELLED: gettext_lazy("This game was cancelled.")}


def state_digest(state) -> str:
    """The sha1 (hex) of a snapshot's canonical JSON (sorted keys): ``Game.state_stamp``.
    ``state``: the JSON-able snapshot, or None (no snapshot: "")."""
    if state is None:
        return ""
    return text_digest(canonical_json(state))


#: orjson's options for ``canonical_json``: sorted keys; dataclasses, dates and subclasses
#: of its types are refused (no ``default``) for ``json.dumps`` to write or refuse them.
_ORJSON_OPTIONS = (orjson.OPT_SORT_KEYS | orjson.OPT_PASSTHROUGH_DATACLASS | orjson.OPT_PASSTHROUGH_DATETIME
                   | orjson.OPT_PASSTHROUGH_SUBCLASS)


def canonical_json(state) -> str:
    """The canonical JSON text of a JSON-able snapshot (sorted keys, no spaces): what
    ``state_digest`` hashes (``text_digest``); PostgreSQL's ``jsonb`` reads it as the value
    any other dump of the snapshot gives.

    Written by orjson (C; a tenth of ``json.dumps``' time for a snapshot at move 250), whose
    text is ``json.dumps(state, sort_keys=True, separators=(",", ":"))``'s for what a
    snapshot holds (dicts with string keys, lists, ints, strings, booleans and None) when
    it is ASCII without DEL; anything else goes through ``json.dumps``: a non-ASCII or DEL
    character (which it escapes), an int beyond 64 bits, a key that is no string, and a
    dataclass, date or subclass (which it writes or refuses, as before). A float (no engine
    state has one) may be written otherwise (``1e-05``), and a UUID or an Enum that is no
    ``str`` is written where ``json.dumps`` refuses it: a stamp then differs from the one
    ``json.dumps`` gave, which costs a cache miss, nothing else.
    """
    try:
        text = orjson.dumps(state, option=_ORJSON_OPTIONS)
    except TypeError:  # orjson.JSONEncodeError: a key that is no string, a big int, a passed-through type
        text = None
    if text is not None and text.isascii() and b"\x7f" not in text:
        return text.decode()
    return json.dumps(state, sort_keys=True, separators=(",", ":"))


def text_digest(text: str) -> str:
    """``state_digest`` of the snapshot whose ``canonical_json`` is ``text``."""
    return hashlib.sha1(text.encode()).hexdigest()


class GameQuerySet(models.QuerySet):
    """``Game``'s queries: every bulk write of ``state`` writes its ``state_stamp`` too."""

    def update(self, **kwargs):
        """``QuerySet.update``; a plain ``state`` value gets its digest as ``state_stamp``, an
        expression an empty stamp (unknown: readers hash the snapshot itself)."""
        if "state" in kwargs and "state_stamp" not in kwargs:
            value = kwargs["state"]
            kwargs["state_stamp"] = "" if hasattr(value, "resolve_expression") else state_digest(value)
        return super().update(**kwargs)

    def bulk_create(self, objs, *args, **kwargs):
        """``QuerySet.bulk_create``, each game's ``state_stamp`` written from its ``state``."""
        objs = list(objs)
        for game in objs:
            game.state_stamp = state_digest(game.state)
        return super().bulk_create(objs, *args, **kwargs)

    def bulk_update(self, objs, fields, *args, **kwargs):
        """``QuerySet.bulk_update``; with ``state`` among ``fields``, ``state_stamp`` too."""
        if "state" in fields and "state_stamp" not in fields:
            objs, fields = list(objs), [*fields, "state_stamp"]
            for game in objs:
                game.state_stamp = state_digest(game.state)
        return super().bulk_update(objs, fields, *args, **kwargs)


class Game(models.Model):
    """One table of Orléans, from lobby to final scores.

    ``state_stamp`` is the digest of ``state`` (``state_digest``), written with it by every
    save and bulk write (``GameQuerySet``): a cheap key of the snapshot for the page caches,
    so a page served from them never reads the snapshot; a snapshot rewritten at the same
    version (a repair) gets a new stamp. Empty: not known (readers hash ``state``).
    """

    MIN_SEATS = 2
    MAX_SEATS = 4

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    name = models.CharField(max_length=80)
    creator = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="created_games"
    )
    max_seats = models.PositiveSmallIntegerField(default=4)
    options = models.JSONField(default=dict, help_text="engine.GameOptions.to_dict()")
    seed = models.BigIntegerField(default=new_seed)
    rules = models.CharField(
        max_length=40, default="orleans", help_text="which rules engine plays it (games.rules.REGISTRY)"
    )
    engine_version = models.CharField(
        max_length=40, blank=True, help_text="ENGINE_VERSION of the engine that made the state (pinned)"
    )
    state = models.JSONField(null=True, blank=True, help_text="engine.to_json() snapshot")
    state_stamp = models.CharField(
        max_length=40, blank=True, editable=False, help_text="sha1 of the snapshot's canonical JSON (cache keys)"
    )
    version = models.PositiveIntegerField(default=0, help_text="number of moves applied")
    live_version = models.PositiveIntegerField(
        default=0, help_text="changes the game's pages show that are not moves (a vote to end, a vacation, a seat "
        "taken back, a chat message hidden, a rematch): the poll compares it (services.live.touch_live)"
    )
    status = models.CharField(
        max_length=16, choices=GameStatus.choices, default=GameStatus.OPEN, db_index=True
    )
    outcome = models.JSONField(null=True, blank=True, help_text="engine.outcome() once finished")
    is_public = models.BooleanField(default=True)
    rated = models.BooleanField(
        default=False, help_text="chosen at creation: its result updates the players' ratings "
                                 "(never for a game with a bot seat or an imported one)",
    )
    rematch_of = models.OneToOneField(
        "self", on_delete=models.SET_NULL, null=True, blank=True, related_name="rematch",
        help_text="the finished game this one is the rematch of (one rematch a game)",
    )
    imported = models.BooleanField(
        default=False, help_text="made by manage.py game_import from an export: finished, read-only, "
                                 "its seats are placeholder users (not counted in players' stats)"
    )
    clock_initial_seconds = models.PositiveIntegerField(
        default=0, help_text="each seat's time bank at the start, seconds; 0: no clock"
    )
    clock_increment_seconds = models.PositiveIntegerField(
        default=0, help_text="seconds added to a seat's bank per decision"
    )
    clock_cap_seconds = models.PositiveIntegerField(
        default=0, help_text="a seat's bank never exceeds this many seconds"
    )
    absent_bot_level = models.CharField(
        max_length=20, blank=True,
        help_text="level (engine.bots.LEVELS) of the bot that plays for an absent player; blank: none",
    )
    has_bots = models.BooleanField(
        default=False, help_text="a bot holds a seat or played for an absent player (keep it unrated)",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        indexes = [
            models.Index(fields=["status", "is_public", "-created_at"]),  # the lobby's open games
            # the lobby's recently finished public games
            models.Index(fields=["status", "is_public", "-finished_at"], name="game_public_finished"),
        ]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(max_seats__gte=2) & models.Q(max_seats__lte=4),
                name="game_max_seats_2_to_4",
            ),
        ]

    objects = GameQuerySet.as_manager()

    def __str__(self) -> str:
        return f"{self.name} ({self.get_status_display()})"

    def get_status_display(self) -> str:
        """The status's label in the active language ("In progress"), or the stored value if
        it is no ``GameStatus``: Django's generated method, without its hashing of every
        choice's lazy label on each call (about 30 µs: once per game page, answer and list row)."""
        label = _STATUS_LABELS.get(self.status)
        return self.status if label is None else str(label)

    def save(self, *args, update_fields=None, **kwargs) -> None:
        """``Model.save``; whenever ``state`` is written, ``state_stamp`` is written with it."""
        # a row read without its state saves only the fields it loaded (Django's rule): not the state
        if "state" in (update_fields if update_fields is not None else self.__dict__):
            self.state_stamp = state_digest(self.state)
            if update_fields is not None and "state_stamp" not in update_fields:
                update_fields = [*update_fields, "state_stamp"]
        super().save(*args, update_fields=update_fields, **kwargs)

    @property
    def has_snapshot(self) -> bool:
        """True if a snapshot is stored; a row read without its ``state`` but with a
        ``has_state`` flag (``selectors.game_for_poll``, ``selectors.game_with_seat``)
        answers from the flag, without a query."""
        if "state" not in self.__dict__ and getattr(self, "has_state", None) is not None:
            return bool(self.has_state)
        return self.state is not None

    @property
    def is_open(self) -> bool:
        """True while the game is in the lobby, accepting players."""
        return self.status == GameStatus.OPEN

    @property
    def is_active(self) -> bool:
        """True while the game is being played."""
        return self.status == GameStatus.ACTIVE

    @property
    def is_finished(self) -> bool:
        """True once the game has ended normally."""
        return self.status == GameStatus.FINISHED

    def not_playing_reason(self) -> str | None:
        """Why the game takes no move now, a sentence in the active language (it has not
        started, is over, was cancelled); None while it is being played."""
        reason = _NOT_PLAYING.get(self.status)
        return None if reason is None else str(reason)


class Seat(models.Model):
    """A place at a game: a user's, or a bot's (``bot_level`` set, no user). ``order`` is the
    engine's seat index once started."""

    COLOURS = ("red", "blue", "green", "yellow")

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="seats",
        null=True, blank=True, help_text="the player; null for a bot seat",
    )
    bot_level = models.CharField(
        max_length=20, blank=True, help_text="level (engine.bots.LEVELS) of the bot in this seat; blank: a human"
    )
    bot_name = models.CharField(max_length=40, blank=True, help_text='a bot seat\'s name, e.g. "Bot (Greedy) 1"')
    order = models.PositiveSmallIntegerField()
    colour = models.CharField(max_length=16, blank=True)
    awaiting = models.CharField(
        max_length=40,
        blank=True,
        help_text="kind of decision the engine awaits from this seat; empty if none",
    )
    awaiting_since = models.DateTimeField(
        null=True, blank=True, help_text="when the engine started awaiting this seat; null if not"
    )
    bank_seconds = models.IntegerField(
        default=0, help_text="time bank (seconds) when the clock last started or stopped"
    )
    clock_started_at = models.DateTimeField(
        null=True, blank=True, help_text="when the running clock started; null while stopped"
    )
    deadline = models.DateTimeField(
        null=True, blank=True, db_index=True,
        help_text="clock_started_at + bank_seconds while the clock runs; null while stopped",
    )
    next_reminder_at = models.DateTimeField(
        null=True, blank=True, db_index=True,
        help_text="when the reminder sweep looks at this awaited player's seat next "
                  "(games.clock.next_reminder_at); null when not awaited or a bot",
    )
    timeouts_in_a_row = models.PositiveSmallIntegerField(
        default=0, help_text="consecutive timeouts; a decision by the player resets it"
    )
    absent = models.BooleanField(
        default=False, help_text="timed out GAMES_ABSENT_AFTER_TIMEOUTS times in a row"
    )
    votes_to_end = models.BooleanField(
        default=False, help_text="this player agrees to end the game while a seat is absent"
    )
    action_queue = models.JSONField(
        default=list, blank=True,
        help_text="actions queued for this round's action phase, played on the seat's turns while legal",
    )
    action_queue_round = models.PositiveSmallIntegerField(
        default=0, help_text="the round the action queue was made for (other rounds ignore it)"
    )
    # a text, not a CharField(200): the engine's drop sentence names the entry and the reason
    # (over 200 characters for a Village entry fixing a place tile), too long for PostgreSQL
    action_queue_note = models.TextField(
        blank=True, help_text="why the action queue last stopped (shown to its player)"
    )
    # the same note as the engine's reason, {"code", "params"}, rendered in the viewer's
    # language (games.messages.queue_note); null for a note stored before it existed
    action_queue_note_message = models.JSONField(
        null=True, blank=True, help_text="the queue note's refusal code and params (shown in the viewer's language)"
    )
    accepted = models.BooleanField(
        default=True, help_text="False for a rematch seat whose player has not accepted yet"
    )
    # The seat's line of the finished game's outcome, copied when the outcome is stored
    # (games.services.store.store_seat_results): the profile's record aggregates these columns.
    placement = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="place in the outcome's ranking (ties share one); null before the end"
    )
    won = models.BooleanField(default=False, help_text="among the outcome's winners")
    final_score = models.JSONField(
        null=True, blank=True, help_text="this seat's line of the outcome's scores (total and parts); null before the end"
    )
    # the game's finished_at, copied with the results: the profile's lists (finished, in
    # progress) find a player's games by these seat indexes, not by every game they played
    finished_at = models.DateTimeField(
        null=True, blank=True, help_text="when the game finished (its finished_at); null before the end"
    )
    joined_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["order"]
        indexes = [
            # the profile: a user's finished games, most recently finished first, and the others
            models.Index(F("user"), F("finished_at").desc(), F("game"), condition=models.Q(finished_at__isnull=False),
                         name="seat_finished_by_user"),
            models.Index(fields=["user"], condition=models.Q(finished_at__isnull=True), name="seat_unfinished_by_user"),
            # "Waiting for you" (home, the navigation's count, "Next game"): a user's awaited seats
            # in their order of urgency
            models.Index(fields=["user", "deadline", "awaiting_since"], condition=~models.Q(awaiting=""),
                         name="seat_awaited_by_user"),
            # rematches a user has to answer
            models.Index(fields=["user"], condition=models.Q(accepted=False), name="seat_unanswered_by_user"),
        ]
        constraints = [
            models.UniqueConstraint(fields=["game", "user"], name="seat_unique_user_per_game"),
            models.UniqueConstraint(fields=["game", "order"], name="seat_unique_order_per_game"),
            models.CheckConstraint(
                condition=(models.Q(user__isnull=True) & ~models.Q(bot_level=""))
                | (models.Q(user__isnull=False) & models.Q(bot_level="")),
                name="seat_user_or_bot",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.display_name} at {self.game.name} (seat {self.order})"

    @property
    def is_bot(self) -> bool:
        """True for a bot's seat (no user)."""
        return bool(self.bot_level)

    @property
    def display_name(self) -> str:
        """The name pages show: the player's username, or the bot seat's name in the active
        language (``vocabulary.bot_display_name``: the stored name is in its creator's)."""
        return bot_display_name(self.bot_level, self.bot_name) if self.is_bot else self.user.username


class MoveSource(models.TextChoices):
    """Who made a move. The stored values are stable: never rename them."""

    PLAYER = "player", "Player"
    QUEUE = "queue", "Action queue"
    TIMEOUT = "timeout", "Timeout"
    BOT = "bot", "Bot"
    SYSTEM = "system", "System"


class Move(models.Model):
    """One entry of a game's append-only log: an action and the public events it caused.

    ``seat`` is null for an automatic resolution (a simultaneous phase resolved by a task).
    ``source`` says who made it: the seat's player, its action queue, the timeout policy
    (``engine.timeout_action``) when its time ran out, a bot (a bot seat, or the bot playing
    for an absent player), or the system (a resolution). A take-back is a move of its own
    (action ``engine.UNDO``, ``games.services.undo``); the move it took back stays in the log
    with ``taken_back`` set, the one field ever changed on a stored move.
    """

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="moves")
    seq = models.PositiveIntegerField()
    seat = models.PositiveSmallIntegerField(null=True, blank=True)
    action = models.JSONField()
    events = models.JSONField(default=list)
    source = models.CharField(max_length=10, choices=MoveSource.choices, default=MoveSource.PLAYER)
    taken_back = models.BooleanField(
        default=False, help_text="its player took it back (a later take-back move); still in the log"
    )
    round = models.PositiveSmallIntegerField(
        default=1, help_text="the log's round at the end of the move (its last round event, else the previous move's)"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["game", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["game", "seq"], name="move_unique_seq_per_game"),
        ]
        # the game page loads the current and previous rounds only (selectors.recent_moves)
        indexes = [models.Index(fields=["game", "round"], name="move_game_round")]

    def __str__(self) -> str:
        return f"{self.game_id} #{self.seq}"

    @staticmethod
    def rounds_of(events_lists, previous: int = 1) -> list[int]:
        """The ``round`` of each of a run of consecutive moves, given their ``events`` lists
        in order and the round of the move before them (1 before the first): the round its
        last ``round`` event opens (an event of kind ``round`` carrying an int ``round``, as
        ``selectors.move_log`` groups the log), else the previous move's."""
        rounds = []
        for events in events_lists:
            for event in events or []:
                if isinstance(event, dict) and event.get("kind") == "round" \
                        and isinstance(event.get("round"), int) and 0 < event["round"] < 32768:
                    previous = event["round"]
            rounds.append(previous)
        return rounds

    def save(self, *args, **kwargs) -> None:
        """Insert only: the log is append-only (``taken_back`` is set by a queryset update)."""
        if not self._state.adding:
            raise ValueError("Move rows are append-only and cannot be changed.")
        super().save(*args, **kwargs)


class PlayerClock(models.Model):
    """A user's vacation, which stops every game clock of theirs; created on first use.

    While ``vacation_since`` is set the user's running clocks are stopped (no timeouts, no
    reminders). A user has ``GAMES_VACATION_DAYS_PER_YEAR`` days a calendar year: finished
    vacations of ``vacation_year`` add up in ``vacation_seconds_used`` (see
    ``games.services.clocks.vacation_start`` and ``games.selectors.vacation_days_left``).
    """

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="player_clock"
    )
    vacation_since = models.DateTimeField(
        null=True, blank=True, help_text="when the current vacation started; null if none"
    )
    vacation_year = models.PositiveSmallIntegerField(
        default=0, help_text="calendar year that vacation_seconds_used counts"
    )
    vacation_seconds_used = models.PositiveIntegerField(
        default=0, help_text="vacation used in vacation_year by finished vacations, seconds"
    )

    def __str__(self) -> str:
        return f"Clock settings of {self.user}"


class PlayerStats(models.Model):
    """A user's record of finished games, kept as games finish (``games.services.records``)
    so the profile reads one row instead of aggregating every game: the count, the
    statistics by player count and head-to-head (``games.records`` gives the shapes).
    ``stamp`` changes whenever the row or the user's rating changes: the profile caches what
    it renders from them under it."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, primary_key=True, related_name="player_stats"
    )
    stamp = models.UUIDField(default=uuid.uuid4, help_text="new on every change of this row or the user's rating")
    finished = models.PositiveIntegerField(default=0, help_text="finished games of the user")
    by_players = models.JSONField(default=dict, blank=True, help_text="player count -> sums (games.records)")
    rivals = models.JSONField(default=dict, blank=True, help_text="head-to-head: rival key -> counts (games.records)")

    def __str__(self) -> str:
        return f"Record of {self.user_id}: {self.finished} finished games"


class InvitationStatus(models.TextChoices):
    """Where an invitation by name stands. Stored values are stable."""

    PENDING = "pending", "Pending"
    ACCEPTED = "accepted", "Accepted"
    DECLINED = "declined", "Declined"


class Invitation(models.Model):
    """A player invited by name to an open game (``games.services.invitations``).

    The invitee sees it on the home page and accepts (takes a seat, without the private
    game's invite link: the invitation is the authority) or declines. One per (game,
    invitee): inviting again reopens a declined one and sends no second email.
    """

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="invitations")
    invitee = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="game_invitations"
    )
    inviter = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    status = models.CharField(
        max_length=10, choices=InvitationStatus.choices, default=InvitationStatus.PENDING
    )
    created_at = models.DateTimeField(auto_now_add=True)
    answered_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        # a user's pending invitations, oldest first (home, the navigation's count)
        indexes = [models.Index(fields=["invitee", "status", "created_at"], name="invitation_by_invitee")]
        constraints = [
            models.UniqueConstraint(fields=["game", "invitee"], name="invitation_unique_invitee_per_game"),
        ]

    def __str__(self) -> str:
        return f"{self.invitee} invited to {self.game.name} ({self.status})"


class ChatChannel(models.TextChoices):
    """The two chats of a game: its players', and in public games its spectators'.
    Players never see the spectators' channel while the game is played."""

    PLAYERS = "players", "Players"
    SPECTATORS = "spectators", "Spectators"


class ChatMessage(models.Model):
    """One short chat message at a game (``games.services.chat``); plain text, shown
    escaped. ``hidden`` is set by a moderator in the admin: the message is then shown to
    nobody."""

    MAX_LENGTH = 500

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="chat_messages")
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="chat_messages"
    )
    channel = models.CharField(max_length=10, choices=ChatChannel.choices, default=ChatChannel.PLAYERS)
    text = models.CharField(max_length=MAX_LENGTH)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)
    hidden = models.BooleanField(default=False, help_text="hidden by a moderator: shown to nobody")

    class Meta:
        ordering = ["game", "id"]
        indexes = [models.Index(fields=["game", "channel", "id"])]

    def __str__(self) -> str:
        return f"{self.author} in {self.game_id} ({self.channel})"


class ChatReader(models.Model):
    """How far a user has read one game's chat, and whether they muted it.

    ``last_read_id`` is the id of the newest message they have seen (0: none); a muted
    chat shows no unread marker and counts nothing towards the digest email.
    """

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="chat_readers")
    last_read_id = models.PositiveBigIntegerField(default=0)
    muted = models.BooleanField(default=False)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "game"], name="chat_reader_unique_user_per_game"),
        ]

    def __str__(self) -> str:
        return f"{self.user} reading {self.game_id}"


class Rating(models.Model):
    """A player's rating for one rules (``Game.rules``; Orléans: ``"orleans"``): an openskill
    Plackett-Luce ``mu``/``sigma`` (``games.services.ratings``), updated once per finished
    rated game. ``ordinal`` (``mu - 3 sigma``) is what the leaderboard sorts and shows."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="ratings")
    rules = models.CharField(max_length=40, default="orleans")
    mu = models.FloatField()
    sigma = models.FloatField()
    ordinal = models.FloatField(db_index=True, help_text="mu - 3 sigma: the shown, conservative rating")
    games = models.PositiveIntegerField(default=0, help_text="rated games counted")
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-ordinal"]
        constraints = [
            models.UniqueConstraint(fields=["user", "rules"], name="rating_unique_user_per_rules"),
        ]

    def __str__(self) -> str:
        return f"{self.user} {self.rules} {self.ordinal:.1f}"


class RatingChange(models.Model):
    """What one rated game did to one player's rating: the history on the profile. One per
    (game, player): its existence is what makes rating a game idempotent."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="rating_changes")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="rating_changes")
    placement = models.PositiveSmallIntegerField(help_text="the engine's ranking place (ties share one)")
    mu_before = models.FloatField()
    sigma_before = models.FloatField()
    mu_after = models.FloatField()
    sigma_after = models.FloatField()
    ordinal_before = models.FloatField()
    ordinal_after = models.FloatField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        # the profile's rating history, newest first
        indexes = [models.Index(fields=["user", "-created_at", "-id"], name="rating_change_by_user")]
        constraints = [
            models.UniqueConstraint(fields=["game", "user"], name="rating_change_unique_user_per_game"),
        ]

    def __str__(self) -> str:
        return f"{self.user} in {self.game_id}: {self.ordinal_before:.1f} -> {self.ordinal_after:.1f}"

    @property
    def delta_text(self) -> str:
        """The change of the shown rating, signed, one decimal ("+1.4", "-0.3")."""
        return f"{self.ordinal_after - self.ordinal_before:+.1f}"
