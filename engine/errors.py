"""The one hierarchy of rules errors (RULES: every refusal names its reason).

Every error the engine raises for bad input is a :class:`RulesError` (a ``ValueError``);
the state passed in is never changed when one is raised.

Each error carries three things besides its developer text (``str(err)``, which names the
action, the seat, the round and the phase):

- ``code``: a machine-readable reason, one of the codes in ``engine.refusals.MESSAGES``
  (``"track_end"``, ``"not_your_turn"``, ...);
- ``params``: a JSON-safe dict of ids the reason is about (``{"place": "castle",
  "track": "knight"}``);
- ``message``: one English sentence for the player ("The Castle cannot be used: the Knight
  track is at its last space."), rendered from ``code`` and ``params``.
"""

from __future__ import annotations


class RulesError(ValueError):
    """Base class: the action or request was refused and nothing changed.

    ``RulesError(text, code=..., params=..., message=...)``: ``text`` is the developer text
    (``str(err)``); without ``code`` the class's default code is used; without ``message``
    the sentence is rendered from ``code`` and ``params`` by ``engine.refusals``.
    """

    default_code = "refused"

    def __init__(self, text: str = "", *, code: str | None = None, params: dict | None = None,
                 message: str | None = None):
        self.code = code or self.default_code
        self.params = dict(params or {})
        if message is None:
            from .refusals import render

            message = render(self.code, self.params)
        self.message = message
        super().__init__(text or message)


class InvalidOptions(RulesError):
    """The game options are not valid (unknown option, value out of range)."""

    default_code = "invalid_options"


class MalformedAction(RulesError):
    """The action cannot be parsed: not a dict, unknown type, missing or wrong-typed fields."""

    default_code = "malformed"


class IllegalAction(RulesError):
    """The action parses but the rules do not allow it now."""

    default_code = "not_allowed"


class NotYourTurn(RulesError):
    """The seat is not awaited for a decision now."""

    default_code = "not_your_turn"


class GameOver(RulesError):
    """The game has ended; no more actions are accepted."""

    default_code = "game_over"


class NothingToResolve(RulesError):
    """:func:`engine.resolve` was called while no simultaneous step is complete."""

    default_code = "nothing_to_resolve"


class QueueRefused(RulesError):
    """An action queue or queue entry is not acceptable (``engine.queue``; shape, place,
    choice, or the game's phase)."""

    default_code = "queue_entry"
