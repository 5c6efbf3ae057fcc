"""How an action queue entry reads, and the viewer's queue panel."""
from __future__ import annotations

import json

import engine
from games.models import Seat


def queue_entry_label(entry: dict) -> str:
    """How an action queue entry reads ("Use Castle", "Pass for the rest of the round",
    "Use Village (Use Village: recruit a Boatman)" when it fixes a choice)."""
    if entry.get("type") == "pass":
        return "Pass for the rest of the round"
    try:
        name = engine.content.PLACES[entry["space"]].name
        return f"Use {name}" + ("" if set(entry) == {"type", "space"} else f" ({engine.describe_action(entry)})")
    except (KeyError, TypeError):
        return "An action that cannot be read"




def queue_context(view: dict, seat: Seat | None, *, limit: int) -> dict | None:
    """The viewer's action queue panel: entries (labels), what can be added (the places the
    plan fills, then passing) and why the queue last stopped; None when the viewer has no
    seat or the round is past its action phase. ``limit`` is the queue's length limit
    (``games.services.queue.ACTION_QUEUE_LIMIT``)."""
    if seat is None or view.get("phase") not in ("planning", "actions"):
        return None
    me = view["players"][seat.order]
    if me.get("passed"):
        return None
    entries = list(seat.action_queue) if seat.action_queue_round == view.get("round") else []
    queued = {e.get("space") for e in entries}
    ends_with_pass = bool(entries) and entries[-1].get("type") == "pass"
    candidates = [{"type": "activate", "space": p} for p in me["ready_places"] or [] if p not in queued]
    candidates.append({"type": "pass"})
    return {
        "entries": [{"label": queue_entry_label(e), "value": json.dumps(e)} for e in entries],
        "candidates": [(json.dumps(c), queue_entry_label(c)) for c in candidates],
        "full": len(entries) >= limit or ends_with_pass,
        "note": seat.action_queue_note if seat.action_queue_round == view.get("round") else "",
    }
