"""A game's history: the stepwise replay of its action log and the engine versions it loads.

A stored game is ``(options, seed, log)``; :func:`replay_steps` rebuilds every position of
it, one per log entry, with the public events that entry caused (the same events
:func:`engine.apply` / :func:`engine.resolve` returned when it was played live).

Games are pinned to the engine version that started them: :data:`COMPATIBLE_VERSIONS` is
the table of stored versions whose games this engine replays move for move to the same
states (same rules, same random streams, same schema). A version missing from it must not
be loaded: its log may mean something else under these rules.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterator

from .errors import RulesError
from .state import GameState

#: The version of these rules. Bump the patch for changes that keep every stored game's
#: replay identical (and add the new version to COMPATIBLE_VERSIONS); anything that changes
#: a position, an event, the random streams or the schema is a new minor/major version
#: whose table leaves the old ones out unless they replay identically.
ENGINE_VERSION = "1.0.0"

#: ``{stored engine version: why it is compatible}``: the games this engine loads.
COMPATIBLE_VERSIONS: dict[str, str] = {
    "1.0.0": "this engine",
}


def loads_version(version: str) -> bool:
    """True if a game started with engine ``version`` (``Game.engine_version``) may be
    loaded and played by this engine (listed in :data:`COMPATIBLE_VERSIONS`)."""
    return str(version) in COMPATIBLE_VERSIONS


class NotOver(RulesError):
    """Full information was asked of a game that is not over (its secrets still matter)."""

    default_code = "not_over"


@dataclass(frozen=True)
class ReplayStep:
    """One position of a replayed game.

    ``number``: 0 for the position after setup, then ``k`` for the position after the
    ``k``-th log entry; ``seat``/``action``: that entry (``seat`` None and ``action`` None
    for a :func:`engine.resolve` step, and for step 0); ``state``: the position;
    ``events``: the public events the entry caused (empty for step 0).
    """

    number: int
    seat: int | None
    action: dict | None
    state: GameState
    events: list


def replay_steps(options, seed: int, log, *, reveal: bool = False, ended: bool = False) -> Iterator[ReplayStep]:
    """Every position of the game ``(options, seed)`` played by ``log``, oldest first.

    ``log`` is a sequence of ``(seat, action)`` pairs as for :func:`engine.replay`
    (``seat`` None: a resolve step; ``action`` ``engine.UNDO``: that seat's take-back,
    :func:`engine.undo`, with the event ``undo_event(seat)``). Yields ``len(log) + 1`` :class:`ReplayStep` values,
    step 0 being the position after setup. Raises the errors of :func:`engine.apply` /
    :func:`engine.resolve` for a bad entry (after yielding the steps before it).

    With ``reveal`` the whole log is replayed first and must end the game (else
    :class:`NotOver`), unless the caller says with ``ended`` that the game has ended
    another way (the players voted to end it: its log is complete); each yielded state may then be shown with full information
    (``engine.view(state, seat, reveal=True)``): once a game is over nothing is secret
    any more, so a finished game's replay shows every market, plan and draw (issue #12).
    """
    from . import apply, is_over, new_game, resolve
    from .undo import is_undo, undo, undo_event

    def steps() -> Iterator[ReplayStep]:
        state = new_game(options, seed)
        yield ReplayStep(0, None, None, state, [])
        for number, (seat, action) in enumerate(log, start=1):
            if seat is None:
                state, events = resolve(state)
            elif is_undo(action):
                state, events = undo(state, seat), [undo_event(seat)]
            else:
                state, events = apply(state, seat, action)
            yield ReplayStep(number, seat, action, state, list(events))

    if not reveal:
        yield from steps()
        return
    every = list(steps())
    if not (ended or is_over(every[-1].state)):
        raise NotOver("replay_steps(reveal=True) of a log that does not end the game")
    for step in every:
        step.state.revealable = True
        yield step
