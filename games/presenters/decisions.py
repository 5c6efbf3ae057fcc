"""The viewer's legal actions grouped into the forms of the decision panel.

Built only from ``engine.legal_actions`` (already labelled by ``engine.describe_action`` in
``selectors.legal_actions_for_seat``) and ``engine.view`` of the viewing seat; place names
and circles from the game's engine (``rules``, ``games.rules.engine_for``). Each form
posts one ``action`` field: a hidden input when there is one choice, otherwise a select or
a radio list whose values are the legal actions' JSON. Legality stays the engine's job:
the server validates whatever is posted.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from django.utils.text import capfirst
from django.utils.translation import gettext, ngettext, pgettext

from games.messages import payment_reason, render_list
from games.vocabulary import DECISION_PROMPTS as KIND_PROMPTS, DECISION_WAITING as WAITING_FOR, decision_prompt
from games.vocabulary import event_name, follower_name, follower_type_name, good_name, place_name, town_name

__all__ = ["KIND_PROMPTS", "WAITING_FOR", "decision_context", "decision_forms"]  # the prompts: games.vocabulary


@dataclass
class Choice:
    """One legal action in a form: its JSON-safe dict and the label shown."""

    action: dict
    label: str


@dataclass
class PaymentRow:
    """One payable item of a torture debt in the payment form: ``item`` is the ``torture``
    item (JSON-safe, no ``type``), ``most`` how many the engine says can be given, ``label``
    the text shown; ``widget`` is ``number`` (0..most) or ``checkbox`` (a single item)."""

    index: int
    item: dict
    most: int
    label: str

    @property
    def widget(self) -> str:
        """``checkbox`` for an item that can be given once, else ``number``."""
        return "checkbox" if self.most == 1 else "number"


@dataclass
class Payment:
    """The whole-payment form's content: the ``debt`` (coins still owed), why it is owed,
    and one row per payable item (from the viewer's prompt ``payable``, RULES §10.1)."""

    debt: int
    reason: str
    rows: list[PaymentRow]


@dataclass
class DecisionForm:
    """A form of the decision panel.

    ``widget`` is ``button`` (one choice, a hidden input), ``select``, ``radio`` or
    ``payment`` (the whole torture payment: ``payment`` holds its rows, and the form posts
    ``payment=1`` with ``item_<n>``/``count_<n>`` fields instead of an ``action``, see
    ``games.forms.ActionForm``). ``space`` names the place the form is about (planning and
    action forms), if any. ``group`` places the form in the panel: ``choose`` (the choices),
    ``undo`` (take back a planned follower), ``end`` (submit the plan, pass, done) or
    ``single`` (one item at a time, folded under the whole payment). ``confirm``, if set, is a
    question the browser asks before sending (e.g. passing with actions still ready).
    """

    key: str
    title: str
    submit: str
    choices: list[Choice] = field(default_factory=list)
    hint: str = ""
    space: str | None = None
    widget: str = "button"
    style: str = "primary"
    group: str = "choose"
    circles: list[str] = field(default_factory=list)
    confirm: str = ""
    payment: Payment | None = None

    @property
    def button_label(self) -> str:
        """The submit button's text; a lone choice of a titled form names itself on it."""
        if self.widget != "button" or self.group != "choose" or not self.title:
            return self.submit
        label = self.choices[0].label
        if label == self.title:
            return self.submit
        # "Draw 0 followers", not "Draw: Draw 0 followers"
        if label.startswith(str(self.submit)):
            return label
        return pgettext("a button: what it does, then the choice", "%(submit)s: %(choice)s") % {
            "submit": self.submit, "choice": label}

    def finish(self, widget: str = "select") -> "DecisionForm":
        """Pick the widget from the number of choices and return the form."""
        self.widget = "button" if len(self.choices) == 1 else widget
        return self


def _strip(label: str, prefix: str) -> str:
    text = label[len(prefix):] if label.startswith(prefix) else label
    return capfirst(text)


def _short_label(item: dict, title: str) -> str | None:
    """A choice's label without what its form's title (the place) already says, in the active
    language, from the engine's structured label (``item["message"]``): the follower of a
    ``place``, the choices of an ``activate`` (the title alone when there are none); None
    when the item has no structured label."""
    msg = item.get("message")
    if not isinstance(msg, dict):
        return None
    if msg.get("msg") == "action.place":
        text = follower_name(msg["params"]["follower"])
    elif msg.get("msg") == "action.use_with":
        text = render_list(msg["params"]["parts"])
    elif msg.get("msg") == "action.use":
        return title
    else:
        return None
    return capfirst(text)


def _by_space(items: list[dict], kind: str) -> dict[str, list[dict]]:
    groups: dict[str, list[dict]] = {}
    for item in items:
        if item["action"]["type"] == kind:
            groups.setdefault(item["action"].get("space"), []).append(item)
    return groups


def _per_space_forms(rules, items: list[dict], kind: str, submit: str, strip_prefix) -> list[DecisionForm]:
    """One form per space for ``kind`` actions; labels lose the part the title already says."""
    places = rules.content.PLACES
    forms = []
    for space, group in _by_space(items, kind).items():
        english = rules.place_name(space)
        name = place_name(space, english)
        circles = list(places[space].circles) if space in places else []
        prefix, suffix = strip_prefix(english)
        choices = [Choice(i["action"], _short_label(i, name) or _strip(i["label"], prefix).removesuffix(suffix))
                   for i in group]
        forms.append(DecisionForm(key=f"{kind}-{space}", title=name, submit=submit, space=space,
                                  circles=circles, choices=choices).finish())
    return forms


def _single(items: list[dict], kind: str, style: str = "primary") -> list[DecisionForm]:
    found = [i for i in items if i["action"]["type"] == kind]
    return [DecisionForm(key=kind, title="", submit=i["label"], style=style, group="end",
                         choices=[Choice(i["action"], i["label"])]) for i in found]


def _one_form(items: list[dict], kinds: tuple[str, ...], key: str, title: str, submit: str,
              widget: str = "radio", hint: str = "") -> list[DecisionForm]:
    choices = [Choice(i["action"], i["label"]) for i in items if i["action"]["type"] in kinds]
    if not choices:
        return []
    return [DecisionForm(key=key, title=title, submit=submit, hint=hint, choices=choices).finish(widget)]


def _draw_forms(items: list[dict], me: dict | None) -> list[DecisionForm]:
    hint = ""
    counts = [i["action"]["count"] for i in items if i["action"]["type"] == "draw"]
    if me and counts:
        free = me["market_capacity"] - me["market_size"]
        hint = " ".join((
            ngettext("You may draw up to %(n)s follower now:", "You may draw up to %(n)s followers now:",
                     max(counts)) % {"n": max(counts)},
            ngettext("draw count %(draws)s (Knight track), %(bag)s in your bag, %(free)s free market space.",
                     "draw count %(draws)s (Knight track), %(bag)s in your bag, %(free)s free market spaces.",
                     free) % {"draws": me["draw_count"], "bag": me["bag_size"], "free": free}))
    forms = _one_form(items, ("draw",), "draw", gettext("Draw followers"), pgettext("a button", "Draw"),
                      widget="select", hint=hint)
    if forms and forms[0].widget == "select":
        forms[0].choices.reverse()  # the largest draw first: the usual choice
    forms += _one_form(items, ("pull_back",), "pull_back", gettext("Or pull a follower back"),
                       pgettext("a button", "Pull back"), widget="select",
                       hint=gettext("Instead of one draw, take a follower off an action space"))
    return forms


def _plan_forms(rules, items: list[dict]) -> list[DecisionForm]:
    forms = _per_space_forms(rules, items, "place", pgettext("a button", "Place"), lambda name: ("Put a ", f" on {name}"))
    for form in forms:
        form.style = "secondary"
    undo = [DecisionForm(key=f"unplace-{i['action']['space']}-{n}", title="", submit=pgettext("a button", "Undo"),
                         hint=i["label"], space=i["action"]["space"], style="secondary", group="undo",
                         choices=[Choice(i["action"], i["label"])])
            for n, i in enumerate(items) if i["action"]["type"] == "unplace"]
    return forms + undo + _single(items, "submit_plan")


def _action_forms(rules, items: list[dict]) -> list[DecisionForm]:
    forms = _per_space_forms(rules, items, "activate", pgettext("a button", "Use"), lambda name: (f"Use {name}: ", ""))
    for form in forms:
        for choice in form.choices:
            if choice.label == f"Use {form.title}":
                choice.label = form.title
        form.finish("radio" if len(form.choices) <= 4 else "select")
    passing = _single(items, "pass", style="secondary")
    if forms:
        for form in passing:
            form.confirm = gettext("You still have actions ready. Pass for the rest of the round anyway?")
    return forms + passing


def _payment_label(rules, item: dict, most: int) -> str:
    """What a payable torture item is called in the payment form (RULES §10.1 items)."""
    kind = item.get("item")
    if kind == "station":
        if item.get("town") is None:
            return gettext("Trading stations from your supply (you have %(most)s)") % {"most": most}
        return gettext("Your trading station in %(town)s") % {
            "town": town_name(item["town"], rules.content.TOWNS.get(item["town"]))}
    if kind == "follower":
        return gettext("Followers drawn at random from your bag (up to %(most)s; starting followers are never lost)"
                       ) % {"most": most}
    if kind == "development":
        return gettext("Development steps back (up to %(most)s)") % {"most": most}
    if kind == "good":
        good = good_name(item.get("good"))
        return gettext("%(good)s (you have %(most)s)") % {"good": capfirst(good), "most": most}
    if kind == "place_tile":
        return gettext("Place tile %(place)s") % {"place": place_name(item["place"], rules.place_name(item["place"]))}
    if kind == "technology":
        if item.get("place") is None:
            return gettext("Technology tiles not yet placed (you have %(most)s)") % {"most": most}
        return gettext("Technology tile on your %(place)s") % {
            "place": place_name(item["place"], rules.place_name(item["place"]))}
    return str(kind)


def _payment_form(rules, items: list[dict], me: dict | None) -> list[DecisionForm]:
    """The one form paying a whole torture debt (``pay_debt``), built from the viewer's
    prompt: ``debt`` and ``payable`` (the engine's items with how many of each can be given,
    RULES §10.1, §14.3). Technology tiles come before place tiles: giving a place tile also
    loses the technology tile on it, so the other order would make the tile unavailable."""
    prompt = (me or {}).get("prompt") or {}
    payable = prompt.get("payable")
    if prompt.get("kind") != "torture" or not payable or not any(i["action"]["type"] == "torture" for i in items):
        return []
    order = {"station": 0, "follower": 1, "development": 2, "good": 3, "technology": 4, "place_tile": 5}
    ranked = sorted(payable, key=lambda entry: order.get(entry.get("item"), len(order)))
    rows = []
    for entry in ranked:
        item = {k: v for k, v in entry.items() if k != "most"}
        rows.append(PaymentRow(index=len(rows), item=item, most=int(entry["most"]),
                               label=_payment_label(rules, item, int(entry["most"]))))
    payment = Payment(debt=int(prompt.get("debt", 0)), reason=payment_reason(prompt.get("reason", "")), rows=rows)
    return [DecisionForm(key="pay_debt", title=gettext("Pay your debt"), submit=pgettext("a button", "Pay"),
                         widget="payment", payment=payment)]



def _prompt_hint(rules, me: dict | None) -> str:
    prompt = (me or {}).get("prompt") or {}
    if prompt.get("kind") == "torture":
        return gettext("You owe %(debt)s coins (%(reason)s) and have none left: give up one item per missing coin."
                       ) % {"debt": prompt.get("debt"), "reason": payment_reason(prompt.get("reason", "")) or gettext("payment")}
    if prompt.get("kind") == "harvest":
        return gettext("Return %(food)s food to the supply.") % {"food": prompt.get("food")}
    if prompt.get("kind") == "bathhouse":
        drawn = pgettext("between names in a list", ", ").join(follower_type_name(t) for t in prompt.get("drawn", []))
        return gettext("Drawn: %(drawn)s. Kept so far: %(kept)s.") % {"drawn": drawn, "kept": prompt.get("kept", 0)}
    return ""


def decision_forms(rules, kind: str | None, items: list[dict], me: dict | None) -> list[DecisionForm]:
    """The forms for the viewer's legal ``items`` (``{"action", "label"}``) when awaited for ``kind``.

    ``rules`` is the game's engine; ``me`` the viewer's player entry of the view (for
    hints), or None. Any action type not known here still gets a button, so no legal
    action is ever left without a form.
    """
    hint = _prompt_hint(rules, me)
    if kind == "draw":
        forms = _draw_forms(items, me)
    elif kind == "plan":
        forms = _plan_forms(rules, items)
    elif kind == "action":
        forms = _action_forms(rules, items)
    elif kind == "torture":
        forms = _payment_form(rules, items, me)  # says the debt itself: no hint
        single = _one_form(items, ("torture",), "torture", gettext("Or give up one item"),
                           pgettext("a button", "Give it up"),
                           hint="" if forms else hint)
        for form in single if forms else ():
            form.group = "single"
        forms += single
    elif kind == "harvest":
        forms = _one_form(items, ("return_food",), "harvest", event_name("harvest"),
                          pgettext("a button", "Return"), hint=hint)
    elif kind == "technology":
        forms = _one_form(items, ("place_technology",), "technology", gettext("Technology tile"),
                          pgettext("a button", "Place it"), widget="select",
                          hint=gettext("A technology tile stands for a follower on that circle"))
    elif kind == "bathhouse":
        forms = _one_form(items, ("bathhouse_place",), "bathhouse", place_name("bathhouse"),
                          pgettext("a button", "Keep and place"),
                          widget="select", hint=hint)
        forms += _single(items, "bathhouse_done", style="secondary")
    else:
        forms = []
    covered = {id(c.action) for f in forms for c in f.choices}
    forms += [DecisionForm(key=f"other-{n}", title="", submit=i["label"], choices=[Choice(i["action"], i["label"])])
              for n, i in enumerate(items) if id(i["action"]) not in covered]
    return forms


def decision_context(rules, view: dict | None, items: list[dict]) -> dict:
    """What the decision panel shows: the awaited kind, its prompt and the forms
    (``rules``: the game's engine, ``games.rules.engine_for``)."""
    seat = (view or {}).get("seat")
    players = (view or {}).get("players") or []
    me = players[seat] if isinstance(seat, int) and seat < len(players) else None
    kind = me.get("awaiting") if me else None
    forms = decision_forms(rules, kind, items, me) if items else []
    return {
        "kind": kind,
        "prompt": decision_prompt(kind),
        "forms": forms,
        "choose": [f for f in forms if f.group == "choose"],
        "undo": [f for f in forms if f.group == "undo"],
        "end": [f for f in forms if f.group == "end"],
        "single": [f for f in forms if f.group == "single"],
    }
