"""Reading the planning board (templates/games/partials/_my_board.html) as a browser would:
the followers that can be picked, the engine actions behind each lit circle and each planned
follower, and the draft the board says it shows."""
from __future__ import annotations

import json
from html.parser import HTMLParser


class PlanBoard:
    """The ``#game-mine`` region of a page or fragment, parsed.

    ``key``/``draft``/``sent``: the board's ``data-plan-*`` attributes (None when the board
    is not planning); ``picks``: followers whose market button is clickable; ``targets``:
    ``(place card, follower, action)`` for every circle button; ``undos``: ``(place card,
    action)`` for every planned follower button; ``submit``: the submit button's form id.
    """

    def __init__(self, text: str) -> None:
        self.key = self.draft = self.sent = None
        self.found = False
        self.picks: list[str] = []
        self.targets: list[tuple[str, str, dict]] = []
        self.undos: list[tuple[str, dict]] = []
        self.submit: str | None = None
        board = self
        depth = {"in": 0, "place": None}

        class Parser(HTMLParser):
            def handle_starttag(self, tag, attrs):
                a = dict(attrs)
                if a.get("id") == "game-mine":
                    board.found = True
                    depth["in"] = 1
                    board.key, board.sent = a.get("data-plan-key"), a.get("data-plan-sent")
                    board.draft = json.loads(a["data-plan-draft"]) if "data-plan-draft" in a else None
                    return
                if not depth["in"]:
                    return
                depth["in"] += tag not in ("input", "br", "img")
                if "data-place" in a:
                    depth["place"] = a["data-place"]
                if tag != "button":
                    return
                classes = (a.get("class") or "").split()
                if "pick" in classes and "disabled" not in a:
                    board.picks.append(a["data-pick"])
                elif "plan-target" in classes:
                    for follower, target in json.loads(a["data-targets"]).items():
                        board.targets.append((depth["place"], follower, target["action"]))
                elif "plan-undo" in classes:
                    board.undos.append((depth["place"], json.loads(a["data-action"])))
                elif a.get("form"):
                    board.submit = a["form"]

            def handle_endtag(self, tag):
                if depth["in"] and tag not in ("input", "br", "img"):
                    depth["in"] -= 1

        Parser(convert_charrefs=True).feed(text)

    @property
    def planning(self) -> bool:
        """True when the board offers planning (it has a draft key)."""
        return self.key is not None


def plan_board(text: str) -> PlanBoard:
    """The planning board of ``text`` (a page or an htmx answer)."""
    return PlanBoard(text)
