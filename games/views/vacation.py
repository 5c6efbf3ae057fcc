"""The vacation form post: start or stop the user's vacation (its card is shown on the
preferences page, ``templates/games/_vacation_card.html``)."""
from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from games.errors import VacationError
from games.services import vacation_start, vacation_stop


@login_required
@require_http_methods(["GET", "POST"])
def vacation(request: HttpRequest) -> HttpResponse:
    """Start (``action=start``) or stop (``action=stop``) the user's vacation, then go back
    to the preferences page, where the vacation card is. Any other ``action`` (a forged
    or truncated post) changes nothing; a GET (a typed or bookmarked address) goes to the
    preferences page."""
    if request.method == "GET":
        return redirect("notifications-preferences")
    action = request.POST.get("action")
    if action not in ("start", "stop"):
        messages.error(request, _("Choose whether to start or to stop your vacation."))
    elif action == "start":
        try:
            vacation_start(user=request.user)
        except VacationError as exc:
            messages.error(request, exc.message)
        else:
            messages.success(request, _("Enjoy your vacation: your game clocks are stopped."))
    else:
        vacation_stop(user=request.user)
        messages.success(request, _("Welcome back: your game clocks run again."))
    return redirect("notifications-preferences")
