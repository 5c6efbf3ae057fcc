"""The player's language (issue 11).

``django.middleware.locale.LocaleMiddleware`` picks the browser's language (the language
cookie set by the footer switcher, then ``Accept-Language``). A signed-in player's own choice
(``notifications.Preferences.language``) is copied into the session when they sign in or
change it, and this middleware applies it, so a request costs no query beyond the session
the authentication middleware reads anyway.
"""
from __future__ import annotations

from django.utils import translation
from django.utils.translation.trans_real import get_languages

#: Session key holding the account's chosen language code (absent: the browser's).
SESSION_KEY = "account_language"


def supported(code: str | None) -> str | None:
    """``code`` if it is one of ``settings.LANGUAGES`` (``"en-gb"``, ``"ja"``), else None
    (Django's cached ``get_languages``: every request asks)."""
    return code if code and code in get_languages() else None


class AccountLanguageMiddleware:
    """Activate the account's language kept in the session; after LocaleMiddleware and
    AuthenticationMiddleware. Without one the browser's language stays active."""

    def __init__(self, get_response) -> None:
        self.get_response = get_response

    def __call__(self, request):
        session = getattr(request, "session", None)
        code = supported(session.get(SESSION_KEY)) if session is not None else None
        if code:
            translation.activate(code)
            request.LANGUAGE_CODE = code
        return self.get_response(request)
