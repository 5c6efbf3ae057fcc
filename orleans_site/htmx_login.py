"""A signed-out player's click is never silent (issue 8: a failed request is said on the page).

``login_required`` answers a signed-out user with a redirect to the login page. A browser
follows it inside an htmx request, so htmx receives the login page with status 200 and,
for the game's forms (``hx-swap="none"``: their answer is out-of-band regions), swaps
nothing: the click was lost and the page said nothing (a player who logged out in another
tab, or whose session ended). This middleware turns that redirect, for an htmx request
only, into an ``HX-Redirect`` to the login page, which htmx follows as a page load, with a
message saying why. After logging in the player comes back to the page they were on (the
request's own URL is often a POST-only endpoint such as ``act/``).
"""
from __future__ import annotations

from urllib.parse import urlsplit

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.shortcuts import resolve_url
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext
from django_htmx.http import HttpResponseClientRedirect

#: The statuses of ``login_required``'s redirect (and of a permanent one, to be safe).
_REDIRECTS = (301, 302)


class HtmxLoginRedirectMiddleware:
    """For a signed-out user's htmx request answered by a redirect to ``settings.LOGIN_URL``
    (a path or a URL name, on this site): an ``HX-Redirect`` (status 200, no body) to the
    login page instead, its ``next`` the page the request came from (``HX-Current-URL``, if
    it is this site's; else the site's home), with an info message ("You have been logged
    out..."). Other responses pass unchanged. Needs ``request.htmx`` and ``request.user``:
    place it after ``django_htmx``'s and the authentication middleware."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        if response.status_code not in _REDIRECTS or not getattr(request, "htmx", False):
            return response
        # a path or a URL name, as the site's LOGIN_URL is ("account_login")
        login_path = urlsplit(resolve_url(settings.LOGIN_URL)).path
        if urlsplit(response.get("Location", "")).path != login_path or request.user.is_authenticated:
            return response
        messages.info(request, gettext("You have been logged out, so that was not sent. Log in to go on."))
        return HttpResponseClientRedirect(redirect_to_login(_page_of(request), login_path).url)


def _page_of(request) -> str:
    """The path (and query) of the page an htmx request came from, if it is this site's;
    else the home page's."""
    current, hosts = request.htmx.current_url or "", {request.get_host()}
    if current and url_has_allowed_host_and_scheme(current, allowed_hosts=hosts, require_https=request.is_secure()):
        parts = urlsplit(current)
        page = parts.path + (f"?{parts.query}" if parts.query else "")
        # the path checked again: "//elsewhere/..." or "/\\elsewhere" is another site's
        if url_has_allowed_host_and_scheme(page, allowed_hosts=hosts):
            return page
    return resolve_url(settings.LOGIN_REDIRECT_URL)

