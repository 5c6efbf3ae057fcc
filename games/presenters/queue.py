"""The viewer's action queue panel (entry labels come from the engine's describe_queue_entry)."""
from __future__ import annotations

import json

from games.models import Seat


def queue_context(rules_engine, view: dict, seat: Seat | None, *, limit: int) -> dict | None:
    """The viewer's action queue panel: entries (labels), what can be added (the places the
    engine says the viewer's plan makes ready, ``ready_places``, then passing) and why the
    queue last stopped; None when the viewer has no seat or the round is past its action
    phase. ``rules_engine`` is the game's engine (``games.rules.engine_for``); ``limit`` the
    queue's length limit (``games.services.queue.ACTION_QUEUE_LIMIT``). Only ``seat``'s own
    queue is read."""
    if seat is None or view.get("phase") not in ("planning", "actions"):
        return None
    me = view["players"][seat.order]
    if me.get("passed"):
        return None
    this_round = seat.action_queue_round == view.get("round")
    entries = list(seat.action_queue) if this_round else []
    queued = {e.get("space") for e in entries}
    ends_with_pass = bool(entries) and entries[-1].get("type") == "pass"
    candidates = [{"type": "activate", "space": p} for p in me["ready_places"] or [] if p not in queued]
    candidates.append({"type": "pass"})
    label = rules_engine.describe_queue_entry
    return {
        "entries": [{"label": label(e), "value": json.dumps(e)} for e in entries],
        "candidates": [(json.dumps(c), label(c)) for c in candidates],
        "full": len(entries) >= limit or ends_with_pass,
        "note": seat.action_queue_note if this_round else "",
    }
