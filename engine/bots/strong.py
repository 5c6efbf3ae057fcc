"""The ``strong`` bot: determinised Monte Carlo search on top of ``greedy`` (issue #10).

For a decision that matters (an action, a planning step, a torture item, the food to
return), it:

1. ranks the legal actions with ``greedy`` on one sampled state and keeps the best few
   (:data:`CANDIDATES`; planning: the best placements and ``submit_plan``);
2. repeats while the time budget lasts: sample the hidden information again from the view
   (:func:`engine.bots.sample.determinise`: bags, other seats' markets and plans, the
   hourglass order), and for every candidate on that same sample play it, then let every
   seat play ``greedy`` until the end of this round's action phase (a truncated playout;
   from the event phase: until the next round starts), and score the position with
   ``greedy.value`` for the seat;
3. returns the candidate with the best mean (the greedy choice on ties).

Followers-phase draws and technology tiles are left to ``greedy`` (one sensible choice).
The search stops before an iteration that would overrun ``budget`` (seconds), so a decision
takes about ``budget`` at most; at least one iteration is always made.
"""

from __future__ import annotations

import random
import time

from ..actions import ACTION_SPECS
from ..flow import ACTIONS, DECISIONS, advance, awaiting_data, resolve_data
from ..state import GameState, clone
from . import greedy
from .sample import determinise

#: Candidates kept per decision (by greedy's ranking).
CANDIDATES = 4
#: Playout safety limit (decisions); a round has far fewer.
MAX_PLAYOUT_DECISIONS = 400


def _apply(s: dict, seat: int, action: dict) -> dict:
    """``s`` after ``seat`` plays ``action`` (copy; engine step functions)."""
    t = clone(s)
    ev: list = []
    ACTIONS[action["type"]][1](t, seat, action, ev)
    advance(t, ev)
    return t


def playout(s: dict, seat: int, start_round: int, start_phase: str) -> float:
    """Play ``greedy`` for every seat from ``s`` to the horizon; ``greedy.value`` for ``seat``.

    Horizon: the end of ``start_round``'s action phase (the event resolved by the engine
    when the phase starts is included), or the next round for a decision of the event phase."""
    for _ in range(MAX_PLAYOUT_DECISIONS):
        if s["phase"] == "over" or s["round"] > start_round:
            break
        if start_phase != "event" and s["phase"] == "event":
            break
        if s["barrier"]:
            s = resolve_data(GameState(s))[0].data
            continue
        awaited = awaiting_data(s)
        if not awaited:
            break
        who = min(awaited)
        legal = DECISIONS[awaited[who]](s, who)
        if not legal:
            break
        s = _apply(s, who, greedy.decide_plan_whole(s, who, legal))
    return greedy.value(s, seat)


def candidates(s: dict, seat: int, legal: list[dict]) -> list[dict]:
    """The best few legal actions by ``greedy``'s ranking on the sample ``s``, best first."""
    kind = ACTION_SPECS[legal[0]["type"]].decision
    if kind == "plan":
        submit = next(a for a in legal if a["type"] == "submit_plan")
        places = greedy.plan_options(s, seat, legal)[: CANDIDATES - 1]
        return [greedy._same(a, legal) for a in places] + [submit]
    if kind == "torture":
        legal = [a for a in legal if a["type"] == "torture"] or legal
    return greedy.ranked_by_value(s, seat, legal)[:CANDIDATES]


class StrongBot:
    """Determinised Monte Carlo over greedy playouts: see the module docstring."""

    name = "strong"

    def __init__(self, max_iterations: int | None = None):
        """``max_iterations``: stop after that many search iterations even with budget left
        (None: the budget alone decides; tests use it to be independent of the clock)."""
        self.max_iterations = max_iterations

    def choose(self, view: dict, legal_actions: list[dict], rng: random.Random, budget: float) -> dict:
        """One element of ``legal_actions`` from ``view`` alone, within about ``budget`` seconds."""
        start = time.perf_counter()
        if len(legal_actions) == 1:
            return legal_actions[0]
        seat = view["seat"]
        kind = ACTION_SPECS[legal_actions[0]["type"]].decision
        s0 = determinise(view, rng, legal_actions)
        if kind in ("draw", "technology", "bathhouse") or budget <= 0:
            return greedy.decide(s0, seat, legal_actions)
        options = candidates(s0, seat, legal_actions)
        if len(options) == 1:
            return options[0]
        totals = [0.0] * len(options)
        runs = 0
        sample = s0
        while True:
            t0 = time.perf_counter()
            scores = []
            for a in options:
                scores.append(playout(_apply(sample, seat, a), seat, view["round"], view["phase"]))
                if runs and time.perf_counter() - start > budget and self.max_iterations is None:
                    break  # an unfinished iteration is dropped: every candidate sees the same samples
            else:
                totals = [t + x for t, x in zip(totals, scores, strict=True)]
                runs += 1
                if self.max_iterations is not None and runs >= self.max_iterations:
                    break
                now = time.perf_counter()
                if now - start + (now - t0) <= budget:
                    sample = determinise(view, rng, legal_actions)
                    continue
            break
        best = max(range(len(options)), key=lambda i: (totals[i], -i))
        return options[best]
