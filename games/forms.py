"""Forms: syntax-level parsing of POSTs. Legality is the engine's job, never checked here."""
from __future__ import annotations

import json

from django import forms
from django.utils.functional import lazy
from django.utils.translation import gettext, gettext_lazy as _, ngettext

from games import bots, vocabulary
from games.clock import PACES
from games.models import Game
from orleans_site.text import PlainTextValidator


def _players(n: int) -> str:
    """"4 players" in the active language."""
    return ngettext("%(n)s player", "%(n)s players", n) % {"n": n}


def _bots(n: int) -> str:
    """"3 bots" in the active language."""
    return ngettext("%(n)s bot", "%(n)s bots", n) % {"n": n}


# lazy: the choices are built at import, and read in the language of each request
SEAT_CHOICES = [(n, lazy(_players, str)(n)) for n in range(Game.MIN_SEATS, Game.MAX_SEATS + 1)]
# the options' words are engine words: one catalog, games.vocabulary
PLACE_TILE_MARKET_CHOICES = vocabulary.PLACE_TILE_MARKET_CHOICES
EVENT_STRENGTH_CHOICES = vocabulary.EVENT_STRENGTH_CHOICES
HOURGLASS_ORDER_CHOICES = vocabulary.HOURGLASS_ORDER_CHOICES
OPTION_DISPLAY = vocabulary.OPTION_DISPLAY


def describe_options(options: dict) -> list[tuple[str, str]]:
    """``(label, value)`` rows of a game's engine options, in the form's words."""
    rows = []
    for key, (label, values) in OPTION_DISPLAY.items():
        if key in options:
            rows.append((str(label), str(values.get(options[key], options[key]))))
    return rows


def bot_field_name(level: str) -> str:
    """The new-game form's field counting the bot seats of ``level``."""
    return f"bots_{level}"


class GameCreateForm(forms.Form):
    """A new game's name, seat count, engine options, pace (clock), visibility, bot seats
    (a count per bot level, one field each: ``bot_field_name``) and the bot that takes over
    an absent player (only in a game with a clock: without one nobody becomes absent)."""

    name = forms.CharField(max_length=Game._meta.get_field("name").max_length, required=False,
                           validators=[PlainTextValidator()], label=_("Name"), help_text=_("Optional."))
    seats = forms.TypedChoiceField(choices=SEAT_CHOICES, coerce=int, initial=4, label=_("Seats"))
    simultaneous_followers = forms.BooleanField(
        required=False,
        initial=True,
        label=OPTION_DISPLAY["simultaneous_followers"][0],
        help_text=_("Everyone draws followers at once (recommended for slow play)."),
    )
    place_tile_market = forms.ChoiceField(
        choices=PLACE_TILE_MARKET_CHOICES, initial="normal", label=OPTION_DISPLAY["place_tile_market"][0]
    )
    # the options' names are the lobby's (games.vocabulary), so form and lobby say the same
    event_strength = forms.ChoiceField(choices=EVENT_STRENGTH_CHOICES, initial="phased",
                                       label=OPTION_DISPLAY["event_strength"][0])
    hourglass_order = forms.ChoiceField(choices=HOURGLASS_ORDER_CHOICES, initial="abc",
                                        label=OPTION_DISPLAY["hourglass_order"][0])
    pace = forms.ChoiceField(
        choices=[(p.name, p.label) for p in PACES.values()],
        initial="normal",
        required=False,
        label=_("Pace"),
        help_text=_("With a clock each player has a time bank, which runs only while the game "
                    "waits for them; when it runs out the game decides for them. The bank is capped at "
                    "twice its start."),
    )
    is_public = forms.BooleanField(
        required=False,
        initial=True,
        label=_("Public"),
        help_text=_("Listed in the lobby. Private games are joined through an invite link."),
    )
    absent_bot = forms.BooleanField(
        required=False, initial=True, label=_("A bot takes over an absent player"),
        help_text=_("With a clock: a player timed out too often in a row is absent; a bot plays "
                    "their seat until they take it back from the game page."),
    )
    absent_bot_level = forms.ChoiceField(choices=(), required=False, label=_("Bot for absent players"))

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        # the levels are the engine's, read now: a level added to engine.bots appears here
        self.fields["absent_bot_level"].choices = bots.level_choices()
        self.fields["absent_bot_level"].initial = bots.default_takeover_level()
        for level, label in bots.level_choices():
            self.fields[bot_field_name(level)] = forms.IntegerField(
                min_value=0, max_value=Game.MAX_SEATS - 1, initial=0, required=False,
                label=gettext("{level} bots").format(level=label),
                help_text=_("Bot seats of this level, taken at once."),
            )

    def clean(self) -> dict:
        """Bots must leave the creator a seat; a missing count is 0."""
        data = super().clean()
        seats = data.get("seats")
        if seats is not None and len(self.bot_levels()) >= seats:
            raise forms.ValidationError(bots.room_for_bots(seats))
        return data

    def bot_levels(self) -> list[str]:
        """The cleaned bot seats, one level each, weakest level first."""
        return [level for level in bots.levels()
                for _ in range(self.cleaned_data.get(bot_field_name(level)) or 0)]

    def takeover_level(self) -> str:
        """The level of the bot that plays for an absent player; "" for none (the box is
        unticked, or the game has no clock)."""
        data = self.cleaned_data
        if not data["absent_bot"] or data["pace"] == "none":
            return ""
        return data["absent_bot_level"] or bots.default_takeover_level()

    rated = forms.BooleanField(
        required=False,
        initial=True,
        label=_("Rated"),
        help_text=_("The result updates the players' ratings (never in a game with a bot)."),
    )

    def clean_pace(self) -> str:
        """A missing pace (a form posted without the field) means no clock."""
        return self.cleaned_data.get("pace") or "none"

    def engine_options(self) -> dict:
        """The cleaned options as ``engine.GameOptions`` field names (without players)."""
        data = self.cleaned_data
        return {
            "simultaneous_followers": data["simultaneous_followers"],
            "place_tile_market": data["place_tile_market"],
            "event_strength": data["event_strength"],
            "hourglass_order": data["hourglass_order"],
        }


class PlayBotsForm(forms.Form):
    """"Play against bots": how many bots and their level; the game starts at once."""

    bots = forms.TypedChoiceField(
        choices=[(n, lazy(_bots, str)(n)) for n in range(1, Game.MAX_SEATS)],
        coerce=int, initial=Game.MAX_SEATS - 1, label=_("Opponents"),
    )
    level = forms.ChoiceField(choices=(), label=_("Level"))

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["level"].choices = bots.level_choices()
        self.fields["level"].initial = bots.default_takeover_level()


class VersionForm(forms.Form):
    """The game's version the page showed (``expected_version``), which every game form posts
    so that a service can refuse a stale page (``StaleVersion``)."""

    expected_version = forms.IntegerField(
        widget=forms.HiddenInput, min_value=0,
        # every game form posts the page's version: without it (or with another value) the form was edited
        error_messages={code: _("The page's move number could not be read: reload the page.")
                        for code in ("required", "invalid", "min_value")})

    def first_error(self) -> str:
        """A one-line message for the flash region."""
        for errors in self.errors.values():
            return str(errors[0])
        return str(_("The submission could not be read."))


class ActionForm(VersionForm):
    """One submitted decision: the action as JSON plus the version the player saw.

    A whole torture payment (the decision panel's payment form) posts ``payment=1`` and,
    per payable item, ``item_<n>`` (the ``torture`` item as JSON, without ``type``) and
    ``count_<n>`` (how many of it, 0 or empty for none; a checkbox posts 1). It becomes
    ``{"type": "pay_debt", "items": [...]}`` with each item repeated ``count`` times, in
    row order (RULES §10.1). Only the syntax is checked here; the engine checks the rest.
    """

    #: More rows than any player can have payable items (the form has one per kind held).
    MAX_PAYMENT_ROWS = 60
    #: More of one item than any debt can reach (``engine.actions.PAY_DEBT_MOST_ITEMS``).
    MAX_PAYMENT_COUNT = 200

    action = forms.CharField(widget=forms.HiddenInput, max_length=20_000, required=False,
                             error_messages={"max_length": _("That move is too long to be read.")})
    field_order = ["action", "expected_version"]  # the move's error is said first

    def clean_action(self) -> dict | None:
        """Decode the JSON; it must be an object with a string "type" (None for a payment)."""
        raw = self.cleaned_data["action"]
        if not raw and self.data.get("payment"):
            return None
        if not raw:
            raise forms.ValidationError(_("No move was sent: choose one on the page and try again."))
        try:
            action = json.loads(raw)
        except (ValueError, RecursionError) as exc:  # RecursionError: absurdly deep nesting
            raise forms.ValidationError(_("The action is not valid JSON.")) from exc
        if not isinstance(action, dict) or not isinstance(action.get("type"), str):
            raise forms.ValidationError(_('The action must be an object with a "type".'))
        return action

    def clean(self) -> dict:
        """Build the ``pay_debt`` action from a payment form's rows."""
        data = super().clean()
        if "action" in data and data["action"] is None:
            data["action"] = self._payment()
        return data

    def _payment(self) -> dict:
        items = []
        for n in range(self.MAX_PAYMENT_ROWS):
            raw = self.data.get(f"item_{n}")
            if raw is None:
                break
            try:
                item = json.loads(raw)
                count = int(self.data.get(f"count_{n}") or 0)
            except (ValueError, RecursionError) as exc:
                raise forms.ValidationError(_("The payment could not be read.")) from exc
            if not isinstance(item, dict) or not 0 <= count <= self.MAX_PAYMENT_COUNT:
                raise forms.ValidationError(_("The payment could not be read."))
            items += [item] * count
        return {"type": "pay_debt", "items": items}

class JoinForm(forms.Form):
    """Joining a game; private games carry their invite token."""

    token = forms.CharField(widget=forms.HiddenInput, required=False, max_length=500)
