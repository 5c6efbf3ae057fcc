"""Reading the board's targets outside planning (templates/games/partials/_my_board.html with
``_act_card.html``) as a browser would: every action a click on ``#game-mine`` may send."""
from __future__ import annotations

import json
from html.parser import HTMLParser


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
