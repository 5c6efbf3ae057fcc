"""The replay viewer's context: a game's board at any step of its log.

Each step's board comes from the engine's view of that step's position, through the same
presenter as the live page (``page.board_context``); the template includes the live board
partials unchanged. Who sees what:

- a finished game (its log ends the game, or the players voted to end it): full information (``replay_steps(reveal=True)``
  and ``view(..., reveal=True)``), for every viewer: nothing is secret any more;
- otherwise (a game in progress, or one ended early by vote): the viewer's seat's view at
  that step (a spectator's view for a spectator), and the log up to that step only.

Built steps are cached (``cache``, keyed by game id, engine version, version, who sees, step
and language); the timeline (round and phase of every step, for stepping by phase and round) by
game id and version.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.core.cache import cache
from django.utils.translation import get_language, gettext, gettext_lazy

from games import selectors
from games.errors import GameDamaged
from games.messages import action_label
from games.models import Game, Seat
from games.presenters.board import seat_label
from games.presenters.page import BOARDS, GameInfo
from games.rules import load_game, report_damaged, rules_errors

#: Seconds a built step stays cached (a step never changes; the bound only frees memory).
STEP_CACHE_SECONDS = 24 * 3600


@dataclass(frozen=True)
class StepLink:
    """A navigation target: ``step`` (None: no such step, the control is disabled)."""

    label: str
    step: int | None
    key: str = ""


def _viewer_key(reveal: bool, seat: Seat | None) -> str:
    if reveal:
        return "all"
    return "spectator" if seat is None else f"seat{seat.order}"


def _blocks(timeline: list, width: int) -> list[int]:
    """The first step of each block of equal ``timeline[k][:width]`` (round, or round+phase)."""
    return [k for k in range(len(timeline)) if k == 0 or timeline[k][:width] != timeline[k - 1][:width]]


def _previous(starts: list[int], step: int) -> int | None:
    """The start of the current block if ``step`` is past it, else of the block before."""
    earlier = [s for s in starts if s < step]
    return earlier[-1] if earlier else None


def _next(starts: list[int], step: int) -> int | None:
    later = [s for s in starts if s > step]
    return later[0] if later else None


def navigation(timeline: list[tuple[int, str]], step: int) -> dict:
    """Stepping controls for ``step`` of ``timeline`` (``(round, phase)`` per step): ``links``
    (``StepLink`` by move, by phase and by round, first and last, each with its key), the
    same targets by key (``nav["ArrowRight"]``), and ``rounds`` (``{round, step}`` of each
    round's first step, for the jump)."""
    last = len(timeline) - 1
    phases, rounds = _blocks(timeline, 2), _blocks(timeline, 1)
    links = [
        StepLink(gettext_lazy("First"), 0 if step > 0 else None, "Home"),
        StepLink(gettext_lazy("Previous round"), _previous(rounds, step), "Shift+PageUp"),
        StepLink(gettext_lazy("Previous phase"), _previous(phases, step), "Shift+ArrowLeft"),
        StepLink(gettext_lazy("Previous move"), step - 1 if step > 0 else None, "ArrowLeft"),
        StepLink(gettext_lazy("Next move"), step + 1 if step < last else None, "ArrowRight"),
        StepLink(gettext_lazy("Next phase"), _next(phases, step), "Shift+ArrowRight"),
        StepLink(gettext_lazy("Next round"), _next(rounds, step), "Shift+PageDown"),
        StepLink(gettext_lazy("Last"), last if step < last else None, "End"),
    ]
    return {"links": links, **{link.key: link.step for link in links},
            "rounds": [{"round": timeline[s][0], "step": s} for s in rounds]}


def _quiet_line(rules_engine, names: dict[int, str], viewer: int | None, reveal: bool):
    """The log line of a move without events (a planning step): what it did for whoever may
    know it (everyone once the game is over, else its own seat), that a player planned for
    the others."""
    def line(move) -> str | None:
        if move.seat is None:
            return None
        name = names.get(move.seat) or seat_label(move.seat)
        if reveal or move.seat == viewer:
            return gettext("%(player)s: %(action)s") % {"player": name, "action": action_label(rules_engine, move.action)}
        return gettext("%(player)s plans") % {"player": name}
    return line


def _build(game: Game, rules_engine, reveal: bool, seat: Seat | None, step: int,
           names: dict[int, str], *, whole: bool = True) -> tuple[list, dict]:
    """Replay ``game``'s log; ``(timeline, the built step)``; without ``whole`` it stops at
    ``step`` (the timeline is then partial). ``GameDamaged`` if it does not replay."""
    moves = list(selectors.game_moves(game))
    log = [(m.seat, m.action) for m in moves]
    viewer = None if reveal or seat is None else seat.order
    timeline, built = [], None
    try:
        for item in rules_engine.replay_steps(rules_engine.GameOptions.from_dict(game.options), game.seed, log,
                                              reveal=reveal, ended=reveal):
            round_, phase = rules_engine.game_part(item.state)
            timeline.append((round_, phase))
            if item.number == step:
                view = rules_engine.view(item.state, viewer, reveal=reveal)
                built = {"view": view, "board": BOARDS[game.rules](rules_engine, view, names),
                         "log": selectors.move_log(moves[:step], names, _quiet_line(rules_engine, names, viewer, reveal)),
                         "round": round_, "phase": phase}
                if not whole:
                    break
    except rules_errors() as exc:
        damage = GameDamaged(game.pk, f"its log does not replay ({exc})", game_name=game.name)
        report_damaged(damage)
        raise damage from exc
    return timeline, built


def replay_context(game: Game, seat: Seat | None, step: int | None) -> dict:
    """The replay page's context for the viewer at ``seat`` (None: a spectator) at ``step``
    (0: after setup; None or past the end: the last step; below 0: step 0).

    Keys: ``game`` (``GameInfo``), ``step``, ``last``, ``reveal`` (full information),
    ``board``/``view`` (that step's), ``log`` (``selectors.move_log`` of the moves up to the
    step), ``current`` (the step's move: ``seq``, ``seat``, ``name``), ``nav``
    (``navigation``), ``round``/``phase``. Raises ``GameDamaged`` (``load_game``) and
    ``LookupError`` for rules without a board presenter.
    """
    rules_engine, state = load_game(game)
    if game.rules not in BOARDS:
        raise LookupError(f"no board presenter for {game.rules!r} rules")
    reveal = game.is_finished  # over after round 18 or ended by vote: nothing is secret any more
    last = game.version
    step = last if step is None else max(0, min(step, last))
    names = {s.order: s.display_name for s in game.seats.select_related("user")}
    who = _viewer_key(reveal, seat)
    timeline_key = f"games:replay:{game.pk}:{game.engine_version}:{game.version}:timeline"
    # a built step holds text in the active language (board labels, log lines), and its log
    # marks the moves a later take-back undid: the version too (a finished game's is fixed)
    step_key = f"games:replay:{game.pk}:{game.engine_version}:{game.version}:{get_language()}:{who}:{step}"
    timeline, built = cache.get(timeline_key), cache.get(step_key)
    if timeline is None:
        timeline, built = _build(game, rules_engine, reveal, seat, step, names)
        cache.set(timeline_key, timeline, STEP_CACHE_SECONDS)
        cache.set(step_key, built, STEP_CACHE_SECONDS)
    elif built is None:  # the timeline is known: replay only up to the step (a reveal replays all)
        built = _build(game, rules_engine, reveal, seat, step, names, whole=False)[1]
        cache.set(step_key, built, STEP_CACHE_SECONDS)
    move = selectors.game_moves(game).filter(seq=step).first() if step else None
    current = None
    if move is not None:
        current = {"seq": move.seq, "seat": move.seat,
                   "name": names.get(move.seat, gettext("The game")) if move.seat is not None else gettext("The game"),
                   "text": "; ".join(selectors.event_text(e, names) for e in move.events or [])}
    return {"game": GameInfo.of(game), "seat": seat, "step": step, "last": last, "reveal": reveal,
            "nav": navigation(timeline, step), "current": current, **built}


def step_param(raw: Any) -> int | None:
    """The ``step`` query parameter as an int, or None when absent or not a number."""
    try:
        return int(raw)
    except (TypeError, ValueError):
        return None
