"""Each account's language: the preference, the footer switcher, the language of emails.

Issue 11: the language is taken from the account (``Preferences.language``), else from the
browser. The browser's language at the last sign-in is remembered (``last_language``) so
emails to a player who never chose one follow the language they use the site in.
"""
from __future__ import annotations

from django.conf import settings
from django.contrib.auth.signals import user_logged_in
from django.dispatch import receiver
from django.http import HttpRequest, HttpResponse
from django.utils import translation
from django.views.decorators.http import require_POST
from django.views.i18n import set_language as django_set_language

from notifications.services import preferences_for
from orleans_site.i18n import SESSION_KEY, supported


def language_for(user) -> str:
    """The language code to write to ``user`` in (emails): their choice, else the browser
    language of their last sign-in, else ``settings.LANGUAGE_CODE``."""
    return language_of(preferences_for(user))


def language_of(prefs) -> str:
    """``language_for`` from the user's ``Preferences`` row already read (no query)."""
    return supported(prefs.language) or supported(prefs.last_language) or settings.LANGUAGE_CODE


def apply_to_session(request: HttpRequest, code: str) -> None:
    """Make ``code`` ("" = the browser's language) the session's language from now on."""
    if supported(code):
        request.session[SESSION_KEY] = code
        translation.activate(code)
        request.LANGUAGE_CODE = code
    else:
        request.session.pop(SESSION_KEY, None)


@receiver(user_logged_in, dispatch_uid="notifications.language.on_login")
def on_login(sender, request, user, **kwargs) -> None:
    """Apply the account's language to the new session; remember the browser's."""
    if request is None or not hasattr(request, "session"):
        return
    prefs = preferences_for(user)
    apply_to_session(request, prefs.language)
    seen = supported(translation.get_language_from_request(request))
    if seen and seen != prefs.last_language:
        prefs.last_language = seen
        prefs.save(update_fields=["last_language"])


@require_POST
def set_language(request: HttpRequest) -> HttpResponse:
    """The footer switcher: POST ``language`` (a code of ``settings.LANGUAGES``) and ``next``.

    Everyone gets Django's language cookie; a signed-in player's choice is also saved on
    their account (their emails follow it) and applied to the session. An unknown code
    changes nothing and redirects back.
    """
    response = django_set_language(request)
    code = supported(request.POST.get("language"))
    if code and request.user.is_authenticated:
        prefs = preferences_for(request.user)
        if prefs.language != code:
            prefs.language = code
            prefs.save(update_fields=["language"])
        apply_to_session(request, code)
    return response
