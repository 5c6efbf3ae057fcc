"""The notification preferences form (syntax and range checks only)."""
from __future__ import annotations

import zoneinfo

from django import forms

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
                                         help_text="local time of the daily digest")
    quiet_start = forms.TypedChoiceField(choices=OPTIONAL_HOURS, coerce=int, required=False,
                                         empty_value=None, label="Quiet hours from")
    quiet_end = forms.TypedChoiceField(choices=OPTIONAL_HOURS, coerce=int, required=False,
                                       empty_value=None, label="Quiet hours until")
    time_zone = forms.ChoiceField(choices=time_zone_choices)

    class Meta:
        model = Preferences
        fields = ["turn_emails", "turn_email_delay_minutes", "digest_hour", "game_emails", "invitation_emails",
                  "quiet_start", "quiet_end", "time_zone", "language", "muted_games"]
        widgets = {"turn_emails": forms.RadioSelect,
                   "muted_games": forms.CheckboxSelectMultiple}
        labels = {"turn_email_delay_minutes": "Immediate turn emails",
                  "game_emails": "Email me when a game starts and when it ends",
                  "invitation_emails": "Email me when someone invites me to a game",
                  "muted_games": "Mute these games (no emails about them)"}

    def __init__(self, *args, user, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["muted_games"].queryset = (
            Game.objects.filter(seats__user=user, status__in=[GameStatus.OPEN, GameStatus.ACTIVE])
            .defer("state").order_by("name")
        )
        self.fields["muted_games"].required = False

    def clean(self) -> dict:
        """Quiet hours need both ends, and different ones."""
        data = super().clean()
        start, end = data.get("quiet_start"), data.get("quiet_end")
        if (start is None) != (end is None):
            raise forms.ValidationError("Give both ends of the quiet hours, or neither.")
        if start is not None and start == end:
            raise forms.ValidationError("Quiet hours must start and end at different hours.")
        return data
