"""The notification preferences form (syntax and range checks only)."""
from __future__ import annotations

import zoneinfo

from django import forms
from django.utils.translation import gettext_lazy as _

from games.models import Game, GameStatus
from notifications.models import Preferences

HOURS = [(h, f"{h:02d}:00") for h in range(24)]
OPTIONAL_HOURS = [("", "—")] + HOURS


def time_zone_choices() -> list[tuple[str, str]]:
    """Every IANA time zone name, sorted."""
    return [(name, name) for name in sorted(zoneinfo.available_timezones())]


class PreferencesForm(forms.ModelForm):
    """Turn emails (immediate / digest at a local hour / off), other emails, quiet hours,
    time zone and per-game mutes. ``user`` limits the mutable games to the user's own."""

    digest_hour = forms.TypedChoiceField(choices=HOURS, coerce=int,
                                         label=_("Digest hour"), help_text=_("local time of the daily digest"))
    quiet_start = forms.TypedChoiceField(choices=OPTIONAL_HOURS, coerce=int, required=False,
                                         empty_value=None, label=_("Quiet hours from"))
    quiet_end = forms.TypedChoiceField(choices=OPTIONAL_HOURS, coerce=int, required=False,
                                       empty_value=None, label=_("Quiet hours until"))
    # IANA names are identifiers, not words to translate
    time_zone = forms.ChoiceField(label=_("Time zone"), choices=time_zone_choices,
                                  widget=forms.Select(attrs={"translate": "no"}))

    class Meta:
        model = Preferences
        fields = ["turn_emails", "turn_email_delay_minutes", "digest_hour", "game_emails", "invitation_emails",
                  "quiet_start", "quiet_end", "time_zone", "language", "muted_games"]
        widgets = {"turn_emails": forms.RadioSelect,
                   "muted_games": forms.CheckboxSelectMultiple}
        labels = {"turn_emails": _("Turn emails"),
                  "turn_email_delay_minutes": _("Immediate turn emails"),
                  "game_emails": _("Email me when a game starts and when it ends"),
                  "invitation_emails": _("Email me when someone invites me to a game"),
                  "language": _("Language"),
                  "muted_games": _("Mute these games (no emails about them)")}

    def __init__(self, *args, user, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["muted_games"].queryset = (
            Game.objects.filter(seats__user=user, status__in=[GameStatus.OPEN, GameStatus.ACTIVE])
            .defer("state").order_by("name")
        )
        self.fields["muted_games"].required = False
        # the name alone: it is user content, shown marked translate="no"
        self.fields["muted_games"].label_from_instance = lambda game: game.name

    def clean(self) -> dict:
        """Quiet hours need both ends, and different ones."""
        data = super().clean()
        start, end = data.get("quiet_start"), data.get("quiet_end")
        if (start is None) != (end is None):
            raise forms.ValidationError(_("Give both ends of the quiet hours, or neither."))
        if start is not None and start == end:
            raise forms.ValidationError(_("Quiet hours must start and end at different hours."))
        return data
