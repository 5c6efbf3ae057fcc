"""Default decisions taken for a seat that ran out of time (the timeout policy).

:func:`timeout_action` returns one legal action for an awaited seat, chosen by a fixed,
documented rule so that a game never stalls and the choice is predictable:

- ``draw``: draw as many followers as allowed, no pull-backs (RULES §8.3);
- ``plan``: submit the plan as it stands (RULES §8.4);
- ``action``: pass (RULES §8.7);
- ``harvest``: return the cheapest food (grain, then cheese, then wine; RULES §9.3);
- ``torture``: give the item worth least at the end of the game — a good (cheapest first),
  a development step, a follower, a trading station from the supply, a technology tile,
  a place tile, a built trading station (RULES §10.1);
- ``technology``: the first legal circle in board order (RULES §8.6);
- ``bathhouse``: return the drawn followers to the bag (RULES §11).
"""

from __future__ import annotations

from . import content as C
from .flow import awaiting_data, legal_data
from .state import GameState

_TORTURE_ORDER = ("good", "development", "follower", "station_supply", "technology", "place_tile", "station_built")


def _torture_rank(action: dict) -> tuple:
    item = action["item"]
    if item == "station":
        item = "station_supply" if action["town"] is None else "station_built"
    good_rank = C.GOODS_VP.get(action.get("good"), 0)
    return (_TORTURE_ORDER.index(item), good_rank, str(action.get("place") or action.get("town") or ""))


def timeout_action(state: GameState, seat: int) -> dict | None:
    """The action taken for ``seat`` when its time runs out; ``None`` if it is not awaited."""
    s = state.data
    kind = awaiting_data(s).get(seat)
    if kind is None:
        return None
    legal = legal_data(s, seat)
    if kind == "draw":
        return max((a for a in legal if a["type"] == "draw"), key=lambda a: a["count"])
    if kind == "plan":
        return {"type": "submit_plan"}
    if kind == "action":
        return {"type": "pass"}
    if kind == "harvest":
        return min(legal, key=lambda a: [C.FOOD.index(g) for g in a["food"]])
    if kind == "torture":
        return min(legal, key=_torture_rank)
    if kind == "bathhouse":
        return {"type": "bathhouse_done"}
    return legal[0]
