"""Every refusal the site itself makes (as opposed to ``engine.RulesError``).

A ``ServiceError`` carries a ``message`` fit to show the user (and a ``code``, as an engine
refusal does); ``games.views.errors`` turns either kind into the ``#flash`` message (or a
redirect with a message), always from ``message``, never an engine's developer text.
"""
from __future__ import annotations

from django.utils.translation import gettext, gettext_lazy


class ServiceError(Exception):
    """A request the site refuses.

    ``ServiceError(message, code=None)``: ``message`` is the sentence shown to the user
    (also ``str(err)``); ``code`` a machine-readable reason (default ``default_code``), the
    rules engine's refusal code when the refusal came from it.
    """

    default_code = "refused"

    def __init__(self, message: str = "", *, code: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.code = code or self.default_code


class GameNotFound(ServiceError):
    """No game with that id."""


class InvalidGameOptions(ServiceError):
    """The lobby options are not a valid engine configuration."""


class InvalidGameName(ServiceError):
    """The game name holds control characters (line breaks, tabs...) or is too long."""


class WrongStatus(ServiceError):
    """The game is not in a status that allows this (e.g. joining a started game)."""


class GameFull(ServiceError):
    """Every seat is taken."""


class AlreadySeated(ServiceError):
    """The user already has a seat at this game."""


class InviteRequired(ServiceError):
    """A private game needs a valid invite link to join."""


class NotCreator(ServiceError):
    """Only the game's creator may do this."""


class NotEnoughPlayers(ServiceError):
    """A game needs at least two seated players to start."""


class NotSeated(ServiceError):
    """The user has no seat at this game."""


class NoAbsentPlayer(ServiceError):
    """Ending a game by vote needs an absent player."""


class NotAbsent(ServiceError):
    """Taking a seat back from the bot needs the seat's player to be absent."""


class VacationError(ServiceError):
    """Vacation cannot start (no days left this year)."""


class StaleVersion(ServiceError):
    """The submission was made against a version other than the game's: an older one
    (another tab, a double click) or, from an edited form, one it has not reached.

    ``expected`` is the version the page showed, ``actual`` the game's version now;
    ``code`` is the rules engine's ``STALE`` code (``"stale"``).
    """

    default_code = "stale"

    def __init__(self, *, expected: int, actual: int, code: str | None = None) -> None:
        self.expected = expected
        self.actual = actual
        if expected < actual:
            message = gettext("The game has moved on since this page was shown (you saw move {expected}, it is "
                              "now at move {actual}): here is the current position.")
        else:  # a page never shows a move the game has not reached: an edited or damaged form
            message = gettext("This page's move number ({expected}) is not the game's (move {actual}): here "
                              "is the current position.")
        super().__init__(message.format(expected=expected, actual=actual), code=code)


class QueueError(ServiceError):
    """The action queue entry is not acceptable (shape, place, or the game's phase)."""


class QueueChanged(QueueError):
    """The queue was changed elsewhere (another tab) since the page showed it."""


class InvalidSubmission(ServiceError):
    """The POST could not be parsed (missing fields, JSON that is not an action)."""


class UnknownRules(ServiceError):
    """No rules engine is registered under the game's ``rules`` name."""


class EngineVersionMismatch(ServiceError):
    """The game's state was made by a rules engine version the registered engine does not
    declare itself compatible with (its ``loads_version``)."""


#: The sentence a player reads about a game that cannot be loaded (page, ``#flash``); lazy:
#: each ``GameDamaged`` takes it in the language active when it is raised.
GAME_NEEDS_REPAIR = gettext_lazy("This game needs repair: the site's operators have been told. "
                                 "Your other games are not affected.")


class GameDamaged(ServiceError):
    """A started game whose stored state cannot be loaded (``games.rules.load_game``).

    ``GameDamaged(game_id, reason)``: ``reason`` is the operator's one-line explanation
    (unknown rules, another engine major version, an unreadable snapshot with the engine's
    developer text); ``message`` is always ``GAME_NEEDS_REPAIR``, never the reason.
    ``game_name`` is the game's name for the repair page ("" if unknown).
    """

    default_code = "game_damaged"

    def __init__(self, game_id, reason: str, *, game_name: str = "") -> None:
        super().__init__(str(GAME_NEEDS_REPAIR))
        self.game_id = game_id
        self.game_name = game_name
        self.reason = reason

    def __str__(self) -> str:  # operators (logs, tracebacks) read the reason
        return f"game {self.game_id} needs repair: {self.reason}"


class InvitationError(ServiceError):
    """An invitation by name the site refuses (game not open, inviter not seated, invitee
    already seated), or an answer to an invitation that is no longer pending."""


class ChatError(ServiceError):
    """A chat message the site refuses: empty, too long, sent too fast, or by someone who may
    not write in that channel."""


class RematchError(ServiceError):
    """A rematch the site refuses (the game is not finished, the user did not play, the
    rematch is no longer waiting for answers)."""


class TakeBackRefused(ServiceError):
    """A take-back the site refuses: nothing to take back (another player acted since, the
    decision drew or revealed something), or the move was not made by the player's hand."""

    default_code = "not_undoable"
