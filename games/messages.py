"""The engine's messages in the viewer's language: the move log, action labels, refusals.

Every engine event carries a message id and its params (``engine.messages``); this module
renders them when a page, a partial, an email or an export is made, in the active language
(``django.utils.translation``): the site's copy of each English template below goes through
gettext (the message id is its context), and each param through ``games.vocabulary``. The
engine's own formatting rules (``{coins:coin}`` counted nouns, nested messages, lists,
reasons) are reused, not re-implemented: only the words and the templates are the site's.

An old stored event without ``msg`` shows its stored ``text``; so does an event whose id
this site does not know (an engine newer than the site's catalog) or whose params do not
fill the template.
"""
from __future__ import annotations

import marshal
from functools import partial

from django.utils.translation import ngettext, pgettext_lazy

from games import vocabulary as V
from games.rules import DEFAULT_RULES, engine_named

_messages = engine_named(DEFAULT_RULES).messages

#: Message id -> the English template (the engine's, ``engine.messages.CATALOG``), translated.
TEMPLATES = {
    "event.recruit": pgettext_lazy("event.recruit", "{player} recruits a {follower_type}"),
    "event.gain_coins": pgettext_lazy("event.gain_coins", "{player} gains {coins:coin} ({reason})"),
    "event.take_good": pgettext_lazy("event.take_good", "{player} takes 1 {good} ({reason})"),
    "event.citizen": pgettext_lazy("event.citizen", "{player} takes a citizen ({spot})"),
    "event.develop": pgettext_lazy(
        "event.develop", "{player} moves {steps} on the development track to {position} ({reason})"),
    "event.station": pgettext_lazy("event.station", "{player} builds a trading station in {town}"),
    "event.move_merchant": pgettext_lazy("event.move_merchant", "{player} moves the merchant to {town}"),
    "event.route_good": pgettext_lazy("event.route_good", "{player} takes 1 {good} from the route"),
    "event.take_technology": pgettext_lazy(
        "event.take_technology", "{player} takes a technology tile (placed when passing)"),
    "event.place_technology": pgettext_lazy(
        "event.place_technology", "{player} places a technology tile on the {circle} circle of {place}"),
    "event.technology_bump": pgettext_lazy(
        "event.technology_bump", "{player}'s {follower_type} goes back to the market"),
    "event.deed": pgettext_lazy("event.deed", "{player} puts a {follower_type} on {deed}"),
    "event.pay_for_steps": pgettext_lazy("event.pay_for_steps", "{player} pays {coins} coins ({reason})"),
    "event.pay": pgettext_lazy("event.pay", "{player} pays {coins:coin} ({reason})"),
    "event.debt": pgettext_lazy("event.debt", "{player} is {debt:coin} short and must give up items ({reason})"),
    "event.give_up_supply_station": pgettext_lazy(
        "event.give_up_supply_station", "{player} gives up a trading station from their supply"),
    "event.give_up_station": pgettext_lazy(
        "event.give_up_station", "{player} gives up their trading station in {town}"),
    "event.give_up_follower": pgettext_lazy(
        "event.give_up_follower", "{player} gives up a {follower_type} drawn from their bag"),
    "event.give_up_development": pgettext_lazy("event.give_up_development", "{player} gives up one development step"),
    "event.give_up_good": pgettext_lazy("event.give_up_good", "{player} gives up 1 {good}"),
    "event.give_up_place_tile": pgettext_lazy("event.give_up_place_tile", "{player} gives up the place tile {place}"),
    "event.give_up_technology": pgettext_lazy("event.give_up_technology", "{player} gives up a technology tile"),
    "event.debt_forgiven": pgettext_lazy(
        "event.debt_forgiven", "{player} has nothing left to give; {debt} coin(s) of debt forgiven"),
    "event.event_phase": pgettext_lazy("event.event_phase", "Event: {event}"),
    "event.sacristy": pgettext_lazy(
        "event.sacristy", "{player} is protected by the Sacristy; the monk returns to the bag"),
    "event.plague_no_loss": pgettext_lazy("event.plague_no_loss", "{player} draws a starting follower: no loss"),
    "event.plague": pgettext_lazy("event.plague", "{player} loses a {follower_type} to the plague"),
    "event.return_food": pgettext_lazy("event.return_food", "{player} returns 1 {good}"),
    "event.pull_back": pgettext_lazy("event.pull_back", "{player} takes a {follower_type} back from {place}"),
    "event.draw": pgettext_lazy("event.draw", "{player} draws {count:follower}"),
    "event.round": pgettext_lazy("event.round", "Round {round} begins: the hourglass shows {event}"),
    "event.game_over": pgettext_lazy("event.game_over", "The game is over"),
    "event.planned": pgettext_lazy("event.planned", "{player} has finished planning"),
    "event.reveal": pgettext_lazy("event.reveal", "{player} reveals: {plan}"),
    "part.reveal": pgettext_lazy("part.reveal", "{follower_type} on {place}"),
    "event.action_phase": pgettext_lazy("event.action_phase", "Action phase"),
    "event.activate": pgettext_lazy("event.activate", "{player} uses {place}"),
    "event.pass": pgettext_lazy("event.pass", "{player} passes"),
    "event.bathhouse_place": pgettext_lazy("event.bathhouse_place", "{player} places a {follower_type} on {place}"),
    "event.bathhouse_draw": pgettext_lazy("event.bathhouse_draw", "{player} draws {count} followers at the Bathhouse"),
    "event.track": pgettext_lazy("event.track", "{player} advances to step {step} of the {track_word} track"),
    "event.place_tile": pgettext_lazy("event.place_tile", "{player} takes the place tile {place}"),
    "event.undo": pgettext_lazy("event.undo", "{player} takes back their last decision"),
    "reason.place": pgettext_lazy("reason.place", "{place}"),
    "reason.deed": pgettext_lazy("reason.deed", "{deed}"),
    "reason.event": pgettext_lazy("reason.event", "{event}"),
    "reason.track": pgettext_lazy("reason.track", "{track} track"),
    "reason.development_space": pgettext_lazy("reason.development_space", "development space {development_space}"),
    "reason.census": pgettext_lazy("reason.census", "census"),
    "sep.list": pgettext_lazy("sep.list", ", "),
    "sep.else": pgettext_lazy("sep.else", ", else "),
    "action.draw": pgettext_lazy("action.draw", "Draw {count:follower}"),
    "action.pull_back": pgettext_lazy("action.pull_back", "Take the {follower} back from {place} (instead of a draw)"),
    "action.place": pgettext_lazy("action.place", "Put a {follower} on {place}"),
    "action.unplace": pgettext_lazy("action.unplace", "Take the {follower} back from {place}"),
    "action.unknown": pgettext_lazy("action.unknown", "{action}"),
    "action.submit_plan": pgettext_lazy("action.submit_plan", "Submit my plan"),
    "action.pass": pgettext_lazy("action.pass", "Pass for the rest of the round"),
    "action.place_technology": pgettext_lazy(
        "action.place_technology", "Put the technology tile on the {circle} circle of {place}"),
    "action.bathhouse_place": pgettext_lazy("action.bathhouse_place", "Keep the {follower} and put it on {place}"),
    "action.bathhouse_done": pgettext_lazy("action.bathhouse_done", "Return the remaining drawn followers to the bag"),
    "action.return_food": pgettext_lazy("action.return_food", "Return {food}"),
    "action.give_up": pgettext_lazy("action.give_up", "Give up {items}"),
    "action.give_up_nothing": pgettext_lazy("action.give_up_nothing", "Give up nothing"),
    "part.supply_station": pgettext_lazy("part.supply_station", "a trading station from my supply"),
    "part.station": pgettext_lazy("part.station", "my trading station in {town}"),
    "part.follower": pgettext_lazy("part.follower", "a random follower from my bag"),
    "part.development": pgettext_lazy("part.development", "one development step"),
    "part.good": pgettext_lazy("part.good", "1 {good}"),
    "part.goods": pgettext_lazy("part.goods", "{count} {good}"),
    "part.place_tile": pgettext_lazy("part.place_tile", "the place tile {place}"),
    "part.technology": pgettext_lazy("part.technology", "a technology tile"),
    "part.technology_on": pgettext_lazy("part.technology_on", "a technology tile ({place})"),
    "part.times": pgettext_lazy("part.times", "{count} × {item}"),
    "part.food": pgettext_lazy("part.food", "{good}"),
    "action.use": pgettext_lazy("action.use", "Use {place}"),
    "action.use_with": pgettext_lazy("action.use_with", "Use {place}: {parts}"),
    "part.recruit": pgettext_lazy("part.recruit", "recruit a {follower_type}"),
    "part.take_place_tile": pgettext_lazy("part.take_place_tile", "take {place}"),
    "part.route_from": pgettext_lazy("part.route_from", "{town} → {to_town}"),
    "part.route": pgettext_lazy("part.route", "{town}–{to_town}"),
    "part.take_good": pgettext_lazy("part.take_good", "take {good}"),
    "part.no_good": pgettext_lazy("part.no_good", "take no good"),
    "part.any_good": pgettext_lazy("part.any_good", "take the good on the route if there is one"),
    "part.to_deed": pgettext_lazy("part.to_deed", "{follower} to {deed}"),
    "part.to_deed_development": pgettext_lazy(
        "part.to_deed_development", "{follower} to {deed} for a development step"),
    "part.to_any_deed": pgettext_lazy("part.to_any_deed", "{follower} to a free deed space"),
    "part.to_any_deed_development": pgettext_lazy(
        "part.to_any_deed_development", "{follower} to a free deed space for a development step"),
    "part.pay": pgettext_lazy("part.pay", "pay {coins} coins"),
    "queue.unreadable": pgettext_lazy("queue.unreadable", "An action that cannot be read"),
    "queue.harvest": pgettext_lazy("queue.harvest", "At the Harvest, return {food}"),
    "queue.technology": pgettext_lazy("queue.technology", "Technology tile: {targets}"),
    "queue.bathhouse": pgettext_lazy("queue.bathhouse", "At the Bathhouse, {keep}"),
    "queue.pass": pgettext_lazy("queue.pass", "Pass for the rest of the round"),
    "queue.pass_technology": pgettext_lazy(
        "queue.pass_technology", "Pass for the rest of the round; technology tile: {targets}"),
    "queue.any_deed": pgettext_lazy("queue.any_deed", "{action} (any free deed space of its type)"),
    "queue.then": pgettext_lazy("queue.then", "{action}; then {keep}"),
    "queue.then_keep_none": pgettext_lazy("queue.then_keep_none", "{action}; then keep none of the drawn followers"),
    "part.target": pgettext_lazy("part.target", "the {circle} circle of {place}"),
    "part.keep": pgettext_lazy("part.keep", "keep {keeps}"),
    "part.keep_one": pgettext_lazy("part.keep_one", "a {follower} on {place}"),
    "sep.and": pgettext_lazy("sep.and", " and "),
    "place_rule.farmhouse": pgettext_lazy(
        "place_rule.farmhouse", "Recruit farmer; farmer track +1; gain good of new space"),
    "place_rule.village": pgettext_lazy(
        "place_rule.village", "Recruit one of boatman / craftsman / trader and apply that track's step"),
    "place_rule.university": pgettext_lazy(
        "place_rule.university", "Recruit scholar; scholar track +1; development + shown steps"),
    "place_rule.castle": pgettext_lazy("place_rule.castle", "Recruit knight; knight track +1"),
    "place_rule.monastery": pgettext_lazy("place_rule.monastery", "Recruit monk; blocked in a Pilgrimage round"),
    "place_rule.scriptorium": pgettext_lazy("place_rule.scriptorium", "Development +1"),
    "place_rule.town_hall": pgettext_lazy(
        "place_rule.town_hall", "Move the placed non-starting characters onto matching Beneficial Deed spaces; monks only onto monk spaces"),
    "place_rule.ship": pgettext_lazy(
        "place_rule.ship", "Move merchant along one waterway; take up to 1 good from that route"),
    "place_rule.wagon": pgettext_lazy(
        "place_rule.wagon", "Move merchant along one road; take up to 1 good from that route"),
    "place_rule.guildhall": pgettext_lazy(
        "place_rule.guildhall", "Build a trading station in the merchant's town if allowed"),
    "place_effect.take_good": pgettext_lazy("place_effect.take_good", "Take 1 {good}"),
    "place_effect.substitute": pgettext_lazy(
        "place_effect.substitute", "Permanent: your {followers} may fill {circles} circles (not on beneficial deeds)"),
    "part.circle_name": pgettext_lazy("part.circle_name", "{follower_type}"),
    "place_effect.sacristy": pgettext_lazy(
        "place_effect.sacristy", "Event phase: a Monk here shields you from the next Harvest, Taxes or Plague"),
    "place_effect.draw_from_bag": pgettext_lazy(
        "place_effect.draw_from_bag", "Draw {draw} from your bag, keep {keep} and put them at once on your action spaces"),
    "place_effect.market_spaces": pgettext_lazy(
        "place_effect.market_spaces", "+{spaces} market spaces; action: send the followers there to beneficial deeds"),
    "place_effect.pay_coins": pgettext_lazy(
        "place_effect.pay_coins", "Pay {min}–{max} coins: 1 development step per coin"),
    "place_effect.move_merchant": pgettext_lazy(
        "place_effect.move_merchant", "Move your merchant along one road and take 1 good from it"),
    "place_effect.technology": pgettext_lazy(
        "place_effect.technology", "Take 1 technology tile (no track step); it may cover the Laboratory"),
    "place_effect.gain": pgettext_lazy("place_effect.gain", "Gain {gains}"),
    "part.gain_coins": pgettext_lazy("part.gain_coins", "{coins:coin}"),
    "part.gain_development": pgettext_lazy("part.gain_development", "{steps:development_step}"),
    "part.gain_coins_per_level": pgettext_lazy("part.gain_coins_per_level", "{coins:coin} per development level"),
    "part.gain_coins_per_station": pgettext_lazy(
        "part.gain_coins_per_station", "{coins:coin} per trading station built"),
    "place_effect.name": pgettext_lazy("place_effect.name", "{place}"),
    "event_effect.pilgrimage": pgettext_lazy("event_effect.pilgrimage", "No Monastery action this round"),
    "event_effect.plague": pgettext_lazy(
        "event_effect.plague", "Each player loses a random follower from the bag (a starting one goes back)"),
    "event_effect.income": pgettext_lazy("event_effect.income", "+{coins:coin} per development level"),
    "event_effect.trading_day": pgettext_lazy("event_effect.trading_day", "+{coins:coin} per trading station"),
    "event_effect.taxes_one": pgettext_lazy("event_effect.taxes_one", "Pay 1 coin per good"),
    "event_effect.taxes": pgettext_lazy("event_effect.taxes", "Pay 1 coin per {goods} goods"),
    "event_effect.harvest": pgettext_lazy(
        "event_effect.harvest", "Return {food} food (grain, cheese or wine), or pay {coins} coins per missing food"),
    "track_reward.good": pgettext_lazy("track_reward.good", "{good}"),
    "track_reward.coins": pgettext_lazy("track_reward.coins", "{coins} coins"),
    "track_reward.citizen_coins": pgettext_lazy("track_reward.citizen_coins", "citizen / {coins} coins"),
    "track_reward.technology": pgettext_lazy("track_reward.technology", "technology tile"),
    "track_reward.place_tile": pgettext_lazy("track_reward.place_tile", "place tile"),
    "track_reward.development": pgettext_lazy("track_reward.development", "+{steps} development"),
    "track_reward.draw": pgettext_lazy("track_reward.draw", "draw {count}"),
    "track_reward.draw_citizen": pgettext_lazy("track_reward.draw_citizen", "draw {count} + citizen"),
    "gives.track_step": pgettext_lazy("gives.track_step", "{track_word} track step {step}: {reward}"),
    "gives.track_end": pgettext_lazy("gives.track_end", "{track_word} track"),
    "gives.with_tile": pgettext_lazy("gives.with_tile", "{gives} — {tile}"),
    "gives.good": pgettext_lazy("gives.good", "+1 {good}"),
    "gives.route_good": pgettext_lazy("gives.route_good", "the good on the route, if any"),
    "gives.no_good": pgettext_lazy("gives.no_good", "no good"),
    "gives.coins": pgettext_lazy("gives.coins", "+{coins:coin}"),
    "gives.development": pgettext_lazy("gives.development", "+{steps} development"),
    "gives.parts": pgettext_lazy("gives.parts", "{parts}"),
    "gives.pharmacy": pgettext_lazy("gives.pharmacy", "+{coins} development for {coins} coins"),
    "gives.deeds_default": pgettext_lazy(
        "gives.deeds_default", "each follower to the free deed space of its type paying most"),
    "gives.bathhouse_none": pgettext_lazy("gives.bathhouse_none", "draw 3, keep none"),
    "gives.bathhouse_keep": pgettext_lazy(
        "gives.bathhouse_keep", "draw 3, keep it if drawn, the others back to the bag"),
    "refusal.cannot_use": pgettext_lazy("refusal.cannot_use", "The {place} cannot be used: {why}."),
    "refusal.cannot_recruit": pgettext_lazy("refusal.cannot_recruit", "The {place} cannot recruit a {recruit}: {why}."),
    "refusal.track_end": pgettext_lazy("refusal.track_end", "the {track} track is at its last space"),
    "refusal.character_supply_empty": pgettext_lazy(
        "refusal.character_supply_empty", "no {followers} are left in the supply"),
    "refusal.good_unavailable": pgettext_lazy("refusal.good_unavailable", "no {good} is left in the goods supply"),
    "refusal.technology_unavailable": pgettext_lazy("refusal.technology_unavailable", "no technology tiles are left"),
    "refusal.place_tile_unavailable": pgettext_lazy("refusal.place_tile_unavailable", "no place tile is left to take"),
    "refusal.nothing_to_recruit": pgettext_lazy(
        "refusal.nothing_to_recruit", "no Boatman, Craftsman or Trader can be recruited now"),
    "refusal.pilgrimage": pgettext_lazy("refusal.pilgrimage", "it is a Pilgrimage round"),
    "refusal.development_end": pgettext_lazy(
        "refusal.development_end", "your development marker is at the end of the track"),
    "refusal.station_present": pgettext_lazy("refusal.station_present", "there is already a trading station in {town}"),
    "refusal.station_present.own": pgettext_lazy(
        "refusal.station_present.own", "you already have a trading station in {town}"),
    "refusal.no_stations_left": pgettext_lazy("refusal.no_stations_left", "you have no trading stations left"),
    "refusal.no_route": pgettext_lazy("refusal.no_route", "no {route_kind} leaves {town}"),
    "refusal.route_elsewhere": pgettext_lazy(
        "refusal.route_elsewhere", "The {place} cannot take that route: it is not a {route_kind} from {town}, where your merchant stands."),
    "refusal.good_not_on_route": pgettext_lazy(
        "refusal.good_not_on_route", "The {place} cannot take {good} from that route: there is none on it."),
    "refusal.no_deed_space": pgettext_lazy(
        "refusal.no_deed_space", "no beneficial deed has a free space for these followers"),
    "refusal.no_deed_follower": pgettext_lazy(
        "refusal.no_deed_follower", "no follower in your market can go to a beneficial deed (starting followers never can)"),
    "refusal.deed_full": pgettext_lazy(
        "refusal.deed_full", "{deed} has no free {follower} space: a follower goes only on a space of its own type."),
    "refusal.deeds_none": pgettext_lazy(
        "refusal.deeds_none", "Choose at least one follower to send to a beneficial deed."),
    "refusal.deed_starting": pgettext_lazy(
        "refusal.deed_starting", "Starting followers never go to a beneficial deed."),
    "refusal.deeds_all": pgettext_lazy(
        "refusal.deeds_all", "Every follower on the Town Hall that has a free beneficial deed space of its type must go to one."),
    "refusal.tower_two": pgettext_lazy("refusal.tower_two", "The Gunpowder Tower holds only 2 followers."),
    "refusal.first_place_tile": pgettext_lazy(
        "refusal.first_place_tile", "your first place tile must come from stack I"),
    "refusal.place_tile_taken": pgettext_lazy("refusal.place_tile_taken", "the {place_tile} is not available to take"),
    "refusal.not_enough_coins": pgettext_lazy(
        "refusal.not_enough_coins", "The {place} cannot be used: you need at least {coins:coin} to pay."),
    "refusal.development_room": pgettext_lazy(
        "refusal.development_room", "The {place} cannot take {coins:coin}: your development marker has only {room:space} left to the end of the track."),
    "refusal.already_used": pgettext_lazy("refusal.already_used", "The {place} has already been used this round."),
    "refusal.not_an_action": pgettext_lazy(
        "refusal.not_an_action", "The {place} is not an action of the action phase."),
    "refusal.not_ready": pgettext_lazy(
        "refusal.not_ready", "The {place} is not ready: not all its circles are filled."),
    "refusal.not_ready.town_hall": pgettext_lazy(
        "refusal.not_ready.town_hall", "The Town Hall is not ready: no follower stands on it."),
    "refusal.choice_not_allowed": pgettext_lazy(
        "refusal.choice_not_allowed", "These choices are not allowed for the {place} now."),
    "refusal.unknown_place": pgettext_lazy("refusal.unknown_place", "There is no place called “{place}”."),
    "refusal.unknown_follower": pgettext_lazy(
        "refusal.unknown_follower", "There is no follower called “{follower_id}”."),
    "refusal.not_owned": pgettext_lazy("refusal.not_owned", "You do not own the {place}."),
    "refusal.not_in_market": pgettext_lazy("refusal.not_in_market", "You have no {follower} in your market."),
    "refusal.no_free_circle": pgettext_lazy("refusal.no_free_circle", "Every circle of the {place} is already taken."),
    "refusal.no_circles": pgettext_lazy(
        "refusal.no_circles", "The {place} has no circles: no follower can be put on it."),
    "refusal.circle_type": pgettext_lazy("refusal.circle_type", "No free circle of the {place} takes a {follower}."),
    "refusal.starting_follower": pgettext_lazy(
        "refusal.starting_follower", "Starting followers cannot go on the {place}."),
    "refusal.not_on_space": pgettext_lazy("refusal.not_on_space", "There is no {follower} on your {place}."),
    "refusal.draw_limit": pgettext_lazy(
        "refusal.draw_limit", "You may draw at most {most:follower} now (your Knight track's draw count)."),
    "refusal.market_full": pgettext_lazy("refusal.market_full", "Your market has room for only {most:more_follower}."),
    "refusal.no_draw_left": pgettext_lazy(
        "refusal.no_draw_left", "Each pull-back takes the place of one draw, and you have no draw left this round."),
    "refusal.bag_short": pgettext_lazy("refusal.bag_short", "Your bag holds only {most:follower}."),
    "refusal.not_drawn": pgettext_lazy(
        "refusal.not_drawn", "There is no {follower} among the followers drawn at the Bathhouse."),
    "refusal.bathhouse_itself": pgettext_lazy(
        "refusal.bathhouse_itself", "The followers drawn at the Bathhouse cannot go on the Bathhouse itself."),
    "refusal.technology_target": pgettext_lazy("refusal.technology_target", "A technology tile cannot go there now."),
    "refusal.technology_town_hall": pgettext_lazy(
        "refusal.technology_town_hall", "A technology tile cannot go on the Town Hall."),
    "refusal.technology_one_circle": pgettext_lazy(
        "refusal.technology_one_circle", "A technology tile cannot go on the {place}: it has only one circle."),
    "refusal.technology_twice": pgettext_lazy("refusal.technology_twice", "The {place} already has a technology tile."),
    "refusal.technology_monk": pgettext_lazy(
        "refusal.technology_monk", "A technology tile never covers a Monk circle."),
    "refusal.technology_first_farmer": pgettext_lazy(
        "refusal.technology_first_farmer", "Your first technology tile must cover a Farmer circle."),
    "refusal.torture_item": pgettext_lazy("refusal.torture_item", "You cannot give that up: you do not have it."),
    "refusal.torture_development": pgettext_lazy(
        "refusal.torture_development", "You cannot give a development step: your marker may not move from or onto a coin space (7, 12, 25)."),
    "refusal.torture_follower": pgettext_lazy(
        "refusal.torture_follower", "You cannot give a follower: your bag holds only starting followers, which are never lost."),
    "refusal.payment_item": pgettext_lazy("refusal.payment_item", "Item {index} of your payment is refused. {why}"),
    "refusal.payment_short": pgettext_lazy(
        "refusal.payment_short", "Your payment does not settle the debt of {debt:coin}: choose {remaining:more_item}, one per missing coin."),
    "refusal.payment_too_many": pgettext_lazy(
        "refusal.payment_too_many", "You owe only {debt:coin}: give one item per missing coin, no more."),
    "refusal.food_choice": pgettext_lazy(
        "refusal.food_choice", "Return exactly {food} food that you have (grain, cheese or wine)."),
    "refusal.not_your_turn": pgettext_lazy("refusal.not_your_turn", "It is not your turn."),
    "refusal.not_your_turn.resolution": pgettext_lazy(
        "refusal.not_your_turn.resolution", "Not now: the game is waiting for the other players' moves to be resolved."),
    "refusal.not_your_turn.no_seat": pgettext_lazy("refusal.not_your_turn.no_seat", "You have no seat in this game."),
    "refusal.not_your_turn.passed": pgettext_lazy(
        "refusal.not_your_turn.passed", "You have passed: you take no more actions this round."),
    "refusal.not_your_turn.planned": pgettext_lazy(
        "refusal.not_your_turn.planned", "Your plan is in: wait for the other players to finish theirs."),
    "refusal.wrong_decision": pgettext_lazy("refusal.wrong_decision", "First {task}."),
    "refusal.game_over": pgettext_lazy("refusal.game_over", "The game is over."),
    "refusal.not_undoable": pgettext_lazy(
        "refusal.not_undoable", "There is nothing to take back: another player has acted since, or your last decision drew or revealed something."),
    "refusal.not_over": pgettext_lazy(
        "refusal.not_over", "The game is not over yet: its hidden information is still secret."),
    "refusal.nothing_to_resolve": pgettext_lazy("refusal.nothing_to_resolve", "There is nothing to resolve now."),
    "refusal.stale": pgettext_lazy(
        "refusal.stale", "The game has moved on since this page was shown: here is the current position."),
    "refusal.malformed": pgettext_lazy("refusal.malformed", "That move could not be read."),
    "refusal.invalid_options": pgettext_lazy("refusal.invalid_options", "These game options are not valid."),
    "refusal.not_allowed": pgettext_lazy("refusal.not_allowed", "That move is not allowed now."),
    "refusal.queue_phase": pgettext_lazy(
        "refusal.queue_phase", "Actions can be queued while planning and during the action phase."),
    "refusal.queue_limit": pgettext_lazy("refusal.queue_limit", "At most {limit} actions can be queued."),
    "refusal.queue_entry": pgettext_lazy("refusal.queue_entry", "Queue an action on one of your places, or passing."),
    "refusal.queue_not_own": pgettext_lazy("refusal.queue_not_own", "You can only queue actions on your own places."),
    "refusal.queue_not_action": pgettext_lazy(
        "refusal.queue_not_action", "The {place} is not an action of the action phase, so it cannot be queued."),
    "refusal.queue_field": pgettext_lazy("refusal.queue_field", "The {place} has no choice called {fields}."),
    "refusal.queue_choice": pgettext_lazy("refusal.queue_choice", "The queued action's {field} is not valid."),
    "refusal.queue_after_pass": pgettext_lazy(
        "refusal.queue_after_pass", "Passing ends your round: nothing can be queued after it."),
    "refusal.queue_place_twice": pgettext_lazy(
        "refusal.queue_place_twice", "Each place can be used once a round: it is already in your queue."),
    "refusal.queue_empty": pgettext_lazy("refusal.queue_empty", "Nothing is queued."),
    "refusal.queue_not_turn": pgettext_lazy(
        "refusal.queue_not_turn", "The queue waits for your turn in the action phase."),
    "refusal.queue_choice_open": pgettext_lazy(
        "refusal.queue_choice_open", "Your queue waits at “{entry}”: choose how to use it."),
    "refusal.queue_not_playable": pgettext_lazy(
        "refusal.queue_not_playable", "Your queue stopped at “{entry}”: it could not be played when your turn came, so the rest was dropped. {why}"),
    "refusal.queue_choice_illegal": pgettext_lazy(
        "refusal.queue_choice_illegal", "Your queue waits at “{entry}”: that choice is not possible now, so choose how to use it. {why}"),
    "refusal.queue_answer_changed": pgettext_lazy(
        "refusal.queue_answer_changed", "Your queue's answer for the {prompt} is not possible any more: choose now."),
    "refusal.queue_no_harvest": pgettext_lazy(
        "refusal.queue_no_harvest", "Food for the Harvest can be queued only in a round whose hourglass tile is the Harvest."),
    "refusal.queue_answer_twice": pgettext_lazy(
        "refusal.queue_answer_twice", "That is already answered in your queue."),
    "refusal.refused": pgettext_lazy("refusal.refused", "That is not allowed."),
}


def _counted(noun: str, n: int) -> str:
    """A count with its noun in the active language ("3 coins", "コイン3枚")."""
    if noun == "coin":
        return ngettext("{n} coin", "{n} coins", n).format(n=n)
    if noun == "follower":
        return ngettext("{n} follower", "{n} followers", n).format(n=n)
    if noun == "space":
        return ngettext("{n} space", "{n} spaces", n).format(n=n)
    if noun == "more_follower":
        return ngettext("{n} more follower", "{n} more followers", n).format(n=n)
    if noun == "more_item":
        return ngettext("{n} more item", "{n} more items", n).format(n=n)
    if noun == "development_step":
        return ngettext("{n} development step", "{n} development steps", n).format(n=n)
    return str(n)


class SiteWords(_messages.Words):
    """The engine's ``Words`` with the site's templates and ``games.vocabulary`` words,
    in the active language."""

    def template(self, msg_id: str) -> str:
        return V.translated(TEMPLATES, msg_id)

    def counted(self, noun: str, n: int) -> str:
        return _counted(noun, n)

    place = staticmethod(V.place_name)
    follower = staticmethod(V.follower_name)
    follower_type = staticmethod(V.follower_type_name)
    followers = staticmethod(V.followers_name)
    circle = staticmethod(V.circle_word)
    town = staticmethod(V.town_name)
    deed = staticmethod(V.deed_name)
    good = staticmethod(V.good_name)
    event = staticmethod(V.event_word)
    spot = staticmethod(partial(V.word, V.SPOTS))
    route_kind = staticmethod(partial(V.word, V.ROUTE_KINDS))
    task = staticmethod(partial(V.word, V.TASKS, default=V.OTHER_TASK))
    prompt = staticmethod(partial(V.word, V.PROMPTS, default=V.OTHER_PROMPT))


WORDS = SiteWords()
_FAILED = (KeyError, IndexError, ValueError, TypeError, AttributeError)


#: (language, message id, player name, the params marshalled) -> the text (``render_message``):
#: a page shows the same log lines, labels and place effects again after every move, and
#: rendering one costs far more than looking it up. A text is a function of its key alone
#: (the key holds everything the caller passed), so no caller gets what it did not ask for.
_TEXTS: dict[tuple, str] = {}
#: ``_TEXTS`` is emptied when it holds this many texts (a process's memory stays bounded).
TEXTS_MAX = 20_000

#: (engine, place id, language) -> ``place_effect``'s text: a page shows each player's
#: cards, and a place's effect is component data (the same in every game of an engine).
_PLACE_EFFECTS: dict[tuple, str] = {}
V.forget_with_catalogs(_TEXTS.clear)
V.forget_with_catalogs(_PLACE_EFFECTS.clear)


def render_message(msg_id: str, params: dict | None = None, player: str = "", language: str | None = None) -> str:
    """Message ``msg_id`` with ``params`` (engine ids) in the active language; ``player``
    fills ``{player}``. Raises ``KeyError`` for an id this site has no template for and
    ``KeyError``/``ValueError``/``TypeError`` for params that do not fill it. Each text is
    made once per process (``_TEXTS``); ``language``: the active language's code
    (``vocabulary.language()``) when the caller, rendering many, knows it."""
    try:
        # equal bytes are equal values of the same types (as the engine's own memo of
        # its English texts, ``engine.messages.english``)
        key = (language or V.language(), msg_id, player, marshal.dumps(params))
    except ValueError:  # not plain data: rendered each time
        return _messages.render(msg_id, params, WORDS, player)
    text = _TEXTS.get(key)
    if text is None:
        text = V.remember(_TEXTS, key, _messages.render(msg_id, params, WORDS, player), TEXTS_MAX)
    return text


def render_structured(msg: dict, player: str = "") -> str:
    """:func:`render_message` of ``{"msg": id, "params": {...}}`` (``engine.action_message``
    and friends)."""
    return render_message(msg["msg"], msg.get("params"), player)


def render_list(msgs: list[dict]) -> str:
    """Structured messages rendered and joined by the list separator ("a, b, c")."""
    return WORDS.template("sep.list").join(render_structured(m) for m in msgs)


def render_event(event: dict, names: dict[int, str], language: str | None = None) -> str:
    """An engine event's line in the active language, ``{player}`` replaced by the seat's
    name from ``names`` (seat order -> display name; "Seat n" when missing). An event
    without ``msg`` (stored before events had ids), or one this site cannot render, shows
    its stored ``text``. ``language``: as for :func:`render_message`."""
    seat = event.get("seat")
    player = names.get(seat, f"Seat {seat}")
    msg = event.get("msg")
    if isinstance(msg, str):
        try:
            return render_message(msg, event.get("params") or {}, player, language)
        except _FAILED:
            pass
    return str(event.get("text", "")).replace("{player}", player)


def _refusal_text(code, params) -> str | None:
    """The refusal ``code`` with ``params`` (the engine's ``refusal_structured``) in the
    active language; None when they are not a code and a dict or the site cannot render them."""
    structured = getattr(engine_named(DEFAULT_RULES), "refusal_structured", None)
    if not isinstance(code, str) or not isinstance(params, dict) or structured is None:
        return None
    try:
        return render_structured(structured(code, params))
    except _FAILED:
        return None


def render_refusal(exc: Exception) -> str | None:
    """The sentence of an engine refusal (a ``RulesError`` with ``code`` and ``params``) in
    the active language; None when ``exc`` has no code or the site cannot render it."""
    return _refusal_text(getattr(exc, "code", None), getattr(exc, "params", None))


def _localized(rules_engine, structured_name: str, english_name: str, *args):
    """``rules_engine.<structured_name>(*args)`` rendered in the active language; the
    engine's English ``rules_engine.<english_name>(*args)`` for an engine without it or a
    message the site cannot render."""
    structured = getattr(rules_engine, structured_name, None)
    if structured is not None:
        try:
            return render_structured(structured(*args))
        except _FAILED:
            pass
    return getattr(rules_engine, english_name)(*args)


def action_label(rules_engine, action: dict, state=None, seat: int | None = None, message: dict | None = None) -> str:
    """``rules_engine.describe_action`` in the active language (its ``action_message``, or
    ``message`` when already made); the engine's English label for an engine without
    structured labels."""
    structured = getattr(rules_engine, "action_message", None)
    if structured is not None or message is not None:
        try:
            return render_structured(message if message is not None else structured(action, state, seat))
        except _FAILED:
            pass
    return rules_engine.describe_action(action, state, seat)


def queue_entry_label(rules_engine, entry) -> str:
    """``rules_engine.describe_queue_entry`` in the active language."""
    return _localized(rules_engine, "queue_entry_message", "describe_queue_entry", entry)


def place_effect(rules_engine, place_id: str) -> str:
    """What a place does, as its card shows it (``rules_engine.describe_place``, RULES §5,
    §11), in the active language; the engine's English for an engine without
    ``place_message``. Raises ``KeyError`` for an unknown place, as the engine does. Made
    once per process, engine, place and language."""
    key = (rules_engine, place_id, V.language())
    text = _PLACE_EFFECTS.get(key)
    if text is None:
        text = V.remember(_PLACE_EFFECTS, key, _localized(rules_engine, "place_message", "describe_place", place_id),
                          TEXTS_MAX)
    return text


def event_effect(rules_engine, event: str, letter: str, strength: str) -> str:
    """What the hourglass tile ``event`` does in phase ``letter`` under ``strength``
    (``rules_engine.describe_event``, RULES §9.3) in the active language; "" if unknown."""
    structured = getattr(rules_engine, "event_message", None)
    if structured is not None:
        msg = structured(event, letter, strength)
        if msg is None:
            return ""
        try:
            return render_structured(msg)
        except _FAILED:
            pass
    return rules_engine.describe_event(event, letter, strength)


def track_rewards(rules_engine) -> dict[str, list[str]]:
    """What each step 1..n of each character track gives (``rules_engine.track_rewards()``,
    RULES §6), ``{track: [text, ...]}`` in the active language."""
    structured = getattr(rules_engine, "track_reward_messages", None)
    if structured is not None:
        try:
            return {track: [render_structured(m) for m in steps] for track, steps in structured().items()}
        except _FAILED:
            pass
    return rules_engine.track_rewards()


def _payment_reasons() -> dict[str, dict]:
    """The English words the engine stores as a torture prompt's ``reason`` (its state keeps
    the word, RULES §10.1) -> the reason they are: the Taxes and Harvest events, the census."""
    english = _messages.ENGLISH
    reasons = [{"event": "taxes"}, {"event": "harvest"}, {"census": True}]
    return {_messages.render(f"reason.{next(iter(r))}", r, english): r for r in reasons}


_PAYMENT_REASONS = _payment_reasons()


def payment_reason(word) -> str:
    """A torture prompt's stored ``reason`` ("taxes", "harvest", "census") in the active
    language; a word this site does not know is shown as stored."""
    reason = _PAYMENT_REASONS.get(str(word))
    if reason is None:
        return str(word)
    return render_message(f"reason.{next(iter(reason))}", reason)


def queue_note(note: str, note_message: dict | None) -> str:
    """A seat's queue note in the active language: ``note_message`` (``{"code", "params"}``
    of the engine's queue reason, ``Seat.action_queue_note_message``) rendered as a refusal;
    the stored English ``note`` for a row stored before notes had ids, or one the site
    cannot render."""
    if isinstance(note_message, dict):
        return _refusal_text(note_message.get("code"), note_message.get("params")) or note
    return note


def queue_option_texts(option: dict) -> tuple[str, str]:
    """``(label, gives)`` of one choice of the queue panel (``queue.queue_options``) in the
    active language: its ``label_message`` and ``gives_message`` rendered, else (an engine
    without them, or one the site cannot render) its English ``label`` and ``gives``."""
    label, gives = option.get("label", ""), option.get("gives", "")
    try:
        if isinstance(option.get("label_message"), dict):
            label = render_structured(option["label_message"])
        if isinstance(option.get("gives_message"), dict):
            gives = render_structured(option["gives_message"])
    except _FAILED:
        return option.get("label", ""), option.get("gives", "")
    return label, gives
