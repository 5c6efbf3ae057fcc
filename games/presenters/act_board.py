"""The board as the control outside planning: the viewer's places, routes, deeds and place
tiles that a click may use (issue 9).

Built only from ``engine.legal_actions`` (with ``engine.describe_action`` labels, as
``selectors.legal_actions_for_seat`` gives them) and the viewer's ``engine.view``: every
clickable target carries one legal action, exactly as the engine listed it, and posts it to
the same endpoint as the text view's forms (``games-act``). No rule is re-derived here: a
place is clickable because the engine lists an action for it, a route lights up because an
action names it.

Decision kinds played on the board (RULES §8.6–§8.7, §11):

- ``action``: each place with ``activate`` actions (RULES §5, §11) is a target; one action
  is used by a click, several open their choices on the card (Village: the recruits with the
  next step of their track, RULES §6.2–§6.4, the Trader's place tiles; Ship, Wagon, Horse
  Wagon: the routes, which light up on the map, RULES §4.2; Town Hall, Gunpowder Tower: the
  deed spaces the followers fill, which light up on the deeds board, RULES §7.2). ``pass`` is the text view's
  own form (its confirmation included), reached from the board.
- ``technology``: the circles a technology tile may cover (``place_technology``, §8.6).
- ``bathhouse``: the places a kept follower may go on (``bathhouse_place``, §11) and done.

Planning has its own board (``games.presenters.planning``); the other kinds (draw, torture,
harvest) stay in the decision panel.
"""
from __future__ import annotations

from django.utils.translation import gettext

from games.presenters import board
from games.messages import track_rewards
from games.vocabulary import follower_name

#: Decision kinds whose targets are on the board.
BOARD_KINDS = ("action", "technology", "bathhouse")
#: Action types that end the decision and are sent by the text view's own form
#: (``decisions._single``: ``decision-<type>``), which the board's button submits.
END_TYPES = ("pass", "bathhouse_done")


def _short(label: str, name: str) -> str:
    """``"Use Ship: Orléans → Briare, take wine"`` -> ``"Orléans → Briare, take wine"``."""
    for prefix in (f"Use {name}: ", f"Use {name}"):
        if label.startswith(prefix):
            label = label[len(prefix):]
            break
    return (label[:1].upper() + label[1:]) or name


def _deed_spaces(rules, view: dict, sent: list[dict]) -> list[str]:
    """The deed spaces the followers of one legal Town Hall / Gunpowder Tower action fill
    (``board.deed_space`` names): each follower takes the next free space of its own type
    on its deed (RULES §7.2), after the ones the view shows taken and those sent before it."""
    C = rules.content
    taken: dict[tuple, int] = {}
    for deed_id, filled in view["deeds"].items():
        for tile, _seat in filled:
            key = (deed_id, C.follower_type(tile))
            taken[key] = taken.get(key, 0) + 1
    spaces = []
    for d in sent:
        key = (d["deed"], C.follower_type(d["follower"]))
        spaces.append(board.deed_space(key[0], key[1], taken.get(key, 0)))
        taken[key] = taken.get(key, 0) + 1
    return sorted(spaces)


def _choice(rules, view: dict, item: dict, name: str) -> dict:
    """One legal action as a target: ``action``, ``label`` and what on the board it names
    (``route``, ``good``, ``deeds``, ``deed_spaces``, ``place_tile``, ``recruit``,
    ``follower``), for lighting."""
    action = item["action"]
    deeds = sorted({d["deed"] for d in action.get("deeds") or []})
    return {"action": action, "label": _short(item["label"], name), "route": action.get("route"),
            "good": action.get("good"), "deeds": deeds, "place_tile": action.get("place_tile"),
            "deed_spaces": _deed_spaces(rules, view, action.get("deeds") or []),
            "recruit": action.get("recruit"), "follower": action.get("follower"),
            "where": ("map" if action.get("route") else "deeds" if deeds
                      else "tiles" if action.get("place_tile") else "")}


def _gives(rules, me: dict, recruit: str) -> str:
    """What recruiting ``recruit`` gives the viewer: the next step of its track (RULES §6)."""
    steps = track_rewards(rules).get(recruit) or []
    position = (me.get("tracks") or {}).get(recruit, 0)
    if position >= len(steps):
        return gettext("track complete")
    return gettext("track step %(step)s: %(reward)s") % {"step": position + 1, "reward": steps[position]}


def _groups(rules, me: dict, choices: list[dict]) -> list[dict]:
    """The choices of a place in groups: by recruit for the Village (each with what it gives),
    otherwise one group without a title. Each group: ``key``, ``title``, ``gives``, ``choices``."""
    if not any(c["recruit"] for c in choices):
        return [{"key": "", "title": "", "gives": "", "choices": choices}]
    groups: dict[str, dict] = {}
    for c in choices:
        key = c["recruit"] or ""
        if key not in groups:
            title = gettext("Recruit a %(follower)s") % {"follower": follower_name(key)} if key else ""
            groups[key] = {"key": key, "title": title, "gives": _gives(rules, me, key) if key else "",
                           "choices": []}
        groups[key]["choices"].append(c)
    for group in groups.values():  # "Recruit a Trader, take Hay Rick" -> "Hay Rick" under its title
        if group["title"] and len(group["choices"]) > 1:
            for c in group["choices"]:
                c["label"] = c["label"].removeprefix(group["title"]).removeprefix(", take ").strip() or c["label"]
    return list(groups.values())


def act_context(rules, view: dict, items: list[dict], kind: str | None) -> dict | None:
    """What the viewer may do by clicking the board now, or None (not awaited for a board kind).

    ``rules`` is the game's engine; ``view`` the viewer's ``engine.view``; ``items`` its legal
    actions with labels (``{"action", "label"}``); ``kind`` the awaited decision kind.

    Returns ``kind``; ``cards``: the viewer's place cards (``board.place_cards``) each with
    ``use`` (None, or ``{"choices", "groups", "single", "where"}``: the legal ``activate`` /
    ``bathhouse_place`` actions of that place; ``single`` the lone one to use by a click) and
    per slot ``tech`` (the legal ``place_technology`` for that circle, on the first circle of
    its type, or None); ``ends``: ``[{"type", "label", "form"}]`` the ending actions (pass,
    done) by the text view's form id; ``targets``: how many targets the board offers.
    """
    if kind not in BOARD_KINDS or view.get("seat") is None:
        return None
    me = view["players"][view["seat"]]
    cards = board.place_cards(rules, me)
    by_id = {card["id"]: card for card in cards}
    for card in cards:
        card["use"] = None
        for slot in card["slots"]:
            slot["tech"] = None
    per_place: dict[str, list[dict]] = {}
    ends, count = [], 0
    for item in items:
        action = item["action"]
        card = by_id.get(action.get("space"))
        if action["type"] in END_TYPES:
            ends.append({"type": action["type"], "label": item["label"], "form": f"decision-{action['type']}"})
        elif card is None:
            continue
        elif action["type"] == "place_technology":
            slot = next((s for s in card["slots"] if s["kind"] == action["circle"] and s["tech"] is None), None)
            if slot is not None:
                slot["tech"] = {"action": action, "label": item["label"]}
                count += 1
        elif action["type"] in ("activate", "bathhouse_place"):
            per_place.setdefault(card["id"], []).append(_choice(rules, view, item, card["name"]))
    for place_id, choices in per_place.items():
        count += len(choices)
        wheres = {c["where"] for c in choices} - {""}
        by_id[place_id]["use"] = {
            "choices": choices, "groups": _groups(rules, me, choices),
            "single": choices[0] if len(choices) == 1 else None,
            "where": wheres.pop() if len(wheres) == 1 else "",
        }
    return {"kind": kind, "cards": cards, "ends": ends, "targets": count + len(ends)}
