"""Reading the board's targets outside planning (templates/games/partials/_my_board.html with
``_act_card.html``) as a browser would: every action a click on ``#game-mine`` may send."""
from __future__ import annotations

import json
import random
from functools import cache
from html.parser import HTMLParser

import engine
from engine.simulate import choose


class ActBoard:
    """The ``#game-mine`` region of a page or fragment, parsed.

    ``kind``: its ``data-act-kind`` (None when the board offers no targets); ``targets``:
    ``(place card, action, button attributes)`` for every form on the board; ``ends``: the
    form ids the board's ending buttons submit (the text view's ``decision-pass``…);
    ``openers``: the place ids whose card opens a choice list.
    """

    def __init__(self, text: str) -> None:
        self.kind = None
        self.found = False
        self.targets: list[tuple[str | None, dict, dict]] = []
        self.ends: list[str] = []
        self.openers: list[str] = []
        board = self
        where = {"depth": 0, "place": None, "action": None}

        class Parser(HTMLParser):
            def handle_starttag(self, tag, attrs):
                a = dict(attrs)
                if a.get("id") == "game-mine":
                    board.found, board.kind = True, a.get("data-act-kind")
                    where["depth"] = 1
                    return
                if not where["depth"]:
                    return
                where["depth"] += tag not in ("input", "br", "img")
                if "data-place" in a:
                    where["place"] = a["data-place"]
                if tag == "input" and a.get("name") == "action":
                    where["action"] = json.loads(a["value"])
                elif tag == "button" and a.get("form"):
                    board.ends.append(a["form"])
                elif tag == "button" and "act-open" in (a.get("class") or "").split():
                    board.openers.append(where["place"])
                elif tag == "button" and where["action"] is not None:
                    board.targets.append((where["place"], where["action"], a))
                    where["action"] = None

            def handle_endtag(self, tag):
                if where["depth"] and tag not in ("input", "br", "img"):
                    where["depth"] -= 1
                    if where["depth"] == 0:
                        where["place"] = None

        Parser(convert_charrefs=True).feed(text)


def act_board(text: str) -> ActBoard:
    """The board targets of ``text`` (a page or an htmx answer)."""
    return ActBoard(text)


@cache
def sampled_positions(per_kind: int = 4) -> dict[str, list]:
    """``{kind: [(state, seat), ...]}``: positions of random 2-player games where ``seat``
    is awaited for ``kind``, spread over the game (at most one per kind and round)."""
    found: dict[str, list] = {}
    rich: dict[str, tuple] = {}  # a position with several route, recruit and deed choices each
    seen = set()
    for seed in range(1, 9):
        rng = random.Random(seed)
        state = engine.new_game(engine.GameOptions(players=2), seed=seed)
        while not engine.is_over(state):
            if engine.needs_resolution(state):
                state = engine.resolve(state)[0]
                continue
            awaited = engine.awaiting(state)
            seat = min(awaited)
            kind = awaited[seat]
            key = (kind, state.data["round"], seed % 2)
            if key not in seen and len(found.get(kind, [])) < per_kind * 3:
                seen.add(key)
                found.setdefault(kind, []).append((state, seat))
            if kind == "action":
                for field in ("route", "recruit", "deeds"):
                    if field not in rich and sum(field in a for a in engine.legal_actions(state, seat)) > 2:
                        rich[field] = (state, seat)
            state = engine.apply(state, seat, choose(rng, kind, engine.legal_actions(state, seat), state.data, seat))[0]
    picked = {}
    for kind, positions in found.items():  # spread the samples over the game
        step = max(1, len(positions) // per_kind)
        picked[kind] = positions[::step][:per_kind]
    picked["action"] += list(rich.values())
    return picked
