"""The action queue, pure: a seat lists its action-phase moves in advance (RULES §8.7).

A queue is a list of entries, the JSON the site stores per seat:

- ``{"type": "activate", "space": <place id>, ...}`` with the place's choices as in an
  ``activate`` action: scalar fields (``recruit``, ``place_tile``, ``route``, ``good``,
  ``coins``) and, for the Town Hall and the Gunpowder Tower, ``deeds``: a list of
  ``{"follower", "deed"?, "reward"?}`` (the deed space each follower goes to and, on
  Canalisation, the reward ``"coins"`` or ``"development"``; a missing key matches any).
  Opt-in ``"defaults": true`` lets the engine pick what the entry leaves open: "the good on
  the route if there is one" (the most valuable, RULES §4.3) and "any free deed space of its
  type" (as many followers as can go, coins before development, the spaces paying most
  coins; RULES §7.2, §14.8). A Bathhouse entry may carry ``keep``: ``[{"follower", "space"}, ...]``
  in preference order (RULES §11 Bathhouse).
- ``{"type": "pass"}``, optionally with ``technology``: ``[{"space", "circle"}, ...]``, the
  targets of the technology tile(s) placed on passing, in preference order (RULES §8.6, §14.2).
- ``{"type": "harvest", "food": [...]}``: the food to return at this round's Harvest, allowed
  only while the round's hourglass tile (face up) is the Harvest (RULES §9.3).

Answers given in advance (``keep``, ``technology``, ``harvest``) are used when their prompt
comes; when none of them is legal any more the prompt waits for the player (it is asked).

- :func:`check_queue` checks and normalises a whole queue for a seat (raises
  :class:`QueueRefused` with a code and a player sentence);
- :func:`next_queued` says what to do on the seat's turn: ``("play", action)``,
  ``("wait", reason)`` or ``("drop", reason)``;
- :func:`queue_after_move` is the queue after the seat's own move (by hand or queued).

Reasons are ``{"code", "params", "message"}`` dicts (JSON-safe; the message is one English
sentence, or two for a dropped queue; ``params["entry"]`` is the entry's label as a nested
message, ``{"msg", "params"}``).
"""

from __future__ import annotations

from itertools import permutations

from . import content as C
from .describe import queue_entry_message
from .errors import QueueRefused
from .messages import message, text
from .flow import awaiting_data, legal_data
from .places import MOVE_KINDS, activatable_places, choice_fields
from .refusals import reason as refusal_reason, render
from .state import GameState

#: At most this many entries in a queue (the site may pass its own ``limit``).
QUEUE_LIMIT = 10
#: Phases in which a queue may be set (RULES §8.4 planning, §8.7 actions).
QUEUE_PHASES = ("planning", "actions")
_SCALARS = (str, int, type(None))
#: Places whose ``activate`` carries a ``deeds`` list (RULES §7.2, §11, §14.8).
DEED_PLACES = ("town_hall", "gunpowder_tower")
#: Deed rewards (RULES §7.2: Canalisation offers a development step instead of coins).
DEED_REWARDS = ("coins", "development")
#: Entries that answer a prompt in advance, by the decision kind they answer.
ANSWER_TYPES = {"technology": "technology", "bathhouse": "bathhouse", "harvest": "harvest"}
#: At most this many items in a list field of an entry (more than any position needs).
_MOST_ITEMS = 12
#: Fields of an entry that are not fields of the action it plays.
_NOT_ACTION_FIELDS = ("defaults", "keep", "technology")


def own_places(state: GameState, seat: int) -> list[str]:
    """The places ``seat`` owns that are an action of the action phase, in board order:
    the ten board spaces and its place tiles with an action (RULES §5, §8.7, §11)."""
    return activatable_places(state.data["players"][seat])


def _refuse(code: str, **params) -> QueueRefused:
    return QueueRefused(f"queue refused: {code} {params!r}", code=code, params=params)


def _pairs(value, first: str, second: str, firsts, seconds, place: str, field: str,
           least: int = 1) -> list[dict]:
    """A list of ``{first: .., second: ..}`` string pairs with values in the given ranges."""
    if not isinstance(value, list) or not least <= len(value) <= _MOST_ITEMS:
        raise _refuse("queue_choice", place=place, field=field)
    out = []
    for item in value:
        if not (isinstance(item, dict) and set(item) == {first, second}
                and item[first] in firsts and item[second] in seconds):
            raise _refuse("queue_choice", place=place, field=field)
        out.append({first: item[first], second: item[second]})
    return out


def _check_deeds(value, place: str) -> list[dict]:
    """A ``deeds`` list: ``{"follower", "deed"?, "reward"?}`` items (RULES §7.2)."""
    if not isinstance(value, list) or not 0 < len(value) <= 3:
        raise _refuse("queue_choice", place=place, field="deeds")
    out = []
    for item in value:
        if not (isinstance(item, dict) and "follower" in item and set(item) <= {"follower", "deed", "reward"}
                and item["follower"] in C.FOLLOWER_NAMES and item.get("deed", "city_wall") in C.DEEDS
                and item.get("reward", "coins") in DEED_REWARDS):
            raise _refuse("queue_choice", place=place, field="deeds")
        out.append(dict(item))
    return sorted(out, key=lambda d: (d["follower"], d.get("deed", ""), d.get("reward", "")))


def _check_answer(state: GameState, seat: int, entry: dict) -> dict:
    """An entry answering a prompt in advance (see the module docstring)."""
    kind = entry["type"]
    if kind == "harvest":
        food = entry.get("food")
        if set(entry) != {"type", "food"} or not isinstance(food, list) or not 0 < len(food) <= 3 \
                or not all(isinstance(g, str) and g in C.FOOD for g in food):
            raise _refuse("queue_choice", place="harvest", field="food")
        if state.data["event"] != "harvest":
            raise _refuse("queue_no_harvest")  # RULES §9.3: only the face-up hourglass tile is known
        return {"type": "harvest", "food": sorted(food, key=C.FOOD.index)}
    if kind == "technology":
        if set(entry) != {"type", "targets"}:
            raise _refuse("queue_entry")
        return {"type": "technology", "targets": _technology(entry["targets"])}
    if set(entry) != {"type", "keep"}:
        raise _refuse("queue_entry")
    return {"type": "bathhouse", "keep": _keep(entry["keep"])}


def _technology(value) -> list[dict]:
    return _pairs(value, "space", "circle", C.PLACES, C.FOLLOWER_NAMES, "pass", "technology")


def _keep(value) -> list[dict]:
    # an empty list keeps none of the drawn followers (RULES §11: keeping is optional)
    return _pairs(value, "follower", "space", C.ALL_FOLLOWER_TILES, C.PLACES, "bathhouse", "keep", least=0)


def check_entry(state: GameState, seat: int, entry) -> dict:
    """Check one queue entry for ``seat`` and return it normalised (a new dict).

    ``entry`` may be any JSON value. Refused (:class:`QueueRefused`) with code
    ``queue_entry`` (not an entry of the module docstring), ``queue_not_action`` (an own
    place tile without an action-phase action: Sacristy, Herb Garden, School),
    ``queue_field`` (a field that place does not choose), ``queue_choice`` (a value out of
    the component data's range), ``queue_not_own`` (not one of :func:`own_places`) or
    ``queue_no_harvest`` (food queued while this round's event is not the Harvest).
    """
    if not isinstance(entry, dict) or not isinstance(entry.get("type"), str) \
            or entry["type"] not in ("activate", "pass", *ANSWER_TYPES):
        raise _refuse("queue_entry")
    if entry["type"] in ANSWER_TYPES:
        return _check_answer(state, seat, entry)
    if entry["type"] == "pass":
        return {"type": "pass", **({"technology": _technology(entry["technology"])} if "technology" in entry else {})}
    space = entry.get("space")
    if not isinstance(space, str) or space not in own_places(state, seat):
        if isinstance(space, str) and space in state.data["players"][seat]["places"]:
            raise _refuse("queue_not_action", place=space)  # Sacristy, Herb Garden, School (RULES §11)
        raise _refuse("queue_not_own")
    fields = dict(choice_fields(space))
    extra = {"deeds"} if space in DEED_PLACES else set()
    extra |= {"defaults"} if space in DEED_PLACES or space in MOVE_KINDS else set()
    extra |= {"keep"} if space == "bathhouse" else set()
    unknown = sorted(str(k) for k in entry if k not in ("type", "space") and k not in fields and k not in extra)
    if unknown:
        raise _refuse("queue_field", place=space, fields=unknown)
    out = {"type": "activate", "space": space}
    for key, value in entry.items():
        if key in fields:
            if not isinstance(value, _SCALARS) or isinstance(value, bool) or value not in fields[key]:
                raise _refuse("queue_choice", place=space, field=key)
            out[key] = value
    if "deeds" in entry:
        out["deeds"] = _check_deeds(entry["deeds"], space)
    if "defaults" in entry:
        if entry["defaults"] is not True:
            raise _refuse("queue_choice", place=space, field="defaults")
        out["defaults"] = True
    if "keep" in entry:
        out["keep"] = _keep(entry["keep"])
    return out


def check_queue(state: GameState, seat: int, entries, limit: int = QUEUE_LIMIT) -> list[dict]:
    """Check and normalise a whole queue for ``seat`` (each entry as :func:`check_entry`).

    Refused (:class:`QueueRefused`) with code ``queue_phase`` (only while planning or in the
    action phase), ``queue_limit`` (more than ``limit`` entries), ``queue_after_pass``
    (passing ends the round, RULES §8.7), ``queue_place_twice`` (each place is used once a
    round, RULES §8.7) or ``queue_answer_twice`` (one answer per prompt kind), or an entry's code.
    """
    if state.data["phase"] not in QUEUE_PHASES:
        raise _refuse("queue_phase")
    if not isinstance(entries, list):
        raise _refuse("queue_entry")
    if len(entries) > limit:
        raise _refuse("queue_limit", limit=limit)
    checked = [check_entry(state, seat, entry) for entry in entries]
    moves = [entry for entry in checked if entry["type"] not in ANSWER_TYPES]
    if any(entry["type"] == "pass" for entry in moves[:-1]):
        raise _refuse("queue_after_pass")
    spaces = [entry["space"] for entry in moves if entry["type"] == "activate"]
    if len(spaces) != len(set(spaces)):
        raise _refuse("queue_place_twice")
    answers = [entry["type"] for entry in checked if entry["type"] in ANSWER_TYPES]
    if len(answers) != len(set(answers)):
        raise _refuse("queue_answer_twice")
    return checked


def _deeds_match(done, wanted: list) -> bool:
    """True if the action's ``done`` deeds list pairs one to one with the entry's ``wanted``
    items, every key an item gives having the same value."""
    if not isinstance(done, list) or len(done) != len(wanted):
        return False
    return any(all(all(d.get(k) == v for k, v in w.items()) for d, w in zip(order, wanted, strict=True))
               for order in permutations(done))


def matches(action: dict, entry: dict) -> bool:
    """True if every field of ``entry`` has the same value in ``action`` (a ``deeds`` list:
    item by item, a missing key matching any); ``defaults``, ``keep`` and ``technology``
    are answers, not fields of the action."""
    for key, value in entry.items():
        if key in _NOT_ACTION_FIELDS:
            continue
        if key == "deeds":
            if not _deeds_match(action.get("deeds"), value):
                return False
        elif action.get(key) != value:
            return False
    return True


def _answers_after_pass(entries: list) -> list:
    """The answers the queue keeps after its seat passes: the pass entry's technology
    targets and the Harvest food (RULES §8.6, §9.3; the round goes on for them)."""
    kept = [e for e in entries if isinstance(e, dict) and e.get("type") in ("technology", "harvest")]
    for e in entries:
        if isinstance(e, dict) and e.get("type") == "pass" and e.get("technology") \
                and not any(k.get("type") == "technology" for k in kept):
            kept.insert(0, {"type": "technology", "targets": e["technology"]})
    return kept


def queue_after_move(entries: list, action) -> list:
    """The queue after the seat's own move ``action``: a pass keeps only the answers for
    what follows it this round (technology tile targets, Harvest food; RULES §8.7: no more
    actions for the seat); using a place (by hand or from the queue) removes that place's
    entry wherever it stands (a queue holds a place once, and a used place is not ready
    again this round), and a Bathhouse entry's ``keep`` becomes a ``bathhouse`` answer at
    the head; a prompt's answer used (food returned, the Bathhouse done) is removed; any
    other move leaves it as it is. Returns a new list."""
    if not entries or not isinstance(action, dict):
        return list(entries or [])
    kind = action.get("type")
    if kind == "pass":
        return _answers_after_pass(entries)
    if kind == "activate":
        used = [e for e in entries if isinstance(e, dict) and e.get("type") == "activate"
                and e.get("space") == action.get("space")]
        rest = [e for e in entries if not any(e is u for u in used)
                and not (isinstance(e, dict) and e.get("type") == "bathhouse")]
        if action.get("space") == "bathhouse" and used and "keep" in used[0]:
            rest.insert(0, {"type": "bathhouse", "keep": used[0]["keep"]})
        return rest
    if kind in ("return_food", "bathhouse_done"):
        answered = "harvest" if kind == "return_food" else "bathhouse"
        return [e for e in entries if not (isinstance(e, dict) and e.get("type") == answered)]
    return list(entries)


def _reason(code: str, **params) -> dict:
    return {"code": code, "params": params, "message": render(code, params)}


def _entry_message(entry) -> dict:
    """The entry's label as a nested message for a reason's ``entry`` param (a site renders
    it in its language), ``queue.unreadable`` when its text cannot be made."""
    msg = queue_entry_message(entry)
    try:
        text(msg)
    except (KeyError, TypeError, ValueError, AttributeError, IndexError):
        return message("queue.unreadable")
    return msg


_GOOD_RANK = {good: i for i, good in enumerate(C.GOODS)}


def _preference(action: dict) -> tuple:
    """Sort key of the defaults: a good before none, the most valuable good first (RULES
    §4.3; goods in value order); more followers to the deeds, coins before development, the
    deed spaces paying most coins, then the deeds in board order (RULES §7.2, §14.8)."""
    good = action.get("good")
    deeds = action.get("deeds") or []
    deed_order = list(C.DEEDS)
    coins = sum(C.DEEDS[d["deed"]].coins for d in deeds if d["reward"] == "coins")
    return (-_GOOD_RANK[good] if good else 1, -len(deeds),
            sum(d["reward"] == "development" for d in deeds), -coins,
            tuple(sorted(deed_order.index(d["deed"]) for d in deeds)))


def _default_choice(found: list[dict]) -> dict | None:
    """The action the entry's opt-in defaults pick among ``found`` (its matches), or None
    when they differ in a choice no default covers (the route, a recruit, coins)."""
    open_fields = {k for a in found for k in a if k not in ("good", "deeds")}
    if any(len({repr(a.get(k)) for a in found}) > 1 for k in open_fields):
        return None
    return min(found, key=_preference)


def _action_of(entry: dict) -> dict:
    """The entry as an action, for the refusal reason (a partial deeds list is left out)."""
    action = {k: v for k, v in entry.items() if k not in _NOT_ACTION_FIELDS}
    if "deeds" in action:
        if all({"deed", "follower"} <= set(d) for d in action["deeds"]):
            action["deeds"] = [{"reward": "coins", **d} for d in action["deeds"]]
        else:
            del action["deeds"]
    return action


def _answer(state: GameState, seat: int, kind: str, entries: list) -> tuple:
    """What the queue does at a prompt of ``kind`` (technology, bathhouse, harvest): play the
    first legal answer given in advance; at the Bathhouse, when none of the followers the
    ``keep`` list names is among those drawn, return them all to the bag (RULES §11: keeping
    is optional); else wait for the player (``queue_answer_changed`` when an answer was
    given but none is legal now, ``queue_not_turn`` when none was)."""
    answer = next((e for e in entries if isinstance(e, dict) and e.get("type") == kind), None)
    if answer is None and kind == "technology":
        passed = next((e for e in entries if isinstance(e, dict) and e.get("type") == "pass"), None)
        if passed and passed.get("technology"):
            answer = {"type": "technology", "targets": passed["technology"]}
    if answer is None:
        return "wait", _reason("queue_not_turn")
    legal = legal_data(state.data, seat)
    if kind == "technology":
        wanted = [{"type": "place_technology", **t} for t in answer.get("targets") or []]
    elif kind == "bathhouse":
        wanted = [{"type": "bathhouse_place", **k} for k in answer.get("keep") or []]
    else:
        wanted = [{"type": "return_food", "food": list(answer.get("food") or [])}]
    for action in wanted:
        if action in legal:
            return "play", action
    if kind == "bathhouse":
        drawn = state.data["players"][seat]["prompts"][0]["drawn"]
        if not any(k["follower"] in drawn for k in answer.get("keep") or []):
            return "play", {"type": "bathhouse_done"}  # none of the followers it wanted: the rest to the bag
    return "wait", _reason("queue_answer_changed", prompt=kind)


def next_queued(state: GameState, seat: int, entries: list) -> tuple:
    """What the queue does now for ``seat``:

    - ``("play", action)``: the head (the first activation or pass) matches exactly one
      legal action of the seat's action decision (RULES §8.7), or several and its opt-in
      ``defaults`` pick one; or the seat faces a prompt (technology tile, Bathhouse,
      Harvest) that an answer given in advance fixes; apply it, then keep
      :func:`queue_after_move`;
    - ``("wait", reason)``: nothing to do now — the queue is empty (``queue_empty``), the
      seat is not deciding an action now (``queue_not_turn``: another seat's turn, a prompt
      without an answer, another phase, the game's end), the head leaves a choice open that
      the queue does not fix (``queue_choice_open``), the head's place can be used but not
      with the queued choice (``queue_choice_illegal``: the player decides, the queue stays;
      ``params["why"]`` is the refusal code of the choice and the message says it), or no
      answer given in advance is legal at the prompt (``queue_answer_changed``: asked);
    - ``("drop", reason)``: the head's place cannot be used at all (``queue_not_playable``;
      the game went another way), so the whole queue is dropped; the reason's
      ``params["why"]`` is the refusal code of the head as an action and its message names
      both. A head that :func:`check_entry` refuses by its shape (any JSON value:
      ``queue_entry``, ``queue_field``, ``queue_choice``) is dropped with that code, never raises.
    """
    if not entries:
        return "wait", _reason("queue_empty")
    kind = awaiting_data(state.data).get(seat)
    if kind in ANSWER_TYPES:
        return _answer(state, seat, kind, entries)
    if kind != "action":
        return "wait", _reason("queue_not_turn")
    moves = [e for e in entries if not (isinstance(e, dict) and e.get("type") in ANSWER_TYPES)]
    if not moves:
        return "wait", _reason("queue_empty")
    head = moves[0]
    try:
        check_entry(state, seat, head)
    except QueueRefused as refused:
        if not (isinstance(head, dict) and isinstance(head.get("space"), str)
                and refused.code in ("queue_not_own", "queue_not_action")):
            # not an entry at all (stored by other means than check_queue): dropped, never
            # matched loosely or searched for a reason with values of the wrong type
            return "drop", _reason("queue_not_playable", entry=_entry_message(head), why=refused.code,
                                   why_params=dict(refused.params))
    legal = legal_data(state.data, seat)
    found = [a for a in legal if matches(a, head)]
    label = _entry_message(head)
    if len(found) == 1:
        return "play", found[0]
    if found:
        chosen = _default_choice(found) if head.get("defaults") else None
        if chosen is not None:
            return "play", chosen
        return "wait", _reason("queue_choice_open", entry=label)
    why, why_params = ("not_allowed", {})
    if isinstance(head, dict) and head.get("type") == "activate" and isinstance(head.get("space"), str):
        why, why_params = refusal_reason(state.data, seat, _action_of(head), legal)
        if any(a.get("space") == head["space"] for a in legal):
            return "wait", _reason("queue_choice_illegal", entry=label, why=why, why_params=why_params)
    return "drop", _reason("queue_not_playable", entry=label, why=why, why_params=why_params)


# --- what the queue panel offers (the choices as things stand, with what each gives) ---------


def _as_planned(state: GameState, seat: int) -> dict:
    """A copy of the state tree with ``seat``'s plan on its places (RULES §8.4 reveal), so
    the choices of the places its plan fills can be listed while it plans. Only that seat's
    spaces and plan are copies (``state.work_copy``); the rest is shared with ``state``, and
    the choices only read it."""
    from . import steps as S
    from .state import work_copy

    s = work_copy(state.data, seat, (), ("spaces", "plan"))
    p = s["players"][seat]
    for place_id, tile in p["plan"]:
        S.put_on_space(p, place_id, tile)
    p["plan"] = []
    return s


def _gives(s: dict, seat: int, action: dict) -> dict | None:
    """What an activation gives, in a few words (RULES §4.3, §6, §7.2, §11): a message of
    ``engine.messages`` (``gives.*``, a place's ``place_effect.*``), None for nothing."""
    from .describe import place_message, track_reward_messages

    p = s["players"][seat]
    space = action["space"]
    if "recruit" in action:
        kind = action["recruit"]
        steps = track_reward_messages()[kind]
        step = p["tracks"][kind]
        out = (message("gives.track_step", track=kind, step=step + 1, reward=steps[step]) if step < len(steps)
               else message("gives.track_end", track=kind))
        return message("gives.with_tile", gives=out, tile=place_message(action["place_tile"])) \
            if "place_tile" in action else out
    if "route" in action:
        good = action.get("good")
        return (message("gives.good", good=good) if good
                else message("gives.route_good") if action.get("defaults") else message("gives.no_good"))
    if "deeds" in action:
        coins = sum(C.DEEDS[d["deed"]].coins for d in action["deeds"] if d["reward"] == "coins")
        steps = sum(d["reward"] == "development" for d in action["deeds"])
        parts = ([message("gives.coins", coins=coins)] if coins else []) + (
            [message("gives.development", steps=steps)] if steps else [])
        return message("gives.parts", parts=parts) if parts else None
    if "coins" in action:
        return message("gives.pharmacy", coins=action["coins"])
    return place_message(space)


def _keep_choices(p: dict) -> list[dict]:
    """``{"follower", "space"}`` pairs a follower drawn at the Bathhouse could fill now: a
    free circle of its type on another of the player's action places (RULES §11 Bathhouse;
    never a starting follower, and the Town Hall takes any but those, §7.2)."""
    from . import steps as S

    out = []
    for place_id in S.action_places(p):
        if place_id in ("bathhouse", "town_hall"):
            continue
        for kind in C.FOLLOWER_TYPES:
            if S.space_fits(p, place_id, p["spaces"].get(place_id, []) + [kind]) \
                    and len(p["spaces"].get(place_id, [])) < len(S.free_circles(p, place_id)):
                out.append({"follower": kind, "space": place_id})
    return out


def queue_options(state: GameState, seat: int) -> list[dict]:
    """What ``seat`` may add to its queue now, for the queue panel: ``[{"group", "place",
    "entry", "label", "label_message", "gives", "gives_message"}, ...]`` in board order, then
    passing and the Harvest (``place`` None). ``label``/``gives`` are English, their
    ``*_message`` the same as messages of ``engine.messages`` (``gives_message`` None when
    the choice names nothing it gives).

    For each place the seat's plan (or board) makes ready, every way to use it as things
    stand (the engine's own choices, RULES §5, §11), with the opt-in defaults for a move or
    the deeds; the Bathhouse keeping none or one follower on a free circle; passing, with each technology tile target when
    one is pending or a Craftsman may bring one (RULES §8.6, §14.2); the Harvest's food when
    the Harvest is face up (RULES §9.3). Reads only ``seat``'s own and public information.
    """
    from itertools import combinations_with_replacement

    from . import steps as S
    from .describe import place_name
    from .phases.event import _strength
    from .places import PLACE_RULES, usable_places

    s = _as_planned(state, seat)
    p = s["players"][seat]
    out = []

    def add(group: str, entry: dict, gives: dict | None = None, place: str | None = None) -> None:
        label = queue_entry_message(entry)  # the engine's own entries: always readable
        out.append({"group": group, "place": place, "entry": entry, "label": text(label),
                    "label_message": label, "gives": text(gives) if gives else "", "gives_message": gives})

    for place_id in usable_places(p):
        group = place_name(place_id)
        choices = PLACE_RULES[place_id][0](s, seat)
        if not choices:
            continue
        if place_id in MOVE_KINDS:
            for route in sorted({c["route"] for c in choices}):
                entry = {"type": "activate", "space": place_id, "route": route, "defaults": True}
                add(group, entry, _gives(s, seat, entry), place_id)
        if place_id in DEED_PLACES:
            entry = {"type": "activate", "space": place_id, "defaults": True}
            add(group, entry, message("gives.deeds_default"), place_id)
        for choice in choices:
            action = {"type": "activate", "space": place_id, **choice}
            entry = dict(action)
            if "deeds" in entry:
                entry["deeds"] = [{k: v for k, v in d.items() if not (k == "reward" and v == "coins")}
                                  for d in entry["deeds"]]
            add(group, entry, _gives(s, seat, action), place_id)
        if place_id == "bathhouse":
            add(group, {"type": "activate", "space": "bathhouse", "keep": []}, message("gives.bathhouse_none"),
                place_id)
            for keep in _keep_choices(p):
                add(group, {"type": "activate", "space": "bathhouse", "keep": [keep]},
                    message("gives.bathhouse_keep"), place_id)
    add("Pass", {"type": "pass"})
    if p["technology_pending"] or "village" in usable_places(p):
        for place_id, circle in S.technology_targets(p):
            add("Pass", {"type": "pass", "technology": [{"space": place_id, "circle": circle}]})
    if s["event"] == "harvest":
        need = _strength(s, "harvest", "foodToReturn")
        for food in combinations_with_replacement(C.FOOD, need):
            add("Harvest", {"type": "harvest", "food": list(food)})
    return out
