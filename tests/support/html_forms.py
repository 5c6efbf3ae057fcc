"""Reading a rendered game page as a browser would: its decision forms and their choices."""
from __future__ import annotations

import json
from html.parser import HTMLParser

#: Extra request headers of an htmx request (the site answers with regions, not a page).
HTMX = {"HTTP_HX_REQUEST": "true"}


class _FormParser:
    """Collects the decision forms of a page: per form its attributes and action choices."""

    def __init__(self, text: str) -> None:
        self.forms: list[dict] = []
        forms = self.forms
        state = {"form": None, "select": False}

        class Parser(HTMLParser):
            def handle_starttag(self, tag, attrs):
                a = dict(attrs)
                if tag == "form":
                    state["form"] = {"attrs": a, "actions": [], "hidden": {}}
                    forms.append(state["form"])
                form = state["form"]
                if form is None:
                    return
                if tag == "input" and a.get("name") == "action":
                    form["actions"].append(a.get("value"))
                elif tag == "input" and a.get("type") == "hidden":
                    form["hidden"][a.get("name")] = a.get("value")
                elif tag == "select" and a.get("name") == "action":
                    state["select"] = True
                elif tag == "option" and state["select"]:
                    form["actions"].append(a.get("value"))

            def handle_endtag(self, tag):
                if tag == "select":
                    state["select"] = False
                elif tag == "form":
                    state["form"] = None

        Parser().feed(text)


def decision_forms(text: str) -> list[dict]:
    """The forms of ``text`` that post a decision: ``{"attrs", "actions", "hidden"}`` each,
    with ``actions`` decoded from JSON (every choice the form offers). The text view's forms
    only: the board's own targets (``board-act`` forms) are read by ``tests.support.act_board``."""
    forms = [f for f in _FormParser(text).forms
             if f["actions"] and "board-act" not in (f["attrs"].get("class") or "").split()]
    for form in forms:
        form["actions"] = [json.loads(raw) for raw in form["actions"]]
    return forms


def offered_actions(text: str) -> list[dict]:
    """Every action any decision form of ``text`` offers, in page order."""
    return [action for form in decision_forms(text) for action in form["actions"]]


def form_inputs(text: str, key: str) -> list[dict]:
    """The ``<input>`` attributes (dicts, in page order) of the form ``data-form=key`` in ``text``."""
    found: list[dict] = []
    state = {"inside": False}

    class Parser(HTMLParser):
        def handle_starttag(self, tag, attrs):
            a = dict(attrs)
            if tag == "form":
                state["inside"] = a.get("data-form") == key
            elif tag == "input" and state["inside"]:
                found.append(a)

        def handle_endtag(self, tag):
            if tag == "form":
                state["inside"] = False

    Parser().feed(text)
    return found
