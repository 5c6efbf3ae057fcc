"""The viewer's action queue panel: its entries, the choices it can add with what each gives
(the engine's ``queue.queue_options``), and the pass, which confirms like the manual pass."""
from __future__ import annotations

import json

from django.utils.translation import ngettext, pgettext

from games.messages import queue_entry_label, queue_note, queue_option_texts
from games.vocabulary import event_name, place_name
from games.models import Seat

#: The groups of ``queue_options`` that are not a place of the player's board.
PASS_GROUP, HARVEST_GROUP = "Pass", "Harvest"


def _option(option: dict) -> tuple[str, str]:
    """``(value, label)`` of one choice: the entry as JSON and what it reads and gives (in
    the active language)."""
    label, gives = queue_option_texts(option)
    return json.dumps(option["entry"]), label + (f" — {gives}" if gives else "")


def _pass_confirm(ready: list[str], queued: set, names: dict) -> str:
    """The question asked before queueing the pass while the plan readies places the queue
    does not use before it (a manual pass asks too: ``decisions._action_forms``)."""
    left = [names.get(p, p) for p in ready if p not in queued]
    if not left:
        return ""
    return ngettext(
        "Your plan readies %(places)s, not queued before the pass: passing leaves it unused this round. "
        "Queue the pass anyway?",
        "Your plan readies %(places)s, not queued before the pass: passing leaves them unused this round. "
        "Queue the pass anyway?", len(left)) % {
        "places": pgettext("between names in a list", ", ").join(str(name) for name in left)}


def queue_context(rules_engine, view: dict, seat: Seat | None, *, limit: int,
                  options: list[dict] | None = None) -> dict | None:
    """The viewer's action queue panel, or None when the viewer has no seat, has passed, or
    the round is past its action phase.

    ``rules_engine`` is the game's engine (``games.rules.engine_for``); ``view`` the
    viewer's view; ``limit`` the queue's length limit
    (``games.services.queue.ACTION_QUEUE_LIMIT``); ``options`` the engine's
    ``queue.queue_options(state, seat)`` for the viewer (``{"group", "entry", "label",
    "gives"}``, grouped by place name; without it, each ready place and passing). Only ``seat``'s own queue is read. Returns
    ``entries`` (label, value), ``groups`` (name, [(value, label)]: the places' choices and
    the Harvest's food), ``passes`` (the pass and its technology tile targets), ``pass_confirm``
    (the question, or ""), ``full``, ``note``.
    """
    if seat is None or view.get("phase") not in ("planning", "actions"):
        return None
    me = view["players"][seat.order]
    if me.get("passed"):
        return None
    this_round = seat.action_queue_round == view.get("round")
    entries = list(seat.action_queue) if this_round else []
    queued = {e.get("space") for e in entries if e.get("type") == "activate"}
    answered = {e.get("type") for e in entries}
    ends_with_pass = any(e.get("type") == "pass" for e in entries)
    ready = list(me["ready_places"] or [])

    def label(entry) -> str:
        return queue_entry_label(rules_engine, entry)

    if options is None:
        options = [{"group": p, "entry": {"type": "activate", "space": p}, "label": label(
            {"type": "activate", "space": p}), "gives": ""} for p in ready]
        options.append({"group": PASS_GROUP, "entry": {"type": "pass"}, "label": label({"type": "pass"}), "gives": ""})
    groups: dict[str, list] = {}
    passes = []
    for option in options:
        entry = option["entry"]
        if entry.get("type") == "pass":
            passes.append(_option(option))
        elif entry.get("type") == "harvest":
            if "harvest" not in answered:
                groups.setdefault(HARVEST_GROUP, []).append(_option(option))
        elif entry.get("space") in ready and entry.get("space") not in queued and not ends_with_pass:
            groups.setdefault(option["group"], []).append(_option(option))
    # group titles in the active language: a place's name, the Harvest's (else as the engine names it)
    titles = {o["group"]: place_name(o["place"], o["group"]) for o in options if o.get("place")}
    titles[HARVEST_GROUP] = event_name("harvest")
    return {
        "entries": [{"label": label(e), "value": json.dumps(e)} for e in entries],
        "groups": [(titles.get(name, name), choices) for name, choices in groups.items()],
        "passes": [] if ends_with_pass else passes,
        "pass_confirm": _pass_confirm(ready, queued, {p: place_name(p) for p in ready}),
        "full": len(entries) >= limit,
        "note": queue_note(seat.action_queue_note, seat.action_queue_note_message) if this_round else "",
    }
