"""The planning board: a draft plan composed on the page, and the board's clickable targets.

A draft is a list of the engine's own provisional planning actions (``place`` and
``unplace`` dicts that the page got from ``legal_actions``), kept in the player's browser
(``static/js/board.js``: localStorage keyed by game, seat and round) and sent with every
request of the game page as ``plan_draft``. It is never stored on the server:
``apply_draft`` replays it through the engine's ``apply`` on the viewer's own state and
drops whatever the engine refuses, and the page is rendered from that state, so the
engine's ``legal_actions`` and ``view`` of the draft decide every target. The plan then goes
to the engine once, as one ``submit_plan`` with all its ``placements`` (RULES §8.4: a plan
is free until it is submitted, and is revealed only when everyone has submitted).

Only the viewer's own seat, and only while the engine awaits its ``plan``, ever gets a draft
applied; the other seats and spectators never see it (it is the player's own plan).
"""
from __future__ import annotations

import json
from collections import Counter

from django.utils.translation import gettext

from games.presenters import board
from games.vocabulary import follower_name, remember

#: A longer draft is not read at all (a plan has at most a market's followers, and the
#: page replaces the draft by its short form after every answer).
MAX_DRAFT = 64
#: The most characters of ``plan_draft`` read (a draft of ``MAX_DRAFT`` edits fits).
MAX_DRAFT_CHARS = 8192
_EDITS = ("place", "unplace")


def parse_draft(raw: str | None) -> list[dict]:
    """The edits of a ``plan_draft`` parameter: a JSON list of ``{"type": "place" |
    "unplace", "follower": str, "space": str}``. Anything else (no parameter, bad JSON,
    other keys or types, more than ``MAX_DRAFT`` edits) is no draft: ``[]``."""
    if not raw or len(raw) > MAX_DRAFT_CHARS:
        return []
    try:
        edits = json.loads(raw)
    except (ValueError, RecursionError):
        return []
    if not isinstance(edits, list) or len(edits) > MAX_DRAFT:
        return []
    for edit in edits:
        if not (isinstance(edit, dict) and set(edit) == {"type", "follower", "space"}
                and edit["type"] in _EDITS and isinstance(edit["follower"], str)
                and isinstance(edit["space"], str)):
            return []
    return edits


def _plan(view: dict, seat: int) -> list[tuple[str, str]]:
    """The viewer's plan in its view: ``[(space, follower), ...]``."""
    return [tuple(item) for item in view["players"][seat].get("plan") or []]


def apply_draft(rules, state, seat: int, edits: list[dict]) -> tuple[object, list[dict]]:
    """``(state with the draft, the draft in short form)``.

    ``rules`` is the game's engine, ``state`` its state, ``seat`` the viewer's seat order
    (awaited for ``plan``), ``edits`` from ``parse_draft``. Each edit is applied with the
    engine's ``apply`` in order; one the engine refuses (a ``RulesError``: the follower is
    no longer in the market, the circle was taken…) is left out. The short form is the same
    plan as edits from the stored plan: the take-backs first, then the placements.
    """
    if not edits:  # no draft: the state as it is (its two views would be equal)
        return state, []
    before = _plan(rules.view(state, seat), seat)
    for edit in edits:
        try:
            state, _events = rules.apply(state, seat, edit)
        except rules.RulesError:
            continue
    after = _plan(rules.view(state, seat), seat)
    removed = Counter(before) - Counter(after)
    added = Counter(after) - Counter(before)
    short = [{"type": "unplace", "follower": f, "space": s} for s, f in sorted(removed.elements())]
    short += [{"type": "place", "follower": f, "space": s} for s, f in sorted(added.elements())]
    return state, short


def whole_plan(view: dict, seat: int) -> dict:
    """The one ``submit_plan`` action sending the viewer's whole plan as ``view`` shows it
    (``{"type": "submit_plan", "placements": [{"follower", "space"}, ...]}``, RULES §8.4)."""
    return {"type": "submit_plan", "placements": [{"follower": f, "space": s} for s, f in _plan(view, seat)]}


#: (engine, the viewer's own board as its view shows it, the placement) -> ``_landing``'s
#: answer: while a seat plans, every other seat's move rebuilds its page with the same
#: board, and each target costs the engine an ``apply`` and a ``view``. The answer is a
#: function of the key (the seat's whole own view, the game's options), so it tells no
#: viewer anything its own view does not. Emptied when full.
_LANDINGS: dict[tuple, int | None] = {}
_LANDINGS_MAX = 20_000


def _landing(rules, state, seat: int, action: dict, circles: list, board: str) -> int | None:
    """The circle (index in component order) the engine puts ``action``'s follower on, from
    its view of the plan with the placement made; the first free circle of the place if the
    engine's matching moves another follower onto that one instead. ``board``: the
    viewer's own board (``plan_context``'s key of it), for the memo."""
    key = (rules, board, repr(action))
    if key not in _LANDINGS:
        remember(_LANDINGS, key, _landed(rules, state, seat, action, circles), _LANDINGS_MAX)
    return _LANDINGS[key]


def _landed(rules, state, seat: int, action: dict, circles: list) -> int | None:
    # the circles were the placement made (the engine's matching, without applying it)
    after = rules.plan_circles(state, seat, action["space"], placing=action["follower"])
    free = [i for i, on in enumerate(circles) if on is None or (on["tile"] is None and not on["technology"])]
    for i, (was, now) in enumerate(zip(circles, after, strict=True)):
        if now["planned"] and now["tile"] == action["follower"] and not (
                was and was["planned"] and was["tile"] == action["follower"]):
            return i if i in free else (free[0] if free else None)
    return free[0] if free else None


def plan_context(rules, state, seat: int, view: dict, items: list[dict], *, key: str,
                 draft: list[dict], sent: str) -> dict:
    """What the planning board shows and offers the viewer (awaited for ``plan``).

    ``state``/``view``/``items`` are the state with the draft applied, its view for ``seat``
    and its legal actions with labels (``{"action", "label"}``); ``key`` names the draft in
    the browser (game, seat, round); ``draft`` is its short form (``apply_draft``) and
    ``sent`` the ``plan_draft`` text the page sent (echoed, so the page knows which draft
    an answer shows).

    Returns ``key``, ``draft``, ``sent``; ``market``: per follower type in the market
    ``{"tile", "count", "name", "targets"}`` (``targets``: how many places it may go on);
    ``cards``: the viewer's place cards (``board.place_cards``) whose slots carry
    ``targets`` (follower -> ``{"action", "label"}``: the engine's legal ``place`` for the
    circle it would stand on) and ``undo`` (the legal ``unplace`` of a planned follower, or
    None); ``submit``: the one ``submit_plan`` with every placement of the plan.
    """
    me = view["players"][seat]
    cards = board.place_cards(rules, me)
    by_id = {card["id"]: card for card in cards}
    for card in cards:
        for slot in card["slots"]:
            slot["targets"], slot["undo"] = {}, None
    circles = me["plan_circles"]
    # what the landings are a function of: the engine, the game's options and the seat's own board
    board_key = repr((getattr(rules, "ENGINE_VERSION", ""), view.get("options"), view.get("phase"),
                      view.get("round"), me))
    per_tile: Counter = Counter()
    for item in items:
        action = item["action"]
        card = by_id.get(action.get("space"))
        if card is None:
            continue
        if action["type"] == "place":
            on = circles.get(action["space"]) or [None] * len(card["slots"])
            index = _landing(rules, state, seat, action, on, board_key)
            if index is not None:
                card["slots"][index]["targets"][action["follower"]] = {"action": action, "label": item["label"]}
                per_tile[action["follower"]] += 1
        elif action["type"] == "unplace":  # one take-back for every planned circle of that follower
            for slot in card["slots"]:
                if slot["planned"] and slot["tile"] == action["follower"]:
                    slot["undo"] = {"action": action, "label": item["label"]}
    market = [{"tile": m["tile"], "count": m["count"], "name": follower_name(m["tile"]),
               "targets": per_tile[m["tile"]]}
              for m in board.counts_by_type(rules.content, me["market"] or [])]
    submit = whole_plan(view, seat)
    placements = submit["placements"]
    label = next((i["label"] for i in items if i["action"]["type"] == "submit_plan"), gettext("Submit my plan"))
    sent = sent if len(sent) <= MAX_DRAFT_CHARS else ""  # an unread draft is not echoed either
    return {"key": key, "draft": draft, "sent": sent, "market": market, "cards": cards,
            "submit": {"action": submit, "label": label, "count": len(placements)}}
