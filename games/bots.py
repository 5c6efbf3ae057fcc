"""The site's side of the bots (issue #10): which levels a game's rules offer, their
labels, bot seat names, and asking a bot for a seat's move.

The bots themselves live in ``engine.bots`` (pure Python, no Django). A bot decides from
the seat's ``view`` and ``legal_actions`` only, plus an rng the site seeds from the game
id, the version and the seat (never from the game seed), so a decision can be replayed
and cannot learn the hidden information the seed determines.
"""
from __future__ import annotations

import random
from typing import Any

from django.utils.translation import ngettext

import engine.bots as orleans_bots
from games.vocabulary import bot_level_name, bot_seat_name

#: Rules name (``Game.rules``) -> its bot module (``choose``, ``LEVELS``). Rules without
#: one get ``FALLBACK_LEVELS`` from the orleans module: the random bot, which reads no view.
BOT_MODULES = {"orleans": orleans_bots}
FALLBACK_LEVELS = ("random",)


#: The level that takes over an absent player unless the creator chooses another: the
#: first of these the rules offer (else their strongest).
PREFERRED_TAKEOVER_LEVELS = ("greedy",)


def levels(rules: str = "orleans") -> tuple[str, ...]:
    """The bot level names the rules ``rules`` offer, weakest first (read each time: levels
    are added to the engine without touching the site)."""
    module = BOT_MODULES.get(rules)
    return tuple(module.LEVELS) if module is not None else FALLBACK_LEVELS


def label(level: str) -> str:
    """A level's name as the site shows it ("Greedy"), in the active language
    (``games.vocabulary``); a level not listed there shows its name capitalised."""
    return bot_level_name(level)


def level_choices(rules: str = "orleans") -> list[tuple[str, str]]:
    """``(level, label)`` pairs for a form's choice field."""
    return [(level, label(level)) for level in levels(rules)]


def default_takeover_level(rules: str = "orleans") -> str:
    """The level that plays for an absent player by default."""
    offered = levels(rules)
    return next((level for level in PREFERRED_TAKEOVER_LEVELS if level in offered), offered[-1])


def room_for_bots(max_seats: int) -> str:
    """The refusal when bots would take every seat of a ``max_seats`` game."""
    room = max_seats - 1
    return ngettext("A game of {seats} seats has room for {room} bot at most (one seat is yours).",
                    "A game of {seats} seats has room for {room} bots at most (one seat is yours).",
                    room).format(seats=max_seats, room=room)


def seat_name(level: str, number: int) -> str:
    """The name of a game's ``number``-th bot seat (1-based): "Bot (Greedy) 1", in the
    active language (the creator's, when the seat is taken): it is stored, and pages show
    it in the viewer's language (``Seat.display_name``)."""
    return bot_seat_name(level, number)


def decision_rng(game_id: Any, version: int, seat: int) -> random.Random:
    """The rng of a bot's decision for ``seat`` at ``version`` of game ``game_id``: the same
    inputs give the same decision (a task run twice decides alike), and it owes nothing to
    the game seed (which fixes bags and hourglass order)."""
    return random.Random(f"bot:{game_id}:{version}:{seat}")


def choose(rules: str, level: str, view: dict, legal_actions: list[dict], rng: random.Random) -> dict:
    """The bot of ``level`` picks one of ``legal_actions`` from ``view`` (the seat's
    ``view(state, seat)``) at its default budget. Raises ``KeyError`` for a level the rules
    do not offer, ``ValueError`` for no legal action."""
    if level not in levels(rules):
        raise KeyError(level)
    module = BOT_MODULES.get(rules, orleans_bots)
    return module.choose(level, view, legal_actions, rng)


def playing_level(game, seat) -> str:
    """The level of the bot that makes ``seat``'s decisions at ``game`` (``Game`` and
    ``Seat`` rows): the bot seat's own level, or the game's takeover level while the seat's
    player is absent; "" when its player decides."""
    if seat.bot_level:
        return seat.bot_level
    return game.absent_bot_level if seat.absent else ""
