"""The one catalog of engine words the site shows, in the active language.

Followers, places (the ten action spaces and the place tiles), towns, goods, beneficial
deeds, hourglass events, citizen spots, phases, decision kinds, bot levels, chat channels
and game options: each an engine id -> ``gettext_lazy`` text. The English of each word is
the engine's own (``engine.content`` names; the move log's lower-case words are the names
``in_sentence``), so a page in English reads exactly as the engine writes
(``tests/games/i18n/test_site_message_catalog.py`` checks it).

Look words up with the functions at the end (``place_name("town_hall")``): an unknown id is
shown as given, never an error.
"""
from __future__ import annotations

import contextlib
import contextvars
import logging
import re

from django.core.signals import setting_changed
from django.dispatch import receiver
from django.utils import timezone
from django.utils.translation import get_language, gettext, gettext_lazy as _, pgettext, pgettext_lazy

logger = logging.getLogger(__name__)

#: (language, time zone name) while a block runs in ``locale_bound``, else None.
_BOUND: contextvars.ContextVar = contextvars.ContextVar("games_bound_locale", default=None)


def language() -> str | None:
    """Django's ``get_language()``: the active language's code, None if translations are
    deactivated; inside ``locale_bound``, the one active when the block began, without
    asking Django again (its look-up goes through asgiref's ``Local``, ~2 µs; an answer asks
    it hundreds of times)."""
    bound = _BOUND.get()
    return get_language() if bound is None else bound[0]


def time_zone_name() -> str:
    """Django's ``timezone.get_current_timezone_name()``, or inside ``locale_bound`` the one
    current when the block began."""
    bound = _BOUND.get()
    return timezone.get_current_timezone_name() if bound is None else bound[1]


@contextlib.contextmanager
def locale_bound():
    """While in the block, ``language()`` and ``time_zone_name()`` answer the language and
    time zone active when it began (nested: the outer block's). Only for a block that
    neither activates another language nor another time zone (an answer's presenters and
    renders): the memos keyed by ``language()`` would keep text of the other language under
    its key. A block that changed the language is logged as the error it is."""
    if _BOUND.get() is not None:
        yield
        return
    bound = (get_language(), timezone.get_current_timezone_name())
    token = _BOUND.set(bound)
    try:
        yield
    finally:
        _BOUND.reset(token)
        if get_language() != bound[0]:
            logger.error("the language changed inside locale_bound: %s -> %s", bound[0], get_language())

FOLLOWERS = {
    "farmer": _("Farmer"), "boatman": _("Boatman"), "craftsman": _("Craftsman"), "trader": _("Trader"),
    "scholar": _("Scholar"), "knight": _("Knight"), "monk": _("Monk"),
}
FOLLOWERS_PLURAL = {
    "farmer": _("Farmers"), "boatman": _("Boatmen"), "craftsman": _("Craftsmen"), "trader": _("Traders"),
    "scholar": _("Scholars"), "knight": _("Knights"), "monk": _("Monks"),
}

PLACES = {
    # the ten action spaces of the player board (RULES §5)
    "farmhouse": pgettext_lazy("place", "Farmhouse"), "village": pgettext_lazy("place", "Village"),
    "university": pgettext_lazy("place", "University"), "castle": pgettext_lazy("place", "Castle"),
    "monastery": pgettext_lazy("place", "Monastery"), "scriptorium": pgettext_lazy("place", "Scriptorium"),
    "town_hall": pgettext_lazy("place", "Town Hall"), "ship": pgettext_lazy("place", "Ship"),
    "wagon": pgettext_lazy("place", "Wagon"), "guildhall": pgettext_lazy("place", "Guildhall"),
    # the place tiles (RULES §11)
    "hay_rick": pgettext_lazy("place", "Hay Rick"), "cheese_factory": pgettext_lazy("place", "Cheese Factory"),
    "winery": pgettext_lazy("place", "Winery"), "wool_manufacturer": pgettext_lazy("place", "Wool Manufacturer"),
    "tailor_shop": pgettext_lazy("place", "Tailor Shop"), "brewery": pgettext_lazy("place", "Brewery"),
    "herb_garden": pgettext_lazy("place", "Herb Garden"), "sacristy": pgettext_lazy("place", "Sacristy"),
    "bathhouse": pgettext_lazy("place", "Bathhouse"), "windmill": pgettext_lazy("place", "Windmill"),
    "library": pgettext_lazy("place", "Library"), "hospital": pgettext_lazy("place", "Hospital"),
    "gunpowder_tower": pgettext_lazy("place", "Gunpowder Tower"), "cellar": pgettext_lazy("place", "Cellar"),
    "office": pgettext_lazy("place", "Office"), "school": pgettext_lazy("place", "School"),
    "pharmacy": pgettext_lazy("place", "Pharmacy"), "horse_wagon": pgettext_lazy("place", "Horse Wagon"),
    "shipping_line": pgettext_lazy("place", "Shipping Line"), "laboratory": pgettext_lazy("place", "Laboratory"),
}

TOWNS = {
    "orleans": _("Orléans"), "chartres": _("Chartres"), "etampes": _("Étampes"), "le_mans": _("Le Mans"),
    "chateaudun": _("Châteaudun"), "vendome": _("Vendôme"), "montargis": _("Montargis"), "blois": _("Blois"),
    "briare": _("Briare"), "tours": _("Tours"), "chinon": _("Chinon"), "montrichard": _("Montrichard"),
    "vierzon": _("Vierzon"), "loches": _("Loches"), "bourges": _("Bourges"), "sancerre": _("Sancerre"),
    "chatellerault": _("Châtellerault"), "le_blanc": _("Le Blanc"), "chateauroux": _("Châteauroux"),
    "nevers": _("Nevers"), "argenton_sur_creuse": _("Argenton-sur-Creuse"), "la_chatre": _("La Châtre"),
    "saint_amand_montrond": _("Saint-Amand-Montrond"),
}

DEEDS = {
    "city_wall": _("Building the City Wall"), "papal_conclave": _("Papal Conclave"),
    "defeating_plague": _("Defeating the Plague"), "astronomy": _("Astronomy"),
    "boatmen_guild": _("Founding the Boatmen's Guild"), "cathedral": _("Building the Cathedral"),
    "peace_treaty": _("Peace Treaty"), "canalisation": _("Canalisation"),
}

#: Goods as the log writes them ("takes 1 grain").
GOODS = {
    "grain": pgettext_lazy("good", "grain"), "cheese": pgettext_lazy("good", "cheese"),
    "wine": pgettext_lazy("good", "wine"), "wool": pgettext_lazy("good", "wool"),
    "brocade": pgettext_lazy("good", "brocade"),
}

#: Hourglass tiles' names ("Trading day", on the board; "trading day" in a sentence).
EVENT_NAMES = {
    "pilgrimage": pgettext_lazy("event name", "Pilgrimage"), "plague": pgettext_lazy("event name", "Plague"),
    "taxes": pgettext_lazy("event name", "Taxes"), "trading_day": pgettext_lazy("event name", "Trading day"),
    "income": pgettext_lazy("event name", "Income"), "harvest": pgettext_lazy("event name", "Harvest"),
}

#: Where a citizen is taken from, as the log writes it ("takes a citizen (knight track)").
SPOTS = {
    "development_3": _("development 3"), "development_18": _("development 18"),
    "development_28": _("development 28"), "knight_track": _("knight track"),
    "boatman_track": _("boatman track"), "deed_city_wall": _("deed city wall"),
    "deed_papal_conclave": _("deed papal conclave"), "deed_defeating_plague": _("deed defeating plague"),
    "deed_astronomy": _("deed astronomy"), "deed_boatmen_guild": _("deed boatmen guild"),
    "deed_cathedral": _("deed cathedral"), "deed_peace_treaty": _("deed peace treaty"),
    "deed_canalisation": _("deed canalisation"), "trading_station_majority": _("trading station majority"),
}

ROUTE_KINDS = {"water": _("waterway"), "land": _("road")}

#: What a refusal asks to do first, by decision kind ("First draw your followers.").
TASKS = {
    "draw": pgettext_lazy("task", "draw your followers"), "plan": pgettext_lazy("task", "finish your plan"),
    "action": pgettext_lazy("task", "take an action or pass"),
    "torture": pgettext_lazy("task", "choose what to give up"),
    "harvest": pgettext_lazy("task", "choose which food to return"),
    "technology": pgettext_lazy("task", "place your technology tile"),
    "bathhouse": pgettext_lazy("task", "place or return the followers drawn at the Bathhouse"),
}
OTHER_TASK = pgettext_lazy("task", "answer another decision")

#: The prompt a queued answer was for ("Your queue's answer for the Harvest ...").
PROMPTS = {"technology": _("technology tile"), "bathhouse": pgettext_lazy("prompt", "Bathhouse"),
           "harvest": pgettext_lazy("prompt", "Harvest")}
OTHER_PROMPT = _("prompt")

#: What each kind of decision asks of the player, for the status line and the panel title.
DECISION_PROMPTS = {
    "draw": _("draw followers from your bag"),
    "plan": _("plan: put followers from your market on your places"),
    "action": _("take an action, or pass"),
    "torture": _("pay your debt (torture)"),
    "harvest": _("return food for the Harvest"),
    "technology": _("place your technology tile"),
    "bathhouse": _("Bathhouse: keep drawn followers"),
}
#: What another seat is doing while the page waits for it.
DECISION_WAITING = {
    "draw": _("drawing followers"),
    "plan": _("planning"),
    "action": _("taking an action"),
    "torture": _("paying a debt (torture)"),
    "harvest": _("choosing food to return for the Harvest"),
    "technology": _("placing a technology tile"),
    "bathhouse": _("choosing followers at the Bathhouse"),
}

#: The round parts a view's ``phase`` stands for (the engine merges followers and planning).
PHASES = {"planning": _("Followers and planning"), "actions": _("Actions"), "event": pgettext_lazy("phase", "Event"),
          "over": _("Game over")}

BOT_LEVELS = {"random": _("Random"), "greedy": _("Greedy"), "strong": _("Strong")}

CHAT_CHANNELS = {"players": _("Players' chat"), "spectators": _("Spectators' chat")}

#: The game options' values, as the new-game form and the lobby name them.
PLACE_TILE_MARKET_CHOICES = [
    ("normal", _("Normal: 13 tiles drawn per stack, all available")),
    ("market3", _("Market of 3: 3 face-up tiles per stack, refilled")),
    ("market5", _("Market of 5: 5 face-up tiles per stack, refilled")),
    ("all", _("All: every included tile available")),
]
EVENT_STRENGTH_CHOICES = [
    ("phased", _("Phased: events grow stronger through the game")),
    ("constant", _("Constant: events keep one strength")),
]
HOURGLASS_ORDER_CHOICES = [
    ("abc", _("A/B/C stacks: each third of the game has one of every event")),
    ("classic_shuffle", _("Classic: all events but the first shuffled together")),
]
#: How each engine option is named and shown in the lobby (the same words as the form).
OPTION_DISPLAY = {
    "simultaneous_followers": (_("Simultaneous Followers phase"),
                               {True: _("On: everyone draws at once"), False: _("Off: players draw in turn order")}),
    "place_tile_market": (_("Place-tile market"), dict(PLACE_TILE_MARKET_CHOICES)),
    "event_strength": (_("Event strength"), dict(EVENT_STRENGTH_CHOICES)),
    "hourglass_order": (_("Hourglass order"), dict(HOURGLASS_ORDER_CHOICES)),
}


#: (table id, language) -> (the table, {key: its text}): each word of a table is looked up
#: in the translation catalogs once per language (a page shows hundreds of them).
_TEXTS: dict[tuple[int, str], tuple[dict, dict]] = {}
#: What empties the per-process memos of translated text (``forget_with_catalogs``).
_FORGETTERS: list = []


def forget_with_catalogs(clear):
    """Register ``clear`` (a callable of no argument: a memo's ``clear``, an lru_cache's
    ``cache_clear``) to be called whenever the translation catalogues change (tests
    overriding the language settings); returns it."""
    _FORGETTERS.append(clear)
    return clear


def remember(memo: dict, key, value, most: int):
    """``memo[key] = value`` (returned), ``memo`` emptied first when it holds ``most``
    entries: a per-process memo whose memory stays bounded."""
    if len(memo) >= most:
        memo.clear()
    memo[key] = value
    return value


@receiver(setting_changed)
def _forget_texts(*, setting, **kwargs) -> None:
    if setting in ("LANGUAGES", "LANGUAGE_CODE", "LOCALE_PATHS"):  # the catalogs change (tests)
        for clear in _FORGETTERS:
            clear()


forget_with_catalogs(_TEXTS.clear)


def translated(table: dict, key) -> str:
    """``str(table[key])``: a word (or message template) of a table of lazy translations
    in the active language, read from the catalogs once per table, key and language.
    Raises ``KeyError`` for a key the table lacks (``TypeError`` for an unhashable one)."""
    code = language()
    if code is None:  # translations deactivated: the source text
        return str(table[key])
    entry = _TEXTS.get((id(table), code))
    if entry is None or entry[0] is not table:
        entry = _TEXTS[(id(table), code)] = (table, {})
    texts = entry[1]
    text = texts.get(key)
    if text is None:
        text = texts[key] = str(table[key])
    return text


def word(table: dict, key, default=None) -> str:
    """``table[key]`` of one of the tables above in the active language; ``default`` (else
    the key itself) if unknown."""
    try:
        return translated(table, key)
    except (KeyError, TypeError):
        return str(key) if default is None else str(default)


def in_sentence(name: str) -> str:
    """A name as a sentence writes it: its first letter in lower case ("Trading day" ->
    "trading day", "Farmer" -> "farmer"; Japanese names are unchanged)."""
    return name[:1].lower() + name[1:]


def circle_word(kind) -> str:
    """A circle type as the log writes it ("the farmer circle"); ``any`` -> "any"."""
    if str(kind) == "any":
        return pgettext("circle", "any")
    return in_sentence(follower_type_name(kind))


def event_word(event) -> str:
    """An hourglass event as the log writes it ("the hourglass shows trading day")."""
    return in_sentence(event_name(event))


def follower_type_name(kind, default=None) -> str:
    """``"knight"`` (or a tile of that type, ``"start_knight"``) -> "Knight" / "兵士";
    ``default`` (else the id capitalised) for a type this catalog does not know."""
    kind = str(kind).removeprefix("start_")
    return word(FOLLOWERS, kind, kind.capitalize() if default is None else default)


def follower_name(tile) -> str:
    """A follower tile's name: "starting Farmer", "Knight"; the circle type "any" -> "any
    follower" (the engine's ``follower_name``, translated)."""
    tile = str(tile)
    if tile == "any":
        return gettext("any follower")
    name = follower_type_name(tile)
    return gettext("starting {follower}").format(follower=name) if tile.startswith("start_") else name


def followers_name(tile) -> str:
    """The plural of a tile's type: "Knights", "Boatmen"."""
    kind = str(tile).removeprefix("start_")
    return word(FOLLOWERS_PLURAL, kind)


def place_name(place_id, default=None) -> str:
    """``"town_hall"`` -> "Town Hall" / "市役所"; an unknown id: ``default``, else as given."""
    return word(PLACES, place_id, default)


def town_name(town, default=None) -> str:
    """``"orleans"`` -> "Orléans" / "オルレアン"; an unknown id: ``default``, else as given."""
    return word(TOWNS, town, default)


def deed_name(deed, default=None) -> str:
    """``"city_wall"`` -> "Building the City Wall"; an unknown id: ``default``, else as given."""
    return word(DEEDS, deed, default)


def good_name(good) -> str:
    """``"grain"`` -> "grain" / "穀物" (lower case, as in a sentence)."""
    return word(GOODS, good)


def event_name(event) -> str:
    """An hourglass tile's name: ``"trading_day"`` -> "Trading day"."""
    return word(EVENT_NAMES, event, str(event).replace("_", " ").capitalize())


def phase_name(phase) -> str:
    """A view's ``phase`` as the page names it ("Followers and planning")."""
    return word(PHASES, phase, str(phase).replace("_", " ").capitalize())


def decision_prompt(kind, default: str = "") -> str:
    """What a decision of ``kind`` asks of the awaited player."""
    return word(DECISION_PROMPTS, kind, default)


def decision_waiting(kind, default: str = "") -> str:
    """What another seat is doing while it decides ``kind``."""
    return word(DECISION_WAITING, kind, default)


def bot_level_name(level) -> str:
    """A bot level's name ("Greedy"); a level not listed here capitalised."""
    return word(BOT_LEVELS, level, str(level).replace("_", " ").capitalize())


def bot_seat_name(level, number: int) -> str:
    """The name of a game's ``number``-th bot seat (1-based), "Bot (Greedy) 1", in the
    active language."""
    return gettext("Bot ({level}) {number}").format(level=bot_level_name(level), number=number)


def bot_display_name(level, stored: str) -> str:
    """A bot seat's name in the active language, from its ``level`` and the number at the
    end of its ``stored`` name (written in its creator's language); a stored name without a
    number is shown as stored."""
    digits = re.search(r"(\d+)\s*$", stored or "")
    return bot_seat_name(level, int(digits.group(1))) if digits else stored


def chat_channel_name(channel) -> str:
    """A chat channel's label ("Players' chat"); "" if unknown."""
    return word(CHAT_CHANNELS, channel, "")
