"""The one hierarchy of rules errors (RULES: every refusal names its reason).

Every error the engine raises for bad input is a :class:`RulesError` (a ``ValueError``);
the state passed in is never changed when one is raised.
"""


class RulesError(ValueError):
    """Base class: the action or request was refused and nothing changed."""


class InvalidOptions(RulesError):
    """The game options are not valid (unknown option, value out of range)."""


class MalformedAction(RulesError):
    """The action cannot be parsed: not a dict, unknown type, missing or wrong-typed fields."""


class IllegalAction(RulesError):
    """The action parses but the rules do not allow it now."""


class NotYourTurn(RulesError):
    """The seat is not awaited for a decision now."""


class GameOver(RulesError):
    """The game has ended; no more actions are accepted."""


class NothingToResolve(RulesError):
    """:func:`engine.resolve` was called while no simultaneous step is complete."""
