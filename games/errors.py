"""Every refusal the site itself makes (as opposed to ``engine.RulesError``).

A ``ServiceError`` carries a message fit to show the user; ``games.views.errors`` turns
either kind into the ``#flash`` message (or a redirect with a message).
"""
from __future__ import annotations


class ServiceError(Exception):
    """A request the site refuses; the message is shown to the user."""


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


class VacationError(ServiceError):
    """Vacation cannot start (no days left this year)."""


class StaleVersion(ServiceError):
    """The submission was made against an older version of the game.

    ``expected`` is the version the page showed, ``actual`` the game's version now.
    """

    def __init__(self, *, expected: int, actual: int) -> None:
        self.expected = expected
        self.actual = actual
        super().__init__(
            f"The game has moved on since you loaded it (you saw move {expected}, "
            f"it is now at move {actual}). Check the board and try again."
        )


class QueueError(ServiceError):
    """The action queue entry is not acceptable (shape, place, or the game's phase)."""


class QueueChanged(QueueError):
    """The queue was changed elsewhere (another tab) since the page showed it."""


class InvalidSubmission(ServiceError):
    """The POST could not be parsed (missing fields, JSON that is not an action)."""


class UnknownRules(ServiceError):
    """No rules engine is registered under the game's ``rules`` name."""


class EngineVersionMismatch(ServiceError):
    """The game's state was made by a rules engine of another major version."""
