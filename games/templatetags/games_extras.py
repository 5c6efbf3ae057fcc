"""Presentational filters and tags only: no rules, no queries."""
from __future__ import annotations

import datetime as dt
import functools
import json
import re
from html import escape as html_escape
import threading
from collections import OrderedDict

from django import template
from django.template.base import render_value_in_context
from django.template.loader import get_template
from django.utils.html import conditional_escape, format_html, format_html_join
from django.utils.safestring import mark_safe
from django.utils import timezone
from django.utils.text import capfirst
from django.utils.timesince import timesince
from django.utils.translation import gettext, pgettext, pgettext_lazy

from games import rules, vocabulary

register = template.Library()


#: ``json.dumps(value, separators=(",", ":"), ensure_ascii=False)`` without building an
#: encoder per call (a decision form has dozens of choices).
_compact_encode = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False).encode


@register.filter
def compact_json(value) -> str:
    """One-line JSON, for hidden form fields."""
    return _compact_encode(value)


#: How many distinct tokens (a follower, circle, seat or goods tile with its title) each
#: token tag keeps rendered per language in this process: a board shows a few dozen.
TOKEN_ENTRIES = 2048


def _tokens(function):
    # a token's HTML is a function of its arguments and the active language alone, and a
    # board shows the same few hundreds of times: rendered once per process and language
    cached = functools.lru_cache(maxsize=TOKEN_ENTRIES)(function)
    vocabulary.forget_with_catalogs(cached.cache_clear)
    return cached


@register.filter
def humanize_key(value) -> str:
    """``place_tile_market`` -> ``Place tile market``."""
    text = str(value).replace("_", " ").strip()
    return capfirst(text)


@register.filter
def ordinal(value) -> str:
    """1 -> 1st, 2 -> 2nd, ... (Japanese: 1位); empty for None."""
    if value is None:
        return ""
    number = int(value)
    suffix = "th" if 10 <= number % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(number % 10, "th")
    # one message per English suffix: other languages may write every placement alike
    # (only the one needed is translated: a list of results asks for many)
    templates = {"st": lambda: pgettext("placement", "{number}st"), "nd": lambda: pgettext("placement", "{number}nd"),
                 "rd": lambda: pgettext("placement", "{number}rd"), "th": lambda: pgettext("placement", "{number}th")}
    return templates[suffix]().format(number=number)


@register.filter
def phase_name(phase) -> str:
    """The round part a view's ``phase`` stands for (the engine merges followers and
    planning), in the active language (``games.vocabulary``)."""
    return vocabulary.phase_name(phase)


@register.filter
def option_rows(options) -> list:
    """A game's options as ``(label, value)`` rows, worded as in the new-game form."""
    from games.forms import describe_options

    return describe_options(options or {})


def _engine():
    """The site's default rules engine (``games.rules``): filters have no game at hand."""
    return rules.engine_named(rules.DEFAULT_RULES)


@register.filter
def follower_name(tile) -> str:
    """The name of a follower tile or circle type in the active language: ``start_farmer``
    -> ``starting Farmer``; ``knight`` -> ``Knight``; ``any`` -> ``any follower``."""
    return vocabulary.follower_name(tile)


#: The letter on a follower token, by type, in the active language (English: the engine's
#: board letters; Japanese: the first character of the type's name, 農 船 木 商 学 兵 修).
FOLLOWER_INITIALS = {
    "farmer": pgettext_lazy("initial of farmer", "F"),
    "boatman": pgettext_lazy("initial of boatman", "B"),
    "craftsman": pgettext_lazy("initial of craftsman", "C"),
    "trader": pgettext_lazy("initial of trader", "T"),
    "scholar": pgettext_lazy("initial of scholar", "S"),
    "knight": pgettext_lazy("initial of knight", "K"),
    "monk": pgettext_lazy("initial of monk", "M"),
}


@register.simple_tag
def follower(tile, extra: str = "") -> str:
    """A follower tile: a coloured square with the type's letter (starting tiles ringed)."""
    return _follower(str(tile), str(extra), vocabulary.language())


@_tokens
def _follower(tile: str, extra: str, language) -> str:
    rules_engine = _engine()
    kind = rules_engine.content.follower_type(str(tile))
    classes = f"tile t-{kind}"
    if rules_engine.content.is_starting(str(tile)):
        classes += " start"
    if extra:
        classes += f" {extra}"
    letter = FOLLOWER_INITIALS.get(kind) or rules_engine.follower_letter(tile)
    return format_html('<span class="{}" title="{}">{}</span>', classes, vocabulary.follower_name(tile), letter)


@register.simple_tag
def circle(kind) -> str:
    """An empty circle of an action space that needs a follower of type ``kind``."""
    return _circle(str(kind), vocabulary.language())


@_tokens
def _circle(kind: str, language) -> str:
    title = gettext("{follower} circle").format(follower=follower_name(kind))
    return format_html('<span class="circle t-{}" title="{}"></span>', kind, capfirst(title))


@register.simple_tag
def seat_token(colour, title: str = "") -> str:
    """A small disc in a seat's colour."""
    # escaped before the memo: a safe and a plain title of the same text are different keys
    return _seat_token(conditional_escape(colour), conditional_escape(title))


@_tokens
def _seat_token(colour: str, title: str) -> str:
    return format_html('<span class="seat-token" style="background:{}" title="{}"></span>', colour, title)


@register.simple_tag
def good_token(good, count=None) -> str:
    """A goods tile in its colour with its initials ("Wi"), or with a count if given."""
    return _good_token(str(good), None if count is None else str(count), vocabulary.language())


@_tokens
def _good_token(good: str, count: str | None, language) -> str:
    from games.presenters.board import GOOD_INITIALS

    name = vocabulary.good_name(good)
    label = name if count is None else f"{count} {name}"
    text = GOOD_INITIALS.get(str(good), str(good)[:2].title()) if count is None else str(count)
    return format_html('<span class="good g-{}" title="{}">{}</span>', good, label, text)


@register.filter
def good_name(good) -> str:
    """A good's name in the active language, as in a sentence ("grain" / "穀物")."""
    return vocabulary.good_name(good)


@register.filter
def join_names(people) -> str:
    """Players' names joined in the active language ("alice, bob"; Japanese "alice、bob"),
    escaped. ``people``: names, or dicts and records with a ``name`` (``board.awaited``,
    ``SeatInfo``)."""
    names = [p if isinstance(p, str) else (p.get("name") if isinstance(p, dict) else p.name) for p in people or ()]
    return format_html_join(list_separator(), "{}", ((n,) for n in names))


@register.simple_tag
def list_separator() -> str:
    """What ``join_names`` puts between names, in the active language (", "; Japanese "、"),
    for a template that joins richer items itself (the profile's players and scores)."""
    return pgettext("between names in a list", ", ")


@register.filter
def seat_names(seats) -> str:
    """``join_names`` of seats' ``display_name`` (``Seat`` rows or ``selectors.ListedSeat``:
    a player's username or a bot's name), as lists of games show their players."""
    return join_names([seat.display_name for seat in seats or ()])


@register.filter
def get_item(mapping, key):
    """``mapping[key]`` in a template (None when missing)."""
    try:
        return mapping.get(key)
    except AttributeError:
        return None


@register.filter
def pace_label(value) -> str:
    """A game's clock as the lobby shows it, from a ``games.clock.Pace`` or a game row (its
    clock fields, ``clock.pace_of``): ``"Normal: 3 days, +1 day per decision, at most 6 d"``."""
    from games.clock import Pace, format_duration, pace_of

    pace = value if isinstance(value, Pace) else pace_of(value)
    if not pace.initial:
        return str(pace.label)
    if pace.name == "custom":
        return gettext("Custom clock: {initial}, +{increment} per decision, at most {cap}").format(
            initial=format_duration(pace.initial), increment=format_duration(pace.increment),
            cap=format_duration(pace.cap))
    return gettext("{pace}, at most {cap}").format(pace=pace.label, cap=format_duration(pace.cap))


@register.filter
def seconds_as_duration(value) -> str:
    """Seconds as ``"2 d 3 h"`` (see ``games.clock.format_duration``)."""
    from games.clock import format_duration

    return format_duration(value)


@register.simple_tag(takes_context=True)
def act_form(context, choice: dict, cls: str, text: str = "") -> str:
    """One legal action of the board (``games.presenters.act_board`` choice: ``action``,
    ``label``, and what it names: ``route``, ``good``, ``deeds``, ``deed_spaces``, ``place_tile``) as a form
    posting it to the game's ``games-act`` endpoint, like the text view's forms; its button
    (class ``cls``, showing ``text`` or the label) carries ``data-act-target`` and the names
    as ``data-*`` for static/js/act.js. A tag, not an include: a board has dozens. The
    context's ``form_version`` (a memoised act card's ``templating.VERSION_SLOT``, which its
    board fills in) is the version posted if given, else its ``game``'s."""
    from django.urls import reverse

    game = context.get("game")
    # the board's template reverses the URL once (``act_url``) for its dozens of forms
    url = context.get("act_url") or reverse("games-act", kwargs={"game_id": game.pk})
    version = context.get("form_version") or game.version
    names = format_html_join("", ' data-{}="{}"', (
        (attr, value) for attr, value in (
            ("route", choice.get("route")), ("good", choice.get("good")),
            ("deeds", " ".join(choice.get("deeds") or [])),
            ("deed-spaces", " ".join(choice.get("deed_spaces") or [])), ("place-tile", choice.get("place_tile")))
        if value))
    return format_html(
        '<form class="board-act" method="post" action="{}" hx-post="{}" hx-swap="none" hx-disabled-elt="find button">'
        '<input type="hidden" name="csrfmiddlewaretoken" value="{}">'
        '<input type="hidden" name="expected_version" value="{}">'
        '<input type="hidden" name="action" value="{}">'
        '<button type="submit" class="{}" data-act-target title="{}"{}>{}</button></form>',
        url, url, str(context.get("csrf_token", "")), version, compact_json(choice["action"]),
        cls, choice["label"], names, text or choice["label"])


@register.simple_tag(takes_context=True)
def page_query(context, param: str, number: int) -> str:
    """The current page's query string with ``param`` set to ``number`` (a page link that
    keeps the page's other parameters, such as another list's page: the number that list
    shows where the view noted it, ``paging.show_pages``)."""
    request = context["request"]
    query = request.GET.copy()
    for key, shown in getattr(request, "shown_pages", {}).items():
        query[key] = shown
    query[param] = number
    return query.urlencode()


#: Under this long ago a time reads "just now" (``timesince`` would say "0 minutes").
JUST_NOW = dt.timedelta(minutes=1)


@register.filter
def ago(moment) -> str:
    """How long ago ``moment`` (an aware datetime; anything else: "") was, in the active language:
    "just now" under ``JUST_NOW``, else Django's ``timesince`` of its largest unit with "ago"
    ("3 hours ago")."""
    if not isinstance(moment, dt.datetime) or timezone.is_naive(moment):
        return ""  # as Django's timesince filter answers what it cannot compare
    if timezone.now() - moment < JUST_NOW:
        return gettext("just now")
    # the msgid the templates' {% blocktranslate %}{{ since }} ago{% endblocktranslate %} had
    return gettext("%(since)s ago") % {"since": timesince(moment, depth=1)}  # "2 hours", not "2 hours, 5 minutes"


@register.filter
def colour_name(colour) -> str:
    """A seat colour ("red") in the active language, for titles and text alternatives."""
    from games.presenters.board import colour_label

    return colour_label(colour)


@register.filter
def awaited_list(awaited) -> str:
    """The status line's awaited seats (``board.awaited``: ``name``, ``colour``, ``prompt``,
    ``kind``) as "<token> <strong>name</strong> (what they do)", joined in the active
    language; names are marked ``translate="no"``."""
    return format_html_join(
        list_separator(), '{} <strong>{}</strong> ({})',
        ((seat_token(a["colour"], a["name"]), a["name"], a["prompt"] or humanize_key(a["kind"])) for a in awaited or ()))


@register.filter
def awaited_seat_list(seats, viewer=None) -> str:
    """Names of the awaited ``seats`` (``SeatInfo``), the viewer's own as a bold "you",
    joined in the active language (the status line of a game without a board)."""
    from django.utils.translation import gettext

    def one(s):
        if viewer is not None and s.pk == viewer.pk:
            return format_html("<strong>{}</strong>", gettext("you"))
        return s.name

    return format_html_join(list_separator(), "{}", ((one(s),) for s in seats or ()))


@register.simple_tag
def clock_span(seat) -> str:
    """A seat's time left (``SeatInfo.clock_left``) in a span that static/js/regions.js
    counts down when the seat has a ``deadline`` (its ``data-deadline``, ISO 8601)."""
    from django.template.defaultfilters import date

    if seat.deadline:
        return format_html('<span data-deadline="{}">{}</span>', date(seat.deadline, "c"), seat.clock_left)
    return format_html("<span>{}</span>", seat.clock_left)


#: The badge of an awaited seat, by decision kind (English as ``humanize_key`` shows the kind).
DECISION_BADGES = {
    "draw": pgettext_lazy("decision kind", "Draw"), "plan": pgettext_lazy("decision kind", "Plan"),
    "action": pgettext_lazy("decision kind", "Action"), "torture": pgettext_lazy("decision kind", "Torture"),
    "harvest": pgettext_lazy("decision kind", "Harvest"), "technology": pgettext_lazy("decision kind", "Technology"),
    "bathhouse": pgettext_lazy("decision kind", "Bathhouse"),
}


@register.filter
def decision_badge(kind) -> str:
    """An awaited seat's badge: its decision kind (``Seat.awaiting``) in the active language;
    a kind not listed as ``humanize_key`` shows it."""
    label = DECISION_BADGES.get(kind)
    return str(label) if label is not None else humanize_key(kind)


def _escape(value) -> str:
    # conditional_escape without keep_lazy's argument scan (it runs per line of a log)
    html = getattr(value, "__html__", None)
    return html() if html is not None else html_escape(str(value))


#: A slot of a message ``fill`` completes: ``[[name]]``.
_SLOT = re.compile(r"\[\[(\w+)\]\]")


@register.simple_tag(takes_context=True)
def fill(context, message, **values) -> str:
    """``message`` (a ``{% blocktranslate asvar %}`` translated once, outside a loop, with
    ``[[name]]`` for each variable: ``with step="[[step]]"``) with every slot replaced by
    its value from ``values``, rendered as ``blocktranslate`` renders a variable (escaped,
    localized); in one pass, so a value that looks like a slot stays text. A loop of a few
    hundred titles translates its message once instead of once per title."""
    return mark_safe(fill_slots(message, values, lambda value: render_value_in_context(value, context)))


def fill_slots(message, values: dict, render) -> str:
    """``message`` with every ``[[name]]`` slot whose name is in ``values`` replaced by
    ``render(values[name])`` (the value as HTML), in one pass; other slots stay (``fill``,
    and ``games.templating.fill`` for Jinja2)."""
    def value(match):
        name = match.group(1)
        return render(values[name]) if name in values else match.group(0)

    return _SLOT.sub(value, str(message))


def _field(item, name: str):
    # ``item.name`` as a template reads it: a dict's key, else an attribute (a Choice)
    return item[name] if isinstance(item, dict) else getattr(item, name)


@register.simple_tag(takes_context=True)
def choice_options(context, choices) -> str:
    """A decision form's ``<option>`` elements (``options_html``), each label rendered as
    the loop ``<option value="{{ choice.action|compact_json }}">{{ choice.label }}</option>``
    renders it. A tag, not a loop: a select has dozens of choices."""
    return mark_safe(options_html(choices, lambda label: render_value_in_context(label, context)))


def options_html(choices, text=None) -> str:
    """The ``<option>`` elements of ``choices`` (``presenters.decisions.Choice`` or dicts:
    ``action``, ``label``): each action as one-line JSON for value, each label as ``text``
    writes it (default: escaped, as a Jinja2 template writes it)."""
    text = text or _escape
    return "".join(f'<option value="{html_escape(_compact_encode(_field(c, "action")))}">'
                   f'{text(_field(c, "label"))}</option>' for c in choices or ())


@register.simple_tag
def log_entries(entries, forced_note: str, taken_back_note: str) -> str:
    """The ``<li>`` lines of one log round (``selectors.move_log`` entries: ``text``,
    ``forced``, ``automatic``, ``source``, ``mark``, ``taken_back``), each after the
    whitespace of the template loop it replaces; ``forced_note`` and ``taken_back_note``:
    the translated notes of a forced and a taken-back line (translated in
    ``_log_round.html``, so ``makemessages`` finds them). A tag, not a loop: a log has
    hundreds of lines, each a handful of conditions."""
    forced_note, taken_back_note = _escape(forced_note), _escape(taken_back_note)
    parts = []
    for entry in entries or ():
        get = entry.get
        source, mark = get("source"), get("mark")
        classes = "forced" if get("forced") else ""
        if get("automatic"):
            classes += " automatic"
        if source == "timeout":
            classes += " timed-out"
        elif source:
            classes += f" source-{_escape(str(source))}"
        if get("taken_back"):
            classes += " taken-back"
        line = f'\n    <li class="{classes}">{_escape(get("text", ""))}'
        if mark:
            line += f" <em>({_escape(str(mark))})</em>"
        elif get("forced"):
            line += f" <em>({forced_note})</em>"
        if get("taken_back"):
            line += f" <em>({taken_back_note})</em>"
        parts.append(line + "</li>\n  ")
    return mark_safe("".join(parts))


#: How many partials ``pure_include`` keeps rendered in this process (a few kilobytes each).
PURE_INCLUDE_ENTRIES = 4096
_pure_rendered: OrderedDict[str, str] = OrderedDict()
_pure_lock = threading.Lock()


@register.simple_tag(takes_context=True)
def pure_include(context, name: str, **values) -> str:
    """The partial ``name`` rendered with ``values`` alone (not the rest of the context: a
    partial included so reads only what it is given), e.g. ``{% pure_include
    "games/partials/_place_card.html" place=place interactive=True %}``: ``pure_render``."""
    return mark_safe(pure_render(name, values, context.autoescape))


def pure_render(name: str, values: dict, autoescape: bool = True) -> str:
    """The partial ``name`` (Django or Jinja2, ``games.templating``) rendered with ``values``
    alone. The HTML is kept in a bounded per-process memo under the fingerprint of the
    values, the template and the language (``presenters.fingerprint``): a board's dozens of
    place cards, most unchanged by a move, are rendered once. Only a caller whose values
    have that fingerprint gets an entry, so a card showing one seat's hidden plan reaches no
    one else. Values that cannot be fingerprinted are rendered every time."""
    from games import templating
    from games.presenters.fingerprint import fingerprint

    key = fingerprint("pure-include", [name, autoescape, values], (name,))
    if key is not None:
        with _pure_lock:
            html = _pure_rendered.get(key)
            if html is not None:
                _pure_rendered.move_to_end(key)
                return html
    if templating.is_jinja(name):
        html = templating.render_values(name, values)
    else:
        html = get_template(name).template.render(template.Context(values, autoescape=autoescape))
    if key is not None:
        with _pure_lock:
            _pure_rendered[key] = html
            while len(_pure_rendered) > PURE_INCLUDE_ENTRIES:
                _pure_rendered.popitem(last=False)
    return html


@register.simple_tag(takes_context=True)
def jinja_include(context, name: str) -> str:
    """``{% include name %}`` of a Jinja2 partial (``games.templating``) from a Django
    template: rendered with the whole context, its forms posting the request's token."""
    from games import templating

    return mark_safe(templating.render_partial(name, context.flatten(), context.get("request"),
                                               token=context.get("csrf_token", "")))


#: How long a rendered player board stays in the ``regions`` cache.
PLAYER_BOARD_SECONDS = 3600


def article_id(board: dict) -> str:
    """The root id of a player board's article (``_player_board.html``), a region of its own
    inside the ``boards`` region (``views.regions``)."""
    return f"player-board-{board['seat']}"


def article_digest(board: dict) -> str:
    """The fingerprint a player board's article shows (``data-region-hash``): the head of
    its ``fragment``, the full fingerprint of what it shows, which also keys its cached
    HTML (``player_board_key``)."""
    return board["fragment"][:12]


def player_board_key(board: dict) -> str:
    """The ``regions`` cache key of a player board's article (``player_boards``): the key
    ``{% cache 3600 player-board b.fragment %}`` gives it."""
    from django.core.cache.utils import make_template_fragment_key

    return make_template_fragment_key("player-board", [board["fragment"]])


@register.simple_tag(takes_context=True)
def player_boards(context, boards: list[dict]) -> str:
    """Every player board's article: ``player_boards_html`` with the template's context."""
    return mark_safe(player_boards_html(boards, context.get, context.flatten))


def player_boards_html(boards: list[dict], get, values) -> str:
    """Every player board's article (``player_board_articles``), each followed by the
    whitespace the loop it replaces left."""
    return "".join(f"{html}\n  " for html in player_board_articles(boards, get, values))


def player_board_articles(boards: list[dict], get, values, keys: list[str] | None = None) -> list[str]:
    """The article of each of ``boards`` (``games/partials/_player_board.html``, with ``b``
    the board), each cached in the ``regions`` cache under ``player_board_key`` (its
    ``fragment``, ``presenters.page.player_board_fragment``: the fingerprint of what it
    shows): one cache read for all of them, one write for those rendered. ``get``: the
    calling template's context lookup (name -> value or None); ``values``: a function of no
    argument giving that context as one dict (called only if an article is rendered). The
    context's ``player_board_html`` (key -> article, read already by ``views.regions``)
    replaces the read, and its ``player_board_fresh`` (a dict) takes the articles rendered
    instead of the write. ``keys``: their ``player_board_key``s, if the caller has them."""
    from django.core.cache import caches

    keys = [player_board_key(b) for b in boards] if keys is None else keys
    found = get("player_board_html")
    if found is None:
        found = caches["regions"].get_many(keys) if keys else {}
    from games import templating

    context = None
    parts, fresh = [], {}
    for b, key in zip(boards, keys, strict=True):
        html = found.get(key)
        if html is None:
            if context is None:  # a Jinja2 template (games.templating): the context as one dict
                context = values()
            html = fresh[key] = templating.render_values("games/partials/_player_board.html", context | {"b": b})
        parts.append(html)
    sink = get("player_board_fresh")
    if sink is not None:
        sink.update(fresh)
    elif fresh:
        caches["regions"].set_many(fresh, PLAYER_BOARD_SECONDS)
    return parts
