"""The one English message catalog of the engine: every sentence it writes, by message id.

Events (``engine.steps.event``), action and queue-entry labels (``engine.describe``) and
refusals (``engine.refusals``) are all a message id and its parameters; the English text is
:func:`render` of the two. A site shows the same message in another language by rendering
the id and params with its own templates and words (:class:`Words`); the ids and params stay.

A template is a ``str.format`` string with named placeholders:

- ``{player}``: the seat's display name (left as ``{player}`` in the engine's own text);
- a parameter shown as a word, by its key (:data:`WORD_KEYS`): ``{place}``, ``{town}``,
  ``{follower}`` ("starting Farmer"), ``{follower_type}`` ("Farmer"), ``{followers}``
  ("Farmers"), ``{good}``, ``{deed}``, ``{circle}``, ``{event}``, ``{track}``, ...; and
  ``{<key>_id}``, the id itself (``{follower_id}`` "start_knight"); ``{track_word}`` is the
  track's follower type as a sentence writes it ("the knight track", like ``{circle}``);
- ``{coins:coin}``: a count with its counted noun (:data:`COUNTED`, "1 coin", "3 coins");
- a nested message (a dict with ``msg`` and ``params``) or a list of them, joined by
  ``sep.list`` (``sep.else`` for the keys in :data:`ELSE_LISTS`; ``sep.and`` before the
  last item for the keys in :data:`AND_LISTS`);
- ``{reason}``: why coins, goods or steps were gained or paid, a dict with one key
  (``{"place": "ship"}``, ``{"deed": "hospital"}``, ``{"event": "taxes"}``,
  ``{"track": "farmer"}``, ``{"development_space": 7}``, ``{"census": True}``), shown by
  the message ``reason.<key>``.

Message ids are namespaced: ``event.*`` (move log), ``action.*`` (describe_action),
``queue.*`` (describe_queue_entry), ``refusal.*`` (``RulesError`` codes, with variants
``refusal.<code>.<variant>`` chosen by ``engine.refusals.refusal_message``), ``reason.*``,
``part.*`` (pieces of a longer line), ``sep.*`` (list separators), and the board's texts:
``place_rule.<board space>`` and ``place_effect.*`` (what a place does), ``event_effect.*``
(the hourglass tile) and ``track_reward.*`` (a character track's step); ``gives.*`` (what a
choice of the queue panel gives).
"""

from __future__ import annotations

import marshal
import string

from . import content as C

#: Counted nouns for ``{n:noun}`` placeholders: noun -> (singular, plural) templates of ``n``.
COUNTED: dict[str, tuple[str, str]] = {
    "coin": ("{n} coin", "{n} coins"),
    "follower": ("{n} follower", "{n} followers"),
    "space": ("{n} space", "{n} spaces"),
    "more_follower": ("{n} more follower", "{n} more followers"),
    "more_item": ("{n} more item", "{n} more items"),
    "development_step": ("{n} development step", "{n} development steps"),
}

#: List parameters joined by "sep.else" (preference order) instead of "sep.list".
ELSE_LISTS = frozenset({"targets", "keeps"})
#: List parameters joined by "sep.list" and, before the last item, "sep.and" ("A, B and C").
AND_LISTS = frozenset({"circles", "gains"})

CATALOG: dict[str, str] = {
    # --- the move log (events) --------------------------------------------------------------
    "event.recruit": "{player} recruits a {follower_type}",
    "event.gain_coins": "{player} gains {coins:coin} ({reason})",
    "event.take_good": "{player} takes 1 {good} ({reason})",
    "event.citizen": "{player} takes a citizen ({spot})",
    "event.develop": "{player} moves {steps} on the development track to {position} ({reason})",
    "event.station": "{player} builds a trading station in {town}",
    "event.move_merchant": "{player} moves the merchant to {town}",
    "event.route_good": "{player} takes 1 {good} from the route",
    "event.take_technology": "{player} takes a technology tile (placed when passing)",
    "event.place_technology": "{player} places a technology tile on the {circle} circle of {place}",
    "event.technology_bump": "{player}'s {follower_type} goes back to the market",
    "event.deed": "{player} puts a {follower_type} on {deed}",
    "event.pay_for_steps": "{player} pays {coins} coins ({reason})",
    "event.pay": "{player} pays {coins:coin} ({reason})",
    "event.debt": "{player} is {debt:coin} short and must give up items ({reason})",
    "event.give_up_supply_station": "{player} gives up a trading station from their supply",
    "event.give_up_station": "{player} gives up their trading station in {town}",
    "event.give_up_follower": "{player} gives up a {follower_type} drawn from their bag",
    "event.give_up_development": "{player} gives up one development step",
    "event.give_up_good": "{player} gives up 1 {good}",
    "event.give_up_place_tile": "{player} gives up the place tile {place}",
    "event.give_up_technology": "{player} gives up a technology tile",
    "event.debt_forgiven": "{player} has nothing left to give; {debt} coin(s) of debt forgiven",
    "event.event_phase": "Event: {event}",
    "event.sacristy": "{player} is protected by the Sacristy; the monk returns to the bag",
    "event.plague_no_loss": "{player} draws a starting follower: no loss",
    "event.plague": "{player} loses a {follower_type} to the plague",
    "event.return_food": "{player} returns 1 {good}",
    "event.pull_back": "{player} takes a {follower_type} back from {place}",
    "event.draw": "{player} draws {count:follower}",
    "event.round": "Round {round} begins: the hourglass shows {event}",
    "event.game_over": "The game is over",
    "event.planned": "{player} has finished planning",
    "event.reveal": "{player} reveals: {plan}",
    "part.reveal": "{follower_type} on {place}",
    "event.action_phase": "Action phase",
    "event.activate": "{player} uses {place}",
    "event.pass": "{player} passes",
    "event.bathhouse_place": "{player} places a {follower_type} on {place}",
    "event.bathhouse_draw": "{player} draws {count} followers at the Bathhouse",
    "event.track": "{player} advances to step {step} of the {track_word} track",
    "event.place_tile": "{player} takes the place tile {place}",
    "event.undo": "{player} takes back their last decision",
    # --- why something was gained or paid -----------------------------------------------------
    "reason.place": "{place}",
    "reason.deed": "{deed}",
    "reason.event": "{event}",
    "reason.track": "{track} track",
    "reason.development_space": "development space {development_space}",
    "reason.census": "census",
    # --- separators ---------------------------------------------------------------------------
    "sep.list": ", ",
    "sep.else": ", else ",
    "sep.and": " and ",
    # --- actions (describe_action) ------------------------------------------------------------
    "action.draw": "Draw {count:follower}",
    "action.pull_back": "Take the {follower} back from {place} (instead of a draw)",
    "action.place": "Put a {follower} on {place}",
    "action.unplace": "Take the {follower} back from {place}",
    "action.unknown": "{action}",
    "action.submit_plan": "Submit my plan",
    "action.pass": "Pass for the rest of the round",
    "action.place_technology": "Put the technology tile on the {circle} circle of {place}",
    "action.bathhouse_place": "Keep the {follower} and put it on {place}",
    "action.bathhouse_done": "Return the remaining drawn followers to the bag",
    "action.return_food": "Return {food}",
    "action.give_up": "Give up {items}",
    "action.give_up_nothing": "Give up nothing",
    "part.supply_station": "a trading station from my supply",
    "part.station": "my trading station in {town}",
    "part.follower": "a random follower from my bag",
    "part.development": "one development step",
    "part.good": "1 {good}",
    "part.goods": "{count} {good}",
    "part.place_tile": "the place tile {place}",
    "part.technology": "a technology tile",
    "part.technology_on": "a technology tile ({place})",
    "part.times": "{count} × {item}",
    "part.food": "{good}",
    "action.use": "Use {place}",
    "action.use_with": "Use {place}: {parts}",
    "part.recruit": "recruit a {follower_type}",
    "part.take_place_tile": "take {place}",
    "part.route_from": "{town} → {to_town}",
    "part.route": "{town}–{to_town}",
    "part.take_good": "take {good}",
    "part.no_good": "take no good",
    "part.any_good": "take the good on the route if there is one",
    "part.to_deed": "{follower} to {deed}",
    "part.to_deed_development": "{follower} to {deed} for a development step",
    "part.to_any_deed": "{follower} to a free deed space",
    "part.to_any_deed_development": "{follower} to a free deed space for a development step",
    "part.pay": "pay {coins} coins",
    # --- action queue entries (describe_queue_entry) ------------------------------------------
    "queue.unreadable": "An action that cannot be read",
    "queue.harvest": "At the Harvest, return {food}",
    "queue.technology": "Technology tile: {targets}",
    "queue.bathhouse": "At the Bathhouse, {keep}",
    "queue.pass": "Pass for the rest of the round",
    "queue.pass_technology": "Pass for the rest of the round; technology tile: {targets}",
    "queue.any_deed": "{action} (any free deed space of its type)",
    "queue.then": "{action}; then {keep}",
    "queue.then_keep_none": "{action}; then keep none of the drawn followers",
    "part.target": "the {circle} circle of {place}",
    "part.keep": "keep {keeps}",
    "part.keep_one": "a {follower} on {place}",
    # --- the board: what a place does (engine.describe.place_message, RULES §5, §11) ---------
    # the ten board spaces' rule texts, from the component data ("Recruit knight; knight track +1")
    **{f"place_rule.{pid}": place.effect["text"][:1].upper() + place.effect["text"][1:]
       for pid, place in C.PLACES.items() if "text" in place.effect},
    "place_effect.take_good": "Take 1 {good}",
    "place_effect.substitute": "Permanent: your {followers} may fill {circles} circles (not on beneficial deeds)",
    "part.circle_name": "{follower_type}",
    "place_effect.sacristy": "Event phase: a Monk here shields you from the next Harvest, Taxes or Plague",
    "place_effect.draw_from_bag": "Draw {draw} from your bag, keep {keep} and put them at once on your action "
                                  "spaces",
    "place_effect.market_spaces": "+{spaces} market spaces; action: send the followers there to beneficial deeds",
    "place_effect.pay_coins": "Pay {min}–{max} coins: 1 development step per coin",
    "place_effect.move_merchant": "Move your merchant along one road and take 1 good from it",
    "place_effect.technology": "Take 1 technology tile (no track step); it may cover the Laboratory",
    "place_effect.gain": "Gain {gains}",
    "part.gain_coins": "{coins:coin}",
    "part.gain_development": "{steps:development_step}",
    "part.gain_coins_per_level": "{coins:coin} per development level",
    "part.gain_coins_per_station": "{coins:coin} per trading station built",
    "place_effect.name": "{place}",
    # --- the board: what the round's hourglass tile does (describe.event_message, RULES §9.3)
    "event_effect.pilgrimage": "No Monastery action this round",
    "event_effect.plague": "Each player loses a random follower from the bag (a starting one goes back)",
    "event_effect.income": "+{coins:coin} per development level",
    "event_effect.trading_day": "+{coins:coin} per trading station",
    "event_effect.taxes_one": "Pay 1 coin per good",
    "event_effect.taxes": "Pay 1 coin per {goods} goods",
    "event_effect.harvest": "Return {food} food (grain, cheese or wine), or pay {coins} coins per missing food",
    # --- the board: what each step of a character track gives (describe.track_reward_messages, §6)
    "track_reward.good": "{good}",
    "track_reward.coins": "{coins} coins",
    "track_reward.citizen_coins": "citizen / {coins} coins",
    "track_reward.technology": "technology tile",
    "track_reward.place_tile": "place tile",
    "track_reward.development": "+{steps} development",
    "track_reward.draw": "draw {count}",
    "track_reward.draw_citizen": "draw {count} + citizen",
    # --- the queue panel: what a queued choice gives (engine.queue.queue_options) -----------
    "gives.track_step": "{track_word} track step {step}: {reward}",
    "gives.track_end": "{track_word} track",
    "gives.with_tile": "{gives} — {tile}",
    "gives.good": "+1 {good}",
    "gives.route_good": "the good on the route, if any",
    "gives.no_good": "no good",
    "gives.coins": "+{coins:coin}",
    "gives.development": "+{steps} development",
    "gives.parts": "{parts}",
    "gives.pharmacy": "+{coins} development for {coins} coins",
    "gives.deeds_default": "each follower to the free deed space of its type paying most",
    "gives.bathhouse_none": "draw 3, keep none",
    "gives.bathhouse_keep": "draw 3, keep it if drawn, the others back to the bag",
    # --- refusals (engine.refusals: RulesError codes) -----------------------------------------
    "refusal.cannot_use": "The {place} cannot be used: {why}.",
    "refusal.cannot_recruit": "The {place} cannot recruit a {recruit}: {why}.",
    "refusal.track_end": "the {track} track is at its last space",
    "refusal.character_supply_empty": "no {followers} are left in the supply",
    "refusal.good_unavailable": "no {good} is left in the goods supply",
    "refusal.technology_unavailable": "no technology tiles are left",
    "refusal.place_tile_unavailable": "no place tile is left to take",
    "refusal.nothing_to_recruit": "no Boatman, Craftsman or Trader can be recruited now",
    "refusal.pilgrimage": "it is a Pilgrimage round",
    "refusal.development_end": "your development marker is at the end of the track",
    "refusal.station_present": "there is already a trading station in {town}",
    "refusal.station_present.own": "you already have a trading station in {town}",
    "refusal.no_stations_left": "you have no trading stations left",
    "refusal.no_route": "no {route_kind} leaves {town}",
    "refusal.route_elsewhere": "The {place} cannot take that route: it is not a {route_kind} from {town}, where "
                               "your merchant stands.",
    "refusal.good_not_on_route": "The {place} cannot take {good} from that route: there is none on it.",
    "refusal.no_deed_space": "no beneficial deed has a free space for these followers",
    "refusal.no_deed_follower": "no follower in your market can go to a beneficial deed (starting followers "
                                "never can)",
    "refusal.deed_full": "{deed} has no free {follower} space: a follower goes only on a space of its own type.",
    "refusal.deeds_none": "Choose at least one follower to send to a beneficial deed.",
    "refusal.deed_starting": "Starting followers never go to a beneficial deed.",
    "refusal.deeds_all": "Every follower on the Town Hall that has a free beneficial deed space of its type must "
                         "go to one.",
    "refusal.tower_two": "The Gunpowder Tower holds only 2 followers.",
    "refusal.first_place_tile": "your first place tile must come from stack I",
    "refusal.place_tile_taken": "the {place_tile} is not available to take",
    "refusal.not_enough_coins": "The {place} cannot be used: you need at least {coins:coin} to pay.",
    "refusal.development_room": "The {place} cannot take {coins:coin}: your development marker has only "
                                "{room:space} left to the end of the track.",
    "refusal.already_used": "The {place} has already been used this round.",
    "refusal.not_an_action": "The {place} is not an action of the action phase.",
    "refusal.not_ready": "The {place} is not ready: not all its circles are filled.",
    "refusal.not_ready.town_hall": "The Town Hall is not ready: no follower stands on it.",
    "refusal.choice_not_allowed": "These choices are not allowed for the {place} now.",
    "refusal.unknown_place": "There is no place called “{place}”.",
    "refusal.unknown_follower": "There is no follower called “{follower_id}”.",
    "refusal.not_owned": "You do not own the {place}.",
    "refusal.not_in_market": "You have no {follower} in your market.",
    "refusal.no_free_circle": "Every circle of the {place} is already taken.",
    "refusal.no_circles": "The {place} has no circles: no follower can be put on it.",
    "refusal.circle_type": "No free circle of the {place} takes a {follower}.",
    "refusal.starting_follower": "Starting followers cannot go on the {place}.",
    "refusal.not_on_space": "There is no {follower} on your {place}.",
    "refusal.draw_limit": "You may draw at most {most:follower} now (your Knight track's draw count).",
    "refusal.market_full": "Your market has room for only {most:more_follower}.",
    "refusal.no_draw_left": "Each pull-back takes the place of one draw, and you have no draw left this round.",
    "refusal.bag_short": "Your bag holds only {most:follower}.",
    "refusal.not_drawn": "There is no {follower} among the followers drawn at the Bathhouse.",
    "refusal.bathhouse_itself": "The followers drawn at the Bathhouse cannot go on the Bathhouse itself.",
    "refusal.technology_target": "A technology tile cannot go there now.",
    "refusal.technology_town_hall": "A technology tile cannot go on the Town Hall.",
    "refusal.technology_one_circle": "A technology tile cannot go on the {place}: it has only one circle.",
    "refusal.technology_twice": "The {place} already has a technology tile.",
    "refusal.technology_monk": "A technology tile never covers a Monk circle.",
    "refusal.technology_first_farmer": "Your first technology tile must cover a Farmer circle.",
    "refusal.torture_item": "You cannot give that up: you do not have it.",
    "refusal.torture_development": "You cannot give a development step: your marker may not move from or onto a "
                                   "coin space (7, 12, 25).",
    "refusal.torture_follower": "You cannot give a follower: your bag holds only starting followers, which are "
                                "never lost.",
    "refusal.payment_item": "Item {index} of your payment is refused. {why}",
    "refusal.payment_short": "Your payment does not settle the debt of {debt:coin}: choose {remaining:more_item}, "
                             "one per missing coin.",
    "refusal.payment_too_many": "You owe only {debt:coin}: give one item per missing coin, no more.",
    "refusal.food_choice": "Return exactly {food} food that you have (grain, cheese or wine).",
    "refusal.not_your_turn": "It is not your turn.",
    "refusal.not_your_turn.resolution": "Not now: the game is waiting for the other players' moves to be "
                                        "resolved.",
    "refusal.not_your_turn.no_seat": "You have no seat in this game.",
    "refusal.not_your_turn.passed": "You have passed: you take no more actions this round.",
    "refusal.not_your_turn.planned": "Your plan is in: wait for the other players to finish theirs.",
    "refusal.wrong_decision": "First {task}.",
    "refusal.game_over": "The game is over.",
    "refusal.not_undoable": "There is nothing to take back: another player has acted since, or your last "
                            "decision drew or revealed something.",
    "refusal.not_over": "The game is not over yet: its hidden information is still secret.",
    "refusal.nothing_to_resolve": "There is nothing to resolve now.",
    "refusal.stale": "The game has moved on since this page was shown: here is the current position.",
    "refusal.malformed": "That move could not be read.",
    "refusal.invalid_options": "These game options are not valid.",
    "refusal.not_allowed": "That move is not allowed now.",
    "refusal.queue_phase": "Actions can be queued while planning and during the action phase.",
    "refusal.queue_limit": "At most {limit} actions can be queued.",
    "refusal.queue_entry": "Queue an action on one of your places, or passing.",
    "refusal.queue_not_own": "You can only queue actions on your own places.",
    "refusal.queue_not_action": "The {place} is not an action of the action phase, so it cannot be queued.",
    "refusal.queue_field": "The {place} has no choice called {fields}.",
    "refusal.queue_choice": "The queued action's {field} is not valid.",
    "refusal.queue_after_pass": "Passing ends your round: nothing can be queued after it.",
    "refusal.queue_place_twice": "Each place can be used once a round: it is already in your queue.",
    "refusal.queue_empty": "Nothing is queued.",
    "refusal.queue_not_turn": "The queue waits for your turn in the action phase.",
    "refusal.queue_choice_open": "Your queue waits at “{entry}”: choose how to use it.",
    "refusal.queue_not_playable": "Your queue stopped at “{entry}”: it could not be played when your turn came, "
                                  "so the rest was dropped. {why}",
    "refusal.queue_choice_illegal": "Your queue waits at “{entry}”: that choice is not possible now, so choose "
                                    "how to use it. {why}",
    "refusal.queue_answer_changed": "Your queue's answer for the {prompt} is not possible any more: choose now.",
    "refusal.queue_no_harvest": "Food for the Harvest can be queued only in a round whose hourglass tile is the "
                                "Harvest.",
    "refusal.queue_answer_twice": "That is already answered in your queue.",
    "refusal.refused": "That is not allowed.",
}


class Words:
    """The words a message's parameters are shown with: English names from the component
    data. A site subclasses it (and passes its own ``template``) to render in another
    language; every method takes an engine id and returns display text."""

    def template(self, msg_id: str) -> str:
        """The template of ``msg_id``; raises ``KeyError`` for an unknown id."""
        return CATALOG[msg_id]

    def counted(self, noun: str, n: int) -> str:
        """``counted("coin", 3) == "3 coins"`` (:data:`COUNTED`)."""
        one, other = COUNTED[noun]
        return (one if n == 1 else other).format(n=n)

    def place(self, place_id) -> str:
        return C.PLACES[place_id].name if place_id in C.PLACES else str(place_id)

    def follower(self, tile) -> str:
        """A tile's name: "starting Farmer", "Knight", "any follower"."""
        kind = C.follower_type(str(tile))
        if kind == "any":
            return "any follower"
        name = self.follower_type(kind)
        return f"starting {name}" if C.is_starting(str(tile)) else name

    def follower_type(self, tile) -> str:
        kind = C.follower_type(str(tile))
        return C.FOLLOWER_NAMES.get(kind, kind.capitalize())

    def followers(self, tile) -> str:
        """The plural of a tile's type: "Knights", "Boatmen"."""
        name = C.FOLLOWER_NAMES.get(C.follower_type(str(tile)), str(tile))
        return name[:-3] + "men" if name.endswith("man") else name + "s"

    def circle(self, kind) -> str:
        return str(kind)

    def town(self, town) -> str:
        return C.TOWNS.get(town, str(town))

    def deed(self, deed) -> str:
        return C.DEEDS[deed].name if deed in C.DEEDS else str(deed)

    def good(self, good) -> str:
        return str(good)

    def event(self, event) -> str:
        return str(event).replace("_", " ")

    def spot(self, spot) -> str:
        return str(spot).replace("_", " ")

    def route_kind(self, kind) -> str:
        return {"water": "waterway", "land": "road"}.get(kind, str(kind))

    def task(self, kind) -> str:
        return _TASKS.get(kind, "answer another decision")

    def prompt(self, kind) -> str:
        return {"technology": "technology tile", "bathhouse": "Bathhouse", "harvest": "Harvest"}.get(kind, "prompt")

    def field(self, field) -> str:
        return str(field)


_TASKS = {
    "draw": "draw your followers",
    "plan": "finish your plan",
    "action": "take an action or pass",
    "torture": "choose what to give up",
    "harvest": "choose which food to return",
    "technology": "place your technology tile",
    "bathhouse": "place or return the followers drawn at the Bathhouse",
}

#: Parameter key -> the placeholders it fills: ``(placeholder, Words method)``.
WORD_KEYS: dict[str, tuple[tuple[str, str], ...]] = {
    "place": (("place", "place"),),
    "place_tile": (("place_tile", "place"),),
    "follower": (("follower", "follower"), ("follower_type", "follower_type"), ("followers", "followers")),
    "recruit": (("recruit", "follower_type"),),
    "track": (("track", "follower_type"), ("track_word", "circle")),  # "Knight"; "knight" in a sentence
    "circle": (("circle", "circle"),),
    "town": (("town", "town"),),
    "to_town": (("to_town", "town"),),
    "deed": (("deed", "deed"),),
    "good": (("good", "good"),),
    "event": (("event", "event"),),
    "spot": (("spot", "spot"),),
    "route_kind": (("route_kind", "route_kind"),),
    "kind": (("task", "task"),),
    "prompt": (("prompt", "prompt"),),
    "field": (("field", "field"),),
}


class _Formatter(string.Formatter):
    """``str.format`` with counted nouns: ``{coins:coin}`` -> ``words.counted("coin", coins)``."""

    def __init__(self, words: Words):
        self.words = words

    def format_field(self, value, format_spec):
        if format_spec in COUNTED:
            return self.words.counted(format_spec, int(value))
        return super().format_field(value, format_spec)


ENGLISH = Words()

#: Template text -> its pieces ``(literal, field name or None, format spec)``, or None for a
#: template :func:`_fill` leaves to :class:`_Formatter` (attribute or index fields,
#: conversions, nested specs, automatic numbering): parsed once per text, not per message.
_PIECES: dict = {}
_PIECES_MAX = 4096


def _pieces(template: str):
    found = _PIECES.get(template, _PIECES)
    if found is not _PIECES:
        return found
    pieces = []
    try:
        for literal, name, spec, conversion in string.Formatter().parse(template):
            if name is not None and (conversion or not name.isidentifier() or "{" in (spec or "")):
                pieces = None
                break
            pieces.append((literal, name, spec or ""))
    except ValueError:  # a malformed template: the formatter raises as str.format does
        pieces = None
    if len(_PIECES) >= _PIECES_MAX:
        _PIECES.clear()
    _PIECES[template] = pieces
    return pieces


def _fill(words: Words, template: str, values: dict) -> str:
    """``_Formatter(words).format(template, **values)``, from the template's parsed pieces
    when it has only plain named fields (the same text: counted nouns by ``words``, other
    specs by ``format``); the same errors (``KeyError`` for a missing value)."""
    pieces = _pieces(template)
    if pieces is None:
        return _Formatter(words).format(template, **values)
    out = []
    for literal, name, spec in pieces:
        out.append(literal)
        if name is not None:
            value = values[name]
            out.append(words.counted(spec, int(value)) if spec in COUNTED else format(value, spec))
    return "".join(out)


def message(msg_id: str, **params) -> dict:
    """A nested message, ``{"msg": msg_id, "params": params}`` (for list and message params)."""
    return {"msg": msg_id, "params": params}


def render(msg_id: str, params: dict | None = None, words: Words = ENGLISH, player: str = "{player}") -> str:
    """The text of message ``msg_id`` with ``params`` in ``words``' language; ``player``
    fills ``{player}``. Raises ``KeyError`` for an unknown id or a missing parameter and
    ``ValueError``/``TypeError`` for a parameter of the wrong shape."""
    shown = {"player": player}
    for key, value in (params or {}).items():
        shown[key] = _shown(key, value, words, player)
        if key in WORD_KEYS and isinstance(value, (str, int)):
            shown[f"{key}_id"] = str(value)  # the id itself ("{follower_id}", "{track_id}")
            for placeholder, method in WORD_KEYS[key]:
                shown[placeholder] = getattr(words, method)(value)
    return _fill(words, words.template(msg_id), shown)


def _shown(key: str, value, words: Words, player: str):
    """A parameter as its placeholder shows it: nested messages rendered, lists joined,
    the ``reason`` dict by its ``reason.<key>`` message, other values as they are."""
    if isinstance(value, dict) and "msg" in value:
        return _part(value["msg"], value.get("params"), words, player)
    if isinstance(value, dict) and key == "reason":
        (kind, _), = value.items()
        return render(f"reason.{kind}", value, words, player)
    if isinstance(value, list):
        sep = words.template("sep.else" if key in ELSE_LISTS else "sep.list")
        items = [_part(v["msg"], v.get("params"), words, player) if isinstance(v, dict) and "msg" in v
                 else str(v) for v in value]
        if key in AND_LISTS and len(items) > 1:
            return sep.join(items[:-1]) + words.template("sep.and") + items[-1]
        return sep.join(items)
    return value


#: English texts (``{player}`` left in) by message id and marshalled parameters (:func:`english`):
#: a game repeats the same few hundred events and parts of events (a reveal lists a new mix
#: of the same "follower on place" parts), and rendering one costs far more than looking it
#: up. The texts are those of the ids and parameters themselves, so an entry tells nothing
#: its caller does not hold already; the memo is emptied when full.
_TEXTS: dict = {}
_TEXTS_MAX = 8192


def english(msg_id: str, params: dict | None = None) -> str:
    """``render(msg_id, params)`` (English, ``{player}`` left in), memoised; same errors as
    :func:`render` for an unknown id or a bad parameter."""
    try:
        # equal bytes are equal values of the same types (a bool kept apart from its int),
        # which render alike; equal values may still differ in bytes, costing a render only
        key = (msg_id, marshal.dumps(params))
    except ValueError:  # not a JSON value: render it each time
        return render(msg_id, params)
    found = _TEXTS.get(key)
    if found is None:
        found = render(msg_id, params)
        if len(_TEXTS) >= _TEXTS_MAX:
            _TEXTS.clear()
        _TEXTS[key] = found
    return found


def _part(msg_id: str, params, words: Words, player: str) -> str:
    """A nested message's text: from the memo of :func:`english` when that is what is asked."""
    if words is ENGLISH and player == "{player}":
        return english(msg_id, params)
    return render(msg_id, params, words, player)


def text(msg: dict, words: Words = ENGLISH, player: str = "{player}") -> str:
    """:func:`render` of a structured message ``{"msg": id, "params": {...}}``."""
    return render(msg["msg"], msg.get("params"), words, player)


def placeholders(template: str) -> set[str]:
    """The placeholder names of ``template`` (``{coins:coin}`` -> ``"coins"``)."""
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}
