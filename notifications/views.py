"""Pages: the notification preferences (with the games app's vacation card), the one-click
unsubscribe link, and inviting a player."""
from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.csrf import csrf_exempt
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from games.errors import ServiceError
from games.selectors import vacation_status
from games.services import invitation_create
from notifications.forms import PreferencesForm
from notifications.language import apply_to_session
from notifications.services import preferences_for, unsubscribe, unsubscribe_describe
from notifications.tokens import BadToken, read_unsubscribe_token
from orleans_site.text import refused_characters


@login_required
@require_http_methods(["GET", "POST"])
def preferences(request: HttpRequest) -> HttpResponse:
    """Show and save the user's email preferences."""
    prefs = preferences_for(request.user)
    form = PreferencesForm(request.POST or None, instance=prefs, user=request.user)
    if request.method == "POST" and form.is_valid():
        form.save()
        apply_to_session(request, prefs.language)
        messages.success(request, _("Your email preferences are saved."))
        return redirect("notifications-preferences")
    return render(request, "notifications/preferences.html", {
        "form": form, "vacation": vacation_status(request.user),
    })


@csrf_exempt  # the signed token is the authority; mail clients POST without a CSRF token
@require_http_methods(["GET", "POST"])
def unsubscribe_link(request: HttpRequest, token: str) -> HttpResponse:
    """One-click unsubscribe, no login needed (RFC 8058).

    POST (the mail client's one-click request, or the button on the page) switches off the
    one preference the token names. GET only shows the button, so link scanners that
    prefetch URLs cannot unsubscribe anyone.
    """
    try:
        user_id, what = read_unsubscribe_token(token)
    except BadToken as exc:
        # 403: without a valid signature the request carries no authority at all.
        return render(request, "notifications/unsubscribe.html", {"error": str(exc)}, status=403)
    context = {"what": unsubscribe_describe(what, html=True)}
    if request.method == "POST":
        context["done"] = unsubscribe(user_id=user_id, what=what)
        if not context["done"]:
            context["error"] = _("This account or game no longer exists.")
    return render(request, "notifications/unsubscribe.html", context)


@login_required
@require_POST
def invite(request: HttpRequest, game_id) -> HttpResponse:
    """Invite a registered player, by username, to an open game the user sits at.

    The invitee sees the invitation on their home page and gets an email with the game's
    link (``games.services.invitation_create``); inviting the same player twice sends one
    email.
    """
    username = (request.POST.get("username") or "").strip()
    # a username never holds control characters (PlainTextValidator at signup); PostgreSQL
    # cannot even compare a text holding NUL, so such a name is refused before any query
    readable = bool(username) and not refused_characters(username)
    invitee = get_user_model().objects.filter(username__iexact=username).first() if readable else None
    if invitee is None:
        if not username:
            messages.error(request, _("Name a player to invite."))
        else:
            messages.error(request, _("There is no player called “%(name)s”.") % {"name": username}
                           if readable else _("There is no player with that name."))
    else:
        try:
            invitation_create(game_id=game_id, inviter=request.user, invitee=invitee)
        except ServiceError as exc:
            messages.error(request, exc.message)
        else:
            messages.success(request, _("%(name)s is invited: they will find the invitation on their home "
                                        "page, and an email is on its way.") % {"name": invitee.get_username()})
    return redirect("games-detail", game_id=game_id)
